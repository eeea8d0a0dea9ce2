import ActivityWire

/// Building the live region: which lines, and how each activity's line is laid out.
extension TerminalRenderer {
    /// The widest a live line may be: one column short of the edge, so the cursor never sits in
    /// the pending-wrap state where `CSI K` would erase the last character.
    var lineWidth: Int { max(1, configuration.size.columns - 1) }

    /// The live region's lines at `now`, at most rows − 1.
    func frameLines(_ store: ActivityStore, now: Double) -> [StyledLine] {
        guard store.openCount > 0 else { return [] }
        let maxLines = max(1, configuration.size.rows - 1)
        let width = lineWidth
        var lines: [StyledLine] = []
        let showHeader = store.summary.begun > 1 && maxLines > 1
        if showHeader { lines.append(headerLine(store, now: now)) }
        let budget = maxLines - lines.count
        var shown: [ActivityState] = []
        store.forEachOpen { activity in
            shown.append(activity)
            return shown.count <= budget
        }
        var visible = shown.count
        var hidden = 0
        if shown.count > budget {
            visible = max(0, budget - 1)
            hidden = store.openCount - visible
        }
        for activity in shown.prefix(visible) {
            lines.append(activityLine(activity, now: now, width: width))
        }
        if hidden > 0 {
            lines.append(StyledLine("\(style.ellipsis) +\(hidden) more", .dim))
        }
        if etaCache.count > 2 * max(16, store.openCount) {
            etaCache = etaCache.filter { store[$0.key]?.isRunning == true }
        }
        return lines.map { $0.truncated(to: width, ellipsis: style.ellipsis) }
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
    func activityLine(_ activity: ActivityState, now: Double, width: Int) -> StyledLine {
        let indent = String(repeating: " ", count: 2 * min(activity.depth, 16))
        let spinner = style.spinner(at: now)
        let title = TextSanitizer.display(activity.title)
        let titleWidth = DisplayWidth.of(title)
        let fraction = activity.fraction

        var percent = fraction.map { Formatting.percent($0) }
        var counts: String? =
            activity.total != nil || activity.completed > 0
            ? Formatting.progress(completed: activity.completed, total: activity.total, unit: activity.unit) : nil
        var rate = activity.rate(at: now).flatMap { value -> String? in
            value > 0 || activity.completed > 0 ? Formatting.rate(value, unit: activity.unit) : nil
        }
        var eta = etaText(activity, now: now)
        var elapsed: String? = Formatting.duration(activity.duration(at: now))
        var message = activity.message.map(TextSanitizer.display).flatMap { $0.isEmpty ? nil : $0 }
        var barWidth = fraction == nil ? 0 : 20

        let fixed = DisplayWidth.of(indent) + DisplayWidth.of(spinner) + 1
        let titleFloor = min(titleWidth, max(10, width * 2 / 5))
        func optionalWidth() -> Int {
            var total = 0
            if barWidth > 0 { total += 2 + barWidth }
            for part in [percent, counts, rate, eta, elapsed] { if let part { total += 2 + DisplayWidth.of(part) } }
            if let message { total += 2 + DisplayWidth.of(message) }
            return total
        }
        func fits() -> Bool { fixed + titleFloor + optionalWidth() <= width }

        if !fits(), let text = message {
            let room = width - fixed - titleFloor - (optionalWidth() - DisplayWidth.of(text))
            message = room >= 12 ? DisplayWidth.truncate(text, to: room, ellipsis: style.ellipsis) : nil
        }
        while !fits() && barWidth > 10 { barWidth -= 1 }
        if !fits() { rate = nil }
        if !fits() { eta = nil }
        if !fits() { counts = nil }
        if !fits() { elapsed = nil }
        while !fits() && barWidth > 6 { barWidth -= 1 }
        if !fits() { barWidth = 0 }
        if !fits() { percent = nil }

        let titleRoom = max(1, width - fixed - optionalWidth())
        var line = StyledLine(indent)
        line.append(spinner, .cyan)
        line.append(" ")
        line.append(
            DisplayWidth.truncate(title, to: titleRoom, ellipsis: style.ellipsis), activity.depth == 0 ? .bold : .none)
        if barWidth > 0, let fraction {
            if style.unicode {
                let bar = style.bar(fraction, width: barWidth)
                line.append("  ")
                line.append(bar.filled, .cyan)
                line.append(bar.empty, .dim)
            } else {
                let inner = style.bar(fraction, width: max(1, barWidth - 2))
                line.append("  [" + inner.filled + inner.empty + "]")
            }
        }
        if let percent { line.append("  " + percent) }
        if let counts { line.append("  " + counts) }
        if let rate { line.append("  " + rate, .dim) }
        if let eta { line.append("  " + eta, .dim) }
        if let elapsed { line.append("  " + elapsed, .dim) }
        if let message { line.append("  " + message, .dim) }
        return line
    }

    /// `ETA 12s`, `ETA —` while stalled, or `nil` while there is no estimate yet. The text
    /// changes at most twice a second.
    func etaText(_ activity: ActivityState, now: Double) -> String? {
        guard activity.total != nil else { return nil }
        if let cached = etaCache[activity.id], now - cached.time < 0.5, now >= cached.time { return cached.text }
        let text: String?
        if activity.estimator.isStalled(at: now) {
            text = "ETA " + style.dash
        } else if let seconds = activity.eta(at: now) {
            text = "ETA " + Formatting.eta(seconds)
        } else {
            text = nil
        }
        if let text { etaCache[activity.id] = (text, now) } else { etaCache[activity.id] = nil }
        return text
    }
}
