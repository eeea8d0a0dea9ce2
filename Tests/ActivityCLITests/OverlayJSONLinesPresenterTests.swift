import ActivityOverlay
import ActivityWire
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ActivityCLI

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Overlay JSON-lines presenter")
struct OverlayJSONLinesPresenterTests {
    /// Reads a pipe to its end on a thread of its own.
    final class Drain: Sendable {
        let done = DispatchSemaphore(value: 0)
        let bytes = Mutex<[UInt8]>([])

        init(_ fd: Int32) {
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(fd, &buffer, buffer.count)
                    if count > 0 {
                        bytes.withLock { $0 += buffer[..<count] }
                    } else if count == 0 || errno != EINTR {
                        break
                    }
                }
                done.signal()
            }
        }

        /// The state lines written, read to the end once the write end `fds[1]` is closed (both
        /// ends are closed after).
        func states(closing fds: [Int32]) throws -> [[String: Any]] {
            close(fds[1])
            done.wait()
            close(fds[0])
            let lines = bytes.withLock { $0 }.split(separator: UInt8(ascii: "\n"))
            return try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) }
        }

        /// Waits until a state of `phase` has been written (the presenter's thread writes it on
        /// its own time); `false` only after a minute, against a hang.
        func waitFor(phase: String) -> Bool {
            let needle = Array("\"phase\":\"\(phase)\"".utf8)
            return Poll.until { bytes.withLock { $0.firstRange(of: needle) != nil } }
        }
    }

    @Test("states as they change, the grace and the flash on time, and an idle end")
    func stream() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let drain = Drain(fds[0])
        var configuration = OverlayConfiguration()
        configuration.graceMilliseconds = 40
        configuration.minimumShowMilliseconds = 40
        configuration.failureLingerMilliseconds = 40
        let presenter = OverlayJSONLinesPresenter(outputFD: fds[1], configuration: configuration)
        let id = ActivityID("a")!
        presenter.handle(.begin(.init(id: id, title: "Syncing", total: 10, cancellable: true, blocking: .block)))
        presenter.handle(.log(.init(message: "ignored")))
        presenter.handle(.progress(.init(id: id, completed: 5)))
        // The grace passes: the thread writes the visible state by itself, however long it takes.
        #expect(drain.waitFor(phase: "visible"))
        presenter.handle(.end(.init(id: id, status: .failure, error: "Offline")))
        // The failure flashes, then lingers its time, and the overlay goes back to idle.
        #expect(drain.waitFor(phase: "flashing"))
        presenter.handle(.begin(.init(id: ActivityID("b")!, title: "Never ends")))
        presenter.finish()
        presenter.finish()
        let objects = try drain.states(closing: fds)
        let phases = objects.map { $0["phase"] as? String ?? "?" }
        #expect(phases.first == "idle")
        #expect(phases.last == "idle")
        #expect(phases.contains("visible") && phases.contains("flashing"))
        let visible = try #require(objects.first { $0["phase"] as? String == "visible" })
        #expect(visible["fraction"] as? Double == 0.5)
        #expect(visible["blocksInput"] as? Bool == true)
        #expect(visible["announcements"] as? [String] == ["Syncing"])
        let flash = try #require(objects.first { $0["phase"] as? String == "flashing" })
        #expect(flash["message"] as? String == "Offline")
        #expect(objects.map { $0["time"] as? Int ?? -1 } == objects.map { $0["time"] as? Int ?? -1 }.sorted())
    }

    @Test("on a manual scheduler: each state at the time the scheduler gives, the grace to the millisecond")
    @MainActor
    func steppedTime() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let drain = Drain(fds[0])
        var configuration = OverlayConfiguration()
        configuration.graceMilliseconds = 400
        configuration.minimumShowMilliseconds = 400
        configuration.failureLingerMilliseconds = 400
        let scheduler = ManualOverlayScheduler()
        let presenter = OverlayJSONLinesPresenter(
            outputFD: fds[1], configuration: configuration, scheduler: scheduler)
        let id = ActivityID("a")!
        presenter.handle(.begin(.init(id: id, title: "Syncing", total: 10, blocking: .block)))
        scheduler.advance(to: 399)
        presenter.tick()
        scheduler.advance(to: 400)
        presenter.tick()
        scheduler.advance(to: 450)
        presenter.handle(.end(.init(id: id, status: .failure, error: "Offline")))
        scheduler.advance(to: 5_000)
        presenter.tick()
        presenter.finish()
        let objects = try drain.states(closing: fds)
        let visible = try #require(objects.first { $0["phase"] as? String == "visible" })
        #expect(visible["time"] as? Int == 400)
        let flash = try #require(objects.first { $0["phase"] as? String == "flashing" })
        #expect(flash["time"] as? Int == 450)
        #expect(objects.last?["phase"] as? String == "idle")
    }
}
