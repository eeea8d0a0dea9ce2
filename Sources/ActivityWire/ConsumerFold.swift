/// The protocol's consumer rules applied to a stream: the one fold of ``ConsumerRules`` that the
/// renderers' store, the timeline, the validator and the overlay model run.
///
/// The fold owns the table of ids: each activity's slot (a dense integer, recycled once its id
/// is forgotten), whether it is open, its parent and its open children. It applies an event and
/// returns what happened: a `begin` opened a slot (nested, or attached at the top), a `progress`
/// or `log` applies to an open slot, an `end` closed a slot after the open descendants it ends as
/// abandoned; or the event is refused. Each break of the rules comes back as the
/// ``ConsumerRules/Problem`` that words it. A consumer keeps only its own payload (an activity to
/// render, a bar, a row), keyed by slot, and decides nothing itself.
///
/// ```swift
/// var fold = ConsumerFold()
/// var titles: [Int: String] = [:]
/// let step = fold.apply(event)
/// if case .begun(let slot, _) = step.outcome, case .begin(let begin) = event { titles[slot] = begin.title }
/// if let problem = step.problem { report(problem.diagnostic(line: line)) }
/// ```
///
/// Memory: by default the fold remembers every id it has seen, so it tells an id that ended from
/// one never begun. A consumer of streams of unbounded length passes `retainedEnded`: the fold
/// then keeps that many of the latest ended ids (for late events) and forgets older ones, whose
/// events then read "is not open" (``ConsumerRules/Standing/notOpen``); memory is bounded by the
/// activities open at once. A forgotten slot stays readable until the next change to the fold,
/// then is free for a new activity.
///
/// For the package's consumers only (`@_spi(Consumers) import ActivityWire`): public, so that the
/// lookups on the hot path of `activity render` inline into the store (the body of a `package`
/// function does not inline across modules), and out of the public API.
@_spi(Consumers) public struct ConsumerFold: Sendable {
    /// What an event did.
    package enum Outcome: Sendable, Hashable {
        /// A `begin` opened `slot`, nested under the open `parent`; `nil`: at the top (also when
        /// it named a parent that is not open, with the problem).
        case begun(Int, parent: Int?)
        /// A `progress` or `log` for the activity open in `slot`.
        case applied(Int)
        /// An `end` closed `slot`, after ending `abandoned` (its open descendants) as abandoned,
        /// in that order: each before its parent, siblings in the order they began.
        case ended(Int, abandoned: [Int])
        /// The event changes nothing; the problem says why (a refused `log` still shows, as a
        /// log of no activity).
        case refused
        /// A `begin` past the fold's limit of open activities: dropped, without a problem.
        case dropped
    }

    /// What an event did, and the break of the rules it showed, if any.
    package struct Step: Sendable, Hashable {
        package var outcome: Outcome
        package var problem: ConsumerRules.Problem?

        package init(_ outcome: Outcome, _ problem: ConsumerRules.Problem? = nil) {
            self.outcome = outcome
            self.problem = problem
        }
    }

    @usableFromInline
    enum State: UInt8, Sendable, Hashable {
        case free, open, ended
        /// Ended and forgotten: out of the table, readable until the next change.
        case forgotten
    }

    /// The id in each slot (a placeholder in a free slot).
    @usableFromInline var ids: [ActivityID] = []
    /// The ids' bytes, each slot's at its span: a lookup compares them on every event, and
    /// reading them from here retains nothing (reading a string would).
    @usableFromInline var idBytes: [UInt8] = []
    /// Each slot's bytes in ``idBytes``: the offset, shifted 16, the room, shifted 8, and the count
    /// (an id is at most 128 bytes).
    @usableFromInline var idSpans: [UInt64] = []
    /// Bytes of ``idBytes`` that no slot uses any more.
    private var unusedIDBytes = 0
    @usableFromInline var states: [State] = []
    /// How many activities each slot has held.
    @usableFromInline var generations: [UInt32] = []
    /// The parent of each slot, -1 for none.
    var parents: [Int32] = []
    /// The open children of each slot, in the order they began.
    var children: [[Int32]] = []
    /// The open activities at the top, in the order they began.
    package private(set) var roots: [Int] = []
    /// How many activities are open.
    package private(set) var openCount = 0
    @usableFromInline var table = ActivityIDTable()
    private var freeSlots: [Int] = []
    /// Slots whose ids were forgotten by the latest change: free from the next one.
    @usableFromInline var forgottenSlots: [Int] = []
    /// Ended slots still in the table, oldest first from `endedHead` (only with `retainedEnded`).
    private var endedQueue: [Int] = []
    private var endedHead = 0
    /// How many ended ids the fold keeps; `nil`: every one.
    public let retainedEnded: Int?
    /// How many activities may be open at once; a `begin` past it is dropped.
    package let maxOpen: Int

