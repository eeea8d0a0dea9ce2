/// One line of a tool's output as an adapter sees it: the bytes between two line ends, where both
/// `\n` and `\r` end a line (curl, wget, dd and rsync write `\r` before an update, git, pv and
/// ffmpeg after it), and `\r\n` (a pseudo-terminal's newline) ends one as `\n` does.
///
/// Read from a command's screen instead (``ScreenRows``), a line is one row's text, ended by `\n`
/// when the row is final and by `\r` while the command redraws it (it may be overwritten), with
/// its place on the screen (``row``).
public struct AdapterLine: Sendable {
    /// The line's bytes without its terminator.
    public var bytes: ArraySlice<UInt8>
    /// The stream the line came from.
    public var stream: AdapterStream
    /// The byte that ended the line: `\n` (also for `\r\n`), `\r`, or `nil` for a last line
    /// without one.
    public var terminator: UInt8?
    /// Where the line stands on the command's screen when it was read from one (``ScreenRows``,
    /// `activity run` on a terminal); `nil` for a line of a stream.
    public var row: ScreenPlace?

    public init(bytes: ArraySlice<UInt8>, stream: AdapterStream, terminator: UInt8?, row: ScreenPlace? = nil) {
        self.bytes = bytes
        self.stream = stream
        self.terminator = terminator
        self.row = row
    }

    /// The line as text (invalid UTF-8 replaced), without the control sequences (`ESC [ … X`) a
    /// tool adds on a terminal: git ends each `remote:` line with `ESC [ K` (erase to the end).
    public var text: String {
        guard bytes.contains(0x1B) else { return String(decoding: bytes, as: UTF8.self) }
        var visible: [UInt8] = []
        visible.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let next = bytes.index(after: index)
            guard bytes[index] == 0x1B, next < bytes.endIndex, bytes[next] == UInt8(ascii: "[") else {
                visible.append(bytes[index])
                index = next
                continue
            }
            // Parameters and intermediates, then the final byte (0x40–0x7E).
            index =
                bytes[bytes.index(after: next)...].firstIndex { (0x40...0x7E).contains($0) }
                .map { bytes.index(after: $0) } ?? bytes.endIndex
        }
        return String(decoding: visible, as: UTF8.self)
    }

    /// Whether the line was ended by `\r`: a status line the tool is about to overwrite.
    public var isOverwritten: Bool { terminator == UInt8(ascii: "\r") }
}
