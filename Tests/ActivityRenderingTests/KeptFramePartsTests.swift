import ActivityRendering
import ActivityWire
import Testing

/// The live region keeps texts from frame to frame (the header's counts, each row's rate,
/// ETA and elapsed time) and makes them again only when what they show changes: every frame
/// must still show what formatting the values afresh would.
@Suite("TTY frames: kept parts show what fresh ones would")
struct KeptFramePartsTests {
    @Test("the header's counts follow begins, ends and failures", arguments: [false, true])
    func headerCounts(color: Bool) {
        let h = TerminalHarness(columns: 80, rows: 10, color: color)
        h.send(E.begin("a", "Fetch", at: 0), E.begin("b", "Build", at: 0), E.begin("c", "Test", at: 0))
        h.frame(at: 0.1, "three")
        #expect(h.screen.picture.contains("3 running · 0/3 done · 0.1s"))
        h.frame(at: 0.2, "three, later")
        #expect(h.screen.picture.contains("3 running · 0/3 done · 0.2s"))
        h.send(E.end("a", at: 0.3))
        h.frame(at: 0.3, "one done")
        #expect(h.screen.picture.contains("2 running · 1/3 done · 0.3s"))
        h.send(E.end("b", .failure, error: "exit 1", at: 0.4))
        h.frame(at: 0.4, "one failed")
        #expect(h.screen.picture.contains("1 running · 2/3 done · 1 failed · 0.4s"))
        h.finish(at: 0.5)
    }

    @Test("a header too wide for the terminal is cut as before")
    func narrowHeader() {
        let h = TerminalHarness(columns: 24, rows: 8)
        h.send(E.begin("a", "Fetch", at: 0), E.begin("b", "Build", at: 0))
        h.frame(at: 12.3, "narrow")
        #expect(h.screen.picture.contains("⠸ 2 running · 0/2 done…"))
        #expect(!h.screen.wrapped)
        h.finish(at: 13)
    }

    @Test("each frame's rate, ETA and elapsed time are what the values at that time give")
    func rowParts() throws {
        let h = TerminalHarness(columns: 100, rows: 6)
        h.send(E.begin("dl", "Downloading", total: 1000, unit: "files", at: 0))
        var completed = 0.0
        var time = 0.0
        for step in 0..<60 {
            time += 0.05
            if step % 7 != 6 {
                completed += Double(step % 5 + 1)
                h.send(E.progress("dl", completed, at: time))
            }
            h.frame(at: time, "t=\(step)")
            let activity = try #require(h.store[E.id("dl")])
            let picture = h.screen.picture
            if let rate = activity.rate(at: time) {
                #expect(picture.contains(Formatting.rate(rate, unit: "files")), "\(time)")
            }
            #expect(picture.contains(Formatting.duration(time)), "\(time)")
        }
        h.finish(at: time + 0.05)
    }
}
