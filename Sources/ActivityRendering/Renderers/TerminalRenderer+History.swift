import ActivityWire

/// Estimates from the history (``Configuration/history``) for activities that do not know
/// their total.
extension TerminalRenderer {
    /// `ETA 1m05s · usually 2m10s` for an indeterminate activity whose path ran before, or
    /// `usually 2m10s` once it has run longer than that; `nil` when its path never ran.
    func usualText(
        _ activity: ActivityState, in store: ActivityStore, now: Double, cache: ActivityLineCache
    )
        -> String?
    {
        if !cache.usualKnown {
            cache.usualKnown = true
            cache.usual = usualDuration(of: activity, in: store)
        }
        guard let usual = cache.usual else { return nil }
        let usually = "usually " + Formatting.duration(usual)
        let left = usual - activity.duration(at: now)
        guard left > 0 else { return usually }
        return "ETA " + Formatting.eta(left) + style.dot + usually
    }

    /// ` (usually 2m10s)` for a plain begin line, when the path ran before.
    func usualSuffix(_ activity: ActivityState, in store: ActivityStore) -> String? {
        usualDuration(of: activity, in: store).map { "usually " + Formatting.duration($0) }
    }

    /// How long `activity`'s path usually takes, from the history; `nil` without one, when the
    /// path never ran (an empty history makes no key), or when it usually takes less than the
    /// display shows (`0.0s`): an instant step is not worth a word.
    func usualDuration(of activity: ActivityState, in store: ActivityStore) -> Double? {
        guard let history = configuration.history, !history.isEmpty else { return nil }
        if historyTitles == nil { historyTitles = Set(history.entries.values.compactMap(\.path.last)) }
        guard historyTitles!.contains(activity.title),
            let usual = history.entry(forKey: historyKeys.title(of: activity, in: store))?.usualDuration,
            Formatting.durationKey(usual) != 0
        else { return nil }
        return usual
    }
}
