/// Which piece of a line a ``LineReader`` callback holds. (Not nested in the generic reader: a
/// type nested there would need its metadata looked up at run time for every line.)
public enum LinePart: Sendable, Hashable {
    /// A whole line, without its `\n`.
    case whole
    /// The first `maxLineBytes` bytes of an overlong line (every piece but the last is that long).
    case first
    /// More of an overlong line.
    case middle
    /// The end of an overlong line, without its `\n`; possibly empty.
    case last
}
