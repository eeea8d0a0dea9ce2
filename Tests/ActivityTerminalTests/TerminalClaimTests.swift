import Foundation
import Testing

@testable import ActivityTerminal

/// A claim of the test's own, outside ``TerminalClaim/all``: no signal handler of the test
/// process touches it; the tests call what a handler would.
@Suite("TerminalClaim")
struct TerminalClaimTests {
    /// A claim taken on a pipe whose restore bytes are "R".
    private final class Claimed: Sendable {
        let claim = TerminalClaim(tracksShown: false, restoresAtExit: false)
        let read: Int32
        let write: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            (read, write) = (ends[0], ends[1])
            #expect(claim.take(output: write, bytes: Array("R".utf8)))
        }

        func drawFrame() {
            var frame = UInt8(ascii: "F")
            _ = Foundation.write(write, &frame, 1)
        }

        func written() -> String {
            close(write)
            var bytes = [UInt8](repeating: 0, count: 16)
            let count = Foundation.read(read, &bytes, bytes.count)
            close(read)
            return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        }
    }

    @Test("a handler restores the terminal only once a frame under way is written")
    func restoreWaitsForTheFrame() throws {
        let claimed = try Claimed()
        let inside = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let drawn = DispatchSemaphore(value: 0)
        let restored = DispatchSemaphore(value: 0)
        Thread {
            _ = claimed.claim.draw {
                inside.signal()
                go.wait()
                claimed.drawFrame()
            }
            drawn.signal()
        }.start()
        inside.wait()
        Thread {
            claimed.claim.restore(markingRestored: true)
            restored.signal()
        }.start()
        // The handler waits up to two seconds for the drawer: it cannot be done in a fifth.
        let early = restored.wait(timeout: .now() + 0.2) == .success
        #expect(!early, "restored in the middle of a frame")
        go.signal()
        drawn.wait()
        if !early { restored.wait() }
        #expect(claimed.written() == "FR")
        #expect(claimed.claim.wasRestored)
    }

    @Test("nothing is drawn while Ctrl-Z is under way; a drawer that must draw waits for the continue")
    func suspendKeepsDrawersOff() throws {
        let claimed = try Claimed()
        claimed.claim.beginSuspend()
        #expect(!claimed.claim.draw { Issue.record("drew while the process was being stopped") })
        let done = DispatchSemaphore(value: 0)
        Thread {
            #expect(claimed.claim.draw(waiting: true) { claimed.drawFrame() })
            done.signal()
        }.start()
        let early = done.wait(timeout: .now() + 0.1) == .success
        #expect(!early, "drew before the process was continued")
        claimed.claim.endSuspend()
        if !early { done.wait() }
        #expect(claimed.claim.consumeResumed())
        #expect(claimed.written() == "F")
    }

    @Test("the signals whose handler restores the terminal are blocked while drawing, and only then")
    func signalsBlockedWhileDrawing() throws {
        let claimed = try Claimed()
        @Sendable func blocked(_ signal: Int32) -> Bool {
            var current = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &current)
            return sigismember(&current, signal) == 1
        }
        let done = DispatchSemaphore(value: 0)
        // A thread of its own: the test's threads may block signals already.
        Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            let drew = claimed.claim.draw {
                #expect(blocked(SIGTSTP) && blocked(SIGINT) && blocked(SIGTERM) && blocked(SIGHUP))
                #expect(!blocked(SIGWINCH), "only what restores the terminal")
            }
            #expect(drew)
            #expect(!blocked(SIGTSTP) && !blocked(SIGINT), "the thread's mask is back")
            done.signal()
        }.start()
        done.wait()
        _ = claimed.written()
    }
}
