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
            cache.usual = configuration.history.flatMap { history in
                history.entry(forKey: historyKeys.title(of: activity, in: store))?.usualDuration
            }
        }
        guard let usual = cache.usual else { return nil }
        let usually = "usually " + Formatting.duration(usual)
        let left = usual - activity.duration(at: now)
        guard left > 0 else { return usually }
        return "ETA " + Formatting.eta(left) + style.dot + usually
    }

    /// ` (usually 2m10s)` for a plain begin line, when the path ran before.
    func usualSuffix(_ activity: ActivityState, in store: ActivityStore) -> String? {
        guard let history = configuration.history, !history.isEmpty,
            let usual = history.entry(forKey: historyKeys.title(of: activity, in: store))?.usualDuration
        else { return nil }
        return "usually " + Formatting.duration(usual)
    }
}
