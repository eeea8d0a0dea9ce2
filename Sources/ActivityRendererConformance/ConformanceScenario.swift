import ActivityRendering
import ActivityWire

extension RendererConformance {
    /// The event sequences a renderer is driven through, each with a renderer of its own.
    public enum Scenario: String, Sendable, Hashable, CaseIterable {
        /// Nothing at all: the stream ends before its first event.
        case empty
        /// A build: a root, two levels of children, determinate and indeterminate totals, a total
        /// that grows, messages, a title that changes, logs at every level, and an end of each
        /// status.
        case nested
        /// Producers' text that would act on a terminal: escape sequences, C0 and C1 controls in
        /// titles, messages, units, errors, attributes, log lines and passed-through output; titles
        /// of 10,000 characters, wide and combining characters, invalid UTF-8.
        case hostileText
        /// What a consumer must survive: progress and ends for unknown ids, a duplicate begin, a
        /// second end, an unknown parent, input problems, notices, passed-through output cut
        /// mid-line, and activities left open when the stream ends.
        case brokenStream
        /// 1,000 activities open at once, each advanced 5 times.
        case manyActivities
    }

    /// One thing that happens to a renderer.
    enum Step {
        case event(ActivityEvent)
        case passthrough([UInt8], StandardStream)
        case problem(Diagnostic)
        case notice(String)
    }

    /// The first event's time, Unix seconds; each step is 1 ms after the one before.
    static let startTime = 1_800_000_000.0
    static let stepInterval = 0.001

    /// A control sequence or control character a producer might send, which the check puts in
    /// front of a marker of its own so that it can tell which one reached the output as it came.
    struct Hostile {
        let name: String
        let opening: String
        var closing = ""
        /// A C1 control, which only a terminal obeys.
        var c1 = false

        /// The text as the check sends it in a field of an event (`event`) or as passed-through
        /// output (`passthrough`).
        func text(in place: String) -> String { opening + "conformance-\(place)-\(name)" + closing }
    }

    static let hostile: [Hostile] = [
        Hostile(name: "title", opening: "\u{1B}]0;", closing: "\u{07}"),
        Hostile(name: "clear", opening: "\u{1B}[2J"),
        Hostile(name: "red", opening: "\u{1B}[31m"),
        Hostile(name: "link", opening: "\u{1B}]8;;https://example.invalid\u{1B}\\"),
        Hostile(name: "cursor", opening: "\u{1B}[?25l"),
        Hostile(name: "backspace", opening: "\u{08}\u{08}"),
        Hostile(name: "bell", opening: "\u{07}"),
        Hostile(name: "c1-clear", opening: "\u{9B}2J", c1: true),
        Hostile(name: "c1-title", opening: "\u{9D}0;", closing: "\u{9C}", c1: true),
    ]

    static func steps(of scenario: Scenario) -> [Step] {
        switch scenario {
        case .empty: []
        case .nested: nestedSteps()
        case .hostileText: hostileSteps()
        case .brokenStream: brokenSteps()
        case .manyActivities: manySteps()
        }
    }

    static func id(_ text: String) -> ActivityID {
        // Every id here is made of the characters the protocol allows.
        ActivityID(text)!
    }

    private static func nestedSteps() -> [Step] {
        let build = id("build")
        let fetch = id("build.fetch")
        let compile = id("build.compile")
        var steps: [Step] = [
            .event(.begin(.init(id: build, title: "Build"))),
            .event(.begin(.init(id: fetch, title: "Fetch", parent: build, total: 4_096, unit: "bytes"))),
            .event(.begin(.init(id: compile, title: "Compile", parent: build, total: 3, unit: "files"))),
        ]
        for chunk in 1...8 {
            steps.append(.event(.progress(.init(id: fetch, completed: Double(chunk * 512)))))
        }
        steps.append(.event(.end(.init(id: fetch, status: .success, message: "fetched"))))
        for file in 0..<3 {
            let child = id("build.compile.\(file)")
            steps += [
                .event(.begin(.init(id: child, title: "file\(file).swift", parent: compile))),
                .event(.log(.init(message: "compiling file\(file).swift", id: child, level: .debug))),
                .event(.end(.init(id: child, status: file == 2 ? .skipped : .success))),
                .event(.progress(.init(id: compile, completed: Double(file + 1), message: "file\(file).swift"))),
            ]
        }
        steps.append(.event(.progress(.init(id: compile, total: .value(5), title: "Compile (more files)"))))
        steps.append(.event(.progress(.init(id: compile, total: .indeterminate))))
        steps.append(.event(.log(.init(message: "a warning for the build", id: build, level: .warning))))
        steps.append(.event(.log(.init(message: "a line about nothing open", level: .info))))
        steps.append(.event(.end(.init(id: compile, status: .failure, error: "file3.swift: 2 errors"))))
        let test = id("build.test")
        steps.append(.event(.begin(.init(id: test, title: "Test", parent: build, cancellable: true))))
        steps.append(.event(.end(.init(id: test, status: .cancelled))))
        steps.append(.event(.end(.init(id: build, status: .failure, error: "Compile failed"))))
        return steps
    }

