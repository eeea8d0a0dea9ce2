import ActivityTerminal
import ActivityWire

/// TTY mode under `activity run` with a pseudo-terminal: the command's own terminal, as its
/// screen model (``ActivityTerminal/CommandScreen``) hands it over.
extension TerminalRenderer {
    /// Where the command's output stands on the screen.
    enum CommandView {
        /// Final rows go above the live region, live rows inside it.
        case lines
        /// The command waits at a prompt: its live rows are on the screen bare, the cursor where
        /// the command's is, and the live region stays away until the prompt is answered.
        case prompt
        /// The command has the alternate screen: nothing is drawn until it leaves.
        case fullScreen
    }

    static let leaveAlternateScreen: [UInt8] = Array("\u{1B}[?1049l".utf8)

    /// Shows a piece of the command's terminal output (see ``CommandOutput``). A status is the
    /// command's activity's message and never reaches here.
    package func commandOutput(_ piece: CommandOutput, in store: ActivityStore) {
        guard configuration.mode == .tty, !isFinished else {
            writeHeldBegin()
            if case .final(let bytes, let rows) = piece {
                output.write(unshownRows(bytes))
                keepFinalRows(bytes, rows: rows, in: store)
            }
            return
        }
        switch piece {
        case .final(let bytes, let rows):
            // Rows drawn at the last stop, unchanged since, are on the screen already.
            let unshown = unshownRows(bytes)
            if commandView == .prompt {
                if !unshown.isEmpty {
                    erasePromptRows()
                    output.write(unshown)
                }
            } else if !unshown.isEmpty {
                // The live region's rows are erased once, then the rows are written as they are.
                if !pendingAboveErased { pendingAbove.append(contentsOf: Self.clearBelow) }
                pendingAbove.append(contentsOf: unshown)
                pendingAboveErased = true
            }
            keepFinalRows(bytes, rows: rows, in: store)
            if pendingAbove.count > Self.pendingLimit && commandView == .lines { flushNow(store) }
        case .live(let rows, let cursor?):
            switch commandView {
            case .lines:
                stepAside()
                commandView = .prompt
            case .prompt: erasePromptRows()
            case .fullScreen: return
            }
            commandLiveRows = []
            writePrompt(rows, cursor: cursor)
        case .live(let rows, nil):
            if commandView == .prompt {
                erasePromptRows()
                commandView = .lines
                redrawNeeded = true
            }
            commandLiveRows = rows
        case .enterFullScreen:
            switch commandView {
            case .lines: stepAside()
            case .prompt: erasePromptRows()
            case .fullScreen: break
            }
            commandView = .fullScreen
        case .fullScreen(let bytes):
            output.write(bytes)
        case .leaveFullScreen(let bytes):
            output.write(bytes)
            commandView = .lines
            redrawNeeded = true
        case .standing(let rows, let cursor):
            commandStanding = (rows, cursor)
        case .modes(let change, let reset, let resume):
            if !change.isEmpty { output.write(change) }
            commandModes = (reset, resume)
        }
    }

    /// Of final rows, those not on the screen already: the rows drawn at the last stop
    /// that became final unchanged are (``StoppedCommandRows/notDrawn(_:)``).
    private func unshownRows(_ bytes: [UInt8]) -> [UInt8] {
        guard !stoppedRows.drawn.isEmpty else { return bytes }
        return Array(stoppedRows.notDrawn(bytes))
    }

    /// Counts final rows as permanent lines, and holds them for their owner's tail (a failure
    /// shows its last lines). They are read into the tail only when a tail is next used
    /// (``keepUnkeptRows()``): a command writing at full speed pays for its last lines, not
    /// for the last lines of every read.
    private func keepFinalRows(_ bytes: [UInt8], rows: Int, in store: ActivityStore) {
        permanentLines += rows
        guard let owner = outputOwnerActivity(in: store)?.sequence else { return keepUnkeptRows() }
        if let unkept = unkeptRows, unkept.owner != owner { keepUnkeptRows() }
        var unkept = unkeptRows ?? ([], owner, 0)
        unkeptRows = nil
        unkept.bytes += bytes
        unkept.lastLine = permanentLines
        if unkept.bytes.count > 1 << 16 {
            unkept.bytes.removeFirst(Self.startOfNewestLines(unkept.bytes, count: OutputTails.linesKept))
        }
        unkeptRows = unkept
    }

