import ActivityTerminal
import ActivityWire

/// Writes the normalized event stream as JSON lines: the recording format, and what plugins read.
///
/// Every event comes out as the store applied it: `ts` filled in (replaying the file reproduces
/// the timing), an unknown parent removed, `abandoned` ends for activities left open. Each line is
/// one `write(2)`, so a file written with `O_APPEND` holds only whole lines, even if
/// the process is killed.
///
/// On a terminal, the lines are made safe to look at: DEL, C1 controls, bidirectional controls
/// and invisible characters inside JSON strings are written as `\u` escapes (the JSON means the
/// same), and passed-through text is sanitized. Anywhere else every byte is as it came.
///
/// ```swift
/// let renderer = JSONLinesRenderer(output: FileDescriptorOutput(fileDescriptor: 1))
/// ```
public final class JSONLinesRenderer: ActivityRenderer {
    let output: any ByteOutput
    let encoder: ActivityEventEncoder
    /// The streams whose non-event lines are written too.
    let textStreams: Set<StandardStream>
    /// Whether `output` is a terminal, where the lines are made safe to look at.
    let outputIsTerminal: Bool
    private var line: [UInt8] = []
    private var textLines: [StandardStream: LineSplitter] = [:]

    /// Writes the normalized stream to the open descriptor `fileDescriptor`, which it never
    /// closes; `passesTextThrough` as below.
    public convenience init(fileDescriptor: Int32, passesTextThrough: Bool = false) {
        self.init(output: FileDescriptorOutput(fileDescriptor: fileDescriptor), passesTextThrough: passesTextThrough)
    }

    /// - Parameters:
    ///   - output: where the lines go.
    ///   - passesTextThrough: whether non-event lines are written too, unchanged (for a display
    ///     that shows the stream as it is); a recording leaves them out.
    package convenience init(output: any ByteOutput, passesTextThrough: Bool = false) {
        self.init(output: output, textStreams: passesTextThrough ? [.stdout, .stderr] : [])
    }

    /// A renderer that writes the non-event lines of `textStreams` only: a display on standard
    /// error shows the lines meant for standard error, while standard output's go to standard output.
    init(output: any ByteOutput, textStreams: Set<StandardStream>) {
        self.output = output
        self.encoder = ActivityEventEncoder(maxLineBytes: WireLimits.maxProducedLineBytes)
        self.textStreams = textStreams
        self.outputIsTerminal =
            (output as? FileDescriptorOutput).map { TerminalDevice.isTerminal($0.fileDescriptor) } ?? false
    }

    public func render(_ update: ActivityUpdate, in store: ActivityStore) {
        line.removeAll(keepingCapacity: true)
        encoder.encode(update.event(in: store), into: &line)
        output.write(outputIsTerminal ? Self.escapedForTerminal(line) : line)
    }

    /// Lines whole, so that an event line never lands in the middle of a text line: each goes
    /// out when its `\n` arrives, with it; an unfinished last line goes out at the end as it is.
    public func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
        guard textStreams.contains(stream) else { return }
        var splitter = textLines[stream] ?? LineSplitter(maxLineBytes: WireLimits.maxAcceptedLineBytes)
        splitter.feed(bytes) { writeText($0) }
        textLines[stream] = splitter
    }

    public func finish(_ store: ActivityStore, now: Double) {
        for (stream, var splitter) in textLines {
            splitter.finish { writeText($0) }
            textLines[stream] = nil
        }
    }

    private func writeText(_ piece: LineSplitter.Piece) {
        if outputIsTerminal {
            output.write(TerminalSanitizer.display(bytes: Array(piece.bytes)) + [0x0A])
        } else {
            output.write(Array(piece.bytes) + (piece.endsWithNewline ? [0x0A] : []))
        }
    }

    /// An encoded line with every character the sanitizer would not show written as a JSON `\u`
    /// escape. The encoder already escapes C0 controls, and only string contents can hold
    /// anything but printable ASCII, so the line stays valid JSON with the same meaning.
    static func escapedForTerminal(_ line: [UInt8]) -> [UInt8] {
        guard line.contains(where: { $0 >= 0x7F }) else { return line }
        var result: [UInt8] = []
        result.reserveCapacity(line.count + 16)
        for scalar in String(decoding: line, as: UTF8.self).unicodeScalars {
            if scalar.value >= 0x7F, TerminalSanitizer.classify(scalar) != .keep {
                for unit in String(scalar).utf16 { result += Array(("\\u" + hex4(unit)).utf8) }
            } else {
                result += Array(String(scalar).utf8)
            }
        }
        return result
    }

    private static func hex4(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
