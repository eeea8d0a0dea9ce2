/// An activity inside one ``ActivityStore``: a dense integer in place of the id's string.
///
/// The store interns every id once, when its line is decoded, and from then on names the
/// activity by its handle: updates carry it, and renderers read the activity with
/// `store[handle]`. ``index`` is dense (from 0, below the number of activities the store holds
/// at once), so a renderer can keep per-activity state in an array instead of a dictionary.
/// A slot is reused once its activity has been evicted; the handle of the old activity then
/// finds nothing, never the new one.
///
/// ```swift
/// var marks: [Double] = []
/// func render(_ update: ActivityUpdate, in store: ActivityStore) {
///     guard let handle = update.handle, let activity = store[handle] else { return }
///     if marks.count <= handle.index { marks += Array(repeating: 0, count: handle.index + 1 - marks.count) }
///     marks[handle.index] = activity.completed
/// }
/// ```
public struct ActivityHandle: Hashable, Sendable, CustomStringConvertible {
    private let slot: UInt32
    /// How many activities used the slot before this one.
    let generation: UInt32

    init(index: Int, generation: UInt32) {
        self.slot = UInt32(truncatingIfNeeded: index)
        self.generation = generation
    }

    /// The activity's slot in the store: dense, from 0, shared over time with activities that
    /// were evicted before it began.
    public var index: Int { Int(slot) }

    public var description: String { "#\(slot).\(generation)" }
}