    private static func hostileSteps() -> [Step] {
        var steps: [Step] = []
        for (index, hostile) in hostile.enumerated() {
            let activity = id("hostile.\(index)")
            let text = hostile.text(in: "event")
            let line = Array((hostile.text(in: "passthrough") + "\n").utf8)
            let begin = ActivityEvent.Begin(
                id: activity, title: text, total: 10, unit: text, message: text, attrs: ["note": .string(text)])
            steps.append(.event(.begin(begin)))
            steps.append(.event(.progress(.init(id: activity, completed: 5, message: text, title: text))))
            steps.append(.event(.log(.init(message: text, id: activity, level: .error))))
            steps.append(.event(.log(.init(message: text, level: .warning))))
            steps.append(.passthrough(line, .stdout))
            steps.append(.passthrough(line, .stderr))
            steps.append(.problem(Diagnostic(line: index + 1, code: .invalidJSON, message: text)))
            steps.append(.notice(text))
            steps.append(.event(.end(.init(id: activity, status: .failure, message: text, error: text))))
        }
        let wide = id("hostile.wide")
        steps += [
            .event(.begin(.init(id: wide, title: String(repeating: "long title ", count: 1_000)))),
            .event(.progress(.init(id: wide, message: String(repeating: "界e\u{301}👩‍👩‍👧", count: 500)))),
            .passthrough([0x66, 0xFF, 0xFE, 0xC3, 0x0A], .stdout),
            .event(.end(.init(id: wide, status: .success))),
        ]
        return steps
    }

    private static func brokenSteps() -> [Step] {
        let open = id("broken.open")
        let child = id("broken.child")
        return [
            .event(.progress(.init(id: id("broken.unknown"), completed: 1))),
            .event(.end(.init(id: id("broken.unknown"), status: .success))),
            .event(.begin(.init(id: open, title: "Left open", total: 2))),
            .event(.begin(.init(id: open, title: "Begun twice"))),
            .event(.begin(.init(id: child, title: "Orphan", parent: id("broken.nobody")))),
            .event(.end(.init(id: child, status: .success))),
            .event(.end(.init(id: child, status: .failure, error: "ended twice"))),
            .event(.progress(.init(id: open, completed: 3))),
            .event(.progress(.init(id: open, completed: -1, total: .value(-5)))),
            .event(.log(.init(message: "about an activity that is gone", id: child))),
            .problem(Diagnostic(line: 7, code: .invalidJSON, message: "expected a value", source: "{\"v\":1,")),
            .problem(Diagnostic(line: 8, code: .lineTooLong, message: "longer than 65536 bytes")),
            .notice("plugin activity-render-example exited with status 1"),
            .passthrough(Array("part of a li".utf8), .stdout),
            .passthrough(Array("ne, then the rest\n".utf8), .stdout),
            .passthrough(Array("no newline at the end".utf8), .stderr),
            .event(.begin(.init(id: id("broken.nested"), title: "Nested, left open", parent: open))),
        ]
    }

    private static func manySteps() -> [Step] {
        let count = 1_000
        var steps: [Step] = []
        steps.reserveCapacity(count * 7)
        for index in 0..<count {
            steps.append(.event(.begin(.init(id: id("many.\(index)"), title: "Item \(index)", total: 5))))
        }
        for round in 1...5 {
            for index in 0..<count {
                steps.append(.event(.progress(.init(id: id("many.\(index)"), completed: Double(round)))))
            }
        }
        for index in 0..<count {
            steps.append(.event(.end(.init(id: id("many.\(index)"), status: .success))))
        }
        return steps
    }
}
