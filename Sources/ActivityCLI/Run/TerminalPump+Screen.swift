import ActivityAdapters
import ActivityRendering
import ActivityTerminal
import ActivityWire

/// The command's screen, handed to the display: which rows are final now, the live rows and
/// the prompt, the status, the modes, and where the alternate screen starts and ends.
extension TerminalPump {
    /// Notes how far rows could be made final now, for ``settle(at:)`` to do it once they have
    /// stood for ``finalDelay``.
    mutating func noteSettleable(at now: Double) {
        let boundary = screen.rowsAbove + screen.settleableRowCount
        if boundary > (settleable.last?.boundary ?? screen.rowsAbove) { settleable.append((boundary, now)) }
    }

    /// Makes final the rows that have stood above the command's redraws for ``finalDelay``, and
    /// no further than they still do.
    mutating func settle(at now: Double) {
        var boundary = screen.rowsAbove
        var due = 0
        while due < settleable.count, settleable[due].at + Self.finalDelay <= now {
            boundary = max(boundary, settleable[due].boundary)
            due += 1
        }
        settleable.removeFirst(due)
        let count = min(boundary, screen.rowsAbove + screen.settleableRowCount) - screen.rowsAbove
        if count > 0 { screen.settle(rows: count) }
        settleable.removeAll { $0.boundary <= screen.rowsAbove }
    }

    /// Where the cursor is when the command may wait at a prompt: on its last row in use, after
    /// text that is not a status line rewritten with `\r`, on the main screen.
    var promptCursor: CommandOutput.LiveCursor? {
        guard !screen.isAlternateScreen else { return nil }
        let used = screen.usedRowCount
        let cursor = screen.cursor
        guard used > 0, cursor.row == used - 1, screen.statusRow != cursor.row else { return nil }
        return CommandOutput.LiveCursor(row: cursor.row, column: min(cursor.column, screen.columns - 1))
    }

    /// Hands the display what changed on the command's screen: final rows, live rows (bare
    /// with the cursor when `atPrompt` and the command is at one), the rows as they stand (for
    /// a stop), the status, the modes.
    mutating func publish(on session: RenderSession, atPrompt: Bool) {
        let rows = screen.pendingFinalRows
        let overwritten = readsRows ? screen.takeOverwrittenFrames() : []
        if rows > 0 {
            let final = screen.takeFinalRows()
            session.commandOutput(.final(bytes: final.bytes, rows: rows))
            if readsRows { rowsToRead.add(final: final, overwritten: overwritten) }
        } else if !overwritten.isEmpty {
            rowsToRead.add(final: nil, overwritten: overwritten)
        }
        if readsRows { rowsToRead.setCurrent(from: screen) }
        publishModes(on: session)
        guard !screen.isAlternateScreen else { return }
        var live = Array(screen.rows[..<screen.usedRowCount])
        let standing = CommandOutput.LiveCursor(
            row: screen.cursor.row, column: min(screen.cursor.column, screen.columns - 1))
        if live != shownStanding.rows || standing != shownStanding.cursor {
            shownStanding = (live, standing)
            session.commandOutput(.standing(live, cursor: standing))
        }
        var latest = ""
        if let row = screen.statusRow, row == screen.cursor.row, row < live.count {
            // A bar the adapter reads is its own activity: not the command's message too.
            if !isProgress(row: row) { latest = String(live[row].text.drop { $0 == " " }) }
            live.remove(at: row)
        }
        if latest != status.latest {
            status.latest = latest
            // An adapter reading the rows tells first whether this row is a bar of its own.
            if readsRows, !latest.isEmpty {
                statusAwaitsRows = true
            } else {
                sendStatus(on: session, force: latest.isEmpty)
            }
        }
        let cursor = atPrompt ? promptCursor : nil
        // A row that may be a prompt is not drawn in the live region meanwhile: shown there
        // first, it would jump to its place when it turns out to be one (``promptDelay``).
        if cursor == nil, let prompt = promptCursor, prompt.row < live.count { live.remove(at: prompt.row) }
        guard live != shownLive.rows || cursor != shownLive.cursor else { return }
        shownLive = (live, cursor)
        session.commandOutput(.live(live, cursor: cursor))
    }

