/// One line of an ``EventStreamReader``, or one piece of an overlong line. `bytes` is valid only
/// during the callback.
public struct StreamItem {
    public var line: Int
    /// What the line decoded to, its event made whole (made on each access).
    public var decoded: DecodedLine { inPlace.decoded }
    /// What the line decoded to, its texts left in place.
    package var inPlace: LineDecoding
    public var bytes: UnsafeBufferPointer<UInt8>
    public var part: LinePart
    /// Whether a `\n` followed `bytes` in the stream (see ``StreamLine/endsWithNewline``).
    public var endsWithNewline: Bool

    /// Whether this is the first (or only) piece of its line: act on `decoded` once per line.
    public var isLineStart: Bool { part == .whole || part == .first }
}
