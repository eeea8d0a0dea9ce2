import ActivityTerminal
import ActivityWire

/// Plain mode: one line per begin, end and log, throttled progress, no escape codes. A step that
/// ends within a second of its begin, with no line between, gets one line, its end's: a test
/// suite of many short tests writes a line per test, not two.
extension TerminalRenderer {
    /// An update other than the end of an activity the store holds (``renderPlainEnd(_:_:in:)``).
    func renderPlain(_ update: ActivityUpdate, in store: ActivityStore) {
        let time = update.timestamp
        writeHeldBeginIfDue(at: time)
        switch update.kind {
        case .begin:
            guard let handle = update.handle, let activity = store[handle],
                configuration.verbosity != .quiet || isTopLevel(activity, in: store)
            else { return }
            markPlainProgress(handle, time: time, tenth: tenth(activity))
            let path = pathTitles.parts(of: activity, in: store)
            let usual = usualSuffix(activity, in: store)
            writeHeldBegin()
            var line = PlainLine(bytes: heldBeginLine)
            heldBeginLine = []
            buildPlain(at: time, into: &line) { line in
                line.append(style.symbol(for: .started))
                line.append(" ")
                path.append(to: &line.bytes)
                appendPlainDetails(activity, to: &line)
                if let usual {
                    line.append(" (")
                    line.append(usual)
                    line.append(")")
                }
                if let message = activity.message, !message.isEmpty {
                    line.append(" ")
                    line.append(style.dash)
                    line.append(" ")
                    line.append(message)
                }
            }
            heldBeginLine = line.bytes
            heldBegin = (handle, time)
        case .progress:
            // The hot path of plain mode: one array read and the time decide whether a line may
            // be due; only then is the activity read.
            guard configuration.verbosity != .quiet, let handle = update.handle, handle.index < plainProgress.count,
                let last = plainProgress[handle.index], last.handle == handle,
                time - last.time >= plainProgressSpacing, let fraction = store.fraction(of: handle)
            else { return }
            let currentTenth = tenth(fraction)
            guard
                currentTenth > last.tenth || time - last.time >= configuration.plainProgressInterval,
                let activity = store[handle]
            else { return }
            plainProgress[handle.index] = (handle, time, currentTenth)
            writeProgressLine(activity, at: time, in: store)
        case .log:
            guard let log = update.log else { return }
            let activity = update.handle.flatMap { store[$0] }
            // A log message comes straight from the event: the store keeps no copy to sanitize.
            let message = TerminalSanitizer.display(log.message)
            guard showsLog(log) else { return keepLog(message, of: activity, shownAs: nil) }
            var path: String?
            if let activity { path = pathTitle(of: activity, in: store) }
            writePlain(at: time) { appendLogLine(log, message: message, path: path, to: &$0) }
            keepLog(message, of: activity, shownAs: permanentLines)
        case .end:
            return
        }
    }

    /// The end of `activity`, read from the store.
    func renderPlainEnd(_ update: ActivityUpdate, _ activity: ActivityState, in store: ActivityStore) {
        let time = update.timestamp
        writeHeldBeginIfDue(at: time)
        let handle = activity.handle
        if handle.index < plainProgress.count { plainProgress[handle.index] = nil }
        // Its begin line is still held: the end line says it all, the size of the work too.
        let collapsed = heldBegin?.handle == handle
        if collapsed { heldBegin = nil }
        guard configuration.verbosity != .quiet || activity.status == .failure || isTopLevel(activity, in: store)
        else { return }
        let tail = failureTail(of: activity)
        let path = pathTitles.parts(of: activity, in: store)
        writePlain(at: time) { line in
            appendEndLine(activity, to: &line) { line, _ in
                path.append(to: &line.bytes)
                if collapsed { appendPlainDetails(activity, to: &line) }
            }
        }
        for line in tail { writePlain(line, at: time) }
    }

    /// Writes the begin line held back once its time is up: the next line comes that late.
    @inline(__always)
    private func writeHeldBeginIfDue(at time: Double) {
        if let held = heldBegin, time - held.time >= beginHold { writeHeldBegin() }
    }

    /// The shortest time between two lines of one activity: the minimum interval, unless the
    /// longest is shorter still.
    private var plainProgressSpacing: Double {
        min(configuration.plainProgressMinimumInterval, configuration.plainProgressInterval)
    }

    private func markPlainProgress(_ handle: ActivityHandle, time: Double, tenth: Int) {
        if plainProgress.count <= handle.index {
            plainProgress.append(contentsOf: repeatElement(nil, count: handle.index + 1 - plainProgress.count))
        }
        plainProgress[handle.index] = (handle, time, tenth)
    }

