/// Cuts a byte stream that arrives in chunks into lines, keeping the unfinished line between
/// chunks, in bounded memory: the push-side twin of ``LineReader``, for bytes that arrive from a
/// poll loop (a connection, a command's output) rather than from a source read to its end.
///
/// A line longer than `maxLineBytes` is delivered in pieces: every piece but the last has
/// `isComplete == false`.
package struct LineSplitter {
    package struct Piece {
        /// The piece, without the line's `\n`.
        package var bytes: ArraySlice<UInt8>
        /// Whether the piece ends its line.
        package var isComplete: Bool
        /// Whether a `\n` followed it in the stream (a final line may lack one): what passes the
        /// piece on byte for byte writes `bytes` and then, only if this is set, the `\n`.
        package var endsWithNewline: Bool
    }

    package let maxLineBytes: Int
    private var pending: [UInt8] = []

    package init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Whether an unfinished line is held.
    package var hasPending: Bool { !pending.isEmpty }

    /// Adds a chunk and calls `body` for every line (or piece) it completes.
    package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Piece) -> Void) {
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
                    body(
                        Piece(
                            bytes: ArraySlice(bytes[segment..<segment + take]), isComplete: false,
                            endsWithNewline: false))
                } else {
                    pending.append(contentsOf: bytes[segment..<segment + take])
                    body(Piece(bytes: pending[...], isComplete: false, endsWithNewline: false))
                    pending.removeAll(keepingCapacity: true)
                }
                segment += take
            }
            if let newline {
                if pending.isEmpty {
                    body(Piece(bytes: ArraySlice(bytes[segment..<newline]), isComplete: true, endsWithNewline: true))
                } else {
                    pending.append(contentsOf: bytes[segment..<newline])
                    body(Piece(bytes: pending[...], isComplete: true, endsWithNewline: true))
                    pending.removeAll(keepingCapacity: true)
                }
                start = newline + 1
            } else {
                pending.append(contentsOf: bytes[segment..<end])
                start = end
            }
        }
    }

    /// Adds bytes held in an array.
    package mutating func feed(_ bytes: [UInt8], _ body: (Piece) -> Void) {
        bytes.withUnsafeBytes { feed($0, body) }
    }

    /// At the end of the stream: delivers a final line that had no newline.
    package mutating func finish(_ body: (Piece) -> Void) {
        guard !pending.isEmpty else { return }
        body(Piece(bytes: pending[...], isComplete: true, endsWithNewline: false))
        pending.removeAll()
    }
}
