import ActivityPOSIX
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

/// Reads and decodes a stream, on a thread of its own once the stream outpaces its consumer:
/// with a second core, reading and decoding (about a third of what an event costs `render`) then
/// overlap the folding and drawing of the events read before.
///
/// Reading starts on the consumer's thread, a read at a time, as a slow producer needs: a second
/// thread would only add a wake-up to each of its lines. A read that returns at least
/// `aheadAfterBytes` shows the producer has got ahead (a pipe half full, or a file); from the next
/// line on, reading and decoding move to a thread of their own. Blocks then go round a ring: the
/// reading thread reads into one, decodes its lines in place (their texts stay in the block) and
/// hands it over; the consumer takes the blocks in order and gives each back once it is done with
/// it, so an event's bytes stay put for as long as they are read, and memory is bounded: a
/// producer faster than the consumer waits for it, as it waits for a reader that decodes as it
/// goes. A block is handed over after each read that completed a line, so a line that comes alone
/// goes on at once.
struct ReadAhead<Source: ByteSource & Sendable> {
    /// What a block holds: its lines, in order, each an event decoded in place or any other item.
    enum Entry {
        case event(LineEvent, line: Int)
        case other(StreamItem)
    }

    let source: Source
    var blockBytes = LineReader<Source>.blockBytes
    var blockCount = 4
    var maxLineBytes = WireLimits.maxAcceptedLineBytes
    /// A read of at least this many bytes moves reading to a thread of its own: half the
    /// default capacity of a Linux pipe.
    var aheadAfterBytes = 1 << 15

    init(source: Source) {
        self.source = source
    }

    /// Hands every line to the calling thread in order: events decoded in place to `event`, every
    /// other line or piece to `body`; calls `flush` whenever what they gathered should be written
    /// because more may take a while: before each read on this thread, after the lines of each
    /// block from the reading thread, and at the end. Returns at the end of the stream, with
    /// whether it read ahead on a thread of its own; throws the read's error once the lines
    /// before it are handed on, or what a closure threw (and then leaves the reading thread, if
    /// there is one, to stop at its next block).
    @discardableResult
    func forEach(
        events event: (LineEvent, Int) throws -> Void, others body: (StreamItem) throws -> Void,
        flush: () throws -> Void
    ) throws -> Bool {
        var reader = EventStreamReader(source: source, maxLineBytes: maxLineBytes)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(blockBytes, reader.minimumBufferBytes))
        defer { buffer.deallocate() }
        /// Reads on this thread from `start` in `buffer` until the end of the stream, or until a
        /// read of `aheadAfterBytes` or more, which it returns the pause after.
        func readHere(
            into buffer: UnsafeMutableBufferPointer<UInt8>, from start: Ring.Start, aheadAfterBytes: Int
        )
            throws -> Ahead?
        {
            do {
                try reader.forEach(
                    into: buffer, pendingBytes: start.pendingBytes, line: start.line, beforeRead: flush,
                    next: { point in
                        guard point.bytesRead < aheadAfterBytes || point.inOverlongLine else {
                            throw Ahead(pending: point.pending, line: point.line)
                        }
                        return point.keepingPending()
                    }, events: event, others: body)
            } catch let ahead as Ahead {
                // The lines of the last read here are written before the reading goes elsewhere.
                try flush()
                return ahead
            }
            try flush()
            return nil
        }
        guard
            let pause = try readHere(
                into: buffer, from: Ring.Start(pendingBytes: 0, line: 1), aheadAfterBytes: aheadAfterBytes)
        else { return false }
        let ring = Ring(blockBytes: buffer.count, count: blockCount)
        let first = ring.blocks[0].buffer
        first.baseAddress!.update(
            from: buffer.baseAddress! + pause.pending.lowerBound, count: pause.pending.count)
        let start = Ring.Start(pendingBytes: pause.pending.count, line: pause.line)
        guard let thread = HelperThread.start({ [reader] in ring.read(reader, from: start) }) else {
            // No second thread: reading goes on here.
            _ = try readHere(into: first, from: start, aheadAfterBytes: .max)
            return false
        }
        try ring.consume(thread: thread, events: event, others: body, flush: flush)
        return true
    }

    /// The stream has got ahead of its reader: reading moves to a thread of its own from the
    /// unfinished line, at `pending` in the buffer read into.
    private struct Ahead: Error {
        let pending: Range<Int>
        let line: Int
    }
}

