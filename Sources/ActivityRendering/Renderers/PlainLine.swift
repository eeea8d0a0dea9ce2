/// A plain-mode line built straight as bytes: no spans, no widths, no colours.
struct PlainLine: LineBuilder {
    var bytes: [UInt8]

    init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    @inline(__always)
    mutating func append(_ text: String, _ role: ColorRole? = nil) {
        Formatting.appendUTF8(text, to: &bytes)
    }

    @inline(__always)
    mutating func append(_ role: ColorRole?, formatted body: (inout [UInt8]) -> Void) {
        body(&bytes)
    }

}
