import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An object made anew in each process: after `fork()` the child makes its own on first use.
///
/// The child never touches the parent's object, nor any lock in it: a lock that another thread of
/// the parent held at the moment of the fork stays held for ever in the child (and Linux's mutexes
/// remember their owner's thread id, which does not exist there). Reading the current object is
/// lock-free: an atomic load and a `getpid()`.
final class PerProcess<Value: AnyObject & Sendable>: Sendable {
    private final class Box: Sendable {
        let pid: pid_t
        let value: Value

        init(pid: pid_t, value: Value) {
            self.pid = pid
            self.value = value
        }
    }

    private let current = Atomic<Unmanaged<Box>?>(nil)
    private let make: @Sendable (_ inherited: Value?) -> Value
    private let discard: @Sendable (Value) -> Void

    /// - Parameters:
    ///   - discard: Disposes of an object made by a thread that lost the race to make the first.
    ///   - make: Makes the object of this process; `inherited` is the parent's, after a fork, for
    ///     closing what the child holds of it (never for its locks).
    init(
        discard: @escaping @Sendable (Value) -> Void = { _ in },
        _ make: @escaping @Sendable (_ inherited: Value?) -> Value
    ) {
        self.make = make
        self.discard = discard
    }

    deinit {
        if let box = current.load(ordering: .acquiring), box.takeUnretainedValue().pid == getpid() {
            box.release()
        }
    }

    /// The object of this process.
    var value: Value {
        let pid = getpid()
        let loaded = current.load(ordering: .acquiring)
        if let box = loaded?.takeUnretainedValue(), box.pid == pid { return box.value }
        let fresh = Unmanaged.passRetained(Box(pid: pid, value: make(loaded?.takeUnretainedValue().value)))
        let (exchanged, winner) = current.compareExchange(
            expected: loaded, desired: fresh, ordering: .acquiringAndReleasing
        )
        if exchanged {
            // The parent's box is left alone: this process's copy of it is never freed, so a
            // pointer to it that some frame still holds stays valid.
            return fresh.takeUnretainedValue().value
        }
        discard(fresh.takeRetainedValue().value)
        return winner!.takeUnretainedValue().value
    }

    /// The object of this process if one was made, without making one.
    var existing: Value? {
        guard let box = current.load(ordering: .acquiring)?.takeUnretainedValue(), box.pid == getpid() else {
            return nil
        }
        return box.value
    }
}