    /// - Parameters:
    ///   - retainedEnded: how many of the latest ended ids to keep; `nil` (the default) keeps
    ///     every id, for a stream of bounded length.
    ///   - maxOpen: how many activities may be open at once; a `begin` past it is dropped.
    package init(retainedEnded: Int? = nil, maxOpen: Int = .max) {
        self.retainedEnded = retainedEnded.map { max(0, $0) }
        self.maxOpen = max(1, maxOpen)
    }

    // MARK: - Reading the table

    /// How many slots the fold has (open, ended, free): every slot is below it.
    package var slotCount: Int { states.count }

    /// How many ids the table holds, open and ended.
    package var heldCount: Int { table.count }

    /// The id in `slot`.
    @inlinable @inline(__always)
    public func id(of slot: Int) -> ActivityID { ids[slot] }

    /// How many activities `slot` has held: a handle of an activity names its slot and this.
    @inlinable @inline(__always)
    public func generation(of slot: Int) -> UInt32 { generations[slot] }

    /// Whether the activity in `slot` is open.
    @inlinable @inline(__always)
    public func isOpen(_ slot: Int) -> Bool { states[slot] == .open }

    /// Whether `slot` holds an activity, open, ended, or forgotten by the latest change.
    @inlinable @inline(__always)
    public func holds(_ slot: Int) -> Bool { slot < states.count && states[slot] != .free }

    /// The parent of the activity in `slot`, `nil` at the top.
    package func parent(of slot: Int) -> Int? {
        let parent = parents[slot]
        return parent < 0 ? nil : Int(parent)
    }

    /// The open children of the activity in `slot`, in the order they began.
    package func openChildren(of slot: Int) -> [Int] { children[slot].map { Int($0) } }

    /// The slot of the activity with this id, open or ended and remembered.
    @inlinable @inline(__always)
    public func slot(of id: ActivityID) -> Int? {
        var raw = id.rawValue
        return raw.withUTF8 { slot(of: $0) }
    }

