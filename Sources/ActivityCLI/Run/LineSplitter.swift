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
        var start = 0
        let bytes = chunk.bindMemory(to: UInt8.self)
        while start < bytes.count {
            if let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if pending.isEmpty {
                    body(Piece(bytes: ArraySlice(bytes[start..<newline]), isComplete: true))
                } else {
                    pending.append(contentsOf: bytes[start..<newline])
                    body(Piece(bytes: pending[...], isComplete: true))
                    pending.removeAll(keepingCapacity: true)
                }
                start = newline + 1
            } else {
                pending.append(contentsOf: bytes[start...])
                start = bytes.count
            }
            while pending.count > maxLineBytes {
                body(Piece(bytes: pending[..<maxLineBytes], isComplete: false))
                pending.removeFirst(maxLineBytes)
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
