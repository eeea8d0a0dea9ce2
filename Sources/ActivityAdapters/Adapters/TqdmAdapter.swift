/// tqdm's bars (Python), as its default format draws them, on a terminal and into a pipe:
/// `Training:  45%|████▌     | 45/100 [00:01<00:01, 44.21it/s, loss=0.5]`, and without a total
/// `Counting: 150it [00:00, 723.07it/s]`. Each bar is an activity titled by its `desc` (one
/// without is `Progress`), counted in its unit (`B` is bytes; `unit_scale`'s `9.80M` is read as
/// 9,800,000), with the postfix as its message. A bar that starts again from 0 after reaching
/// its total (an inner loop's bar) ends, and the next one begins. `tqdm.write` lines pass through.
/// Nested bars (`position=1`): in a stream each is its own activity under the command's; read
/// from a screen (``ScreenRows``), a bar in the row under an unfinished bar nests under it.
///
/// A bar that reached its total is complete; one that stopped short ends as the exit status says.
struct TqdmAdapter: ToolAdapter {
    /// The bars seen, by `desc`, with how many times each began (a key per run of the bar).
    private var runs: [String: Int] = [:]
    /// Bounds ``runs`` whatever the input.
    private static let maxBars = 64

    /// A Python traceback's exception is the failure's error.
    private var traceback = PythonTraceback()
    /// On a screen, the bar last read among the rows redrawn together, and its place there.
    private var above: (index: Int, key: String)?
    /// The bars that ended while their place may still show them (their row on a screen, a
    /// redraw after `tqdm.write` in a pipe), with the count they ended at: drawn so again, a bar
    /// is consumed, not begun anew.
    private var ended: [String: Double] = [:]
    /// On a screen, the bars nested under one that reached its total, until the frame that
    /// showed it is read (``endClosedInnerBars(_:)``).
    private var closing: [String] = []
    /// On a screen, the place of the last row read among the rows redrawn together.
    private var lastIndex: Int?
    /// The bar last drawn at each place: on a screen its row's number, in a pipe its position
    /// (the cursor-up moves after it). Another bar or other text there, or the place cleared,
    /// is the bar's close.
    private var placed: [Int: String] = [:]
    /// Where each bar was last drawn (``placed`` the other way round).
    private var drawnAt: [String: Int] = [:]
    /// The bars whose place was cleared, or drawn over, short of their totals: drawn again from
    /// a lower count, such a bar is the next run, not the same one going back.
    private var cleared: Set<String> = []

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let index = line.row?.index
        if index == 0 { above = nil }
        // Rows come top first within a frame: a row higher up, or a final one, comes after it.
        if line.row != nil, index.map({ index in lastIndex.map { index <= $0 } ?? true }) ?? true {
            endClosedInnerBars(&activities)
        }
        lastIndex = index
        let text = line.text
        // On a screen, a row read while tqdm writes spaces over a bar (`leave=False`, or before
        // `tqdm.write`) still shows the end of it: a bar never starts with a space there.
        guard let bar = TqdmBar(text), line.row == nil || !text.hasPrefix(" ") else {
            traceback.read(text, &activities)
            if index != nil { above = nil }
            let clearing = !runs.isEmpty && Self.isClearing(line)
            // A row showing something else, or a place cleared: the bar there closed.
            if let place = line.row.map(\.number) ?? (clearing ? Self.position(of: line) : nil) {
                leave(place, &activities)
            }
            return clearing
        }
        let name = bar.description ?? ""
        guard runs[name] != nil || runs.count < Self.maxBars else { return false }
        var key = Self.key(name, runs[name] ?? 0)
        closing.removeAll { $0 == key }
        let place = line.row?.number ?? Self.position(of: line)
        if let endedAt = ended[key], !activities.isOpen(key) {
            // A bar that ended, drawn again (tqdm redraws its bars after `tqdm.write`; a row
            // read again as final): the same run as long as its count does not go back; from
            // below where it ended, the next run.
            guard bar.count < endedAt else { return true }
            ended[key] = nil
            runs[name, default: 0] += 1
            key = Self.key(name, runs[name] ?? 0)
        }
        if line.row != nil, activities.isOpen(key), let completed = activities.completed(key), bar.count < completed,
            let last = drawnAt[key], last != place
        {
            // The bar was drawn further on in another row since (tqdm draws a `leave=True` bar
            // at `position=1` at its close in the row above): what this row shows is older.
            return true
        }
        if runs[name] == nil {
            runs[name] = 0
        } else if activities.isOpen(key), let completed = activities.completed(key), bar.count < completed,
            line.row != nil || cleared.contains(key) || activities.total(key).map({ completed >= $0 }) == true
        {
            // The same bar again: an inner loop's bar, cleared and drawn anew for the next pass.
            // A screen is read a frame at a time, and may show the next pass before the frame
            // where the last one reached its total: the count going back is the bar's close.
            if let total = activities.total(key) {
                activities.update(key, title: name, completed: max(completed, total))
            }
            activities.succeed(key)
            runs[name, default: 0] += 1
            key = Self.key(name, runs[name] ?? 0)
        }
        cleared.remove(key)
        if placed[place] != key {
            leave(place, &activities)
            if placed.count >= Self.maxBars { placed.removeAll() }
            placed[place] = key
        }
        if drawnAt.count >= Self.maxBars { drawnAt.removeAll() }
        drawnAt[key] = place
        // On a screen a bar in the row under an unfinished one is its inner loop (`position=1`).
        let outer = index.flatMap { index in
            above.flatMap { above in
                above.index == index - 1 && above.key != key && activities.isOpen(above.key)
                    && activities.total(above.key).map { total in (activities.completed(above.key) ?? 0) < total }
                        != false
                    ? above.key : nil
            }
        }
        if let index { above = (index, key) }
        activities.update(
            key, title: bar.description ?? "Progress", unit: bar.unit, completed: bar.count, total: bar.total,
            message: bar.postfix, under: outer)
        if let total = bar.total, bar.count >= total {
            activities.markComplete(key)
            if line.row != nil {
                closing += activities.openKeys(under: key).filter { !closing.contains($0) }
                // A row that stays at the total is the bar's close.
                if line.row?.isFinal == true { close(key, at: bar.count, &activities) }
            }
        } else if bar.total == nil && !line.isOverwritten {
            // A frame that stays (tqdm's close, or a bar below another in a pipe): a bar without
            // a total may be done; the exit status decides. One short of its total is not.
            activities.markProbablyComplete(key)
        }
        return true
    }

    /// A bar's row that stays as it was read, on a screen: tqdm closed the bar (`leave=True`
    /// moves on to the next line). One at its total ends now; one short of it waits for the
    /// exit status.
    mutating func readNewline(ending line: AdapterLine, _ activities: inout AdaptedActivities) {
        guard let row = line.row else { return }
        endClosedInnerBars(&activities)
        // The bar drawn in that row, not the latest run of its name: the next run may have
        // begun in another row already.
        guard let bar = TqdmBar(line.text), let total = bar.total, bar.count >= total,
            let key = placed[row.number], activities.isOpen(key), Self.name(of: key) == bar.description ?? ""
        else { return }
        close(key, at: bar.count, &activities)
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        endClosedInnerBars(&activities)
    }

    mutating func readCleared(_ place: ScreenPlace, _ activities: inout AdaptedActivities) {
        leave(place.number, &activities)
    }

    /// The bar drawn at `place` is no longer there (`leave=False`, or the next bar drawn in its
    /// row): one at its total closed, and ends; one short of it waits for the exit status, and
    /// drawn again from a lower count is the next run.
    private mutating func leave(_ place: Int, _ activities: inout AdaptedActivities) {
        guard let key = placed.removeValue(forKey: place), activities.isOpen(key) else { return }
        if let total = activities.total(key), let completed = activities.completed(key), completed >= total {
            close(key, at: completed, &activities)
        } else {
            if cleared.count >= Self.maxBars { cleared.removeAll() }
            cleared.insert(key)
        }
    }

    /// A bar's position in a pipe: the cursor-up moves tqdm writes after a bar at `position=N`
    /// (in the line's bytes: its text leaves control sequences out).
    private static func position(of line: AdapterLine) -> Int {
        let bytes = line.bytes
        var end = bytes.endIndex
        var count = 0
        while end - bytes.startIndex >= 3, bytes[end - 1] == UInt8(ascii: "A"), bytes[end - 2] == UInt8(ascii: "["),
            bytes[end - 3] == 0x1B
        {
            end -= 3
            count += 1
        }
        return count
    }

    /// On a screen an outer bar counts a pass once its inner loop is done, so when it reaches
    /// its total the bars nested under it are done too, though their rows still show them short
    /// of their totals (tqdm draws a bar ten times a second at most, and not at its close with
    /// `leave=False`). They end as successes at their totals once the frame that showed the
    /// outer bar at its total is read without them: a bar still drawn there is a bar of its own
    /// at the next position (`position=1` beside it, not inside), which goes on.
    private mutating func endClosedInnerBars(_ activities: inout AdaptedActivities) {
        guard !closing.isEmpty else { return }
        let keys = closing
        closing.removeAll()
        for key in keys where activities.isOpen(key) {
            for inner in activities.openKeys(under: key) where !keys.contains(inner) { closing.append(inner) }
            endClosedInnerBars(&activities)
            let completed = max(activities.completed(key) ?? 0, activities.total(key) ?? 0)
            activities.update(key, title: "", completed: completed)
            close(key, at: completed, &activities)
        }
    }

    /// Ends a bar whose row showed it closed, unless bars nested under it are still open (an
    /// activity ends after its children): then it ends with the input, as it stands.
    private mutating func close(_ key: String, at count: Double, _ activities: inout AdaptedActivities) {
        guard activities.isOpen(key), activities.openKeys(under: key).isEmpty else { return }
        activities.succeed(key)
        if ended.count >= Self.maxBars { ended.removeAll() }
        ended[key] = count
    }

    /// The spaces tqdm writes over a bar before `tqdm.write` prints a line, or where a bar with
    /// `leave=False` was: part of its drawing, never the program's output.
    private static func isClearing(_ line: AdapterLine) -> Bool {
        let text = line.text
        return !text.isEmpty && text.allSatisfy { $0 == " " } && (position(of: line) > 0 || line.isOverwritten)
    }

    private static func key(_ name: String, _ run: Int) -> String { "tqdm \(run):\(name)" }

    /// The bar's `desc` in a key made by ``key(_:_:)``.
    private static func name(of key: String) -> Substring { key.drop { $0 != ":" }.dropFirst() }
}

