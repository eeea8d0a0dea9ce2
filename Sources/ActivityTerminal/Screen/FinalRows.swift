/// Rows that became final, as the bytes that draw them.
struct FinalRows: Sendable {
    var bytes: [UInt8] = []
    var count = 0

    /// Reports `row` as final: its bytes, then `\r\n`.
    mutating func append(_ row: ScreenRow) {
        row.append(to: &bytes)
        bytes.append(0x0D)
        bytes.append(0x0A)
        count += 1
    }
}