    /// Which tenth of its total an activity has reached; -1 when indeterminate.
    private func tenth(_ activity: ActivityState) -> Int { tenth(activity.fraction) }

    private func tenth(_ fraction: Double?) -> Int {
        fraction.map { Int(saturating: $0 * 10, rounding: .down) } ?? -1
    }

    /// ` (12 files)`, ` (3.00 MiB)`, ` (1 item)`: the size of the work, for a begin line. Without a
    /// unit the work is counted in items, the default word, which is singular for one (git's
    /// `Resolving deltas (1 item)`); a unit the producer chose is shown as it wrote it.
    private func appendPlainDetails(_ activity: ActivityState, to line: inout PlainLine) {
        guard let total = activity.total else { return }
        line.append(" (")
        if activity.unit == "bytes" {
            DecimalText.appendBytes(total, to: &line.bytes)
        } else {
            Formatting.appendCount(total, to: &line.bytes)
            line.append(" ")
            line.append(activity.unit ?? (total == 1 ? "item" : "items"))
        }
        line.append(")")
    }

    /// `  Title  45%  45/100 files  3.60 files/s  ETA 15s  message`: plain mode neither colours
    /// nor cuts, so the line needs no spans and no widths.
    private func writeProgressLine(_ activity: ActivityState, at time: Double, in store: ActivityStore) {
        let title = pathTitle(of: activity, in: store)
        writePlain(at: time) { line in
            TerminalRenderer.appendSpaced(title, to: &line.bytes)
            if let fraction = activity.fraction {
                line.append("  ")
                Formatting.appendPercent(fraction, to: &line.bytes)
            }
            if activity.hasAmount {
                line.append("  ")
                Formatting.appendProgress(
                    completed: activity.completed, total: activity.total, unit: activity.unit, to: &line.bytes)
            }
            if let rate = activity.rate(at: time), rate > 0 {
                line.append("  ")
                Formatting.appendRate(rate, unit: activity.unit, to: &line.bytes)
            }
            if let eta = activity.eta(at: time) {
                line.append("  ETA ")
                Formatting.appendETA(eta, to: &line.bytes)
            }
            if let message = activity.message, !message.isEmpty {
                TerminalRenderer.appendSpaced(message, to: &line.bytes)
            }
        }
    }

    /// Writes one line with its elapsed-time prefix: `[  12.3s] …`.
    func writePlain(_ line: StyledLine, at time: Double?) {
        writePlain(at: time) { line.encoded(colors: nil, into: &$0.bytes) }
    }

    /// Writes the line `body` appends after the elapsed-time prefix, in one write, after the
    /// begin line held back, if any. Inlined: its closures then copy nothing they name (an
    /// activity, a copy of which retains each of its texts).
    @inline(__always)
    private func writePlain(at time: Double?, _ body: (inout PlainLine) -> Void) {
        writeHeldBegin()
        // The buffer is ours alone while the line is built: no copy on append.
        var line = PlainLine(bytes: plainLine)
        plainLine = []
        buildPlain(at: time, into: &line, body)
        if writesSummary { output.write(line.bytes) } else { output.writeDisplayLine(line.bytes) }
        plainLine = line.bytes
        notePermanentLine()
    }

    @inline(__always)
    private func buildPlain(at time: Double?, into line: inout PlainLine, _ body: (inout PlainLine) -> Void) {
        let elapsed = max(0, (time ?? startTime ?? 0) - (startTime ?? time ?? 0))
        line.bytes.removeAll(keepingCapacity: true)
        line.bytes.append(contentsOf: plainPrefix(elapsed))
        body(&line)
        line.bytes.append(0x0A)
    }

    /// How long a begin line is held back: the shortest time between two lines of an activity.
    var beginHold: Double { plainProgressSpacing }

    /// Writes the begin line held back, if any: another line comes, or its time is up.
    func writeHeldBegin() {
        guard heldBegin != nil else { return }
        heldBegin = nil
        output.writeDisplayLine(heldBeginLine)
        notePermanentLine()
    }

    /// `[  12.3s] `: the elapsed time right-aligned in 7 columns, kept while its text stays the
    /// same: most lines share it.
    private func plainPrefix(_ elapsed: Double) -> [UInt8] {
        let key = Formatting.durationKey(elapsed)
        if let kept = plainPrefixKept, kept.key == key { return kept.bytes }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        Formatting.appendDuration(elapsed, to: &bytes)
        // Right-aligned in 7 columns; the duration is ASCII.
        if bytes.count < 8 { bytes.insert(contentsOf: repeatElement(0x20, count: 8 - bytes.count), at: 1) }
        bytes.append(UInt8(ascii: "]"))
        bytes.append(0x20)
        plainPrefixKept = (key, bytes)
        return bytes
    }
}
