import ActivityPOSIX

/// Output written as it is made, a buffer at a time, instead of one string at the end.
struct BufferedOutput {
    private let output: FileOutput
    private var buffer: [UInt8] = []
    private static let capacity = 1 << 18

    init(fileDescriptor: Int32) {
        output = FileOutput(fileDescriptor: fileDescriptor)
        buffer.reserveCapacity(Self.capacity)
    }

    mutating func write(_ text: String) throws(ExportFailure) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.capacity { try flush() }
    }

    mutating func write(_ bytes: ArraySlice<UInt8>) throws(ExportFailure) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes what is buffered.
    mutating func flush() throws(ExportFailure) {
        guard !buffer.isEmpty else { return }
        do throws(SystemError) { try output.write(buffer) } catch { throw .output(error) }
        buffer.removeAll(keepingCapacity: true)
    }
}
