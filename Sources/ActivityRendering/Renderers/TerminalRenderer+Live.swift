import ActivityTerminal
import ActivityWire

/// TTY mode: lines above the live region, and the frame written in one piece.
extension TerminalRenderer {
    static let syncBegin: [UInt8] = Array("\u{1B}[?2026h".utf8)
    static let syncEnd: [UInt8] = Array("\u{1B}[?2026l".utf8)
    static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
    static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
    /// Starts every line, permanent or live, at the first column of its row: the whole row is
    /// erased before the text. Erasing the whole row, not only what is right of the text, also
    /// drops the mark a reflowing terminal keeps on a row that once wrapped (tmux keeps it
    /// through later text and newlines): a stale mark makes the next resize join the row with
    /// the one below it, and the live region no longer has the rows the redraw counts on.
    static let clearLine: [UInt8] = Array("\u{1B}[K".utf8)
    static let clearBelow: [UInt8] = Array("\u{1B}[J".utf8)
    /// Autowrap (DECAWM) off and on around the live lines. A reflowing terminal (tmux) narrows its
    /// screen at once and tells the program later, so a frame or two may still be drawn at the
    /// old width: without autowrap each of their lines stays on one row, cut at the edge, where a
    /// wrapped one would push the region down by a row each time and leave rows behind.
    static let autowrapOff: [UInt8] = Array("\u{1B}[?7l".utf8)
    static let autowrapOn: [UInt8] = Array("\u{1B}[?7h".utf8)
    static let newline: [UInt8] = [0x0D, 0x0A]
    /// The bound on text waiting for the next frame; past it, a frame is drawn at once.
    static let pendingLimit = 1 << 20

    /// An update other than the end of an activity the store holds (``renderLiveEnd(_:in:)``).
    func renderLive(_ update: ActivityUpdate, in store: ActivityStore) {
        switch update.kind {
        case .begin, .progress:
            break
        case .end:
            return
        case .log:
            guard let log = update.log else { return }
            let activity = update.handle.flatMap { store[$0] }
            // A log message comes straight from the event: the store keeps no copy to sanitize.
            let message = TerminalSanitizer.display(log.message)
            guard showsLog(log) else { return keepLog(message, of: activity, shownAs: nil) }
            appendLeavable(logLine(log, message: message, activity: activity, in: store))
            keepLog(message, of: activity, shownAs: permanentLines)
        }
        if pendingAbove.count > Self.pendingLimit { flushNow(store) }
    }

    /// The end of `activity`, read from the store.
    func renderLiveEnd(_ activity: ActivityState, in store: ActivityStore) {
        lineCache[activity.sequence] = nil
        if let title = permanentTitle(of: activity, in: store) {
            let tail = failureTail(of: activity)
            appendLeavable(endLine(activity, title: title))
            for line in tail { appendLeavable(line) }
        }
        if pendingAbove.count > Self.pendingLimit { flushNow(store) }
    }

    /// The title of a finished activity's permanent line, or `nil` when the verbosity leaves
    /// none: its own title at the top (or just under a frame), its path below.
    func permanentTitle(of activity: ActivityState, in store: ActivityStore) -> String? {
        let topLevel = isTopLevel(activity, in: store)
        let failed = activity.status == .failure
        switch configuration.verbosity {
        case .quiet where !failed: return nil
        case .normal where !failed && !topLevel: return nil
        default: return topLevel ? activity.title : pathTitle(of: activity, in: store)
        }
    }

    /// Queues a permanent line for the top of the next frame.
    func appendAbove(_ line: StyledLine) {
        for row in line.wrapped(to: lineWidth, indent: 2, colors: style.activeColors) {
            var bytes: [UInt8] = []
            row.encoded(colors: style.activeColors, into: &bytes)
            appendAbove(bytes)
        }
    }

    /// Queues a line of the reporters' (a log message, an activity's end) as ``appendAbove(_:)``
    /// does, unless the output is behind (``ByteOutput/isBehind``): then it is left out and
    /// counted, and told in one line once the output has caught up. The command's own output
    /// is never left out (its reader, `run`, stops reading it instead).
    func appendLeavable(_ line: StyledLine) {
        guard !output.isBehind else {
            droppedAbove += 1
            return
        }
        tellDroppedLines()
        appendAbove(line)
    }

    /// The line telling how many lines were left out, if any were and the output has caught up.
    func tellDroppedLines(evenIfBehind: Bool = false) {
        guard droppedAbove > 0, evenIfBehind || !output.isBehind else { return }
        let count = droppedAbove
        droppedAbove = 0
        appendAbove(StyledLine(WriteQueue.noticeText(count), .warning))
    }

    /// Queues raw (already sanitized) bytes as a permanent line for the top of the next frame.
    /// A line longer than the terminal wraps; the second `CSI K` clears the rest of its last row.
    func appendAbove(_ bytes: [UInt8]) {
        notePermanentLine()
        pendingAbove.append(contentsOf: Self.clearLine)
        pendingAbove.append(contentsOf: bytes)
        pendingAbove.append(contentsOf: Self.clearLine)
        pendingAbove.append(contentsOf: Self.newline)
    }

