/// What one read of a descriptor found, so that no caller tells "nothing yet" from "no more" by
/// probing `errno` (swift-nio's `IOResult` is the model).
package enum ReadResult: Equatable, Sendable {
    /// This many bytes (at least one) are at the start of the buffer.
    case bytes(Int)
    /// Nothing is there now, and the descriptor does not wait (`EAGAIN`, `EWOULDBLOCK`).
    case wouldBlock
    /// The other end has closed: a read of nothing.
    case endOfFile
}
