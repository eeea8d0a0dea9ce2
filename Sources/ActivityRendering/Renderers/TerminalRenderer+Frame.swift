import ActivityTerminal
import ActivityWire

/// Building the live region: which lines, and how each activity's line is laid out.
extension TerminalRenderer {
    /// The widest a live line may be: one column short of the edge, so the cursor never sits in
    /// the pending-wrap state where `CSI K` would erase the last character.
    var lineWidth: Int { max(1, configuration.size.columns - 1) }

    /// Encodes the live region at `now` into `body`, at most rows − 1 lines, each followed by
    /// `CSI K` and a newline; `widths` receives each line's display width.
    func encodeFrame(_ store: ActivityStore, now: Double, into body: ByteBuffer, widths: inout [Int]) {
        widths.removeAll(keepingCapacity: true)
        // Rows − 1 lines at most; a one-row terminal gets no live region, only permanent lines.
        let maxLines = configuration.size.rows - 1
        guard store.openCount > 0, maxLines > 0 else { return }
        let width = lineWidth
        let showHeader = store.summary.begun > 1 && maxLines > 1
        if showHeader { widths.append(encode(headerLine(store, now: now), width: width, into: body)) }
        let budget = maxLines - widths.count
        // Lines are written as the tree is walked; one activity past the budget means "+N more",
        // written over the line of the last activity that would have fitted.
        var shown = 0
        var lastLineStart = 0
        store.forEachOpen { activity in
            if shown < budget - 1 {
                widths.append(writeActivityLine(activity, now: now, width: width, into: body))
            } else if shown == budget - 1 {
                lastLineStart = body.count
                widths.append(writeActivityLine(activity, now: now, width: width, into: body))
            }
            shown += 1
            return shown <= budget
        }
        if shown > budget {
            body.removeLast(body.count - lastLineStart)
            widths.removeLast()
            let more = StyledLine(style.ellipsis + " +" + String(store.openCount - (budget - 1)) + " more", .dim)
            widths.append(encode(more, width: width, into: body))
        }
        if lineCache.count > 2 * max(16, store.openCount) {
            lineCache = lineCache.filter { entry in
                store[entry.value.handle].map { $0.isRunning && $0.sequence == entry.key } ?? false
            }
        }
    }

    /// Writes `line`, cut to `width`, and the end of a live line into `body`; returns its width.
    private func encode(_ line: StyledLine, width: Int, into body: ByteBuffer) -> Int {
        let shown = line.width > width ? line.truncated(to: width, ellipsis: style.ellipsis) : line
        shown.encoded(color: style.color, into: body)
        body.append(Self.clearLineAndNewline)
        return shown.width
    }

    /// `⠋ 3 running · 11/15 done · 1 failed · 12.3s`
    func headerLine(_ store: ActivityStore, now: Double) -> StyledLine {
        let summary = store.summary
        var line = StyledLine(style.spinner(at: now), .cyan)
        line.append(" \(store.openCount) running", .bold)
        line.append(style.dot + "\(summary.finished)/\(summary.begun) done")
        let failed = summary.count(.failure)
        if failed > 0 { line.append(style.dot + "\(failed) failed", .red) }
        let problems = summary.diagnosticCount
        if problems > 0 { line.append(style.dot + "\(problems) input problem\(problems == 1 ? "" : "s")", .yellow) }
        let elapsed = now - (startTime ?? summary.firstTime ?? now)
        line.append(style.dot + Formatting.duration(elapsed), .dim)
        return line
    }