    /// Draws at once, at the time of the last event: too much text is waiting.
    func flushNow(_ store: ActivityStore) {
        drawFrame(store, now: store.summary.lastTime ?? 0)
    }

    /// Moves from the empty row under the live region, where the cursor rests, to the start of
    /// the region's first line.
    func moveToTop(into frame: inout [UInt8]) {
        guard liveHeight > 0 else { return }
        frame.append(0x0D)
        let up = max(liveHeight, liveRowsOnScreen)
        frame.append(0x1B)
        frame.append(UInt8(ascii: "["))
        var digits = Formatting.digits(Int64(up))
        digits.withUTF8 { frame.append(contentsOf: $0) }
        frame.append(UInt8(ascii: "A"))
    }

    /// Writes what is pending and the live region, if anything changed, in one `write(2)`.
    func drawFrame(_ store: ActivityStore, now: Double) {
        guard let drawingClaim else { return drawFrameNow(store, now: now) }
        // While a handler is at work a frame waits for the next tick; the last one waits for it.
        _ = drawingClaim.draw(waiting: isFinished) { drawFrameNow(store, now: now) }
    }

    private func drawFrameNow(_ store: ActivityStore, now: Double) {
        // The command's prompt or full-screen program has the screen, or the process is stopped.
        guard commandView == .lines && !isSuspended else { return }
        tellDroppedLines()
        // The region's lines, each followed by `CSI K` and a newline, encoded into a buffer kept
        // from frame to frame. Lines never hold a line break, so the bytes stand for the lines.
        let body = spareBody
        body.removeAll()
        var lines = spareWidths
        spareWidths = []
        if isFinished {
            lines.removeAll(keepingCapacity: true)
        } else {
            encodeFrame(store, now: now, into: body, widths: &lines)
        }
        let separate = pendingSeparate
        let taskbarBytes = taskbarUpdate(store, now: now)
        guard
            !body.hasSameBytes(as: lastBody) || redrawNeeded || !pendingAbove.isEmpty || !separate.isEmpty
                || (isFinished && cursorHidden) || taskbarBytes != nil
        else {
            spareWidths = lines
            return
        }

        if !separate.isEmpty && liveHeight > 0 {
            // Another descriptor on this terminal writes next: take the region off the screen.
            var clear = Self.syncBegin
            moveToTop(into: &clear)
            clear.append(contentsOf: pendingAbove)
            clear.append(contentsOf: Self.clearBelow)
            clear.append(contentsOf: Self.syncEnd)
            output.write(clear)
            pendingAbove.removeAll(keepingCapacity: true)
            pendingAboveErased = false
            liveHeight = 0
            liveRowsOnScreen = 0
        }
        for (target, bytes) in separate { target.write(bytes) }
        pendingSeparate.removeAll()

        var frame: [UInt8] = []
        frame.reserveCapacity(body.count + pendingAbove.count + 48)
        frame.append(contentsOf: Self.syncBegin)
        if let taskbarBytes { frame.append(contentsOf: taskbarBytes) }
        if !lines.isEmpty && !cursorHidden {
            frame.append(contentsOf: Self.hideCursor)
            cursorHidden = true
        }
        moveToTop(into: &frame)
        frame.append(contentsOf: pendingAbove)
        // Every line ends in a newline: the cursor rests at the start of the row below the
        // region, where keys the person types (an echoed ^C) cannot push the region around.
        if !lines.isEmpty {
            frame.append(contentsOf: Self.autowrapOff)
            frame.append(contentsOf: body.bytes)
            frame.append(contentsOf: Self.autowrapOn)
        }
        frame.append(contentsOf: Self.clearBelow)
        if lines.isEmpty && cursorHidden {
            frame.append(contentsOf: Self.showCursor)
            cursorHidden = false
        }
        frame.append(contentsOf: Self.syncEnd)
        output.write(frame)

        pendingAbove.removeAll(keepingCapacity: pendingAbove.capacity <= Self.pendingLimit)
        pendingAboveErased = false
        liveHeight = lines.count
        liveRowsOnScreen = lines.count
        spareBody = lastBody
        lastBody = body
        spareWidths = lastLineWidths
        lastLineWidths = lines
        redrawNeeded = false
    }
}

extension TerminalRenderer {
    /// A signal handler showed the cursor behind the renderer's back: hide it again on the next
    /// frame and redraw.
    func cursorWasShown() {
        if cursorHidden {
            cursorHidden = false
            redrawNeeded = true
        }
    }

    /// The process was stopped (Ctrl-Z) and continued: the cursor was shown, and the shell's
    /// lines now sit under the region last drawn, which stays where it is. The next frame draws
    /// the region afresh below them.
    func resumedAfterStop() {
        cursorHidden = false
        liveHeight = 0
        liveRowsOnScreen = 0
        lastBody.removeAll()
        redrawNeeded = true
    }
}
