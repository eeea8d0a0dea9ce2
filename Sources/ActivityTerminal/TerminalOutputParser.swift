import ActivityWire
/// Cuts what a command writes to its (pseudo-)terminal into ``CommandOutput`` pieces, keeping
/// state between reads: an escape sequence, a line or a UTF-8 character may be cut anywhere.
///
/// - A line ending in `\n` (`\r\n` from a terminal's output processing) is a ``CommandOutput/line(_:)``.
/// - A line rewritten with `\r` (curl, wget, pip, git, a `printf '\r%d%%'` loop) is a status:
///   each version is a ``CommandOutput/status(_:)``; when the line ends, its last version is the
///   line.
/// - A line that has not ended is held; ``flushIdle()`` (after the command has been quiet for a
///   moment) shows it as a ``CommandOutput/prompt(_:)``, and what follows on the same line (the
///   typed answer echoed back) is shown as it comes.
/// - SGR sequences (colours) are kept, and on a prompt's line the erase to its end (`CSI K`);
///   every other escape sequence is dropped, and text is
///   sanitized (C1 controls, bidirectional overrides), except on the alternate screen, whose
///   bytes pass untouched between the switch there and back.
///
/// ```swift
/// var parser = TerminalOutputParser()
/// parser.feed(Array("\r10%\r20%\rdone\n".utf8))   // status 10%, status 20%, line "done", status ""
/// ```
package struct TerminalOutputParser {
    /// `CSI K`: the one sequence other than colours that reaches the terminal on a prompt's line.
    private static let eraseToEndOfLine: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "K")]

    /// Past this, a line that has not ended is cut, as a line of its own.
    package static let maxLineBytes = 64 * 1024

    private enum Escape {
        case none, escape, controlSequence, string, stringEscape, intermediate
    }

    private var escape = Escape.none
    private var sequence: [UInt8] = []
    /// The current line since its last `\r`: text and SGR sequences.
    private var line: [UInt8] = []
    /// The version of the line before the last `\r`, for a rewrite that ends in an empty one.
    private var previous: [UInt8] = []
    private var rewritten = false
    /// How many bytes of `line` have been shown as a prompt.
    private var shown = 0
    /// A `\r` whose meaning depends on the next byte: a line break before `\n`, a rewrite otherwise.
    private var carriageReturn = false
    private var fullScreen = false
    /// On a prompt's line redrawn by a line editor (`\r`, then moves): the column the terminal's
    /// cursor is at, counted in characters from the line's start; `nil` otherwise.
    private var editColumn: Int?
    private var out: [CommandOutput] = []
    /// The colours still set at the end of the last line: each line is shown with a reset after
    /// it (the live region must not inherit them), so the next one starts with these again.
    private var openColours: [UInt8] = []

    package init() {}

    /// Whether part of a line waits: a prompt to show if the command stays quiet.
    package var hasUnfinishedLine: Bool { !fullScreen && (line.count > shown || carriageReturn) }

    /// Whether the command is on the alternate screen.
    package var isFullScreen: Bool { fullScreen }

    /// Takes what the command wrote and returns what the display must do with it.
    package mutating func feed(_ bytes: some Collection<UInt8>) -> [CommandOutput] {
        var screen: [UInt8] = []
        for byte in bytes {
            if fullScreen {
                screen.append(byte)
                if let switched = track(byte), switched == .leave {
                    out.append(.leaveFullScreen(screen))
                    screen.removeAll()
                    fullScreen = false
                }
                continue
            }
            take(byte)
            if fullScreen { screen.append(contentsOf: sequence) }  // the switch just read
        }
        if fullScreen && !screen.isEmpty { out.append(.fullScreen(screen)) }
        // A line already shown as a prompt goes on showing as it comes (the echo of what is
        // typed): the live region is out of its way already.
        if isPrompt { showRest() }
        defer { out.removeAll(keepingCapacity: true) }
        return out
    }

    /// Whether the current line is on the screen as a prompt.
    private var isPrompt: Bool { shown > 0 && !rewritten && !fullScreen }

    /// Shows what the line holds beyond what is shown, up to a whole character.
    private mutating func showRest() {
        let end = Self.characterBoundary(line, before: line.count)
        if end > shown {
            out.append(
                .prompt((shown == 0 ? openColours : []) + Self.sanitized(line[shown..<end], expandingTabs: false)))
            shown = end
        }
    }

    /// The command has been quiet: a waiting `\r` is a rewrite, and the unfinished line shows.
    package mutating func flushIdle() -> [CommandOutput] {
        if carriageReturn {
            carriageReturn = false
            rewrite()
        }
        if rewritten {
            let text = Self.visibleText(line)
            if !text.isEmpty { out.append(.status(text)) }
        } else {
            showRest()
        }
        defer { out.removeAll(keepingCapacity: true) }
        return out
    }

    /// The output has ended: what is left of the last line is its end.
    package mutating func finish() -> [CommandOutput] {
        carriageReturn = false
        if !line.isEmpty || shown > 0 || rewritten { endLine() }
        defer { out.removeAll(keepingCapacity: true) }
        return out
    }

    // MARK: - Outside the alternate screen

    private mutating func take(_ byte: UInt8) {
        switch escape {
        case .none:
            break
        case .escape:
            sequence.append(byte)
            switch byte {
            case UInt8(ascii: "["): escape = .controlSequence
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                escape = .string
            case 0x20...0x2F: escape = .intermediate
            default: escape = .none  // a two-byte sequence: dropped
            }
            return
        case .controlSequence:
            sequence.append(byte)
            if (0x40...0x7E).contains(byte) {
                escape = .none
                controlSequence()
            } else if sequence.count > 64 {
                escape = .none
            }
            return
        case .string:
            if byte == 0x07 || sequence.count > 4096 {
                escape = .none
            } else if byte == 0x1B {
                escape = .stringEscape
            }
            sequence.append(byte)
            return
        case .stringEscape:
            escape = .none
            return
        case .intermediate:
            sequence.append(byte)
            if (0x30...0x7E).contains(byte) { escape = .none }
            return
        }
        if carriageReturn && byte != 0x0A && byte != 0x0D {
            carriageReturn = false
            if byte == 0x1B && isPrompt {
                // A line editor (readline: Ctrl-U, history) going back to the start of a prompt's
                // line to redraw it with cursor moves, not a rewrite of a progress line (that is
                // `\r` and text): the terminal takes the `\r`, and the line stays a prompt.
                showRest()
                out.append(.prompt([0x0D]))
                editColumn = 0
            } else {
                rewrite()
            }
        }
        if editColumn != nil && byte != 0x1B && escape == .none { editColumn = nil }
        switch byte {
        case 0x0A:
            carriageReturn = false
            endLine()
        case 0x0D:
            carriageReturn = true
        case 0x1B:
            escape = .escape
            sequence = [byte]
        case 0x08:
            backspace()
        case 0x09, 0x20...0x7E, 0x80...0xFF:
            line.append(byte)
            if line.count >= Self.maxLineBytes { endLine() }
        default:
            break  // other C0 controls and DEL
        }
    }

    /// A complete control sequence in `sequence`: colours are kept, a switch to the alternate
    /// screen starts it, everything else goes.
    private mutating func controlSequence() {
        guard let final = sequence.last else { return }
        if final == UInt8(ascii: "m") {
            line += sequence
        } else if final == UInt8(ascii: "K") && isPrompt {
            // An erase to the end of a prompt's line (readline's echo of a backspace is
            // `\b CSI K`): what was typed there goes from the screen too.
            showRest()
            out.append(.prompt(Self.eraseToEndOfLine))
            if let column = editColumn {
                // After a redraw's moves: the line now ends where the cursor is. Erased from its
                // start (`\r CSI K`, as progress lines clear themselves), it is no prompt anymore.
                line.removeSubrange(Self.offset(ofColumn: column, in: line)...)
                shown = min(shown, line.count)
                if line.isEmpty {
                    out.append(.promptCancelled)
                    editColumn = nil
                }
            }
        } else if final == UInt8(ascii: "C") && isPrompt, editColumn != nil {
            // A redraw's move right, over the prompt it keeps.
            out.append(.prompt(sequence))
            editColumn! += Self.count(in: sequence)
        } else if final == UInt8(ascii: "h"), Self.isAlternateScreen(sequence) {
            let end = Self.characterBoundary(line, before: line.count)
            if !rewritten && end > shown {
                out.append(
                    .prompt((shown == 0 ? openColours : []) + Self.sanitized(line[shown..<end], expandingTabs: false)))
            }
            line.removeAll()
            previous.removeAll()
            shown = 0
            rewritten = false
            out.append(.enterFullScreen)
            fullScreen = true
            // `feed` puts the switch itself first among the screen's bytes.
        }
    }

    private mutating func backspace() {
        guard !line.isEmpty else { return }
        if isPrompt {
            // On the screen: the terminal takes the backspace, after what comes before it
            // (the echo of an erase is "\b \b").
            showRest()
            line.removeLast(Self.lastCharacterLength(line))
            shown = min(shown, line.count)
            out.append(.prompt([0x08]))
        } else {
            line.removeLast(Self.lastCharacterLength(line))
        }
    }

    /// A `\r` not followed by `\n`: the line starts over, and what it held is the status. On a
    /// line with nothing on it yet the cursor is at its start already: that `\r` rewrites
    /// nothing (bash writes one before each prompt, and the prompt must stay a prompt).
    private mutating func rewrite() {
        if shown == 0 && Self.visibleText(line).isEmpty && !rewritten { return }
        if shown > 0 {
            out.append(.promptCancelled)
            shown = 0
        }
        if !Self.visibleText(line).isEmpty {
            out.append(.status(Self.visibleText(line)))
            previous = line
        }
        line.removeAll(keepingCapacity: true)
        rewritten = true
    }

    private mutating func endLine() {
        if shown > 0 && !rewritten {
            out.append(
                .promptEnd(rest: Self.sanitized(line[shown...], expandingTabs: false), line: Self.sanitized(line[...])))
        } else if rewritten {
            let last = Self.visibleText(line).isEmpty ? previous : line
            if !Self.visibleText(last).isEmpty { out.append(.line(openColours + Self.sanitized(last[...]))) }
            out.append(.status(""))
        } else {
            out.append(.line(openColours + Self.sanitized(line[...])))
        }
        openColours = Self.colours(after: line, from: openColours)
        line.removeAll(keepingCapacity: true)
        previous.removeAll()
        shown = 0
        rewritten = false
    }

    // MARK: - On the alternate screen

    private enum Switch { case enter, leave }

    /// Follows escape sequences on the alternate screen, only to notice the switch back.
    private mutating func track(_ byte: UInt8) -> Switch? {
        switch escape {
        case .none:
            if byte == 0x1B {
                escape = .escape
                sequence = [byte]
            }
        case .escape:
            sequence.append(byte)
            escape = byte == UInt8(ascii: "[") ? .controlSequence : .none
        case .controlSequence:
            sequence.append(byte)
            if (0x40...0x7E).contains(byte) {
                escape = .none
                if byte == UInt8(ascii: "l"), Self.isAlternateScreen(sequence) { return .leave }
            } else if sequence.count > 64 {
                escape = .none
            }
        case .string, .stringEscape, .intermediate:
            escape = .none
        }
        return nil
    }

    // MARK: - Bytes

    /// `CSI ? 1049 h`, `? 47`, `? 1047` (and their `l`): the alternate screen.
    static func isAlternateScreen(_ sequence: [UInt8]) -> Bool {
        guard sequence.count > 3, sequence[2] == UInt8(ascii: "?") else { return false }
        let parameters = sequence[3..<(sequence.count - 1)].split(separator: UInt8(ascii: ";"))
        return parameters.contains { ["1049", "47", "1047"].contains(String(decoding: $0, as: UTF8.self)) }
    }

    /// The text of `bytes` without colours, sanitized and trimmed: for a status.
    static func visibleText(_ bytes: [UInt8]) -> String {
        let text = TerminalSanitizer.display(bytes: withoutColours(bytes[...]))
        return String(decoding: text, as: UTF8.self).trimmingSpaces()
    }

    /// The SGR sequences in effect after `bytes`, starting from `colours`: those since the last
    /// reset (`ESC [ m`, `ESC [ 0 m`), at most 256 bytes of them (then only the newest).
    static func colours(after bytes: [UInt8], from colours: [UInt8]) -> [UInt8] {
        var colours = colours
        var index = 0
        while let start = bytes[index...].firstIndex(of: 0x1B) {
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "m")) else { break }
            let parameters = bytes[(start + 2)..<end]
            if parameters.isEmpty || parameters.elementsEqual([UInt8(ascii: "0")]) {
                colours.removeAll()
            } else {
                if colours.count + (end + 1 - start) > 256 { colours.removeAll() }
                colours += bytes[start...end]
            }
            index = end + 1
        }
        return colours
    }

    /// `bytes` with its text sanitized and its SGR sequences kept. A whole line's tabs become
    /// spaces to the next multiple of 8 (it may be drawn over the live region, where a tab would
    /// skip old text); a piece of a prompt, written at the cursor, keeps them for the terminal.
    static func sanitized(_ bytes: ArraySlice<UInt8>, expandingTabs: Bool = true) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var text: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x1B, let end = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "m") }) {
                result += TerminalSanitizer.displayKeepingTabs(bytes: text)
                text.removeAll(keepingCapacity: true)
                result += bytes[index...end]
                index = end + 1
            } else {
                text.append(bytes[index])
                index += 1
            }
        }
        result += TerminalSanitizer.displayKeepingTabs(bytes: text)
        return expandingTabs ? TerminalSanitizer.expandingTabs(result) : result
    }

    package static func withoutColours(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x1B, let end = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "m") }) {
                index = end + 1
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// The largest index ≤ `end` that does not cut a UTF-8 character or an escape sequence.
    static func characterBoundary(_ bytes: [UInt8], before end: Int) -> Int {
        var start = end
        while start > 0, start > end - 4, bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0 else { return end }
        let lead = bytes[start - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return end - (start - 1) >= length ? end : start - 1
    }

    /// The count a cursor move gives (`CSI 3 C`), 1 when it gives none.
    static func count(in sequence: [UInt8]) -> Int {
        let digits = sequence.dropFirst(2).dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }), digits.count < 5 else { return 1 }
        return max(1, Int(String(decoding: digits, as: UTF8.self)) ?? 1)
    }

    /// Where in `line` the character at `column` starts, colours skipped (one column a character:
    /// what a prompt holds).
    static func offset(ofColumn column: Int, in line: [UInt8]) -> Int {
        var index = 0
        var seen = 0
        while index < line.count {
            if line[index] == 0x1B, let end = line[index...].firstIndex(of: UInt8(ascii: "m")) {
                index = end + 1
                continue
            }
            if seen == column { return index }
            index += 1
            while index < line.count, line[index] & 0xC0 == 0x80 { index += 1 }
            seen += 1
        }
        return line.count
    }

    /// How many bytes the last UTF-8 character of `bytes` takes (1 for anything else).
    static func lastCharacterLength(_ bytes: [UInt8]) -> Int {
        var length = 1
        while length < min(4, bytes.count), bytes[bytes.count - length] & 0xC0 == 0x80 { length += 1 }
        return length
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
            let last = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[first...last])
    }
}
