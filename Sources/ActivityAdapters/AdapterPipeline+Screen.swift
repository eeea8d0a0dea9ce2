/// The other source of an adapter's lines: the rows of the command's screen (``ScreenRows``),
/// read by the same ``ToolAdapter`` as the lines of a stream.
///
/// A row is read once, ended by `\n`, when it is finished above the cursor or final, whichever
/// comes first. The rows the command redraws are read, all of them
/// top first and ended by `\r`, each time one of them changed: a display's rows make one frame.
/// The frames the command overwrote since the last read (``ScreenRows/overwritten``) are read
/// first, in order among the final rows, so a bar that reached its total and was replaced by the
/// next within one read is seen to finish.
/// A redrawn row that then becomes final as it was last read is not read again: the adapter is
/// told that the line stays (``ToolAdapter/readNewline(ending:_:)``), as when a `\r` turns out to
/// be the first half of `\r\n`. So a line of plain output is read once, never counted twice.
/// Nothing passes through: the screen shows every byte already.
extension AdapterPipeline {
    /// What is kept of the screen between reads: the redrawn rows as last read, and the start of
    /// a final row whose text wrapped into a row not final yet.
    struct ScreenState {
        var redrawn: [ScreenRows.RedrawnRow] = []
        /// The line the cursor was on when last read, not ended yet.
        var unfinished: ScreenRows.RedrawnRow?
        /// The bytes each redrawn row had when it was last read, by number, until it is final.
        var lastRead: [Int: [UInt8]] = [:]
        /// The line's first row, its bytes so far, and its last row final so far.
        var wrapping: (number: Int, bytes: [UInt8], through: Int)?
        /// The highest number of a row read as finished while still on the screen: read again
        /// when it is final only if it was redrawn since (rows come onto the screen numbered
        /// upwards, so a row numbered higher is new).
        var finishedThrough = -1

        /// The numbers of the redrawn rows the adapter took as progress when it last read them.
        var progressRows: Set<Int> = []

        /// Bounds ``lastRead`` whatever the input.
        static let maxRemembered = 256
    }

    /// The numbers of the rows the command redraws that the adapter took as its progress when
    /// it last read them: a status row that is a bar is the bar's activity, not also the
    /// command's message.
    public var progressRows: Set<Int> { screen.progressRows }

    /// Reads what changed on the command's screen; returns the events it makes.
    public mutating func read(_ rows: ScreenRows, from stream: AdapterStream = .standardOutput) -> [AdapterOutput] {
        guard !finished else { return [] }
        var frames = rows.overwritten[...]
        for (index, row) in rows.final.enumerated() {
            while let frame = frames.first, frame.afterFinal <= index {
                readRedrawn(frame.rows, stream)
                frames.removeFirst()
            }
            readFinal(row, stream)
        }
        for frame in frames { readRedrawn(frame.rows, stream) }
        readFinished(rows.finished, stream)
        readRedrawn(rows.redrawn, stream)
        readUnfinished(rows.unfinished, stream)
        activities.flush()
        return activities.takeOutputs()
    }

    /// Reads the redrawn rows of one frame, when they changed since the last one read.
    private mutating func readRedrawn(_ rows: [ScreenRows.RedrawnRow], _ stream: AdapterStream) {
        guard rows != screen.redrawn else { return }
        screen.redrawn = rows
        if screen.lastRead.count > ScreenState.maxRemembered || screen.progressRows.count > ScreenState.maxRemembered {
            screen.lastRead.removeAll()
            screen.progressRows.removeAll()
        }
        for (index, row) in rows.enumerated() where row.bytes.count <= Self.maxLineBytes {
            let before = screen.lastRead.updateValue(row.bytes, forKey: row.number)
            guard !row.bytes.isEmpty else {
                if before?.isEmpty == false {
                    adapter.readCleared(ScreenPlace(number: row.number, index: index), &activities)
                }
                continue
            }
            let place = ScreenPlace(number: row.number, index: index)
            let line = AdapterLine(bytes: row.bytes[...], stream: stream, terminator: 0x0D, row: place)
            if adapter.read(line, &activities) {
                screen.progressRows.insert(row.number)
            } else {
                screen.progressRows.remove(row.number)
            }
        }
    }

