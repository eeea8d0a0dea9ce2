import ActivityTerminal

/// What the lines shared by the live display and plain mode (a finished activity's, a log
/// event's) are built in: a ``StyledLine`` measures and colours each span for the live display;
/// a ``PlainLine`` takes their bytes only, as plain mode neither colours nor cuts.
protocol LineBuilder {
    /// Appends `text`, coloured as `role` (`nil`: never coloured); empty text is skipped.
    mutating func append(_ text: String, _ role: ColorRole?)
    /// Appends the text `body` writes as UTF-8 (a number's format), coloured as `role`.
    mutating func append(_ role: ColorRole?, formatted body: (inout [UInt8]) -> Void)
}

extension StyledLine: LineBuilder {
    mutating func append(_ role: ColorRole?, formatted body: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        body(&bytes)
        append(String(decoding: bytes, as: UTF8.self), role)
    }
}