    /// One running activity, laid out to fit `width` columns.
    ///
    /// Everything is shown when there is room. When there is not, parts go in this order: the
    /// message (first cut, then dropped), half the bar's width, the rate, the ETA, the counts, the elapsed time, the
    /// bar (first narrowed), the percentage; the title gives way last, but keeps up to 40% of
    /// the line before anything else goes.
    ///
    /// The line is written into `body` with the end of a live line; returns its width. A line
    /// that fits, as nearly all do, goes straight into the bytes; one that does not is cut as a
    /// ``StyledLine``.
    func writeActivityLine(_ activity: ActivityState, now: Double, width: Int, into body: ByteBuffer) -> Int {
        /// A part of the line with its width measured once.
        struct Part {
            var text: String
            var width: Int
            init?(_ text: String?) {
                guard let text, !text.isEmpty else { return nil }
                self.text = text
                self.width = DisplayWidth.of(text)
            }
            init(text: String, width: Int) {
                self.text = text
                self.width = width
            }
        }
        let indentWidth = 2 * min(activity.depth, 16)
        let spinner = style.spinner(at: now)
        let cache = cachedLine(for: activity)
        let text = cache.text
        let title = text.title
        let titleWidth = text.titleWidth
        let fraction = activity.fraction

        // The percentage and the counts change only with progress: made again only then.
        if cache.fraction != fraction || !cache.hasPercent {
            cache.fraction = fraction
            cache.hasPercent = true
            cache.percent = fraction.map { Formatting.percent($0) }
        }
        if cache.countsCompleted != activity.completed || cache.countsTotal != activity.total || !cache.hasCounts {
            cache.countsCompleted = activity.completed
            cache.countsTotal = activity.total
            cache.hasCounts = true
            cache.counts =
                activity.total != nil || activity.completed > 0
                ? countsText(activity, cache: cache)
                : nil
            cache.countsWidth = cache.counts.map(DisplayWidth.of) ?? 0
        }
        var percent = cache.percent.map { Part(text: $0, width: 4) }
        var counts = cache.counts.flatMap { $0.isEmpty ? nil : Part(text: $0, width: cache.countsWidth) }
        var rate = Part(
            activity.rate(at: now).flatMap { value -> String? in
                guard value > 0 || activity.completed > 0 else { return nil }
                guard activity.unit != "bytes" else { return Formatting.bytesRate(value) }
                // `Formatting.rate` with the unit's part made once.
                if cache.rateSuffix == nil {
                    cache.rateSuffix = activity.unit.flatMap { $0.isEmpty ? nil : " " + $0 + "/s" } ?? "/s"
                }
                return Formatting.rateNumber(value, suffix: cache.rateSuffix!)
            })
        var eta = Part(etaText(activity, now: now, cache: cache))
        var elapsed = Part(elapsedText(activity.duration(at: now), cache: cache))
        var message = text.message.map { Part(text: $0, width: text.messageWidth) }
        var barWidth = fraction == nil ? 0 : 20

        let fixed = indentWidth + 2  // the spinner is one column, then a space
        let titleFloor = min(titleWidth, max(10, width * 2 / 5))
        func cost(_ part: Part?) -> Int { part.map { 2 + $0.width } ?? 0 }
        // The width of everything but the title, kept up to date as parts go.
        var optional =
            (barWidth > 0 ? 2 + barWidth : 0) + cost(percent) + cost(counts) + cost(rate) + cost(eta)
            + cost(elapsed) + cost(message)
        func fits() -> Bool { fixed + titleFloor + optional <= width }
        func drop(_ part: inout Part?) {
            if !fits() {
                optional -= cost(part)
                part = nil
            }
        }
        func narrowBar(to minimum: Int) {
            while !fits() && barWidth > minimum {
                barWidth -= 1
                optional -= 1
            }
        }

        if !fits(), let text = message {
            optional -= cost(message)
            let room = width - fixed - titleFloor - optional - 2
            message = room >= 12 ? Part(DisplayWidth.truncate(text.text, to: room, ellipsis: style.ellipsis)) : nil
            optional += cost(message)
        }
        narrowBar(to: 10)
        drop(&rate)
        drop(&eta)
        drop(&counts)
        drop(&elapsed)
        narrowBar(to: 6)
        if !fits() && barWidth > 0 {
            optional -= 2 + barWidth
            barWidth = 0
        }
        drop(&percent)

        let titleRoom = max(1, width - fixed - optional)
        let shownTitle: String
        let shownTitleWidth: Int
        if titleWidth <= titleRoom {
            shownTitle = title
            shownTitleWidth = titleWidth
        } else {
            shownTitle = DisplayWidth.truncate(title, to: titleRoom, ellipsis: style.ellipsis)
            shownTitleWidth = DisplayWidth.of(shownTitle)
        }
        // The line in three pieces: the spinner, which turns every frame; the title, bar,
        // percentage and counts, which change with progress; the rate, times and message.
        func emitHead<Line: LineSink>(_ line: inout Line) {
            if indentWidth > 0 { line.append(Self.indents[indentWidth], .none, width: indentWidth) }
            line.append(spinner, .cyan, width: 1)
            line.append(" ", .none, width: 1)
        }
        func add<Line: LineSink>(_ part: Part?, _ paint: TerminalStyle.Paint, to line: inout Line) {
            guard let part else { return }
            // The gap is a span of its own: joining it to the text could make a string too
            // long to be stored inline.
            line.append("  ", .none, width: 2)
            line.append(part.text, paint, width: part.width)
        }
        func emitMiddle<Line: LineSink>(_ line: inout Line) {
            line.append(shownTitle, activity.depth == 0 ? .bold : .none, width: shownTitleWidth)
            if barWidth > 0, let fraction {
                if style.unicode {
                    if cache.barFraction != fraction || cache.barWidth != barWidth {
                        cache.barFraction = fraction
                        cache.barWidth = barWidth
                        cache.bar = style.bar(fraction, width: barWidth)
                    }
                    let bar = cache.bar
                    line.append("  ", .none, width: 2)
                    line.append(bar.filled, .cyan, width: barWidth - bar.emptyWidth)
                    line.append(bar.empty, .dim, width: bar.emptyWidth)
                } else {
                    let inner = style.bar(fraction, width: max(1, barWidth - 2))
                    line.append("  [" + inner.filled + inner.empty + "]", .none, width: 2 + barWidth)
                }
            }
            add(percent, .none, to: &line)
            add(counts, .none, to: &line)
        }
        func emitTail<Line: LineSink>(_ line: inout Line) {
            add(rate, .dim, to: &line)
            add(eta, .dim, to: &line)
            add(elapsed, .dim, to: &line)
            add(message, .dim, to: &line)
        }
        if fixed + shownTitleWidth + optional <= width {
            var writer = LineWriter(buffer: body, color: style.color)
            emitHead(&writer)
            // The middle piece's bytes are kept while what it shows stays the same.
            if cache.hasMiddle && cache.middleBarWidth == barWidth && cache.middleFraction == fraction
                && cache.middleHasPercent == (percent != nil) && cache.middleHasCounts == (counts != nil)
                && cache.middleTitle == shownTitle && (counts == nil || cache.middleCounts == counts!.text)
            {
                body.append(cache.middleBytes)
                writer.skip(width: cache.middleWidth)
            } else {
                let start = body.count
                let before = writer.width
                emitMiddle(&writer)
                cache.hasMiddle = true
                cache.middleBarWidth = barWidth
                cache.middleFraction = fraction
                cache.middleHasPercent = percent != nil
                cache.middleHasCounts = counts != nil
                cache.middleTitle = shownTitle
                cache.middleCounts = counts?.text ?? ""
                cache.middleBytes = Array(body.bytes[start...])
                cache.middleWidth = writer.width - before
            }
            emitTail(&writer)
            body.append(Self.clearLineAndNewline)
            return writer.width
        }
        var line = StyledLine(capacity: 20)
        emitHead(&line)
        emitMiddle(&line)
        emitTail(&line)
        return encode(line, width: width, into: body)
    }

