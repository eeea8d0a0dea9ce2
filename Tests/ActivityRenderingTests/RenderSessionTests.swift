import ActivityRendering
import ActivityWire
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A temporary file to draw on: the display descriptor of a session under test.
final class DisplayFile {
    let path: String
    let descriptor: Int32

    init(directory: String, name: String = "display") {
        path = directory + "/" + name
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }

    deinit { close(descriptor) }

    var text: String { readFile(path) ?? "" }
}

@Suite("RenderSession", .serialized)
struct RenderSessionTests {
    func options(_ display: DisplayFile, mode: RenderMode = .auto, environment: [String: String] = [:]) -> RenderOptions
    {
        RenderOptions(mode: mode, displayFileDescriptor: display.descriptor, environment: environment)
    }

    @Test("auto mode is plain on a file; events, passthrough and problems reach the display")
    func plainSession() throws {
        try withTemporaryDirectory { directory in
            let display = DisplayFile(directory: directory)
            let session = try RenderSession(
                options: options(display, environment: ["TERM": "xterm", "LANG": "C.UTF-8"]))
            #expect(session.mode == .plain)
            session.handle(E.begin("a", "Fetch", total: 2, at: 100))
            session.handle(E.begin("one", "Resolving deltas", total: 1, at: 100))
            session.handle(.progress(.init(id: E.id("a"), completed: 1)))
            session.report(Diagnostic(line: 3, code: .invalidJSON, message: "not JSON"))
            session.report(Diagnostic(line: 4, code: .invalidJSON, message: "not JSON"))
            session.handle(E.end("a", at: 101))
            session.finish()
            session.finish()
            session.handle(E.begin("late", "Late", at: 102))
            let text = display.text
            #expect(text.contains("▶ Fetch (2 items)"))
            #expect(text.contains("▶ Resolving deltas (1 item)"), "one item, not 1 items")
            #expect(text.contains("✔ Fetch  1.0s"))
            #expect(text.components("warning: input line").count == 2)
            #expect(!text.contains("Late"))
            #expect(!text.utf8.contains(0x1B))
            #expect(session.summary.diagnosticCount == 2)
        }
    }

    @Test("handle is thread-safe")
    func concurrent() throws {
        try withTemporaryDirectory { directory in
            let display = DisplayFile(directory: directory)
            let session = try RenderSession(options: options(display, mode: .jsonl))
            let threads = 4
            let done = Atomic<Int>(0)
            for thread in 0..<threads {
                Thread.detach {
                    for index in 0..<500 {
                        let id = "t\(thread).\(index)"
                        session.handle(E.begin(id, id, total: 1, at: 1))
                        session.handle(.progress(.init(id: E.id(id), completed: 1)))
                        session.handle(.end(.init(id: E.id(id))))
                    }
                    done.add(1, ordering: .releasing)
                }
            }
            #expect(Poll.until(every: 0.001) { done.load(ordering: .acquiring) == threads })
            session.finish()
            #expect(session.summary.count(.success) == threads * 500)
            let lines = display.text.split(separator: "\n")
            #expect(lines.count == threads * 500 * 3)
            #expect(lines.allSatisfy { $0.hasPrefix("{\"v\":1,") && $0.contains("\"ts\":") })
        }
    }

    @Test("the log display mode and a log file next to the display")
    func logModes() throws {
        try withTemporaryDirectory { directory in
            let display = DisplayFile(directory: directory)
            var options = options(display, mode: .log)
            options.logFile = directory + "/events.jsonl"
            options.logFormat = .jsonl
            let session = try RenderSession(options: options)
            session.handle(E.begin("a", "A", at: 1))
            session.passthrough(Array("tool output".utf8), to: .stderr)
            session.finish()
            // A signal's finish races the reading thread: what comes after the summary is dropped.
            session.passthrough(Array("late output".utf8), to: .stderr)
            session.report(Diagnostic(line: 9, code: .invalidJSON, message: "late problem"))
            #expect(!display.text.contains("late"))
            #expect(display.text.split(separator: "\n").last?.contains(" summary ") == true, "the summary comes last")
            #expect(display.text.contains("begin id=a title=A"))
            #expect(display.text.contains("output stream=stderr text=\"tool output\""))
            #expect(display.text.contains("end id=a title=A status=abandoned"))
            let recorded = readFile(directory + "/events.jsonl") ?? ""
            #expect(recorded.split(separator: "\n").count == 2)
            #expect(recorded.contains("\"status\":\"abandoned\""))
        }
    }

