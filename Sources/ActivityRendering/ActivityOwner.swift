/// Who began an activity, when one store is fed by several reporters (`activity run`): the
/// store lets a reporter change only what it began, with the one lookup that finds the activity.
package enum ActivityOwner: Hashable, Sendable {
    /// The reporter on this connection.
    case connection(Int32)
    /// A process whose calls each come on a connection of their own (`activity emit` in a
    /// script): any reporter may change it, and it is abandoned when the process is gone.
    case process(Int32)

    /// Whether an event sent on `connection` may change an activity of this owner.
    func admits(_ connection: Int32) -> Bool {
        switch self {
        case .connection(let owner): owner == connection
        case .process: true
        }
    }
}
