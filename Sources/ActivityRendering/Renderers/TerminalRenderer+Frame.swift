import ActivityTerminal
import ActivityWire

/// Building the live region: which lines, and how each activity's line is laid out.
extension TerminalRenderer {
    /// The widest a live line may be: one column short of the edge, so the cursor never sits in
    /// the pending-wrap state where `CSI K` would erase the last character.
    var lineWidth: Int { max(1, configuration.size.columns - 1) }

    /// Encodes the live region at `now` into `body`, at most rows − 1 lines, each an erased row
    /// (`CSI K` at its first column), the text and a newline; `widths` receives each line's
    /// display width.
    func encodeFrame(_ store: ActivityStore, now: Double, into body: ByteBuffer, widths: inout [Int]) {
        widths.removeAll(keepingCapacity: true)
        // Rows − 1 lines at most; a one-row terminal gets no live region, only permanent lines.
        let maxLines = configuration.size.rows - 1
        guard store.openCount > 0, maxLines > 0 else { return }
        let width = lineWidth
        let showHeader = store.summary.begun > 1 && maxLines > 1
        if showHeader { widths.append(encodeHeader(store, now: now, width: width, into: body)) }
        let hint = maxLines > widths.count + 1 ? cancelKey.hint(in: store).map(cancelHintLine) : nil
        let budget = maxLines - widths.count - (hint == nil ? 0 : 1)
        // Every row is measured before any is written, so each part can start at the same column
        // in all of them. One activity past the budget means "+N more", in place of the last row
        // that would have fitted.
        var rows = liveRows
        liveRows = []
        rows.removeAll(keepingCapacity: true)
        var shown = 0
        store.forEachOpen { activity in
            if shown < budget {
                var row = liveRow(for: activity, now: now)
                row.sequence = activity.sequence
                if configuration.history != nil && activity.total == nil {
                    row.eta = LiveRow.Part(usualText(activity, in: store, now: now, cache: row.cache))
                    row.etaIsUsual = row.eta != nil
                }
                rows.append(row)
            }
            shown += 1
            return shown <= budget
        }
        if shown > budget, !rows.isEmpty { rows.removeLast() }
        let layout = ColumnLayout(fitting: rows, width: width)
        let spinner = style.spinner(at: now)
        // The rows left over go to the newest lines of output under their activities.
        var tailRoom = shown > budget ? 0 : budget - rows.count
        // The command's live rows go under the activity that owns its output, in place of its tail.
        let owner = commandLiveRows.isEmpty ? nil : outputOwnerActivity(in: store)?.sequence
        var drewCommandRows = owner == nil
        // A region of the whole screen would start at its top left, where erasing it makes a
        // terminal keep it in its scrollback (tmux's scroll-on-clear): it stays a row short of that.
        if owner != nil, tailRoom > 0 { tailRoom -= 1 }
        for index in rows.indices {
            widths.append(writeRow(rows[index], layout: layout, spinner: spinner, width: width, into: body))
            guard tailRoom > 0 else { continue }
            if rows[index].sequence == owner {
                for row in commandLiveRows.suffix(tailRoom) {
                    widths.append(encode(row, width: width, into: body))
                    tailRoom -= 1
                }
                drewCommandRows = true
                continue
            }
            for text in liveTail(of: rows[index].sequence, limit: tailRoom) {
                widths.append(encode(liveTailLine(text, indent: rows[index].indentWidth), width: width, into: body))
                tailRoom -= 1
            }
        }
        if !drewCommandRows {
            // Its owner has no row here (the region is full): the rows still show, at the end.
            for row in commandLiveRows.suffix(tailRoom) {
                widths.append(encode(row, width: width, into: body))
                tailRoom -= 1
            }
        }
        if shown > budget {
            let more = StyledLine(style.ellipsis + " +" + String(store.openCount - rows.count) + " more", .detail)
            widths.append(encode(more, width: width, into: body))
        }
        if let hint { widths.append(encode(hint, width: width, into: body)) }
        liveRows = rows
        if lineCache.count > 2 * max(16, store.openCount) {
            lineCache = lineCache.filter { entry in
                store[entry.value.handle].map { $0.isRunning && $0.sequence == entry.key } ?? false
            }
        }
    }

    /// Writes a row of the command's screen, cut to `width`, as a live line into `body`; returns
    /// its width.
    private func encode(_ row: ScreenRow, width: Int, into body: ByteBuffer) -> Int {
        var bytes: [UInt8] = []
        let shown = row.append(to: &bytes, columns: width)
        body.append(Self.clearLine)
        body.append(bytes)
        body.append(Self.newline)
        return shown
    }

