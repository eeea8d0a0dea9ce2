/// When the adapter reads the command's screen rows: after each read of the pseudo-terminal,
/// unless that read may have ended inside a frame the command wrote whole.
///
/// The kernel copies a write to a pseudo-terminal in pieces of 2048 bytes, and a read takes at
/// most 4095, so a frame written whole (as tqdm, rich and indicatif write theirs) can come in
/// two reads with the rest not there yet. Read then, its rows would show a bar cut short (`2/2`
/// of `20/20`). The command's output is read until the pty has nothing more (or the buffer is
/// full), so what counts is the last read and whether the buffer filled. After such a read the
/// rows wait for the next read, a moment at most (``pause``):
/// the rest of a write is on its way; and at most ``limit`` such reads in a row, for output that
/// fills every read.
struct RowsSchedule {
    static let pause = 0.02
    static let limit = 16

    /// When the rows are read at the latest, and how many reads in a row have been held.
    private(set) var due: (at: Double, reads: Int)?

    /// Whether a read of `count` bytes may have ended inside a write.
    static func mayEndInsideAWrite(_ count: Int) -> Bool {
        count >= 4095 || count % 2048 == 0
    }

    /// After reads whose last gave `lastRead` bytes, at `now`, the buffer they filled full or not:
    /// whether the rows are read now.
    mutating func readsAfter(_ lastRead: Int, bufferFull: Bool = false, at now: Double) -> Bool {
        let held = due?.reads ?? 0
        guard bufferFull || Self.mayEndInsideAWrite(lastRead), held < Self.limit else { return true }
        due = (due?.at ?? now + Self.pause, held + 1)
        return false
    }

    /// The seconds until the rows held are read, or `nil` when they are to be read now (none are
    /// held, or the pause is over).
    func wait(at now: Double) -> Double? {
        guard let due, now < due.at else { return nil }
        return due.at - now
    }

    /// The rows were read.
    mutating func didRead() { due = nil }
}
