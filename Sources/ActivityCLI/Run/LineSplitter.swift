/// Cuts a byte stream that arrives in chunks into lines, keeping the unfinished line between
/// chunks, in bounded memory.
///
/// A line longer than `maxLineBytes` is delivered in pieces: every piece but the last has
/// `isComplete == false`.
struct LineSplitter {
    struct Piece {
        var bytes: ArraySlice<UInt8>
        /// Whether the piece ends its line.
        var isComplete: Bool
    }

    let maxLineBytes: Int
    private var pending: [UInt8] = []

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Whether an unfinished line is held.
    var hasPending: Bool { !pending.isEmpty }

    /// Adds a chunk and calls `body` for every line (or piece) it completes.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Piece) -> Void) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? bytes.count
            var segment = start
            // Deliver full pieces of an overlong line without buffering them.
            while pending.count + (end - segment) > maxLineBytes {
                let take = maxLineBytes - pending.count
                if pending.isEmpty {
                    body(Piece(bytes: ArraySlice(bytes[segment..<segment + take]), isComplete: false))
                } else {
                    pending.append(contentsOf: bytes[segment..<segment + take])
                    body(Piece(bytes: pending[...], isComplete: false))
                    pending.removeAll(keepingCapacity: true)
                }
                segment += take
            }
            if let newline {
                if pending.isEmpty {
                    body(Piece(bytes: ArraySlice(bytes[segment..<newline]), isComplete: true))
                } else {
                    pending.append(contentsOf: bytes[segment..<newline])
                    body(Piece(bytes: pending[...], isComplete: true))
                    pending.removeAll(keepingCapacity: true)
                }
                start = newline + 1
            } else {
                pending.append(contentsOf: bytes[segment..<end])
                start = end
            }
        }
    }

    /// At the end of the stream: delivers a final line that had no newline.
    mutating func finish(_ body: (Piece) -> Void) {
        guard !pending.isEmpty else { return }
        body(Piece(bytes: pending[...], isComplete: true))
        pending.removeAll()
    }
}
