/// Rows that became final, as the bytes that draw them, and where each one ends in them.
package struct FinalRows: Sendable {
    /// One final row: its ``ScreenRow/number``, where its bytes end in ``FinalRows/bytes``
    /// (before its `\r\n`), and whether its text goes on in the next row (autowrap, unless the
    /// next row was written anew from its start: ``ScreenRow/startsLine``).
    package struct Row: Sendable, Equatable {
        package var number: Int
        package var end: Int
        package var wrapped: Bool
        /// The blank cells that end a row that wraps: spaces of its line, not in ``bytes``.
        package var trailingBlanks = 0
    }

    package internal(set) var bytes: [UInt8] = []
    package internal(set) var rows: [Row] = []
    package var count: Int { rows.count }

    /// Reports `row` as final: its bytes, then `\r\n`. `next` is the row under it.
    mutating func append(_ row: ScreenRow, next: ScreenRow?) {
        row.append(to: &bytes)
        let wraps = row.continues(into: next)
        rows.append(
            Row(
                number: row.number, end: bytes.count, wrapped: wraps, trailingBlanks: wraps ? row.trailingBlankCount : 0
            ))
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// Reports a row of plain text as final: `text` (printable ASCII), its trailing spaces left
    /// out as ``append(_:next:)`` leaves out trailing blanks, then `\r\n`.
    mutating func appendPlain(_ text: UnsafeRawBufferPointer, number: Int) {
        var end = text.count
        while end > 0, text[end - 1] == 0x20 { end -= 1 }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[..<end]))
        rows.append(Row(number: number, end: bytes.count, wrapped: false))
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// The bytes of `row`, one of ``rows``, without its `\r\n`.
    package func bytes(of index: Int) -> ArraySlice<UInt8> {
        let start = index == 0 ? 0 : rows[index - 1].end + 2
        return bytes[start..<rows[index].end]
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }
}