    /// Spaces for each indentation width.
    static let indents: [String] = (0...32).map { String(repeating: " ", count: $0) }

    /// What is kept between frames for one activity: created at its first frame, dropped when
    /// it ends. Its title and message are measured again only when they change.
    func cachedLine(for activity: ActivityState) -> ActivityLineCache {
        if let cached = lineCache[activity.sequence] {
            if cached.text.rawTitle != activity.title || cached.text.rawMessage != activity.message {
                cached.text = displayText(activity)
            }
            return cached
        }
        let cache = ActivityLineCache(handle: activity.handle, text: displayText(activity))
        lineCache[activity.sequence] = cache
        return cache
    }

    /// An activity's title and message, measured. (The store has sanitized them.)
    func displayText(_ activity: ActivityState) -> DisplayText {
        let title = activity.title
        let message = activity.message.flatMap { $0.isEmpty ? nil : $0 }
        return DisplayText(
            rawTitle: activity.title, rawMessage: activity.message, title: title, titleWidth: DisplayWidth.of(title),
            message: message, messageWidth: message.map(DisplayWidth.of) ?? 0)
    }

    /// `Formatting.progress(completed:total:unit:)`, with the part after the completed amount
    /// (`/1000 files`) made again only when the total changes.
    func countsText(_ activity: ActivityState, cache: ActivityLineCache) -> String {
        let bytes = activity.unit == "bytes"
        if cache.countsTailTotal != activity.total || cache.countsTail == nil {
            let tail: String
            if bytes {
                tail = activity.total.map { "/" + Formatting.bytes($0) } ?? ""
            } else {
                let unit = activity.unit.flatMap { $0.isEmpty ? nil : " " + $0 } ?? ""
                tail = (activity.total.map { "/" + Formatting.count($0) } ?? "") + unit
            }
            cache.countsTailTotal = activity.total
            cache.countsTail = tail
        }
        let head = bytes ? Formatting.bytes(activity.completed) : Formatting.count(activity.completed)
        return head + cache.countsTail!
    }

