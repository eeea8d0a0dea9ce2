import ActivityWire

/// The timings, style and wording of an overlay.
///
/// Every duration is in integer milliseconds. The defaults are the ones the overlay rules are
/// written for: a grace of 500 ms before anything shows, a minimum show time of 500 ms once it
/// does, and a success and failure linger of 1200 and 2000 ms.
///
/// ```swift
/// var configuration = OverlayConfiguration()
/// configuration.style = .replaceContent
/// configuration.activityTimeoutMilliseconds = 30_000
/// configuration.minimumBlocking = .dim
/// ```
public struct OverlayConfiguration: Hashable, Sendable {
    /// How a visible overlay relates to the content beneath it.
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// The content stays in place and the overlay covers it, dimmed when asked.
        case dimOverContent
        /// The content is hidden while the overlay shows; only the overlay is drawn.
        case replaceContent
    }

    /// When a successful end flashes a success mark.
    public enum SuccessFlash: String, Hashable, Sendable, CaseIterable {
        /// Every successful end of the last running activity flashes.
        case always
        /// Only an end that carries a `message` (such as "Signed in") flashes.
        case withMessage
        /// Success never flashes: the overlay hides once its minimum show time has passed.
        case never
    }

    /// The texts the overlay speaks and shows on its own. Titles and messages come from the events.
    public struct Texts: Hashable, Sendable {
        /// Announced and shown when the work succeeded and its end carried no message.
        public var succeeded = "Done"
        /// Shown when the work failed and its end carried no error or message.
        public var failed = "Failed"
        /// The error of an activity that ran past ``OverlayConfiguration/activityTimeoutMilliseconds``.
        public var timedOut = "Timed out"
        /// The error of an activity still running when its scope ended.
        public var abandoned = "Stopped unexpectedly"
        /// The accessibility value while the amount of work is unknown.
        public var inProgress = "In progress"
        /// The accessibility value of a determinate fraction; `%d` is replaced by the percentage.
        public var percent = "%d percent"
        /// The label of the cancel control.
        public var cancel = "Cancel"

        public init() {}
    }

    /// Dim over the content (the default) or replace it.
    public var style: Style = .dimOverContent
    /// How long work must run, counted from the first `begin`, before the overlay shows.
    public var graceMilliseconds = 500
    /// Once shown, the overlay stays at least this long.
    public var minimumShowMilliseconds = 500
    /// How long a success mark stays.
    public var successLingerMilliseconds = 1200
    /// How long a failure mark stays.
    public var failureLingerMilliseconds = 2000
    /// A changed title is announced once it has stayed unchanged this long.
    public var announcementDebounceMilliseconds = 1000
    /// An activity still running this long after its `begin` ends as a failure ("Timed out"), and
    /// cancellation is requested when it is cancellable. `nil`: no timeout.
    public var activityTimeoutMilliseconds: Int?
    /// The overlay never stays visible longer than this, whatever its activities do. It backstops a
    /// producer that never ends: its activities are dropped and the overlay hides.
    public var maximumVisibleMilliseconds = 300_000
    /// The least blocking an activity gets, whatever its `begin` asked. Apps that use the overlay to
    /// stop a double submit set `.block` or `.dim` here.
    public var minimumBlocking: ActivityEvent.Blocking = .none
    /// Whether a successful end flashes.
    public var successFlash: SuccessFlash = .withMessage
    /// The overlay's own wording.
    public var texts = Texts()

    /// The `attrs` key whose number ranks an activity's claim to the label (higher wins; default 0).
    public static let priorityAttribute = "x-overlay-priority"
    /// The `attrs` key whose positive number weighs an activity in the combined fraction (default 1).
    public static let weightAttribute = "x-overlay-weight"

    /// Creates the default configuration.
    public init() {}

    /// Returns the configuration with negative durations raised to zero and the maximum visible time
    /// at least the minimum show time.
    var normalized: OverlayConfiguration {
        var c = self
        c.graceMilliseconds = max(0, c.graceMilliseconds)
        c.minimumShowMilliseconds = max(0, c.minimumShowMilliseconds)
        c.successLingerMilliseconds = max(0, c.successLingerMilliseconds)
        c.failureLingerMilliseconds = max(0, c.failureLingerMilliseconds)
        c.announcementDebounceMilliseconds = max(0, c.announcementDebounceMilliseconds)
        c.activityTimeoutMilliseconds = c.activityTimeoutMilliseconds.map { max(1, $0) }
        c.maximumVisibleMilliseconds = max(c.maximumVisibleMilliseconds, c.minimumShowMilliseconds, 1)
        return c
    }
}
