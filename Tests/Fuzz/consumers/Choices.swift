/// The generator's decisions, read from the fuzzer's input: each choice takes the next bytes, so
/// libFuzzer's coverage feedback steers what the generator makes, and a saved input replays the
/// same stream exactly. Past the end of the input every choice is 0: the smallest option, which
/// the generator makes "stop" (no more events, no more attributes), so every input ends.
struct Choices {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isExhausted: Bool { offset >= bytes.count }

    /// A number in `0..<bound`, from one byte when `bound` is at most 256 and from two otherwise.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        guard bound > 1 else { return 0 }
        var value = Int(byte())
        if bound > 256 { value = value << 8 | Int(byte()) }
        return value % bound
    }

    /// True about once in `odds` times (never on exhausted input).
    mutating func oneIn(_ odds: Int) -> Bool {
        guard !isExhausted else { return false }
        return below(odds) == 0 && odds > 0
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// One of `options`, the first when the input is exhausted.
    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    /// A 64-bit value from the next eight bytes.
    mutating func bits() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return value
    }

    /// A double in `0...1`.
    mutating func unit() -> Double { Double(bits() >> 11) / Double(1 << 53) }

    private mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }
}