    /// Writes `line`, cut to `width`, as a live line into `body`; returns its width.
    private func encode(_ line: StyledLine, width: Int, into body: ByteBuffer) -> Int {
        let shown = line.width > width ? line.truncated(to: width, ellipsis: style.ellipsis) : line
        body.append(Self.clearLine)
        shown.encoded(colors: style.activeColors, into: body)
        body.append(Self.newline)
        return shown.width
    }

    /// `Esc cancels Waiting for approval` under the activities, or `cancelling Waiting for approval…`
    /// once asked.
    func cancelHintLine(_ hint: CancelKey.Hint) -> StyledLine {
        switch hint {
        case .available(let title, let others):
            var line = StyledLine("Esc", .key)
            line.append(" cancels " + title + (others > 0 ? " and \(others) more" : ""), .hint)
            return line
        case .cancelling(let title):
            return StyledLine("cancelling " + title + style.ellipsis, .hint)
        }
    }

    /// Writes the header as a live line into `body`; returns its width. The counts in the middle
    /// are kept as bytes while they stay the same; the spinner and the elapsed time, which change
    /// nearly every frame, are written around them.
    private func encodeHeader(_ store: ActivityStore, now: Double, width: Int, into body: ByteBuffer) -> Int {
        let summary = store.summary
        let key = HeaderLineKey(
            running: store.openCount, finished: summary.finished, begun: summary.begun,
            failed: summary.count(.failure), problems: summary.diagnosticCount)
        if headerKept?.key != key {
            let counts = headerCounts(store)
            let bytes = ByteBuffer(capacity: 128)
            counts.encoded(colors: style.activeColors, into: bytes)
            headerKept = (key, Array(bytes.bytes), counts.width)
        }
        let counts = headerKept!
        let spinner = style.spinner(at: now)
        let spinnerWidth = DisplayWidth.of(spinner)
        let elapsed = style.dot + Formatting.duration(headerElapsed(summary, now: now))
        let elapsedWidth = DisplayWidth.of(elapsed)
        guard spinnerWidth + counts.width + elapsedWidth <= width else {
            return encode(headerLine(store, now: now), width: width, into: body)
        }
        body.append(Self.clearLine)
        var writer = LineWriter(buffer: body, colors: style.activeColors)
        writer.append(spinner, .spinner, width: spinnerWidth)
        body.append(counts.bytes)
        writer.skip(width: counts.width)
        writer.append(elapsed, .detail, width: elapsedWidth)
        body.append(Self.newline)
        return writer.width
    }

    private func headerElapsed(_ summary: ActivitySummary, now: Double) -> Double {
        now - (startTime ?? summary.firstTime ?? now)
    }

    /// `⠋ 3 running · 11/15 done · 1 failed · 12.3s`
    func headerLine(_ store: ActivityStore, now: Double) -> StyledLine {
        var line = StyledLine(style.spinner(at: now), .spinner)
        for span in headerCounts(store).spans { line.append(span.text, span.role, width: span.width) }
        line.append(style.dot + Formatting.duration(headerElapsed(store.summary, now: now)), .detail)
        return line
    }

    /// ` 3 running · 11/15 done · 1 failed`: the header's middle.
    private func headerCounts(_ store: ActivityStore) -> StyledLine {
        let summary = store.summary
        var line = StyledLine(" \(store.openCount) running", .title)
        line.append(style.dot + "\(summary.finished)/\(summary.begun) done")
        let failed = summary.count(.failure)
        if failed > 0 { line.append(style.dot + "\(failed) failed", .failure) }
        let problems = summary.diagnosticCount
        if problems > 0 { line.append(style.dot + "\(problems) input problem\(problems == 1 ? "" : "s")", .warning) }
        return line
    }

