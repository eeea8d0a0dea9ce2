/// Pseudo-random numbers from a fixed seed (xorshift64): the same inputs on every run, so a
/// failure found once is found again.
struct SeededNumbers {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    /// A number in 0..<bound.
    mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
