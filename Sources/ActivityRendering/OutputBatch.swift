import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an ``OutputBatch`` finally writes: one destination's bytes, written at once.
package protocol BatchedDestination: AnyObject {
    /// Writes all of `bytes` now; returns `false` once the destination has gone away.
    func writeNow(_ bytes: UnsafeRawBufferPointer) -> Bool
}

/// Gathers the lines several outputs are given into one buffer, in the order given, and writes
/// them in few large writes instead of one `write(2)` a line.
///
/// The order of the bytes is never changed, across destinations too: bytes for another
/// destination than the pending ones first write what is pending. Pending bytes are written when
/// ``flush()`` is called (the reader of the input calls it before each read, which may wait for
/// the producer, so a slow producer's line appears at once), when they pass ``limit`` bytes, and
/// when the oldest has waited ``maxDelay`` seconds while more kept coming (a terminal watching a
/// fast stream still sees lines as they come).
///
/// Not thread-safe: the owner calls it under its own lock.
package final class OutputBatch {
    /// Pending bytes beyond this are written at once.
    package let limit: Int
    /// How long a pending byte may wait while more arrive, in seconds.
    package let maxDelay: Double
    private let clock: () -> Double
    // Read for every line written: they skip the run-time exclusivity check (about a tenth of
    // an append), as the batch is used by one caller at a time, under its owner's lock.
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var destination: (any BatchedDestination)?
    /// When the first pending byte came.
    @exclusivity(unchecked) private var pendingSince = 0.0
    /// Appends since the clock was last read: reading it for every line would cost more than
    /// the line; one in 16 is often enough for `maxDelay`.
    @exclusivity(unchecked) private var appendsSinceClock = 0
    /// After ``end()``: every write is made at once.
    @exclusivity(unchecked) private var hasEnded = false

    package init(
        limit: Int = 64 * 1024, maxDelay: Double = 0.05, clock: @escaping () -> Double = OutputBatch.monotonicSeconds
    ) {
        self.limit = limit
        self.maxDelay = maxDelay
        self.clock = clock
        pending.reserveCapacity(limit + 4096)
    }

    /// Whether nothing is waiting to be written.
    package var isEmpty: Bool { pending.isEmpty }

    /// Queues `bytes` for `target`; writes what is pending when it is due (see the type).
    /// Returns `false` when a write made now failed.
    @discardableResult
    package func append(_ bytes: [UInt8], to target: any BatchedDestination) -> Bool {
        guard !bytes.isEmpty else { return true }
        if hasEnded { return bytes.withUnsafeBytes { target.writeNow($0) } }
        var ok = true
        if let destination, destination !== target { ok = flush() }
        if pending.isEmpty {
            destination = target
            pendingSince = clock()
            appendsSinceClock = 0
        } else {
            appendsSinceClock &+= 1
        }
        pending.append(contentsOf: bytes)
        if pending.count >= limit {
            return flush() && ok
        }
        if appendsSinceClock & 15 == 15, clock() - pendingSince >= maxDelay {
            return flush() && ok
        }
        return ok
    }

    /// Writes what is pending. Returns `false` when the write failed.
    @discardableResult
    package func flush() -> Bool {
        guard let target = destination else { return true }
        destination = nil
        defer { pending.removeAll(keepingCapacity: true) }
        guard !pending.isEmpty else { return true }
        return pending.withUnsafeBytes { target.writeNow($0) }
    }

    /// Writes what is pending; from now on every write is made at once (the display finished:
    /// nobody would flush again).
    @discardableResult
    package func end() -> Bool {
        hasEnded = true
        return flush()
    }

    /// Seconds on a clock that never goes back.
    package static func monotonicSeconds() -> Double {
        SystemClock.monotonicSeconds()
    }
}