    /// `Formatting.duration(seconds)`, made again only when the text would change: below a
    /// minute it shows tenths of a second, above whole seconds.
    func elapsedText(_ seconds: Double, cache: ActivityLineCache) -> String {
        let clamped = seconds.isFinite ? max(0, seconds) : 0
        let key = clamped < 59.95 ? Int64((clamped * 10).rounded()) : -1 - Int64(clamped.rounded(.down))
        if cache.elapsedKey == key, let text = cache.elapsed { return text }
        let text: String
        if lastElapsed.key == key, let shared = lastElapsed.text {
            // Activities that began together show the same time: formatted once per frame.
            text = shared
        } else {
            text = Formatting.duration(seconds)
            lastElapsed = (key, text)
        }
        cache.elapsedKey = key
        cache.elapsed = text
        return text
    }

    /// `ETA 12s`, `ETA —` while stalled, or `nil` while there is no estimate yet. The text
    /// changes at most twice a second.
    func etaText(_ activity: ActivityState, now: Double, cache: ActivityLineCache) -> String? {
        guard activity.total != nil else { return nil }
        if let cached = cache.eta, now - cached.time < 0.5, now >= cached.time { return cached.text }
        let text: String?
        if activity.estimator.isStalled(at: now) {
            text = "ETA " + style.dash
        } else if let seconds = activity.eta(at: now) {
            text = "ETA " + Formatting.eta(seconds)
        } else {
            text = nil
        }
        cache.eta = text.map { ($0, now) }
        return text
    }
}

/// One activity's line parts kept from frame to frame, each with the inputs it was made from;
/// found by the activity's ``ActivityState/sequence``, so an id begun again starts afresh.
final class ActivityLineCache {
    let handle: ActivityHandle
    var text: DisplayText
    var eta: (text: String, time: Double)?
    var rateSuffix: String?
    var elapsedKey: Int64 = 0
    var elapsed: String?
    var hasPercent = false
    var fraction: Double?
    var percent: String?
    var hasCounts = false
    var countsCompleted = 0.0
    var countsTotal: Double?
    var counts: String?
    var countsWidth = 0
    var countsTailTotal: Double?
    /// What the title, bar, percentage and counts showed (the percentage follows from the
    /// fraction), and their bytes and width.
    var hasMiddle = false
    var middleBarWidth = 0
    var middleFraction: Double?
    var middleHasPercent = false
    var middleHasCounts = false
    var middleTitle = ""
    var middleCounts = ""
    var middleBytes: [UInt8] = []
    var middleWidth = 0
    var countsTail: String?
    var barFraction = -1.0
    var barWidth = -1
    var bar: (filled: String, empty: String, emptyWidth: Int) = ("", "", 0)

    init(handle: ActivityHandle, text: DisplayText) {
        self.handle = handle
        self.text = text
    }
}

/// A title and message ready to draw, with the state's text they came from (to notice a change).
final class DisplayText {
    let rawTitle: String
    let rawMessage: String?
    let title: String
    let titleWidth: Int
    let message: String?
    let messageWidth: Int

    init(rawTitle: String, rawMessage: String?, title: String, titleWidth: Int, message: String?, messageWidth: Int) {
        self.rawTitle = rawTitle
        self.rawMessage = rawMessage
        self.title = title
        self.titleWidth = titleWidth
        self.message = message
        self.messageWidth = messageWidth
    }
}