/// One frame of a tqdm bar in its default format, read from the right, where the format is fixed:
/// `[E<R, RATE(, POSTFIX)]`, before it `| N/T` and `PPP%|BAR` (with a total) or `N UNIT`
/// (without), and the `desc: ` first.
struct TqdmBar: Equatable {
    var description: String?
    var count: Double
    var total: Double?
    /// `nil` for tqdm's default `it`; `bytes` for `B`.
    var unit: String?
    var postfix: String?

    init?(_ line: String) {
        // Every frame may be padded (the cursor-up moves after a bar at `position=N` are not in
        // a line's text).
        let text = Substring(line).trimmingSpaces
        guard text.hasSuffix("]"), let open = text.lastRange(of: " [") else { return nil }
        let fields = text[open.upperBound..<text.index(before: text.endIndex)].split(
            separator: ", ", maxSplits: 2, omittingEmptySubsequences: false)
        // tqdm pads a rate under 10 to the width of the others: `[00:01<00:00,  2.06it/s]`.
        guard fields.count >= 2, Self.isTime(fields[0]), let rateUnit = Self.rateUnit(fields[1].drop { $0 == " " })
        else { return nil }
        postfix = fields.count == 3 && !fields[2].isEmpty ? String(fields[2]) : nil
        unit = rateUnit == "it" ? nil : rateUnit == "B" ? "bytes" : String(rateUnit)
        let head = text[..<open.lowerBound]
        if let bar = head.lastRange(of: "| "), head[..<bar.lowerBound].contains("%|") {
            // With a total: `desc: PPP%|BAR| N/T`.
            let counts = head[bar.upperBound...].split(separator: "/", omittingEmptySubsequences: false)
            guard counts.count == 2, let count = Self.number(counts[0]), let total = Self.number(counts[1]),
                let percent = head[..<bar.lowerBound].lastRange(of: "%|")
            else { return nil }
            let before = head[..<percent.lowerBound]
            let digits = before.reversed().prefix { NumberText.isDigit($0) }.count
            guard digits > 0, digits <= 3 else { return nil }
            let label = before.dropLast(digits)
            let description = Self.description(label)
            guard description.valid else { return nil }
            self.description = description.text
            self.count = count
            self.total = total
        } else {
            // Without: `desc: N UNIT`, the unit written right after the number.
            let label = head.lastRange(of: ": ")
            let amount = label.map { head[$0.upperBound...] } ?? head
            guard amount.hasSuffix(rateUnit), let count = Self.number(amount.dropLast(rateUnit.count)) else {
                return nil
            }
            description = label.map { String(head[..<$0.lowerBound]) }
            guard description?.isEmpty != true else { return nil }
            self.count = count
            total = nil
        }
    }

