/// What one write to a descriptor did, beside ``ReadResult``: so that no caller tells "full for
/// now" from a failure by probing `errno`.
package enum WriteResult: Equatable, Sendable {
    /// This many bytes (at least one, unless nothing was asked) from the start were written.
    case written(Int)
    /// The descriptor takes nothing now (`EAGAIN`, `EWOULDBLOCK`): it is non-blocking and full.
    case wouldBlock
}
