import ActivityWire

/// How reports name an outcome in text, so colour is never the only sign of it.
extension ActivityEvent.Status {
    /// `✔`, `✖`, `⊘`, `↷`, `?`.
    var symbol: String {
        switch self {
        case .success: "✔"
        case .failure: "✖"
        case .cancelled: "⊘"
        case .skipped: "↷"
        case .abandoned: "?"
        }
    }

    /// `✖ failure`.
    var label: String { symbol + " " + rawValue }
}
