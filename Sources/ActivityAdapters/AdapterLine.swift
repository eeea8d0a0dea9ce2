/// One line of a tool's output as an adapter sees it: the bytes between two line ends, where both
/// `\n` and `\r` end a line (curl, wget, dd and rsync write `\r` before an update, git, pv and
/// ffmpeg after it).
public struct AdapterLine: Sendable {
    /// The line's bytes without its terminator.
    public var bytes: ArraySlice<UInt8>
    /// The stream the line came from.
    public var stream: AdapterStream
    /// The byte that ended the line: `\n`, `\r`, or `nil` for a last line without one.
    public var terminator: UInt8?

    public init(bytes: ArraySlice<UInt8>, stream: AdapterStream, terminator: UInt8?) {
        self.bytes = bytes
        self.stream = stream
        self.terminator = terminator
    }

    /// The line as text (invalid UTF-8 replaced).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the line was ended by `\r`: a status line the tool is about to overwrite.
    public var isOverwritten: Bool { terminator == UInt8(ascii: "\r") }
}