    /// One running activity's line, in the frame's columns.
    ///
    /// The title is padded to the layout's title column, or cut with an ellipsis; a part the row
    /// does not have leaves its column blank, so the parts after it still line up. The message
    /// takes what room is left after the last column.
    ///
    /// The line is written into `body` as a live line (see `encodeFrame`); returns its width. A line
    /// that fits, as nearly all do, goes straight into the bytes; one that does not (a title
    /// indented past the title column) is cut as a ``StyledLine``.
    func writeRow(
        _ row: LiveRow, layout: ColumnLayout, spinner: String, width: Int, into body: ByteBuffer
    ) -> Int {
        let cache = row.cache
        let text = cache.text
        let indentWidth = row.indentWidth
        let titleRoom = max(1, layout.titleEnd - indentWidth - 2)
        if cache.cutTitleSource !== text || cache.cutTitleRoom != titleRoom {
            cache.cutTitleSource = text
            cache.cutTitleRoom = titleRoom
            cache.cutTitle =
                text.titleWidth <= titleRoom
                ? text.title : DisplayWidth.truncate(text.title, to: titleRoom, ellipsis: style.ellipsis)
            cache.cutTitleWidth = text.titleWidth <= titleRoom ? text.titleWidth : DisplayWidth.of(cache.cutTitle)
        }
        let shownTitle = cache.cutTitle
        let shownTitleWidth = cache.cutTitleWidth
        var message: LiveRow.Part?
        if let full = text.message {
            if text.messageWidth <= layout.messageRoom {
                message = LiveRow.Part(text: full, width: text.messageWidth)
            } else if layout.messageRoom >= 12 {
                let cut = DisplayWidth.truncate(full, to: layout.messageRoom, ellipsis: style.ellipsis)
                message = LiveRow.Part(text: cut, width: DisplayWidth.of(cut))
            }
        }
        let fraction = row.fraction
        // Blank columns owed before the next part shown: trailing ones are never written.
        var pad = 0
        func emitHead<Line: LineSink>(_ line: inout Line) {
            if indentWidth > 0 { line.appendBlank(indentWidth) }
            line.append(spinner, .spinner, width: 1)
            line.append(" ", .none, width: 1)
        }
        func add<Line: LineSink>(_ part: LiveRow.Part?, column: Int, _ role: ColorRole?, to line: inout Line) {
            guard column > 0 else { return }
            guard let part else {
                pad += 2 + column
                return
            }
            // The gap is a span of its own: joining it to the text could make a string too
            // long to be stored inline.
            line.appendBlank(pad + 2)
            line.append(part.text, role, width: part.width)
            pad = max(0, column - part.width)
        }
        func emitMiddle<Line: LineSink>(_ line: inout Line) {
            line.append(shownTitle, row.isTopLevel ? .title : nil, width: shownTitleWidth)
            pad = max(0, titleRoom - shownTitleWidth)
            let barWidth = layout.bar
            if barWidth > 0, let fraction {
                line.appendBlank(pad + 2)
                pad = 0
                if style.unicode {
                    if cache.barFraction != fraction || cache.barWidth != barWidth {
                        cache.barFraction = fraction
                        cache.barWidth = barWidth
                        cache.bar = style.bar(fraction, width: barWidth)
                    }
                    let bar = cache.bar
                    line.append(bar.filled, .bar, width: barWidth - bar.emptyWidth)
                    line.append(bar.empty, .barTrack, width: bar.emptyWidth)
                } else {
                    let inner = style.bar(fraction, width: max(1, barWidth - 2))
                    line.append("[" + inner.filled + inner.empty + "]", .none, width: barWidth)
                }
            } else if barWidth > 0 {
                pad += 2 + barWidth
            }
            add(row.percent, column: layout.percent, .percent, to: &line)
            add(row.counts, column: layout.counts, .counts, to: &line)
        }
        func emitTail<Line: LineSink>(_ line: inout Line) {
            add(row.rate, column: layout.rate, .detail, to: &line)
            add(row.eta, column: layout.eta, row.etaIsUsual ? .usual : .detail, to: &line)
            add(row.elapsed, column: layout.elapsed, .detail, to: &line)
            if let message {
                line.appendBlank(pad + 2)
                line.append(message.text, .message, width: message.width)
            }
        }
        let fits =
            indentWidth + 2 + shownTitleWidth <= layout.titleEnd
            && layout.lineWidth + (message.map { 2 + $0.width } ?? 0) <= width
        if fits {
            body.append(Self.clearLine)
            var writer = LineWriter(buffer: body, colors: style.activeColors)
            emitHead(&writer)
            // The middle piece's bytes are kept while what it shows, and where, stays the same.
            let counts = row.counts?.text ?? ""
            if cache.hasMiddle && cache.middleLayout == layout.middleKey && cache.middleTitleRoom == titleRoom
                && cache.middleText === text && cache.middleFraction == fraction
                && cache.middleHasPercent == (row.percent != nil) && cache.middleCounts == counts
            {
                body.append(cache.middleBytes)
                writer.skip(width: cache.middleWidth)
                pad = cache.middlePad
            } else {
                let start = body.count
                let before = writer.width
                emitMiddle(&writer)
                cache.hasMiddle = true
                cache.middleLayout = layout.middleKey
                cache.middleTitleRoom = titleRoom
                cache.middleText = text
                cache.middleFraction = fraction
                cache.middleHasPercent = row.percent != nil
                cache.middleCounts = counts
                cache.middleBytes = Array(body.bytes[start...])
                cache.middleWidth = writer.width - before
                cache.middlePad = pad
            }
            emitTail(&writer)
            body.append(Self.newline)
            return writer.width
        }
        var line = StyledLine(capacity: 20)
        emitHead(&line)
        emitMiddle(&line)
        emitTail(&line)
        return encode(line, width: width, into: body)
    }
}
