import ActivityPOSIX
import ActivityTerminal
import ActivityWire
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a session's outputs (the display and the standard streams) on a thread of its own,
/// through one bounded ``WriteQueue``, so that a reader that stops reading blocks that thread
/// and never the one that reads the producers (`activity run` goes on answering its reporters).
///
/// Each output given is attached (``FileDescriptorOutput``'s writes go into the queue, in the
/// order made, across outputs too). The producer's output is never dropped: whoever feeds it
/// waits while ``isBehind`` says so. Lines of the display's own beyond ``capacity`` are dropped
/// and told in one line when the writer catches up. ``finish()`` writes what is left, waiting
/// for the reader as long as it takes, and detaches the outputs.
///
/// The thread is the redraw timer's kind (``RedrawTimer``), woken when bytes come to an empty
/// queue; without a thread the outputs stay as they are and write at once.
package final class BackgroundWriter: Sendable {
    /// The queue's bound: about a second of a busy display, far more than a pipe holds.
    package static let defaultCapacity = 1 << 20

    private struct State {
        var queue: WriteQueue
        /// Whether the thread has found the queue empty since it was last woken.
        var idle = true
        /// How many callers of ``waitUntilWritten(seconds:)`` wait for the queue to empty.
        var waiting = 0
        /// Whether ``isBehind`` said so since the queue last drained to half: ``caughtUp`` is
        /// woken when it does.
        var behindSeen = false
    }

    /// The queue and the outputs, by index in its chunks; shared with the thread, which alone
    /// writes the outputs while they are attached.
    private final class Core: @unchecked Sendable {
        let state: Mutex<State>
        let outputs: [FileDescriptorOutput]
        /// The live display's claim on its terminal, for the writes to the display's lane.
        let claim: TerminalClaim?
        let displayLane: Int
        /// Signalled once for each waiter when the thread finds the queue empty.
        let emptied = DispatchSemaphore(value: 0)
        /// Woken when the queue drains to half after ``isBehind`` was true.
        let caughtUp = try? WakeUpPipe()

        init(_ queue: WriteQueue, outputs: [FileDescriptorOutput], claim: TerminalClaim?, displayLane: Int) {
            state = Mutex(State(queue: queue))
            self.outputs = outputs
            self.claim = claim
            self.displayLane = displayLane
        }

        deinit { caughtUp?.close() }

        /// Writes the queue's chunks until it is empty. A broken output drops what comes for it.
        func drain() {
            while true {
                let (chunk, waiting, caughtUp) = state.withLock { state in
                    let chunk = state.queue.take()
                    let caughtUp = state.behindSeen && !state.queue.isBehind
                    if caughtUp { state.behindSeen = false }
                    guard chunk == nil else { return (chunk, 0, caughtUp) }
                    state.idle = true
                    defer { state.waiting = 0 }
                    return (chunk, state.waiting, caughtUp)
                }
                if caughtUp { self.caughtUp?.wake() }
                for _ in 0..<waiting { emptied.signal() }
                guard let chunk else { return }
                let output = outputs[chunk.destination]
                if let claim, chunk.destination == displayLane {
                    // A frame is written where no signal handler comes in its middle, and not
                    // while a handler has given the terminal back (Ctrl-Z) until it is continued.
                    _ = claim.draw(waiting: true) { _ = chunk.bytes.withUnsafeBytes { output.writeNow($0) } }
                } else {
                    _ = chunk.bytes.withUnsafeBytes { output.writeNow($0) }
                }
            }
        }
    }

    private let core: Core
    private let thread: RedrawTimer?

    /// Attaches `outputs`; the line telling of dropped display lines goes to `display`, which
    /// should be one of them. The display's bytes are written under `claim`, the live display's
    /// claim on its terminal, when it has one (``TerminalClaim/draw(waiting:_:)``).
    package init(
        outputs: [FileDescriptorOutput], display: FileDescriptorOutput, claim: TerminalClaim? = nil,
        capacity: Int = defaultCapacity
    ) {
        var unique: [FileDescriptorOutput] = []
        for output in outputs + [display] where !unique.contains(where: { $0 === output }) { unique.append(output) }
        let noticeLane = unique.firstIndex { $0 === display } ?? 0
        let core = Core(
            WriteQueue(capacity: capacity, noticeDestination: noticeLane), outputs: unique, claim: claim,
            displayLane: noticeLane)
        self.core = core
        // Woken for every write to an empty queue; the interval is only a backstop.
        thread = RedrawTimer(interval: 1) { core.drain() }
        guard thread != nil else { return }
        for (lane, output) in unique.enumerated() { output.background = (self, lane) }
    }

    /// Whether more than half of the queue is taken: the producer's output should wait (its
    /// reader stalls) until it is not.
    package var isBehind: Bool {
        core.state.withLock { state in
            if state.queue.isBehind { state.behindSeen = true }
            return state.queue.isBehind
        }
    }

    /// A descriptor that polls readable once the queue has drained to half after ``isBehind``
    /// said it was behind, so that the producer's reader goes on at once, not after a pause;
    /// ``takeCaughtUp()`` makes it wait again. `nil` without a pipe.
    package var caughtUpDescriptor: Int32? { core.caughtUp?.readEnd }

    /// Takes the wake-ups of ``caughtUpDescriptor``.
    package func takeCaughtUp() { core.caughtUp?.drain() }

    /// Waits until everything queued is written, or `seconds` have passed (a reader that takes
    /// nothing, a terminal paused with Ctrl-S, must not hold the caller for ever). Returns
    /// whether the queue is empty.
    @discardableResult
    package func waitUntilWritten(seconds: Double) -> Bool {
        guard thread != nil else { return true }
        let deadline = DispatchTime.now() + .nanoseconds(Int(saturating: seconds * 1e9, rounding: .up))
        while true {
            let written = core.state.withLock { state in
                if state.queue.isEmpty && state.idle { return true }
                state.waiting += 1
                return false
            }
            if written { return true }
            // A signal left over from a wait that timed out only makes this look again.
            if core.emptied.wait(timeout: deadline) == .timedOut {
                return core.state.withLock { state in
                    state.waiting = max(0, state.waiting - 1)
                    return state.queue.isEmpty && state.idle
                }
            }
        }
    }

    /// Queues `bytes` for the output at `lane`; a `droppable` line of the display's own may be
    /// dropped (``WriteQueue``).
    func write(_ bytes: [UInt8], lane: Int, droppable: Bool) {
        let wakes = core.state.withLock { state in
            state.queue.append(bytes, to: lane, droppable: droppable)
            defer { state.idle = false }
            return state.idle
        }
        if wakes { thread?.wake() }
    }

    /// Writes everything queued, on the calling thread once the writer's has stopped (so the
    /// reader is waited for), and detaches the outputs: later writes are made at once.
    /// Idempotent.
    package func finish() {
        thread?.stop()
        core.drain()
        for output in core.outputs where output.background?.writer === self { output.background = nil }
    }
}
