import ActivityWire

/// Something that happens to an overlay: an activity event, the passing of time, or a tap.
public enum OverlayInput: Hashable, Sendable {
    /// An activity event, from the SDK in-process or decoded from the wire. `log` events are ignored.
    case event(ActivityEvent)
    /// Time has passed. Send one at ``OverlayModel/nextDeadline`` (sending more is harmless).
    case tick
    /// The person tapped the cancel control (or pressed Esc).
    case cancelTapped
    /// The person tapped a success or failure mark: it goes once the minimum show time has passed.
    case flashTapped
    /// The event source has ended (end of stream, or the scope that reported has returned): every
    /// activity still running ends as abandoned, which counts as a failure.
    case scopeEnded
}

/// Something the overlay asks its presentation to do, besides drawing the new state.
public enum OverlayEffect: Hashable, Sendable {
    /// Say this to an assistive technology (VoiceOver's announcement, a screen reader's live region).
    case announce(String)
    /// Ask the producers to cancel these activities. Emitted once per activity at most.
    case cancelRequested([ActivityID])
    /// Play this haptic.
    case haptic(Haptic)

    /// A haptic pattern.
    public enum Haptic: String, Hashable, Sendable, CaseIterable {
        case success
        case failure
    }
}