    /// The rows the adapter took as progress when it last read them: a status row among them is
    /// not the command's message; another one, which waited for this, goes out now.
    mutating func noteProgressRows(_ rows: Set<Int>, on session: RenderSession) {
        progressRows = rows
        let waited = statusAwaitsRows
        statusAwaitsRows = false
        if !status.latest.isEmpty, let row = screen.statusRow, isProgress(row: row) {
            status.latest = ""
            sendStatus(on: session, force: true)
        } else if waited {
            sendStatus(on: session)
        }
    }

    /// Whether the screen's row at `row` is one the adapter took as progress when it last read it.
    private func isProgress(row: Int) -> Bool {
        row < screen.rowCount && progressRows.contains(screen.rows[row].number)
    }

    /// The keyboard and mouse modes and the title reach the real terminal as the command sets
    /// them (the display draws the main screen itself, so its other modes would only move the
    /// live region around); what is on is what the display turns off when the command ends or
    /// stops.
    mutating func publishModes(on session: RenderSession) {
        var change: [UInt8] = []
        let input = screen.modes.keyboardAndMouse
        if !screen.isAlternateScreen, input != sentInput.modes {
            change += sentInput.modes.resetSequence + input.setSequence
            sentInput.modes = input
        }
        if !screen.isAlternateScreen, screen.title != sentInput.title, let title = screen.title {
            change += Array("\u{1B}]2;".utf8) + title + Array("\u{1B}\\".utf8)
            sentInput.title = title
        }
        let reset = screen.resetSequence
        let resume =
            screen.isAlternateScreen
            ? screen.setSequence
            : input.setSequence + (screen.title.map { Array("\u{1B}]2;".utf8) + $0 + Array("\u{1B}\\".utf8) } ?? [])
        guard !change.isEmpty || reset != sentModes.reset || resume != sentModes.resume else { return }
        sentModes = (reset, resume)
        session.commandOutput(.modes(change: change, reset: reset, resume: resume))
    }

    /// The range of the first switch to (`entering`) or from the alternate screen in `bytes`:
    /// `CSI ? 1049 h`, `? 47`, `? 1047` (and their `l`).
    static func alternateScreenSwitch(in bytes: ArraySlice<UInt8>, entering: Bool) -> Range<Int>? {
        var index = bytes.startIndex
        while let start = firstEscape(in: bytes, from: index) {
            index = start + 1
            guard start + 2 < bytes.endIndex, bytes[start + 1] == UInt8(ascii: "["),
                bytes[start + 2] == UInt8(ascii: "?")
            else { continue }
            var end = start + 3
            while end < bytes.endIndex, (0x30...0x3B).contains(bytes[end]) { end += 1 }
            guard end < bytes.endIndex, bytes[end] == UInt8(ascii: entering ? "h" : "l") else { continue }
            let parameters = bytes[(start + 3)..<end].split(separator: UInt8(ascii: ";"))
            if parameters.contains(where: { ["1049", "47", "1047"].contains(String(decoding: $0, as: UTF8.self)) }) {
                return start..<(end + 1)
            }
        }
        return nil
    }

    /// The index of the first `ESC` in `bytes` from `index` on: most reads of a command's
    /// output hold none, and are looked through whole.
    private static func firstEscape(in bytes: ArraySlice<UInt8>, from index: Int) -> Int? {
        bytes.withUnsafeBytes { raw in
            firstOffset(of: 0x1B, in: raw, from: index - bytes.startIndex, to: raw.count).map { bytes.startIndex + $0 }
        }
    }

    /// What changed on the screen since the last call, for the command's adapter: the rows that
    /// became final, and the rows the command redraws as they stand.
    mutating func takeRows() -> ScreenRows {
        defer {
            rowsToRead.final.removeAll(keepingCapacity: true)
            rowsToRead.overwritten.removeAll(keepingCapacity: true)
        }
        return rowsToRead
    }
}
