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
    let passesTextThrough: Bool
    private var line: [UInt8] = []

    /// - Parameters:
    ///   - output: where the lines go.
    ///   - passesTextThrough: whether non-event lines are written too, unchanged (for a display
    ///     that shows the stream as it is); a recording leaves them out.
    public init(output: any ByteOutput, passesTextThrough: Bool = false) {
        self.output = output
        self.encoder = ActivityEventEncoder(maxLineBytes: WireLimits.maxProducedLineBytes)
        self.passesTextThrough = passesTextThrough
    }

    public func render(_ update: ActivityUpdate, in store: ActivityStore) {
        line.removeAll(keepingCapacity: true)
        encoder.encode(update.event, into: &line)
        output.write(line)
    }

    public func passthrough(_ line: [UInt8], to stream: OutputStream, in store: ActivityStore) {
        guard passesTextThrough else { return }
        output.write(line + [0x0A])
    }
}
