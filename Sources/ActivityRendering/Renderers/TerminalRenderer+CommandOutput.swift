import ActivityTerminal

/// TTY mode under `activity run` with a pseudo-terminal: the command's own terminal output.
extension TerminalRenderer {
    /// Where the command's output stands on the screen.
    enum CommandScreen {
        /// Lines go above the live region.
        case lines
        /// An unfinished line (a prompt) is on the screen, the cursor after it: the live region
        /// stays away until the line ends.
        case prompt
        /// The command has the alternate screen: nothing is drawn until it leaves.
        case fullScreen
    }

    static let resetColours: [UInt8] = Array("\u{1B}[0m".utf8)
    static let leaveAlternateScreen: [UInt8] = Array("\u{1B}[?1049l".utf8)

    /// Shows a piece of the command's terminal output (see ``CommandOutput``). A status is the
    /// command's activity's message and never reaches here.
    package func commandOutput(_ piece: CommandOutput, in store: ActivityStore) {
        guard configuration.mode == .tty, !isFinished else {
            writeHeldBegin()
            if case .line(let bytes) = piece { output.write(bytes + Self.resetColours + [0x0A]) }
            if case .promptEnd(let rest, _) = piece { output.write(rest + Self.resetColours + [0x0A]) }
            if case .line(let bytes) = piece { keepOwnedOutput(bytes, shownAs: notePermanentLine(), in: store) }
            if case .promptEnd(_, let line) = piece { keepOwnedOutput(line, shownAs: notePermanentLine(), in: store) }
            return
        }
        switch piece {
        case .line(let bytes):
            appendAbove(bytes + Self.resetColours)
            keepOwnedOutput(bytes, shownAs: permanentLines, in: store)
            if pendingAbove.count > Self.pendingLimit && commandScreen == .lines { flushNow(store) }
        case .prompt(let bytes):
            if commandScreen == .lines {
                stepAside()
                commandScreen = .prompt
            }
            output.write(bytes)
        case .promptEnd(let rest, let line):
            if commandScreen == .prompt {
                output.write(rest + Self.resetColours + Self.newline)
                commandScreen = .lines
                redrawNeeded = true
                keepOwnedOutput(line, shownAs: notePermanentLine(), in: store)
            } else {
                appendAbove(rest + Self.resetColours)
                keepOwnedOutput(line, shownAs: permanentLines, in: store)
            }
        case .promptCancelled:
            guard commandScreen == .prompt else { return }
            output.write([0x0D] + Self.clearLine)
            commandScreen = .lines
            redrawNeeded = true
        case .status:
            break
        case .enterFullScreen:
            if commandScreen == .lines { stepAside() }
            commandScreen = .fullScreen
        case .fullScreen(let bytes):
            output.write(bytes)
            commandModes.feed(bytes)
        case .leaveFullScreen(let bytes):
            output.write(bytes)
            commandModes.feed(bytes)
            commandScreen = .lines
            redrawNeeded = true
        }
    }

    /// Takes the live region off the screen, with the lines waiting above it written first, and
    /// shows the cursor: something else (the command, the shell after Ctrl-Z) writes next.
    package func stepAside() {
        guard configuration.mode == .tty, !isFinished else { return }
        var bytes = Self.syncBegin
        moveToTop(into: &bytes)
        bytes.append(contentsOf: pendingAbove)
        bytes.append(contentsOf: Self.clearBelow)
        if cursorHidden {
            bytes.append(contentsOf: Self.showCursor)
            cursorHidden = false
        }
        bytes.append(contentsOf: Self.syncEnd)
        output.write(bytes)
        pendingAbove.removeAll(keepingCapacity: true)
        liveHeight = 0
        liveRowsOnScreen = 0
        lastBody.removeAll()
        redrawNeeded = true
    }

    /// At the end: an unfinished prompt line ends, and the modes the command left on (an
    /// alternate screen it did not leave, a hidden cursor, mouse reporting) are turned off, so the
    /// summary lands on the person's own screen and the shell gets its terminal as it was.
    func finishCommandScreen() {
        let modes = commandModes.resetSequence
        switch commandScreen {
        case .lines: output.write(modes)
        case .prompt: output.write(Self.resetColours + Self.newline + modes)
        case .fullScreen:
            // The modes first: a scroll region is undone on the screen that has it.
            output.write(
                Self.resetColours + modes + (commandModes.isAlternateScreen ? [] : Self.leaveAlternateScreen))
        }
        commandModes = TerminalModes()
        commandScreen = .lines
    }

    /// The process is about to stop (Ctrl-Z): the modes the command turned on are turned off for
    /// the shell; ``resumeCommandModes()`` turns them on again.
    package func suspendCommandModes() {
        guard configuration.mode == .tty, !isFinished else { return }
        output.write(commandModes.resetSequence)
    }

    /// The process continued (`fg`): the command's modes are on again, as it left them.
    package func resumeCommandModes() {
        guard configuration.mode == .tty, !isFinished else { return }
        output.write(commandModes.setSequence)
    }
}