    /// The slot of the activity with these id bytes (as they stand in a line), open or ended and
    /// remembered.
    @inlinable @inline(__always)
    public func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var probe = table.probe(hash: table.hash(bytes))
        while let slot = table.next(&probe) {
            if idEquals(slot, bytes) { return slot }
        }
        return nil
    }

    /// Whether the id in `slot` is these bytes.
    @inlinable @inline(__always)
    func idEquals(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let span = idSpans[slot]
        let count = Int(truncatingIfNeeded: span & 0xFF)
        guard count == bytes.count, let other = bytes.baseAddress else { return false }
        let offset = Int(truncatingIfNeeded: span >> 16)
        return idBytes.withUnsafeBytes { arena in sameBytes(arena.baseAddress! + offset, other, count: count) }
    }

    /// What the fold knows of the id held in `slot`, found by a lookup (`nil`: not held).
    @inlinable @inline(__always)
    public func standing(of slot: Int?) -> ConsumerRules.Standing {
        guard let slot else { return retainedEnded == nil ? .neverBegun : .notOpen }
        switch states[slot] {
        case .open: return .open
        case .ended: return .ended
        case .free, .forgotten: return retainedEnded == nil ? .neverBegun : .notOpen
        }
    }

    /// What the fold knows of `id`.
    package func standing(of id: ActivityID) -> ConsumerRules.Standing {
        standing(of: slot(of: id))
    }

    // MARK: - Applying events

    /// Applies one event, after freeing the slots the previous change forgot (``release()``).
    package mutating func apply(_ event: ActivityEvent) -> Step {
        release()
        switch event {
        case .begin(let begin):
            return self.begin(begin.id, at: slot(of: begin.id), parent: begin.parent)
        case .progress(let progress):
            return applies(.progress, progress.id, at: slot(of: progress.id))
        case .log(let log):
            guard let id = log.id else { return Step(.refused) }
            return applies(.log, id, at: slot(of: id))
        case .end(let end):
            return self.end(end.id, at: slot(of: end.id))
        }
    }

    /// A `begin` of `id`, held at `held` (its lookup), naming `parent`.
    package mutating func begin(_ id: ActivityID, at held: Int?, parent: ActivityID?) -> Step {
        begin(id, at: held, parent: parent, parentAt: parent.flatMap(slot(of:)))
    }

    /// A `begin` of `id`, held at `held`, naming `parent`, held at `parentSlot` (their lookups).
    package mutating func begin(_ id: ActivityID, at held: Int?, parent: ActivityID?, parentAt found: Int?) -> Step {
        if let problem = ConsumerRules.begin(id, standing: standing(of: held)) { return Step(.refused, problem) }
        guard openCount < maxOpen else { return Step(.dropped) }
        var parentSlot: Int?
        var problem: ConsumerRules.Problem?
        if let parent {
            problem = ConsumerRules.parent(parent, standing: standing(of: found))
            if problem == nil { parentSlot = found }
        }
        return Step(.begun(open(id, under: parentSlot), parent: parentSlot), problem)
    }

    /// Whether a `progress` or `log` for `id`, held at `slot` (its lookup), applies to it.
    package func applies(_ doing: ConsumerRules.Doing, _ id: ActivityID, at slot: Int?) -> Step {
        if let problem = ConsumerRules.event(doing, for: id, standing: standing(of: slot)) {
            return Step(.refused, problem)
        }
        return Step(.applied(slot!))
    }

    /// An `end` for `id`, held at `slot` (its lookup). An `end` with open descendants has the
    /// problem worded with their ids; a consumer that names them better words its own.
    package mutating func end(_ id: ActivityID, at slot: Int?) -> Step {
        if let problem = ConsumerRules.event(.end, for: id, standing: standing(of: slot)) {
            return Step(.refused, problem)
        }
        let abandoned = close(slot!)
        guard !abandoned.isEmpty else { return Step(.ended(slot!, abandoned: [])) }
        let problem = ConsumerRules.Problem.childrenOpen(
            ended: "\"\(id)\"", descendants: abandoned.map { "\"\(ids[$0])\"" })
        return Step(.ended(slot!, abandoned: abandoned), problem)
    }

    /// Ends the open activity in `slot` and its open descendants (the consumer's own end, not an
    /// event's: a timeout, a reporter that went away). Returns the descendants, in the order
    /// they end, before `slot`.
    @discardableResult
    package mutating func close(_ slot: Int) -> [Int] {
        guard states[slot] == .open else { return [] }
        var abandoned: [Int] = []
        if !children[slot].isEmpty {
            // Without recursion: a chain of nested activities is as deep as the stream is long.
            var stack: [(slot: Int32, childrenDone: Bool)] = children[slot].reversed().map { ($0, false) }
            while let (next, childrenDone) = stack.popLast() {
                let index = Int(next)
                if childrenDone || children[index].isEmpty {
                    closeOne(index, withParent: false)
                    abandoned.append(index)
                } else {
                    stack.append((next, true))
                    stack.append(contentsOf: children[index].reversed().map { ($0, false) })
                }
            }
        }
        closeOne(slot, withParent: true)
        return abandoned
    }

    /// Ends every open activity, as at the end of a stream: the slots in the order they end,
    /// each top-level activity in the order they began, after its descendants.
    package mutating func finish() -> [Int] {
        release()
        var ended: [Int] = []
        while let root = roots.first {
            ended += close(root)
            ended.append(root)
        }
        return ended
    }

    /// The slots whose ids the changes since the last ``release()`` forgot: still readable
    /// (a consumer's updates may name them), free once it is called.
    @inlinable @inline(__always)
    public var forgotten: [Int] { forgottenSlots }

    /// Whether any slot is ``forgotten``.
    @inlinable @inline(__always)
    public var hasForgotten: Bool { !forgottenSlots.isEmpty }

    /// Frees the ``forgotten`` slots. ``apply(_:)`` and ``finish()`` call it first; a consumer
    /// that calls the other changes (whose forgotten slots stay readable until it is done with
    /// them) calls it, after dropping their payload.
    package mutating func release() {
        guard !forgottenSlots.isEmpty else { return }
        // Their children lists were emptied when they ended.
        for slot in forgottenSlots {
            states[slot] = .free
            generations[slot] &+= 1
        }
        freeSlots += forgottenSlots
        forgottenSlots.removeAll(keepingCapacity: true)
    }

    // MARK: - The table

    private mutating func open(_ id: ActivityID, under parent: Int?) -> Int {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            ids[slot] = id
            states[slot] = .open
            parents[slot] = -1
        } else {
            slot = states.count
            ids.append(id)
            states.append(.open)
            generations.append(0)
            parents.append(-1)
            children.append([])
            idSpans.append(0)
        }
        var raw = id.rawValue
        let hash = raw.withUTF8 { bytes in
            storeBytes(bytes, of: slot)
            return table.hash(bytes)
        }
        table.insert(hash: hash, slot: slot)
        if let parent {
            parents[slot] = Int32(truncatingIfNeeded: parent)
            children[parent].append(Int32(truncatingIfNeeded: slot))
        } else {
            roots.append(slot)
        }
        openCount += 1
        return slot
    }

    /// Writes the bytes of the id in `slot` into ``idBytes``: where its previous id was, when they
    /// fit, else at the end (and, once half the bytes are unused, every id anew).
    private mutating func storeBytes(_ bytes: UnsafeBufferPointer<UInt8>, of slot: Int) {
        let span = idSpans[slot]
        let room = Int(truncatingIfNeeded: (span >> 8) & 0xFF)
        var offset = Int(truncatingIfNeeded: span >> 16)
        if bytes.count > room {
            unusedIDBytes += room
            if unusedIDBytes > 4096, unusedIDBytes * 2 > idBytes.count { compactIDBytes(except: slot) }
            offset = idBytes.count
            idBytes.append(contentsOf: bytes)
            idSpans[slot] = UInt64(offset) << 16 | UInt64(bytes.count) << 8 | UInt64(bytes.count)
            return
        }
        if let source = bytes.baseAddress {
            idBytes.withUnsafeMutableBufferPointer { arena in
                (arena.baseAddress! + offset).update(from: source, count: bytes.count)
            }
        }
        idSpans[slot] = UInt64(offset) << 16 | UInt64(room) << 8 | UInt64(bytes.count)
    }

    /// Copies every slot's bytes (but `skipped`'s) to a new ``idBytes``, without the unused ones.
    private mutating func compactIDBytes(except skipped: Int) {
        var compact: [UInt8] = []
        compact.reserveCapacity(idBytes.count - unusedIDBytes)
        for slot in idSpans.indices where slot != skipped {
            let span = idSpans[slot]
            let offset = Int(truncatingIfNeeded: span >> 16)
            let room = Int(truncatingIfNeeded: (span >> 8) & 0xFF)
            idSpans[slot] = UInt64(compact.count) << 16 | (span & 0xFFFF)
            compact.append(contentsOf: idBytes[offset..<offset + room])
        }
        idSpans[skipped] = 0
        idBytes = compact
        unusedIDBytes = 0
    }

    /// Ends one open activity whose open children have ended. `withParent`: take it out of its
    /// parent's children (or the roots); not needed when the parent ends in the same close,
    /// which drops its list whole.
    private mutating func closeOne(_ slot: Int, withParent: Bool) {
        states[slot] = .ended
        openCount -= 1
        if !children[slot].isEmpty { children[slot].removeAll() }
        let parent = parents[slot]
        if parent >= 0 {
            if withParent, let index = children[Int(parent)].firstIndex(of: Int32(truncatingIfNeeded: slot)) {
                children[Int(parent)].remove(at: index)
            }
        } else if let index = roots.firstIndex(of: slot) {
            roots.remove(at: index)
        }
        guard let retainedEnded else { return }
        endedQueue.append(slot)
        while endedQueue.count - endedHead > retainedEnded {
            forget(endedQueue[endedHead])
            endedHead += 1
        }
        if endedHead > 1024, endedHead * 2 > endedQueue.count {
            endedQueue.removeFirst(endedHead)
            endedHead = 0
        }
    }

    /// Takes an ended id out of the table; its slot is freed at the next change.
    private mutating func forget(_ slot: Int) {
        let start = Int(truncatingIfNeeded: idSpans[slot] >> 16)
        let end = start + Int(truncatingIfNeeded: idSpans[slot] & 0xFF)
        let hash = idBytes.withUnsafeBufferPointer { table.hash(UnsafeBufferPointer(rebasing: $0[start..<end])) }
        table.remove(hash: hash, slot: slot)
        states[slot] = .forgotten
        forgottenSlots.append(slot)
    }
}

@_spi(Consumers) extension ConsumerFold: Hashable {
    /// Two folds are equal when they hold the same activities in the same slots (the table's
    /// layout, seeded per fold, is not part of it).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.ids == rhs.ids && lhs.states == rhs.states && lhs.generations == rhs.generations
            && lhs.parents == rhs.parents && lhs.children == rhs.children && lhs.roots == rhs.roots
            && lhs.freeSlots == rhs.freeSlots && lhs.forgottenSlots == rhs.forgottenSlots
            && lhs.endedQueue[lhs.endedHead...] == rhs.endedQueue[rhs.endedHead...]
            && lhs.retainedEnded == rhs.retainedEnded && lhs.maxOpen == rhs.maxOpen
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ids)
        hasher.combine(states)
        hasher.combine(parents)
    }
}
