/// The titles from the top-level activity down to each activity, joined by a separator, kept by
/// handle until a title may have changed: `Build › Compile` on each plain line, `Build\nCompile`
/// as an activity's key in the history.
///
/// An activity's path is made from its parent's, which is made (and kept) first when it is not
/// kept yet: siblings share their parent's, so making one is mostly a concatenation, not a walk
/// up the tree.
struct PathTitleCache {
    let separator: String
    /// By handle index, with the epoch each was made in.
    private var kept: [(handle: ActivityHandle, epoch: Int, title: String)?] = []
    /// Moves on whenever a path may change: an activity is retitled. (An end changes no path
    /// still asked for: an activity's ancestors end after it, and a slot used again has a handle
    /// of its own.)
    private var epoch = 0

    init(separator: String) {
        self.separator = separator
    }

    /// A title changed: every path made so far may be stale.
    mutating func titleChanged() {
        epoch &+= 1
    }

    mutating func removeAll() {
        kept.removeAll()
    }

    /// The path of `activity`, which `store` holds. (The store has sanitized the titles.)
    mutating func title(of activity: ActivityState, in store: ActivityStore) -> String {
        let handle = activity.handle
        if let title = keptTitle(of: handle) { return title }
        let title: String
        if let parent = activity.parent, activity.depth < 64, let parentTitle = parentTitle(of: parent, in: store) {
            // This shallow, the path above is whole (``ActivityStore/path(of:)`` stops at 64).
            title = parentTitle + separator + activity.title
        } else {
            var titles = activity.parent.map { store.path(of: $0) } ?? []
            titles.append(activity.title)
            title = titles.joined(separator: separator)
        }
        if kept.count <= handle.index {
            kept.append(contentsOf: repeatElement(nil, count: handle.index + 1 - kept.count))
        }
        kept[handle.index] = (handle, epoch, title)
        return title
    }

    /// The path of `activity`, as ``title(of:in:)`` makes it, in parts to be written one after
    /// the other. The path of an activity whose parent's is kept is not made: the tests of a
    /// suite, each with a line or two of its own, make no `String` each.
    mutating func parts(of activity: ActivityState, in store: ActivityStore) -> PathParts {
        if let title = keptTitle(of: activity.handle) { return PathParts(above: nil, separator: "", title: title) }
        if let parent = activity.parent, activity.depth < 64, let parentTitle = parentTitle(of: parent, in: store) {
            return PathParts(above: parentTitle, separator: separator, title: activity.title)
        }
        return PathParts(above: nil, separator: "", title: title(of: activity, in: store))
    }

    /// The path of the parent `handle`: kept, or made and kept now for its other children.
    private mutating func parentTitle(of handle: ActivityHandle, in store: ActivityStore) -> String? {
        if let title = keptTitle(of: handle) { return title }
        guard let parent = store[handle] else { return nil }
        return title(of: parent, in: store)
    }

    /// The path kept for `handle`, if no title changed since it was made.
    private func keptTitle(of handle: ActivityHandle) -> String? {
        guard handle.index < kept.count, let entry = kept[handle.index], entry.handle == handle, entry.epoch == epoch
        else { return nil }
        return entry.title
    }
}

/// A path title in parts (``PathTitleCache/parts(of:in:)``): the path above, the separator, the
/// title. (A closure that writes a line captures these, not the store, which it would copy.)
struct PathParts {
    let above: String?
    let separator: String
    let title: String

    func append(to bytes: inout [UInt8]) {
        if let above {
            Formatting.appendUTF8(above, to: &bytes)
            Formatting.appendUTF8(separator, to: &bytes)
        }
        Formatting.appendUTF8(title, to: &bytes)
    }
}
