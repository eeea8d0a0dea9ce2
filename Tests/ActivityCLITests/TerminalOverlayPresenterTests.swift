import ActivityOverlay
import ActivityOverlayTerminal
import ActivityRendering
import ActivityWire
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ActivityCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Counts the SIGHUPs that reach the handler the test installs before the presenter's.
private let hangUps = Atomic<Int>(0)

@Suite("Terminal overlay presenter, in a pseudo-terminal", .serialized)
struct TerminalOverlayPresenterTests {
    static let environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]

    static var fast: OverlayConfiguration {
        var configuration = OverlayConfiguration()
        configuration.graceMilliseconds = 60
        configuration.minimumShowMilliseconds = 60
        configuration.successLingerMilliseconds = 60
        configuration.failureLingerMilliseconds = 60
        return configuration
    }

    static func begin(_ id: String, _ title: String, cancellable: Bool = true) -> ActivityEvent {
        .begin(.init(id: ActivityID(id)!, title: title, cancellable: cancellable, blocking: .dim))
    }

    @Test("draws on the alternate screen, swallows keys while blocking, Esc cancels, and restores everything")
    func fullCycle() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = pty.settings
        let cancels = Mutex<[[ActivityID]]>([])
        let presenter = try TerminalOverlayPresenter(
            environment: Self.environment, outputFD: pty.terminal, inputFD: pty.terminal, configuration: Self.fast
        ) { ids in cancels.withLock { $0.append(ids) } }
        defer { presenter.finish() }

        presenter.handle(Self.begin("a", "Signing in"))
        try pty.wait { pty.text.contains("Esc to cancel") }
        #expect(pty.text.contains("\u{1B}[?1049h\u{1B}[?25l"))
        #expect(pty.text.contains("Signing in"))
        #expect(pty.text.contains("48;5;236m"))  // dimmed
        #expect(pty.settings.c_lflag & tcflag_t(ECHO) == 0)
        #expect(pty.settings.c_lflag & tcflag_t(ICANON) == 0)

        // Letters and an arrow key, then Esc: the keys before it are swallowed, not echoed (an echo
        // would reach the screen before the "Cancelling…" the Esc draws). That an arrow key is no
        // Esc is the test of `containsEscape` below.
        pty.type(Array("zq\u{1B}[A".utf8))
        pty.type([0x1B])
        try pty.wait { !cancels.withLock { $0.isEmpty } }
        try pty.wait { pty.text.contains("Cancelling…") }
        #expect(!pty.text.contains("zq"))
        // A second Esc, once the presenter has read it, asks for nothing more.
        pty.type([0x1B])
        try pty.wait { presenter.cancelTaps == 2 }
        #expect(cancels.withLock { $0 } == [[ActivityID("a")!]])

        presenter.passthrough(Array("a line from the tool\n".utf8), from: .stdout)
        #expect(!pty.text.contains("a line from the tool"))  // held while the session is hidden
        presenter.handle(.end(.init(id: ActivityID("a")!, status: .cancelled)))
        try pty.wait { pty.text.contains("\u{1B}[?1049l\u{1B}[?25h") }
        try pty.wait { pty.text.contains("a line from the tool") }
        #expect(pty.settings.c_lflag == before.c_lflag)
        presenter.finish()
        presenter.finish()
        #expect(pty.settings.c_lflag == before.c_lflag)
    }

    @Test("onCancel may finish the overlay from the presenter's own thread")
    func finishFromCancel() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = pty.settings
        let box = Mutex<TerminalOverlayPresenter?>(nil)
        let finished = Atomic<Bool>(false)
        let presenter = try TerminalOverlayPresenter(
            environment: Self.environment, outputFD: pty.terminal, inputFD: pty.terminal, configuration: Self.fast
        ) { _ in
            box.withLock { $0 }?.finish()
            finished.store(true, ordering: .releasing)
        }
        box.withLock { $0 = presenter }
        defer { presenter.finish() }
        presenter.handle(Self.begin("a", "Deleting"))
        try pty.wait { pty.text.contains("Esc to cancel") }
        pty.type([0x1B])
        try pty.wait { finished.load(ordering: .acquiring) }
        try pty.wait { pty.text.hasSuffix("\u{1B}[?1049l\u{1B}[?25h") }
        #expect(pty.settings.c_lflag == before.c_lflag)
        // Ignored, and harmless: a blocking activity that reached the model would take the
        // keyboard at once, before this returns.
        presenter.handle(Self.begin("b", "After the end"))
        #expect(pty.settings.c_lflag == before.c_lflag)
        #expect(!pty.text.contains("After the end"))
    }

    /// A presenter on `pty` with a grace of 400 ms, whose time moves only with `scheduler`.
    static func stepped(
        on pty: TestSupport.PseudoTerminal, by scheduler: ManualOverlayScheduler
    ) throws
        -> TerminalOverlayPresenter
    {
        var configuration = fast
        configuration.graceMilliseconds = 400
        return try TerminalOverlayPresenter(
            environment: environment, outputFD: pty.terminal, inputFD: pty.terminal, configuration: configuration,
            scheduler: scheduler
        ) { _ in }
    }

    @Test("work shorter than the grace draws nothing, but blocks input meanwhile")
    @MainActor
    func shortWork() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let scheduler = ManualOverlayScheduler()
        let presenter = try Self.stepped(on: pty, by: scheduler)
        defer { presenter.finish() }
        presenter.handle(Self.begin("a", "Quick", cancellable: false))
        #expect(pty.settings.c_lflag & tcflag_t(ECHO) == 0)  // at once: the next tap is swallowed
        scheduler.advance(to: 399)
        presenter.tick()
        presenter.handle(.end(.init(id: ActivityID("a")!)))
        try pty.wait { pty.settings.c_lflag & tcflag_t(ECHO) != 0 }
        // Long past the grace and every later deadline: nothing was ever drawn.
        scheduler.advance(to: 60_000)
        presenter.tick()
        presenter.finish()
        #expect(presenter.bytesWritten == 0)
        #expect(pty.text.isEmpty)
    }

    @Test("work that outlasts the grace is drawn when the scheduler's time reaches it, not before")
    @MainActor
    func drawnAtTheGrace() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let scheduler = ManualOverlayScheduler()
        let presenter = try Self.stepped(on: pty, by: scheduler)
        defer { presenter.finish() }
        presenter.handle(Self.begin("a", "Slow", cancellable: false))
        scheduler.advance(to: 399)
        presenter.tick()
        #expect(presenter.bytesWritten == 0)
        scheduler.advance(to: 400)
        presenter.tick()
        #expect(presenter.bytesWritten > 0)
        try pty.wait { pty.text.contains("Slow") }
    }

    @Test("finish in the middle restores the terminal at once")
    func finishWhileVisible() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = pty.settings
        let presenter = try TerminalOverlayPresenter(
            environment: ["TERM": "xterm", "LANG": "C", "NO_COLOR": "1"], outputFD: pty.terminal,
            inputFD: pty.terminal, configuration: Self.fast
        ) { _ in }
        defer { presenter.finish() }
        presenter.handle(.begin(.init(id: ActivityID("a")!, title: "Copying", total: 4, blocking: .dim)))
        presenter.handle(.progress(.init(id: ActivityID("a")!, completed: 1)))
        try pty.wait { pty.text.contains("25%") }
        #expect(pty.text.contains("+-----"))  // ASCII box outside UTF-8 locales
        #expect(!pty.text.contains("48;5;236m"))  // NO_COLOR
        presenter.finish()
        try pty.wait { pty.text.hasSuffix("\u{1B}[?2026l\u{1B}[0m\u{1B}[?1049l\u{1B}[?25h") }
        #expect(pty.settings.c_lflag == before.c_lflag)
    }

    @Test("a signal restores the terminal, then reaches the handler that was there before")
    func signalRestores() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = pty.settings
        var counting = sigaction()
        counting.__sigaction_handler.sa_handler = { _ in hangUps.add(1, ordering: .relaxed) }
        var original = sigaction()
        sigaction(SIGHUP, &counting, &original)
        defer { sigaction(SIGHUP, &original, nil) }

        let presenter = try TerminalOverlayPresenter(
            environment: Self.environment, outputFD: pty.terminal, inputFD: pty.terminal, configuration: Self.fast
        ) { _ in }
        defer { presenter.finish() }
        presenter.handle(Self.begin("a", "Working"))
        try pty.wait { pty.text.contains("Working") && pty.settings.c_lflag & tcflag_t(ECHO) == 0 }
        kill(getpid(), SIGHUP)
        try pty.wait { hangUps.load(ordering: .relaxed) == 1 }
        #expect(pty.settings.c_lflag == before.c_lflag)
        try pty.wait { pty.text.hasSuffix("\u{1B}[?1049l\u{1B}[?25h") }
        presenter.finish()
        var current = sigaction()
        sigaction(SIGHUP, nil, &current)
        #expect(current.sa_flags & SA_SIGINFO == 0)  // the test's handler is back
        kill(getpid(), SIGHUP)
        try pty.wait { hangUps.load(ordering: .relaxed) == 2 }
    }

    @Test("a signal the program ignores leaves the overlay alone")
    func ignoredSignal() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        var original = sigaction()
        sigaction(SIGHUP, &ignore, &original)
        defer { sigaction(SIGHUP, &original, nil) }
        let presenter = try TerminalOverlayPresenter(
            environment: Self.environment, outputFD: pty.terminal, inputFD: pty.terminal, configuration: Self.fast
        ) { _ in }
        defer { presenter.finish() }
        presenter.handle(Self.begin("a", "Working"))
        try pty.wait { pty.text.contains("Working") && pty.settings.c_lflag & tcflag_t(ECHO) == 0 }
        // The presenter leaves an ignored signal ignored: the kernel drops it, so nothing can
        // happen after kill returns, and the checks after it need no wait.
        var current = sigaction()
        sigaction(SIGHUP, nil, &current)
        #expect(
            unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self))
        kill(getpid(), SIGHUP)
        #expect(pty.settings.c_lflag & tcflag_t(ECHO) == 0)
        #expect(!pty.text.contains("\u{1B}[?1049l"))
    }

    @Test(
        "a terminal emulator shows exactly the frame's centred box",
        .enabled(if: PyteScreen.isAvailable, "pyte is not installed (pip install pyte)")
    )
    func emulatedScreen() throws {
        let pty = try PseudoTerminal(columns: 50, rows: 12)
        defer { pty.close() }
        let presenter = try TerminalOverlayPresenter(
            environment: Self.environment, outputFD: pty.terminal, inputFD: nil, configuration: Self.fast
        ) { _ in }
        defer { presenter.finish() }
        let id = ActivityID("a")!
        let begin = ActivityEvent.begin(
            .init(id: id, title: "Uploading photos", total: 8, message: "IMG_0042.HEIC", cancellable: true))
        let progress = ActivityEvent.progress(.init(id: id, completed: 6))
        presenter.handle(begin)
        presenter.handle(progress)
        try pty.wait { pty.text.contains("Esc to cancel") && pty.text.hasSuffix("\u{1B}[?2026l") }

        var model = OverlayModel(configuration: Self.fast)
        _ = model.reduce(.event(begin), at: 0)
        _ = model.reduce(.event(progress), at: 0)
        _ = model.reduce(.tick, at: 1000)
        let expected = OverlayTerminalFrame(state: model.state, columns: 50, rows: 12).lines
        #expect(expected.contains { $0.contains("75%") })
        // pyte's rows, as tmux's, end at their last character.
        let trimmed = expected.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        #expect(try PyteScreen.rows(after: Array(pty.text.utf8), columns: 50, rows: 12) == trimmed)
    }

    @Test("not a terminal, or a dumb one: a clear error")
    func refusals() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { fds.forEach { Glibc.close($0) } }
        #expect(throws: TerminalOverlayError.self) {
            try TerminalOverlayPresenter(environment: Self.environment, outputFD: fds[1], inputFD: nil) { _ in }
        }
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(throws: TerminalOverlayError.self) {
            try TerminalOverlayPresenter(environment: ["TERM": "dumb"], outputFD: pty.terminal, inputFD: nil) { _ in }
        }
    }

    @Test(
        "a lone Esc cancels; arrow keys and other sequences do not",
        arguments: [
            ([0x1B], true), (Array("\u{1B}[A".utf8), false), (Array("x\u{1B}".utf8), true),
            (Array("\u{1B}OP".utf8), false),
            (Array("\u{1B}\u{1B}[B".utf8), true), (Array("abc".utf8), false),
        ])
    func escape(bytes: [UInt8], cancels: Bool) {
        #expect(TerminalOverlayPresenter.containsEscape(bytes[...]) == cancels)
    }
}