extension ReadAhead {
    /// The blocks and the two counts that pass them between the threads: `free` blocks the
    /// reader may fill, `filled` blocks the consumer may take. A block belongs to one thread at a
    /// time, handed over by a semaphore's signal and wait (which order its memory), so its
    /// fields need no lock.
    fileprivate final class Ring: @unchecked Sendable {
        struct Start {
            /// The unfinished line's bytes at the front of the first block.
            var pendingBytes: Int
            var line: Int
        }

        let blocks: [Block]
        // Both start at zero and are raised by signals: a semaphore released with a value under
        // the one it was made with is a crash.
        let free = DispatchSemaphore(value: 0)
        let filled = DispatchSemaphore(value: 0)
        let stopped = Atomic<Bool>(false)

        init(blockBytes: Int, count: Int) {
            precondition(count >= 2, "the reader fills one block while the consumer reads another")
            blocks = (0..<count).map { _ in Block(bytes: blockBytes) }
            for _ in 0..<count { free.signal() }
        }

        /// The reading thread: fills the blocks in turn until the end of the stream, an error,
        /// or the consumer stops it.
        func read(_ reader: EventStreamReader<Source>, from start: Start) {
            var reader = reader
            var index = 0
            free.wait()
            var block = blocks[0]
            // Filled here and swapped into the block as it is handed over: the block's own array,
            // emptied, comes back to be filled next, and nothing is allocated per block.
            var entries: [Entry] = []
            do {
                try reader.forEach(
                    into: block.buffer, pendingBytes: start.pendingBytes, line: start.line,
                    next: { point in
                        free.wait()
                        if stopped.load(ordering: .sequentiallyConsistent) { throw Stopped() }
                        index += 1
                        let next = blocks[index % blocks.count]
                        next.buffer.baseAddress!.update(
                            from: point.buffer.baseAddress! + point.pending.lowerBound, count: point.pending.count)
                        swap(&entries, &block.entries)
                        entries.removeAll(keepingCapacity: true)
                        filled.signal()
                        block = next
                        return next.buffer
                    },
                    events: { event, line in entries.append(.event(event, line: line)) },
                    others: { item in entries.append(.other(item)) })
                block.end = .finished
            } catch is Stopped {
                return
            } catch {
                block.end = .failed(error)
            }
            swap(&entries, &block.entries)
            filled.signal()
        }

        /// The consumer: takes the blocks in order, hands their lines on, and gives each back.
        func consume(
            thread: pthread_t, events event: (LineEvent, Int) throws -> Void, others body: (StreamItem) throws -> Void,
            flush: () throws -> Void
        ) throws {
            var index = 0
            var ended = false
            defer {
                if ended {
                    pthread_join(thread, nil)
                } else {
                    // The reading thread may be waiting for input: it stops at its next block,
                    // and the ring lives on with it until then.
                    stopped.store(true, ordering: .sequentiallyConsistent)
                    free.signal()
                    pthread_detach(thread)
                }
            }
            while true {
                filled.wait()
                let block = blocks[index % blocks.count]
                index += 1
                for entry in block.entries {
                    switch entry {
                    case .event(let decoded, let line): try event(decoded, line)
                    case .other(let item): try body(item)
                    }
                }
                try flush()
                if let end = block.end {
                    ended = true
                    if case .failed(let error) = end { throw error }
                    return
                }
                free.signal()
            }
        }

        deinit {
            for block in blocks { block.buffer.deallocate() }
        }
    }

    fileprivate final class Block {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var entries: [Entry] = []
        /// Set on the last block.
        var end: End?

        init(bytes: Int) {
            buffer = .allocate(capacity: bytes)
        }
    }

    fileprivate enum End {
        case finished
        case failed(any Error)
    }

    /// The consumer has stopped: the reading thread ends.
    private struct Stopped: Error {}
}