    /// The `desc: ` before the percentage, padded (`nil` when there is none); not `valid` when
    /// it is anything else (text that only looks like a bar).
    private static func description(_ label: Substring) -> (text: String?, valid: Bool) {
        let label = label.drop { $0 == " " }
        if label.isEmpty { return (nil, true) }
        var trimmed = label
        while trimmed.hasSuffix(" ") { trimmed = trimmed.dropLast() }
        guard trimmed.hasSuffix(":"), trimmed.count > 1 else { return (nil, false) }
        // What is left of an earlier frame in front of this one (a bar redrawn narrower after a
        // resize, over its wider self) is no description: it holds a bar of its own.
        guard !trimmed.contains("%|"), !trimmed.contains("/s]") else { return (nil, false) }
        return (String(trimmed.dropLast()), true)
    }

    /// `00:01`, `1:02:03`, and the `elapsed<remaining` pair with `?` for an unknown remaining.
    private static func isTime(_ text: Substring) -> Bool {
        let parts = text.split(separator: "<", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        return parts.enumerated().allSatisfy { index, part in
            (index == 1 && part == "?") || isClock(part)
        }
    }

    private static func isClock(_ text: Substring) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return (2...3).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(NumberText.isDigit) }
    }

    /// The unit of `44.21it/s`, `?it/s`, `66.5MB/s` (an SI prefix before the unit) or `2.50s/it`.
    private static func rateUnit(_ text: Substring) -> Substring? {
        if text.hasPrefix("?"), text.hasSuffix("/s") {
            let unit = text.dropFirst().dropLast(2)
            return isUnit(unit) ? unit : nil
        }
        let numberEnd = text.firstIndex { !NumberText.isDigit($0) && $0 != "." } ?? text.endIndex
        guard numberEnd != text.startIndex, NumberText.decimal(text[..<numberEnd]) != nil else { return nil }
        var rest = text[numberEnd...]
        if rest.hasPrefix("s/") {
            let unit = rest.dropFirst(2)
            return isUnit(unit) ? unit : nil
        }
        guard rest.hasSuffix("/s") else { return nil }
        rest = rest.dropLast(2)
        if let first = rest.first, Self.prefixes[first] != nil, rest.count > 1 { rest = rest.dropFirst() }
        return isUnit(rest) ? rest : nil
    }

    private static func isUnit(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 16 && text.allSatisfy { $0.isLetter }
    }

    /// `unit_scale`'s prefixes: powers of 1000, as tqdm scales by default.
    private static let prefixes: [Character: Double] = [
        "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "Z": 1e21, "Y": 1e24,
    ]

    /// `45`, `9.80M`, `100k`.
    private static func number(_ text: Substring) -> Double? {
        if let last = text.last, let scale = prefixes[last] {
            return NumberText.decimal(text.dropLast()).map { ($0 * scale).rounded() }
        }
        return NumberText.decimal(text)
    }
}
