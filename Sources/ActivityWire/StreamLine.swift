/// A line of a ``LineReader``, or a piece of an overlong one. `bytes` is valid only during the
/// callback.
public struct StreamLine {
    public var number: Int
    public var bytes: UnsafeBufferPointer<UInt8>
    public var part: LinePart
    /// Whether a `\n` followed `bytes` in the stream: passing the line on byte for byte writes
    /// `bytes` and then, only if this is set, the `\n` (a final line may lack one).
    public var endsWithNewline: Bool
}
