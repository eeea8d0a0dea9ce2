/// How much the closing summary of the terminal display says (`--summary`).
public enum SummaryDetail: String, Sendable, CaseIterable {
    /// No closing summary.
    case off
    /// One line: how many activities, how long, how they ended.
    case short
    /// That line, then the slowest top-level steps with their share of the total time, and every
    /// failure with its path and error (the default).
    case full
}
