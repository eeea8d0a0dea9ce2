import ActivityRendering
import ActivityWire
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Event builders for tests.
enum E {
    static func id(_ text: String) -> ActivityID { ActivityID(text)! }

    static func begin(
        _ id: String, _ title: String, parent: String? = nil, total: Double? = nil, completed: Double = 0,
        unit: String? = nil, message: String? = nil, at time: Double
    ) -> ActivityEvent {
        .begin(
            .init(
                id: Self.id(id), title: title, parent: parent.map(Self.id), total: total, completed: completed,
                unit: unit, message: message, timestamp: time))
    }

    static func progress(
        _ id: String, _ completed: Double? = nil, total: ActivityEvent.Total? = nil, message: String? = nil,
        title: String? = nil, at time: Double
    ) -> ActivityEvent {
        .progress(
            .init(id: Self.id(id), completed: completed, total: total, message: message, title: title, timestamp: time))
    }

    static func end(
        _ id: String, _ status: ActivityEvent.Status = .success, error: String? = nil, message: String? = nil,
        at time: Double
    ) -> ActivityEvent {
        .end(.init(id: Self.id(id), status: status, message: message, error: error, timestamp: time))
    }

    static func log(
        _ message: String, id: String? = nil, level: ActivityEvent.Level = .info, at time: Double
    )
        -> ActivityEvent
    {
        .log(.init(message: message, id: id.map(Self.id), level: level, timestamp: time))
    }
}

/// A terminal renderer wired to a buffer, a store and a screen emulator.
final class TerminalHarness {
    let buffer = BufferOutput()
    var store: ActivityStore
    let renderer: TerminalRenderer
    var screen: ScreenEmulator
    var transcript = ""
    private var consumed = 0
    /// Every write the renderer made, each checked to be one whole synchronized frame.
    var frameProblems: [String] = []

    convenience init(
        columns: Int = 80, rows: Int = 24, mode: TerminalRenderer.Mode = .tty, unicode: Bool = true,
        color: Bool = false,
        limits: ActivityStore.Limits = .init(), verbosity: Verbosity = .normal
    ) {
        var configuration = TerminalRenderer.Configuration(
            mode: mode, style: TerminalStyle(unicode: unicode, color: color),
            size: TerminalSize(columns: columns, rows: rows), displayIsTerminal: true, startTime: 0)
        configuration.verbosity = verbosity
        self.init(configuration: configuration, limits: limits)
    }

    init(configuration: TerminalRenderer.Configuration, limits: ActivityStore.Limits = .init()) {
        store = ActivityStore(limits: limits)
        renderer = TerminalRenderer(output: buffer, configuration: configuration)
        screen = ScreenEmulator(columns: configuration.size.columns, rows: configuration.size.rows)
    }

    func send(_ events: ActivityEvent...) {
        for event in events {
            var updates: [ActivityUpdate] = []
            let diagnostics = store.apply(event, line: 0) { updates.append($0) }
            for update in updates { renderer.render(update, in: store) }
            for diagnostic in diagnostics { renderer.report(diagnostic, in: store) }
        }
        absorb()
    }

    /// Passes `text` through as one line of the stream (its newline added).
    func passthrough(_ text: String, to stream: ActivityRendering.StandardStream = .stderr) {
        renderer.passthrough(Array((text + "\n").utf8), to: stream, in: store)
        absorb()
    }

    /// Draws a frame at `time` and records the screen under `label`.
    func frame(at time: Double, _ label: String) {
        renderer.tick(store, now: time)
        absorb()
        snapshot(label)
    }

    func finish(at time: Double, _ label: String = "final") {
        var updates: [ActivityUpdate] = []
        store.finish(at: time) { updates.append($0) }
        for update in updates { renderer.render(update, in: store) }
        renderer.finish(store, now: time)
        absorb()
        snapshot(label)
    }

    func resize(columns: Int, rows: Int) {
        screen.resize(columns: columns, rows: rows)
        renderer.resize(to: TerminalSize(columns: columns, rows: rows))
    }

    func snapshot(_ label: String) {
        transcript += "--- \(label) (cursor \(screen.cursorVisible ? "visible" : "hidden")) ---\n" + screen.picture
    }

    private func absorb() {
        for write in buffer.writes[consumed...] {
            if renderer.configuration.mode == .tty {
                let text = String(decoding: write, as: UTF8.self)
                if !text.hasPrefix("\u{1B}[?2026h") || !text.hasSuffix("\u{1B}[?2026l") {
                    frameProblems.append("a write outside a synchronized frame: \(text.debugDescription.prefix(80))")
                }
            }
            screen.feed(write)
        }
        consumed = buffer.writes.count
    }
}

/// Golden files under `Tests/ActivityRenderingTests/Golden`. Set `ACTIVITY_RECORD_GOLDEN=1` to
/// write them from the current output instead of comparing.
enum Golden {
    static let directory: String = {
        let file = #filePath
        let tests = file.split(separator: "/").dropLast(2).joined(separator: "/")
        return "/" + tests + "/Golden"
    }()

    static var recording: Bool { getenv("ACTIVITY_RECORD_GOLDEN").map { String(cString: $0) == "1" } ?? false }

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name
        if recording {
            writeFile(path, actual)
            return
        }
        guard let expected = readFile(path) else {
            Issue.record(
                "missing golden file \(name); run with ACTIVITY_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            var firstDifference = 0
            while firstDifference < min(expectedLines.count, actualLines.count),
                expectedLines[firstDifference] == actualLines[firstDifference]
            {
                firstDifference += 1
            }
            let want = firstDifference < expectedLines.count ? String(expectedLines[firstDifference]) : "<end>"
            let got = firstDifference < actualLines.count ? String(actualLines[firstDifference]) : "<end>"
            Issue.record(
                "\(name) differs at line \(firstDifference + 1):\n  expected: \(want)\n  actual:   \(got)",
                sourceLocation: sourceLocation)
        }
    }
}

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

func writeFile(_ path: String, _ text: String, mode: String = "wb") {
    // "e": close-on-exec. A child another test spawns meanwhile must not inherit the descriptor,
    // or running the file (a plugin script) fails with "Text file busy".
    guard let file = fopen(path, mode + "e") else { return }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    _ = fwrite(bytes, 1, bytes.count, file)
}

/// A fresh temporary directory, removed by `body`'s end.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) rethrows -> T {
    let folder = try! TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    return try body(folder.url.path)
}