    /// Keeps the newest final rows held back by ``keepFinalRows(_:rows:in:)`` in their owner's
    /// tail: before a tail is read, or another line joins one.
    func keepUnkeptRows() {
        guard let unkept = unkeptRows else { return }
        unkeptRows = nil
        let start = Self.startOfNewestLines(unkept.bytes, count: OutputTails.linesKept)
        let lines = CommandOutput.lines(of: unkept.bytes[start...])
        for (index, line) in lines.enumerated() {
            let text = String(decoding: TerminalSanitizer.display(bytes: line), as: UTF8.self)
            let shownAs = unkept.lastLine - (lines.count - 1 - index)
            tails.append(text, to: unkept.owner, shownAs: shownAs, ellipsis: style.ellipsis)
        }
    }

    /// Writes the rows of a command waiting at a prompt, bare, and puts the cursor where the
    /// command's is (on the last of them).
    private func writePrompt(_ rows: [ScreenRow], cursor: CommandOutput.LiveCursor) {
        // Never the whole screen: erased from its top left, a terminal would keep it in its
        // scrollback. The rows left out are final soon (see `TerminalPump`), and printed then.
        let rows = rows.suffix(max(1, configuration.size.rows - 1))
        var bytes: [UInt8] = []
        for (index, row) in rows.enumerated() {
            if index > 0 { bytes += Self.newline }
            row.append(to: &bytes, columns: configuration.size.columns)
        }
        bytes.append(0x0D)
        if cursor.column > 0 { bytes += Array("\u{1B}[\(cursor.column)C".utf8) }
        output.write(bytes)
        promptRows = rows.count
    }

    /// Takes the rows of a prompt off the screen, the cursor at the start of the first.
    private func erasePromptRows() {
        guard promptRows > 0 else { return }
        var bytes: [UInt8] = [0x0D]
        if promptRows > 1 { bytes += Array("\u{1B}[\(promptRows - 1)A".utf8) }
        bytes += Self.clearBelow
        output.write(bytes)
        promptRows = 0
    }

    /// The process is about to stop (Ctrl-Z): the live region leaves the screen, and the
    /// command's rows are left on it as they stand, the cursor where the command's is, as the
    /// terminal shows the command stopped bare (``StoppedCommandRows``). The shell writes next.
    package func stepAsideForStop() {
        guard configuration.mode == .tty, !isFinished else { return }
        switch commandView {
        case .fullScreen: stepAside()
        case .lines, .prompt:
            // A prompt's rows are among the rows that stand: drawn again with the others.
            erasePromptRows()
            guard let standing = commandStanding else { return stepAside() }
            let columns = configuration.size.columns
            stepAside(leaving: stoppedRows.draw(standing.rows, cursor: standing.cursor, columns: columns))
        }
    }

    /// Takes the live region off the screen, with the lines waiting above it written first, and
    /// shows the cursor: something else (the command, the shell after Ctrl-Z) writes next.
    /// `rows` are drawn where the region was, in the same write.
    package func stepAside(leaving rows: [UInt8] = []) {
        guard configuration.mode == .tty, !isFinished else { return }
        var bytes = Self.syncBegin
        moveToTop(into: &bytes)
        bytes.append(contentsOf: pendingAbove)
        bytes.append(contentsOf: Self.clearBelow)
        bytes.append(contentsOf: rows)
        if cursorHidden {
            bytes.append(contentsOf: Self.showCursor)
            cursorHidden = false
        }
        bytes.append(contentsOf: Self.syncEnd)
        output.write(bytes)
        pendingAbove.removeAll(keepingCapacity: true)
        pendingAboveErased = false
        liveHeight = 0
        liveRowsOnScreen = 0
        lastBody.removeAll()
        redrawNeeded = true
    }

    /// At the end: the modes the command left on (an alternate screen it did not leave, a hidden
    /// cursor, mouse reporting) are turned off, so the summary lands on the person's own screen
    /// and the shell gets its terminal as it was.
    func finishCommandScreen() {
        switch commandView {
        case .lines: output.write(commandModes.reset)
        case .prompt: output.write(Self.newline + commandModes.reset)
        case .fullScreen:
            // The modes first: a scroll region is undone on the screen that has it.
            output.write(commandModes.reset + Self.leaveAlternateScreen)
        }
        commandModes = ([], [])
        commandView = .lines
        promptRows = 0
    }

    /// The process is about to stop (Ctrl-Z): the modes the command turned on are turned off for
    /// the shell; ``resumeCommandModes()`` turns them on again.
    package func suspendCommandModes() {
        guard configuration.mode == .tty, !isFinished else { return }
        output.write(commandModes.reset)
    }

    /// The process continued (`fg`): the command's modes are on again, as it left them.
    package func resumeCommandModes() {
        guard configuration.mode == .tty, !isFinished else { return }
        output.write(commandModes.resume)
    }
}
