/// Where a line read from a command's screen stands on it (``AdapterLine/row``).
public struct ScreenPlace: Hashable, Sendable {
    /// The row's number: the same while the row is on the screen, redrawn in place or moved up
    /// by scrolling; a row that comes onto the screen later has a higher one.
    public var number: Int
    /// The row's place among the rows the command redraws, read together top first (0 is the
    /// top one: a display's first row); `nil` for a row read once, as a line: final, or finished
    /// above the cursor.
    public var index: Int?

    public init(number: Int, index: Int?) {
        self.number = number
        self.index = index
    }

    /// Whether the row is read as a line that stays: the command has gone past it.
    public var isFinal: Bool { index == nil }
}

/// What changed on a command's screen, for ``AdapterPipeline/read(_:from:)``: the rows that
/// became final, in order, the rows finished above the cursor, and the rows the command is
/// redrawing, as they stand now.
///
/// On a terminal a command's progress is what its screen shows, not the bytes it wrote: a bar
/// redrawn in place is one row's changing text, a nested bar is the row under it, a bar wider
/// than the screen is one row wrapped into the next. `activity run` follows the screen with a
/// terminal's state machine and hands its rows here.
public struct ScreenRows: Sendable {
    /// A row that became final: its bytes (text and SGR styles, no other control), and whether
    /// its text goes on in the next final row (it wrapped at the right margin), with how many
    /// blank cells end it then (spaces of its line that its bytes leave out).
    public struct FinalRow: Sendable {
        public var number: Int
        public var bytes: ArraySlice<UInt8>
        public var wraps: Bool
        public var trailingSpaces: Int

        public init(number: Int, bytes: ArraySlice<UInt8>, wraps: Bool, trailingSpaces: Int = 0) {
            self.number = number
            self.bytes = bytes
            self.wraps = wraps
            self.trailingSpaces = trailingSpaces
        }

        /// The row's part of its line: its bytes, and its trailing spaces when it wraps.
        var lineBytes: [UInt8] {
            Array(bytes) + (wraps ? Array(repeating: UInt8(ascii: " "), count: trailingSpaces) : [])
        }
    }

    /// A row the command redraws, its wrapped rows joined: its number and its bytes.
    public struct RedrawnRow: Sendable, Equatable {
        public var number: Int
        public var bytes: [UInt8]

        public init(number: Int, bytes: [UInt8]) {
            self.number = number
            self.bytes = bytes
        }
    }

    /// The redrawn rows as they stood before the command overwrote them, oldest first, each
    /// with how many of ``final`` came before it: the frames between two reads that the
    /// current ``redrawn`` does not show (a bar at its total, replaced by the next one).
    public struct OverwrittenFrame: Sendable {
        public var afterFinal: Int
        public var rows: [RedrawnRow]

        public init(afterFinal: Int, rows: [RedrawnRow]) {
            self.afterFinal = afterFinal
            self.rows = rows
        }
    }

    public var final: [FinalRow]
    public var overwritten: [OverwrittenFrame]
    /// The rows still on the screen above the cursor that the command finished writing and
    /// does not redraw (lines of plain output), top first, read or not.
    public var finished: [FinalRow]
    /// Every row the command redraws now, top first, changed or not.
    public var redrawn: [RedrawnRow]
    /// The line the cursor is on, not ended yet and not redrawn (tar's dots), when it is not blank.
    public var unfinished: RedrawnRow?

    public init(
        final: [FinalRow] = [], overwritten: [OverwrittenFrame] = [], finished: [FinalRow] = [],
        redrawn: [RedrawnRow] = [], unfinished: RedrawnRow? = nil
    ) {
        self.final = final
        self.overwritten = overwritten
        self.finished = finished
        self.redrawn = redrawn
        self.unfinished = unfinished
    }
}
