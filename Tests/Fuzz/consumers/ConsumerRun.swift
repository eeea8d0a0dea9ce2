import ActivityTerminal

@testable import ActivityOverlay
@testable import ActivityRendering
@testable import ActivityTimeline
@testable import ActivityWire

/// The display's clock, which the log file's renderer reads: the latest tick.
nonisolated(unsafe) var displayClock: Double = 0

/// One input's stream through every selected consumer, as a render session drives its renderers:
/// each event folded into the store, each change handed to every renderer, text passed through,
/// problems reported, ticks and resizes as the generator chose them, and the end of the stream.
final class ConsumerRun {
    let selected = Consumer.selected
    var store: ActivityStore
    var renderers: [(consumer: Consumer, renderer: any ActivityRenderer)] = []
    let ttyOutput = BufferOutput()
    let jsonOutput = BufferOutput()
    var tty: TerminalRenderer?
    var history: HistoryRecorder?
    var known = ActivityHistory()
    let decoder = ActivityEventDecoder()
    var lineNumber = 0
    var stream: [UInt8] = []

    init(_ choices: inout Choices) {
        store = ActivityStore(
            limits: .init(
                maxOpen: choices.pick([10_000, 1, 2, 10, 100]), retainedFinished: choices.pick([1000, 0, 1, 10])))
        let wantsHistory = !selected.isDisjoint(with: [.plain, .tty, .history])
        if wantsHistory, case let (read, _)? = try? ActivityHistory.decode(HistoryText.make(&choices)) {
            known = read
        }
        displayClock = choices.pick(StreamGenerator.startTimes)
        if selected.contains(.plain) {
            renderers.append(
                (.plain, TerminalRenderer(output: BufferOutput(), configuration: terminal(.plain, &choices))))
        }
        if selected.contains(.tty) {
            let renderer = TerminalRenderer(output: ttyOutput, configuration: terminal(.tty, &choices))
            tty = renderer
            renderers.append((.tty, renderer))
        }
        if selected.contains(.log) {
            renderers.append((.log, LogFileRenderer(output: BufferOutput(), format: .text) { displayClock }))
        }
        if selected.contains(.jsonl) {
            renderers.append((.jsonl, JSONLinesRenderer(output: jsonOutput)))
            renderers.append((.jsonl, LogFileRenderer(output: BufferOutput(), format: .jsonl) { displayClock }))
        }
        if selected.contains(.overlay) {
            renderers.append((.overlay, OverlayConsumer(&choices)))
        }
        if selected.contains(.history) {
            // Never saved: the runs it notes are read back below instead of through a file.
            let recorder = HistoryRecorder(path: "/nonexistent/history", readsEstimates: false)
            history = recorder
            renderers.append((.history, recorder))
        }
    }

    func terminal(_ mode: TerminalRenderer.Mode, _ choices: inout Choices) -> TerminalRenderer.Configuration {
        var configuration = TerminalRenderer.Configuration(
            mode: mode, style: TerminalStyle(unicode: !choices.oneIn(4), color: choices.bool()),
            size: TerminalSize(
                columns: choices.pick(StreamGenerator.widths), rows: choices.pick(StreamGenerator.heights)),
            displayIsTerminal: choices.bool(), refreshInterval: choices.pick([0.05, 0.1, 1]),
            plainProgressInterval: choices.pick([5, 0, 0.5, 1e9]),
            plainProgressMinimumInterval: choices.pick([1, 0, 0.1]),
            startTime: choices.oneIn(4) ? choices.pick(StreamGenerator.startTimes) : nil)
        configuration.verbosity = choices.pick([.normal, .quiet, .verbose])
        configuration.summary = choices.pick([.full, .short, .off])
        configuration.taskbarProgress = choices.oneIn(3)
        configuration.history = known.isEmpty && choices.bool() ? nil : known
        return configuration
    }

    func run(_ steps: [StreamGenerator.Step]) {
        for step in steps {
            switch step {
            case .line(let text): line(Array(text.utf8))
            case .tick(let time): tick(time)
            case .resize(let columns, let rows):
                for case let (_, renderer as TerminalRenderer) in renderers {
                    renderer.resize(to: TerminalSize(columns: columns, rows: rows))
                }
            }
        }
        finish()
        timeline()
    }

    func line(_ bytes: [UInt8]) {
        lineNumber += 1
        stream += bytes
        stream.append(0x0A)
        switch decoder.decode(bytes, line: lineNumber) {
        case .event(var event):
            if event.timestamp == nil { event.timestamp = displayClock }
            var updates: [ActivityUpdate] = []
            let diagnostics = store.apply(event, line: lineNumber) { updates.append($0) }
            for update in updates {
                for (_, renderer) in renderers { renderer.render(update, in: store) }
            }
            for diagnostic in diagnostics {
                for (_, renderer) in renderers { renderer.report(diagnostic, in: store) }
            }
        case .text:
            let target: StandardStream = lineNumber & 1 == 0 ? .stdout : .stderr
            for (_, renderer) in renderers { renderer.passthrough(bytes + [0x0A], to: target, in: store) }
        case .invalid(let problem), .ignored(let problem?):
            store.count(problem)
            for (_, renderer) in renderers { renderer.report(problem, in: store) }
        case .blank, .ignored(nil): break
        }
    }