    /// Reads the line the cursor is on as it grows, as a stream's unfinished line is read at the
    /// end of a chunk: once each time it changed, and only while it is short.
    private mutating func readUnfinished(_ row: ScreenRows.RedrawnRow?, _ stream: AdapterStream) {
        guard row != screen.unfinished else { return }
        screen.unfinished = row
        guard let row, row.bytes.count <= Self.maxUnfinishedBytes else { return }
        adapter.readUnfinished(AdapterLine(bytes: row.bytes[...], stream: stream, terminator: nil), &activities)
    }

    private mutating func readFinished(_ rows: [ScreenRows.FinalRow], _ stream: AdapterStream) {
        var start = rows.startIndex
        while start < rows.endIndex {
            var end = start
            while end + 1 < rows.endIndex, rows[end].wraps { end += 1 }
            defer { start = end + 1 }
            let last = rows[start...end].map(\.number).max() ?? rows[start].number
            guard rows[start].number > screen.finishedThrough, !rows[end].wraps else { continue }
            screen.finishedThrough = last
            var bytes = start == end ? rows[start].bytes : rows[start...end].flatMap(\.lineBytes)[...]
            var number = rows[start].number
            // The rest of a line whose start is final already (it scrolled off): the line is
            // read whole now, and not again when its rest is final.
            if let wrapping = screen.wrapping, wrapping.through + 1 == rows[start].number {
                screen.wrapping = nil
                guard wrapping.bytes.count + bytes.count <= Self.maxLineBytes else { continue }
                bytes = (wrapping.bytes + bytes)[...]
                number = wrapping.number
            }
            guard !bytes.isEmpty, bytes.count <= Self.maxLineBytes else { continue }
            let line = AdapterLine(
                bytes: bytes, stream: stream, terminator: 0x0A, row: ScreenPlace(number: number, index: nil))
            // A row redrawn (a status line), then left as it was read: it stays.
            screen.progressRows.remove(number)
            if !screen.lastRead.isEmpty, let read = screen.lastRead.removeValue(forKey: number),
                read.elementsEqual(bytes)
            {
                adapter.readNewline(ending: line, &activities)
                continue
            }
            _ = adapter.read(line, &activities)
        }
    }

    private mutating func readFinal(_ row: ScreenRows.FinalRow, _ stream: AdapterStream) {
        if row.wraps || screen.wrapping != nil {
            var wrapping = screen.wrapping ?? (row.number, [], row.number)
            wrapping.through = row.number
            // A line longer than the limit is not read, as on a stream.
            if wrapping.bytes.count + row.bytes.count <= Self.maxLineBytes { wrapping.bytes += row.lineBytes }
            screen.wrapping = row.wraps ? wrapping : nil
            guard !row.wraps else { return }
            readFinalLine(number: wrapping.number, wrapping.bytes[...], stream)
        } else {
            readFinalLine(number: row.number, row.bytes, stream)
        }
    }

    private mutating func readFinalLine(number: Int, _ bytes: ArraySlice<UInt8>, _ stream: AdapterStream) {
        guard bytes.count <= Self.maxLineBytes else { return }
        // Read already as a finished row, and not redrawn since.
        if number <= screen.finishedThrough, screen.lastRead[number] == nil { return }
        let line = AdapterLine(
            bytes: bytes, stream: stream, terminator: 0x0A, row: ScreenPlace(number: number, index: nil))
        screen.progressRows.remove(number)
        if !screen.lastRead.isEmpty, let read = screen.lastRead.removeValue(forKey: number) {
            if read.elementsEqual(bytes) {
                adapter.readNewline(ending: line, &activities)
                return
            }
        }
        guard !bytes.isEmpty else { return }
        _ = adapter.read(line, &activities)
    }
}
