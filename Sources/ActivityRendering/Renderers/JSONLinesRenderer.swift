import ActivityWire

/// Writes the normalized event stream as JSON lines: the recording format, and what plugins read.
///
/// Every event comes out as the store applied it: `ts` filled in (replaying the file reproduces
/// the timing), an unknown parent removed, `abandoned` ends for activities left open. Each line is
/// one ``ByteOutput/write(_:)``, so a file written with `O_APPEND` holds only whole lines, even if
/// the process is killed.
///
/// ```swift
/// let renderer = JSONLinesRenderer(output: FileDescriptorOutput(fileDescriptor: 1))
/// ```
public final class JSONLinesRenderer: ActivityRenderer {
    let output: any ByteOutput
    let encoder: ActivityEventEncoder
    /// The streams whose non-event lines are written too.
    let textStreams: Set<OutputStream>
    private var line: [UInt8] = []

    /// - Parameters:
    ///   - output: where the lines go.
    ///   - passesTextThrough: whether non-event lines are written too, unchanged (for a display
    ///     that shows the stream as it is); a recording leaves them out.
    public convenience init(output: any ByteOutput, passesTextThrough: Bool = false) {
        self.init(output: output, textStreams: passesTextThrough ? [.stdout, .stderr] : [])
    }

    /// A renderer that writes the non-event lines of `textStreams` only: a display on standard
    /// error shows the lines meant for standard error, while standard output's go to standard output.
    init(output: any ByteOutput, textStreams: Set<OutputStream>) {
        self.output = output
        self.encoder = ActivityEventEncoder(maxLineBytes: WireLimits.maxProducedLineBytes)
        self.textStreams = textStreams
    }

    public func render(_ update: ActivityUpdate, in store: ActivityStore) {
        line.removeAll(keepingCapacity: true)
        encoder.encode(update.event, into: &line)
        output.write(line)
    }

    public func passthrough(_ line: [UInt8], to stream: OutputStream, in store: ActivityStore) {
        guard textStreams.contains(stream) else { return }
        output.write(line + [0x0A])
    }
}
