import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

@testable import ActivityCLI

/// A frame the command wrote whole that reaches `activity run` in two reads: the kernel copies a
/// write to a pseudo-terminal in pieces of 2048 bytes, so the rows read after the first piece
/// would show a bar cut short.
@Suite("Adapters: frames cut by the pseudo-terminal's pieces")
struct FrameCutTests {
    static func bar(_ count: Int, of total: Int) -> String {
        let done = String(repeating: "█", count: count * 10 / total)
        let rest = String(repeating: " ", count: 10 - count * 10 / total)
        return "\rbuild: \(count * 100 / total)%|\(done)\(rest)| \(count)/\(total) [00:01<00:00, 19.00it/s]"
    }

    /// Escape sequences that draw nothing, `count` bytes of them (7 or more), as a display's
    /// styles fill a frame.
    static func styles(_ count: Int) -> String {
        var fours = count / 4
        while (count - fours * 4) % 3 != 0 { fours -= 1 }
        let threes = (count - fours * 4) / 3
        return String(repeating: "\u{1B}[0m", count: fours) + String(repeating: "\u{1B}[m", count: threes)
    }

    /// The writes of a tqdm bar whose last frame, `20/20`, is cut `offset` bytes into it.
    static func writes(cutAt offset: Int) -> [[UInt8]] {
        let last = Array(bar(20, of: 20).utf8)
        let first = Array((bar(0, of: 20) + bar(19, of: 20)).utf8)
        // The 2048-byte piece ends `offset` bytes into the last frame.
        let padding = styles(2048 - offset)
        return [first, Array(padding.utf8) + last, Array("\n".utf8)]
    }

    @Test("a bar's frame cut anywhere by the kernel's 2048-byte pieces is read whole: one bar, ending at 20/20")
    func cutFramesAreReadWhole() {
        let whole = ScreenReplay.adapt(chunks: Self.writes(cutAt: 30), with: "bars").tree
        #expect(whole == ["build success 20.0/20.0 "])
        var unscheduledDiffers = false
        for offset in 1..<Self.bar(20, of: 20).utf8.count {
            let writes = Self.writes(cutAt: offset)
            let read = ScreenReplay.adapt(writes: writes, with: "bars")
            #expect(read.tree == whole, "cut \(offset) bytes into the frame")
            #expect(read.isWellFormed)
            if ScreenReplay.adapt(writes: writes, with: "bars", scheduled: false).tree != whole {
                unscheduledDiffers = true
            }
        }
        // Read after every piece, some cut makes another bar of the half-drawn row, or ends the
        // bar short of its total: what the schedule is for.
        #expect(unscheduledDiffers)
    }

    @Test("the schedule: a read of whole pieces or a full one waits a moment for the rest, at most 16 in a row")
    func schedule() {
        var schedule = RowsSchedule()
        var reads = schedule.readsAfter(100, at: 0)
        #expect(reads)
        reads = schedule.readsAfter(2048, at: 1)
        #expect(!reads)
        #expect(schedule.wait(at: 1.01).map { abs($0 - 0.01) < 1e-9 } == true)
        #expect(schedule.wait(at: 1.02) == nil)
        reads = schedule.readsAfter(4095, at: 1.005)
        #expect(!reads)
        #expect(schedule.due?.at == 1.02, "the first held read sets when")
        schedule.didRead()
        var held = 0
        while !schedule.readsAfter(4096, at: 2) { held += 1 }
        #expect(held == RowsSchedule.limit)
        schedule.didRead()
        reads = schedule.readsAfter(952, at: 3)
        #expect(reads)
        reads = schedule.readsAfter(952, bufferFull: true, at: 4)
        #expect(!reads, "a full buffer may have cut a write, whatever the last read gave")
    }
}
