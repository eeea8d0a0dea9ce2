import ActivityWire

/// What an overlay looks like at one moment: everything a presentation needs to draw it.
///
/// States are produced by ``OverlayModel``; a presentation reads them and never changes them.
/// Two equal states draw the same picture, so a presentation may skip a redraw when the state did
/// not change (the spinner's animation is the presentation's own business).
///
/// ```swift
/// if state.isVisible {
///     draw(title: state.title, content: state.content, dimmed: state.dims)
/// }
/// setUserInteractionBlocked(state.blocksInput)
/// ```
public struct OverlayState: Hashable, Sendable {
    /// Where the overlay is in its life.
    public enum Phase: String, Hashable, Sendable, CaseIterable {
        /// Nothing runs and nothing shows.
        case idle
        /// Work runs but the grace period has not passed: nothing shows, input may be blocked.
        case pending
        /// The overlay shows running work.
        case visible
        /// The work has ended and the overlay stays until its minimum show time has passed.
        case holding
        /// The work has ended and a success or failure mark shows for its linger.
        case flashing
    }

    /// What the centre of the overlay shows.
    public enum Content: Hashable, Sendable {
        /// Work of unknown size.
        case spinner
        /// Work of known size: a fraction from 0 to 1.
        case progress(Double)
        /// A success mark.
        case success
        /// A failure mark.
        case failure

        /// The content's name in ``OverlayStateEncoder`` output.
        public var name: String {
            switch self {
            case .spinner: "spinner"
            case .progress: "progress"
            case .success: "success"
            case .failure: "failure"
            }
        }

        /// The fraction of a ``progress(_:)`` content, `nil` otherwise.
        public var fraction: Double? {
            if case .progress(let fraction) = self { return fraction }
            return nil
        }
    }

    /// The cancel control.
    public enum CancelControl: String, Hashable, Sendable, CaseIterable {
        /// No running activity is cancellable.
        case hidden
        /// A tap requests cancellation of the cancellable running activities.
        case available
        /// Cancellation was requested; the control shows it and ignores further taps.
        case requested
    }

    /// Where the overlay is in its life.
    public internal(set) var phase: Phase = .idle
    /// Whether the overlay is on screen.
    public internal(set) var isVisible = false
    /// Whether the content beneath must not receive input (taps, keys). Can be true while nothing
    /// shows yet: that is what stops a double submit during the grace period.
    public internal(set) var blocksInput = false
    /// Whether the content beneath is dimmed. Only ever true while visible.
    public internal(set) var dims = false
    /// Whether the content beneath is hidden (``OverlayConfiguration/Style/replaceContent``).
    public internal(set) var replacesContent = false
    /// The centre of the overlay.
    public internal(set) var content: Content = .spinner
    /// The label: the title of the highest-priority, latest-begun running activity.
    public internal(set) var title = ""
    /// The secondary line: the label activity's message, or the outcome's message when flashing.
    public internal(set) var message: String?
    /// The cancel control.
    public internal(set) var cancel: CancelControl = .hidden
    /// What an assistive technology reads for the overlay.
    public internal(set) var accessibilityLabel = ""
    /// The accessibility value: a percentage, "In progress", or the outcome.
    public internal(set) var accessibilityValue: String?
    /// Counts the overlay's presentations: it grows by one when work begins with nothing running,
    /// and stays the same while a presentation is reused. 0 before the first.
    public internal(set) var presentationID = 0

    /// Creates the idle state.
    public init() {}

    /// Whether the cancel control shows (available or requested).
    public var showsCancel: Bool { isVisible && cancel != .hidden }
}
