/// A part of the terminal display that has a colour of its own: what a ``ColorTheme`` colours.
///
/// Each role's ``name`` is how `ACTIVITY_COLORS` spells it (`bar-track=90`), and its
/// ``defaultParameters`` are the SGR parameters the display uses when the theme does not
/// change them.
///
/// ```swift
/// ColorRole(name: "bar-track")        // .barTrack
/// ColorRole.failure.defaultParameters // "31"
/// ```
public enum ColorRole: Int, CaseIterable, Sendable, Hashable {
    /// The spinner of each running activity and of the header.
    case spinner
    /// The titles that stand out: top-level running activities, the header's running count, and
    /// failed activities in their `✖` lines and in the summary.
    case title
    /// The filled part of a progress bar.
    case bar
    /// The empty part of a progress bar (Unicode only; the ASCII bar `[##--]` is never coloured).
    case barTrack
    /// A running activity's percentage.
    case percent
    /// A running activity's counts: `3/10`, `1.2 MiB/4.0 MiB`.
    case counts
    /// Secondary figures and labels: rates, ETAs, elapsed times and durations, the header's
    /// time, `+N more`, the summary's headings, tally and shares, `(abandoned)`, the activity
    /// path before a log message, problems with the input stream.
    case detail
    /// An activity's message, in its live row and in its end line.
    case message
    /// Estimates from the history: `usually 2m10s` in a live row and in the summary.
    case usual
    /// The `✔` of a success.
    case success
    /// The `✖` of a failure, its error, and the header's failed count.
    case failure
    /// The `⊘` of a cancelled activity and the `?` of an abandoned one.
    case cancelled
    /// The `↷` of a skipped activity.
    case skipped
    /// The display's own warnings, the header's count of input problems, and times slower than
    /// usual.
    case warning
    /// The `error:` of an error-level log line.
    case logError
    /// The `warning:` of a warning-level log line.
    case logWarning
    /// The text of a debug-level log line.
    case logDebug
    /// The lines of a command's output shown under its activity and with its failure.
    case tail
    /// The key named in the live region's hint: the `Esc` of `Esc cancels Deploy`.
    case key
    /// The rest of that hint: ` cancels Deploy`, `cancelling Deploy…`.
    case hint

    /// The role's name in `ACTIVITY_COLORS`: `spinner`, `bar-track`, `log-error`, ….
    public var name: String {
        switch self {
        case .spinner: "spinner"
        case .title: "title"
        case .bar: "bar"
        case .barTrack: "bar-track"
        case .percent: "percent"
        case .counts: "counts"
        case .detail: "detail"
        case .message: "message"
        case .usual: "usual"
        case .success: "success"
        case .failure: "failure"
        case .cancelled: "cancelled"
        case .skipped: "skipped"
        case .warning: "warning"
        case .logError: "log-error"
        case .logWarning: "log-warning"
        case .logDebug: "log-debug"
        case .tail: "tail"
        case .key: "key"
        case .hint: "hint"
        }
    }

    /// The role named `name` (as ``name`` spells it), or `nil`.
    public init?(name: String) {
        guard let role = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = role
    }

    /// The SGR parameters of the default theme; empty for no colour.
    ///
    /// Only red, green, magenta and cyan are used as foregrounds, with bold and dim: each reads
    /// at 3:1 or better on dark and light palettes (`ColorContrastTests`). Yellow is not: GNOME's
    /// Tango yellow on white is 2.5:1, so warnings and cancelled marks are magenta, as GCC's
    /// warnings are.
    public var defaultParameters: String {
        switch self {
        case .spinner, .bar: "36"
        case .title, .key: "1"
        case .barTrack, .detail, .message, .usual, .skipped, .logDebug, .tail, .hint: "2"
        case .percent, .counts: ""
        case .success: "32"
        case .failure: "31"
        case .cancelled, .warning, .logWarning: "35"
        case .logError: "1;31"
        }
    }
}