    func tick(_ time: Double) {
        displayClock = max(0, min(time, WireValues.maxCount))
        for (_, renderer) in renderers where renderer.preferredTickInterval != nil || renderer is OverlayConsumer {
            renderer.tick(store, now: displayClock)
        }
    }

    func finish() {
        let end = max(displayClock, store.summary.lastTime ?? 0)
        var updates: [ActivityUpdate] = []
        store.finish(at: end) { updates.append($0) }
        for update in updates {
            for (_, renderer) in renderers { renderer.render(update, in: store) }
        }
        check(store.openCount == 0, .fold, "\(store.openCount) activities open after the end")
        for (_, renderer) in renderers { renderer.finish(store, now: end) }
        checkFrames()
        checkJSONLines()
        checkHistory()
    }

    /// A TTY write is one synchronized frame, never half of one.
    func checkFrames() {
        guard tty != nil else { return }
        for write in ttyOutput.writes {
            let text = String(decoding: write, as: UTF8.self)
            check(
                text.hasPrefix("\u{1B}[?2026h") && text.hasSuffix("\u{1B}[?2026l"), .tty,
                "a write outside a synchronized frame: \(text.debugDescription.prefix(200))")
        }
    }

    /// The normalized stream is events only, each a producer's line of at most 4096 bytes.
    func checkJSONLines() {
        for line in jsonOutput.bytes.split(separator: 0x0A) {
            check(line.count < WireLimits.maxProducedLineBytes, .jsonl, "a line of \(line.count) bytes")
            guard case .event = decoder.decode(line, line: 1) else {
                return check(false, .jsonl, "a line that is no event: \(String(decoding: line, as: UTF8.self))")
            }
        }
    }

    /// The history with this run's successes added reads back whole from the text it writes.
    func checkHistory() {
        guard let history else { return }
        var merged = known
        merged.merge(history.runs)
        let text = merged.encoded()
        guard case let (read, problem)? = try? ActivityHistory.decode(text) else {
            return check(false, .history, "its own text is not a history")
        }
        check(problem == nil, .history, "its own text has an unreadable line: \(problem!)")
        check(
            read.entries.count == merged.entries.count, .history,
            "\(merged.entries.count) paths read back as \(read.entries.count)")
    }

    /// A page of few bars, as a large recording's is: drawn from the activities its plan names
    /// alone (what `activity report` keeps in its second pass), it is the whole timeline's.
    func plannedReport(_ timeline: Timeline) {
        var writer = HTMLReportWriter(title: "fuzz")
        writer.budget = 3
        writer.failuresListed = 2
        writer.criticalPathRows = 2
        writer.slowestCount = 2
        writer.namedAggregates = 1
        let plan = writer.plan(TimelineSkeleton(timeline))
        check(plan.needed.count <= plan.textBudget, .report, "the plan needs \(plan.needed.count) activities")
        let needed = Set(plan.needed)
        var outside = 0
        let page = writer.write(plan, looseLogCount: timeline.looseLogs.count) { index in
            if !needed.contains(index) { outside += 1 }
            return writer.shownPart(of: timeline.activities[index])
        }
        check(outside == 0, .report, "the page asked for \(outside) activities outside its plan")
        check(page == writer.write(timeline), .report, "the page drawn from its plan is not the whole timeline's")
    }

    /// The recording, as `report` and `export` read it: all of the stream at once.
    func timeline() {
        guard !selected.isDisjoint(with: [.report, .chromeTrace, .otlpJSON]) else { return }
        guard let (timeline, _) = try? Timeline.read(BytesSource(stream, chunkSize: 4096)) else {
            return check(false, .report, "an in-memory recording cannot fail to read")
        }
        if selected.contains(.report) {
            let html = HTMLReportWriter(title: "fuzz", source: "fuzz.jsonl", skippedLines: lineNumber).write(timeline)
            check(html.hasSuffix("</html>\n"), .report, "the page does not end in </html>")
            _ = SVGTimelineWriter(title: "fuzz").write(timeline)
            _ = SVGTimelineWriter(width: 1).write(timeline)
            plannedReport(timeline)
        }
        if selected.contains(.chromeTrace) {
            JSONCheck.document(ChromeTraceWriter().write(timeline), .chromeTrace)
        }
        if selected.contains(.otlpJSON) {
            JSONCheck.document(OTLPTraceWriter(version: "0.0.0").write(timeline), .otlpJSON)
        }
    }
}
