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

/// Reads and decodes a stream on a thread of its own, ahead of the thread that consumes it: with
/// a second core, reading and decoding (about a third of what an event costs `render`) overlap
/// the folding and drawing of the events read before.
///
/// Blocks go round a ring. The reading thread reads into one, decodes its lines in place (their
/// texts stay in the block) and hands it over; the consumer takes the blocks in order and gives
/// each back once it is done with it, so an event's bytes stay put for as long as they are read,
/// and memory is bounded: a producer faster than the consumer waits for it, as it waits for a
/// reader that decodes as it goes. A block is handed over after each read that completed a line,
/// so a slow producer's line goes on at once.
final class ReadAhead: Sendable {
    /// What a block holds: its lines, in order, each an event decoded in place or any other item.
    enum Entry {
        case event(LineEvent, line: Int)
        case other(StreamItem)
    }

    private let ring: Ring
    private let thread: pthread_t

    /// Starts reading `fileDescriptor`, which it neither changes nor closes, in blocks of
    /// ``LineReader/blockBytes``; `nil` when the system would not start a thread.
    convenience init?(fileDescriptor: Int32) {
        self.init(source: FileDescriptorSource(fileDescriptor: fileDescriptor))
    }

    /// Starts reading `source`, `blockBytes` at most per read (more when a line is longer), into
    /// `blockCount` blocks; `nil` when the system would not start a thread.
    init?<Source: ByteSource & Sendable>(
        source: Source, blockBytes: Int = LineReader<Source>.blockBytes, blockCount: Int = 4,
        maxLineBytes: Int = WireLimits.maxAcceptedLineBytes
    ) {
        precondition(blockCount >= 2, "the reader fills one block while the consumer reads another")
        let reader = EventStreamReader(source: source, maxLineBytes: maxLineBytes)
        let ring = Ring(blockBytes: max(blockBytes, reader.minimumBufferBytes), count: blockCount)
        guard let thread = HelperThread.start({ ring.read(reader) }) else { return nil }
        self.ring = ring
        self.thread = thread
    }

    /// Hands every line to the calling thread in order: events decoded in place to `event`, every
    /// other line or piece to `body`; calls `afterBlock` after the lines of each read. Returns at
    /// the end of the stream; throws the read's error once the lines before it are handed on, or
    /// what a closure threw, and then stops the reading thread. Once only.
    func forEach(
        events event: (LineEvent, Int) throws -> Void, others body: (StreamItem) throws -> Void,
        afterBlock: () throws -> Void
    ) throws {
        var index = 0
        var ended = false
        defer {
            if ended {
                pthread_join(thread, nil)
            } else {
                // The reading thread may be waiting for input: it stops at its next block, and
                // the ring lives on with it until then.
                ring.stopped.store(true, ordering: .sequentiallyConsistent)
                ring.free.signal()
                pthread_detach(thread)
            }
        }
        while true {
            ring.filled.wait()
            let block = ring.blocks[index % ring.blocks.count]
            index += 1
            for entry in block.entries {
                switch entry {
                case .event(let decoded, let line): try event(decoded, line)
                case .other(let item): try body(item)
                }
            }
            try afterBlock()
            if let end = block.end {
                ended = true
                if case .failed(let error) = end { throw error }
                return
            }
            ring.free.signal()
        }
    }
}

extension ReadAhead {
    /// The blocks and the two counts that pass them between the threads: `free` blocks the
    /// reader may fill, `filled` blocks the consumer may take. A block belongs to one thread at a
    /// time, handed over by a semaphore's signal and wait (which order its memory), so its
    /// fields need no lock.
    fileprivate final class Ring: @unchecked Sendable {
        let blocks: [Block]
        // Both start at zero and are raised by signals: a semaphore released with a value under
        // the one it was made with is a crash.
        let free = DispatchSemaphore(value: 0)
        let filled = DispatchSemaphore(value: 0)
        let stopped = Atomic<Bool>(false)

        init(blockBytes: Int, count: Int) {
            blocks = (0..<count).map { _ in Block(bytes: blockBytes) }
            for _ in 0..<count { free.signal() }
        }

        /// The reading thread: fills the blocks in turn until the end of the stream, an error,
        /// or the consumer stops it.
        func read<Source>(_ reader: EventStreamReader<Source>) {
            var reader = reader
            var index = 0
            free.wait()
            var block = blocks[0]
            // Filled here and swapped into the block as it is handed over: the block's own array,
            // emptied, comes back to be filled next, and nothing is allocated per block.
            var entries: [Entry] = []
            do {
                try reader.forEach(
                    into: block.buffer,
                    next: { buffer, pending in
                        free.wait()
                        if stopped.load(ordering: .sequentiallyConsistent) { throw Stopped() }
                        index += 1
                        let next = blocks[index % blocks.count]
                        next.buffer.baseAddress!.update(
                            from: buffer.baseAddress! + pending.lowerBound, count: pending.count)
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
