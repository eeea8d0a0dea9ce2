/// The numeric limits of protocol v1.
///
/// Producers and consumers in every language share these figures; `Schemas/README.md` states them
/// normatively.
public enum WireLimits {
    /// The protocol major version this module writes and reads.
    public static let version = 1

    /// The longest line a producer writes, newline included. One `write(2)` of at most `PIPE_BUF`
    /// bytes on a pipe is atomic, so lines from many writers never tear.
    public static let maxProducedLineBytes = 4096

    /// The longest line a consumer accepts, newline excluded. Longer lines are skipped with a
    /// diagnostic, without being held in memory whole.
    public static let maxAcceptedLineBytes = 65_536

    /// The shortest and longest id, in bytes.
    public static let idLength = 1...128

    /// The largest count: every integer up to it is exact in a double.
    public static let maxCount: Double = 9_007_199_254_740_992  // 2^53

    /// The most keys an `attrs` object may hold.
    public static let maxAttributes = 32

    /// The longest `attrs` key, in bytes.
    public static let maxAttributeKeyBytes = 64
}