    @Test("set-up errors are clear")
    func errors() {
        var options = RenderOptions(mode: .plain, logFile: "/nonexistent/dir/log", environment: [:])
        #expect(throws: RenderError.self) { _ = try RenderSession(options: options) }
        options.logFile = nil
        options.plugins = ["missing-one"]
        options.environment = ["PATH": "/nonexistent"]
        do {
            _ = try RenderSession(options: options)
            Issue.record("a missing plugin was accepted")
        } catch {
            #expect(
                error.message == "plugin \"missing-one\" not found: no executable activity-render-missing-one on PATH")
        }
        options.plugins = ["../evil"]
        #expect(throws: RenderError.self) { _ = try RenderSession(options: options) }
    }

    @Test("auto picks tty only on a terminal with a usable TERM and no CI")
    func modeResolution() throws {
        try withPseudoTerminal { _, terminal in
            func resolve(_ environment: [String: String]) -> RenderMode {
                RenderOptions(displayFileDescriptor: terminal, environment: environment).resolvedMode()
            }
            #expect(resolve(["TERM": "xterm-256color"]) == .tty)
            #expect(resolve(["TERM": "dumb"]) == .plain)
            #expect(resolve([:]) == .plain)
            #expect(resolve(["TERM": "xterm", "CI": "true"]) == .plain)
            #expect(resolve(["TERM": "xterm", "CI": ""]) == .tty)
        }
        #expect(RenderOptions(displayFileDescriptor: -1, environment: ["TERM": "xterm"]).resolvedMode() == .plain)
    }

    @Test("tty mode on a pseudo-terminal: timer frames, a resize, the cursor restored at the end")
    func ttySession() throws {
        try withPseudoTerminal { controller, terminal in
            var size = winsize(ws_row: 10, ws_col: 50, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
            let session = try RenderSession(
                options: RenderOptions(
                    displayFileDescriptor: terminal, environment: ["TERM": "xterm", "LANG": "C.UTF-8"]))
            #expect(session.mode == .tty)
            session.handle(E.begin("a", "Working", total: 10, at: WallClock.now()))
            var output = readAvailable(controller, until: "Working")
            #expect(output.contains("\u{1B}[?25l"))
            size.ws_col = 30
            _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
            raise(SIGWINCH)
            session.handle(.progress(.init(id: E.id("a"), completed: 5, message: "halfway there")))
            output += readAvailable(controller, until: "50%")
            session.finish()
            output += readAvailable(controller, until: "\u{1B}[?25h")
            #expect(output.hasSuffix("\u{1B}[?25h\u{1B}[?2026l"))
            var screen = ScreenEmulator(columns: 50, rows: 10)
            screen.feed(Array(output.utf8))
            #expect(screen.cursorVisible)
            #expect(screen.unexpected.isEmpty)
            #expect(screen.grid.contains { screen.line($0).hasPrefix("? Working") })
        }
    }
}

/// Runs `body` with a pseudo-terminal: the controller side (read what was drawn) and the
/// terminal side (the display).
func withPseudoTerminal(_ body: (Int32, Int32) throws -> Void) throws {
    // posix_openpt and friends are hidden from Swift's Glibc module; use the Linux ioctls.
    let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    try #require(controller >= 0)
    defer { close(controller) }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    try #require(ioctl(controller, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0)
    try #require(ioctl(controller, 0x8004_5430 /* TIOCGPTN */, &number) == 0)
    let name = "/dev/pts/\(number)"
    let terminal = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
    try #require(terminal >= 0)
    defer { close(terminal) }
    var settings = termios()
    tcgetattr(terminal, &settings)
    settings.c_oflag &= ~tcflag_t(OPOST)
    tcsetattr(terminal, TCSANOW, &settings)
    try body(controller, terminal)
}

/// Reads from `descriptor` until `marker` appears or two seconds pass.
func readAvailable(_ descriptor: Int32, until marker: String) -> String {
    var collected: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    for _ in 0..<200 {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, 10) > 0 {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 { collected += buffer[0..<count] }
        }
        if String(decoding: collected, as: UTF8.self).contains(marker) { break }
    }
    return String(decoding: collected, as: UTF8.self)
}

extension String {
    func components(_ separator: String) -> [Substring] {
        var parts: [Substring] = []
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts
    }
}

/// A detached thread, without Foundation.
enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, box)
        pthread_detach(thread)
    }
}
