import ActivityTerminal
import ActivityWire

/// TTY mode: one running activity's line, its parts made once per change and kept from frame to
/// frame.
extension TerminalRenderer {
    /// Spaces for each width up to 64: indentation and the padding of columns.
    static let spaces: [String] = (0...64).map { String(repeating: " ", count: $0) }

    /// `width` spaces, from the table when it is short enough.
    @inline(__always)
    static func blank(_ width: Int) -> String {
        width < spaces.count ? spaces[max(0, width)] : String(repeating: " ", count: width)
    }

    /// One running activity's parts for this frame, measured: the percentage and the counts
    /// made again only when progress changed them, the rate every frame, the times when their
    /// text would change.
    func liveRow(for activity: ActivityState, now: Double) -> LiveRow {
        let cache = cachedLine(for: activity)
        let fraction = activity.fraction
        if cache.fraction != fraction || !cache.hasPercent {
            cache.fraction = fraction
            cache.hasPercent = true
            cache.percent = fraction.map { Formatting.percent($0) }
        }
        if cache.countsCompleted != activity.completed || cache.countsTotal != activity.total || !cache.hasCounts {
            cache.countsCompleted = activity.completed
            cache.countsTotal = activity.total
            cache.hasCounts = true
            cache.counts = activity.hasAmount ? countsText(activity, cache: cache) : nil
            cache.countsWidth = cache.counts.map(DisplayWidth.of) ?? 0
        }
        return LiveRow(
            cache: cache, indentWidth: 2 * min(activity.depth, 16), isTopLevel: activity.depth == 0,
            fraction: fraction,
            percent: cache.percent.map { LiveRow.Part(text: $0, width: 4) },
            counts: cache.counts.flatMap { $0.isEmpty ? nil : LiveRow.Part(text: $0, width: cache.countsWidth) },
            rate: ratePart(activity, now: now, cache: cache), eta: etaPart(activity, now: now, cache: cache),
            elapsed: elapsedPart(activity.duration(at: now), cache: cache))
    }

    /// `Formatting.rate(_:unit:)` at `now`, measured, made again only when the text would change.
    func ratePart(_ activity: ActivityState, now: Double, cache: ActivityLineCache) -> LiveRow.Part? {
        guard let value = activity.rate(at: now), value > 0 || activity.completed > 0 else { return nil }
        let key = Formatting.rateKey(value, unit: activity.unit)
        if let kept = cache.rate, kept.key == key { return kept.part }
        let text: String
        if activity.unit == "bytes" {
            text = Formatting.bytesRate(value)
        } else {
            // `Formatting.rate` with the unit's part made once.
            if cache.rateSuffix == nil {
                cache.rateSuffix = activity.unit.flatMap { $0.isEmpty ? nil : " " + $0 + "/s" } ?? "/s"
            }
            text = Formatting.rateNumber(value, suffix: cache.rateSuffix!)
        }
        let part = LiveRow.Part(text)
        cache.rate = part.map { (key, $0) }
        return part
    }

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

    /// `Formatting.duration(seconds)`, measured, made again only when the text would change:
    /// below a minute it shows tenths of a second, above whole seconds.
    func elapsedPart(_ seconds: Double, cache: ActivityLineCache) -> LiveRow.Part? {
        let key = Formatting.durationKey(seconds)
        if cache.elapsedKey == key, let part = cache.elapsed { return part }
        let part: LiveRow.Part?
        if lastElapsed.key == key, let shared = lastElapsed.part {
            // Activities that began together show the same time: formatted once per frame.
            part = shared
        } else {
            part = LiveRow.Part(Formatting.duration(seconds))
            lastElapsed = (key, part)
        }
        cache.elapsedKey = key
        cache.elapsed = part
        return part
    }

    /// `ETA 12s`, `ETA —` while stalled, or `nil` while there is no estimate yet, measured. The
    /// text changes at most twice a second.
    func etaPart(_ activity: ActivityState, now: Double, cache: ActivityLineCache) -> LiveRow.Part? {
        // Done: no ETA, not even the text kept from the last half second.
        guard let total = activity.total, activity.completed < total else { return nil }
        if let cached = cache.eta, now - cached.time < 0.5, now >= cached.time { return cached.part }
        let text: String?
        if activity.estimator.isStalled(at: now) {
            text = "ETA " + style.dash
        } else if let seconds = activity.eta(at: now) {
            text = "ETA " + Formatting.eta(seconds)
        } else {
            text = nil
        }
        let part = LiveRow.Part(text)
        cache.eta = part.map { ($0, now) }
        return part
    }
}
