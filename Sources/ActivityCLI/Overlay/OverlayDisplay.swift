import ActivityRendering
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The overlay `--mode overlay` or `--mode overlay-jsonl` asks for, in two steps: what can fail
/// (the terminal, the `--control` channel) is set up first, and the presenter is made by the
/// render session once its log file and plugins are, so that nothing is drawn when they fail.
enum OverlayDisplay {
    /// The terminal overlay: it draws nothing until work has run past the grace period.
    case terminal(TerminalOverlayPresenter)
    /// The overlay-state stream, which starts with a line: made last.
    case jsonLines(control: ControlChannel?, onCancel: @Sendable ([ActivityID]) -> Void)

    /// - Throws: ``DisplayError`` (exit status 69) when the overlay needs a terminal that is not
    ///   there, or the `--control` channel cannot be opened.
    init(_ options: DisplayOptions, onCancel: @escaping @Sendable ([ActivityID]) -> Void) throws(DisplayError) {
        if options.mode == .overlayJSONL {
            guard let source = options.control else {
                self = .jsonLines(control: nil, onCancel: onCancel)
                return
            }
            do throws(ControlChannel.Failure) {
                self = .jsonLines(control: try ControlChannel(source), onCancel: onCancel)
            } catch {
                throw DisplayError(message: "--control \(error.message)", exitStatus: ExitCode.unavailable)
            }
            return
        }
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        do {
            self = .terminal(
                try TerminalOverlayPresenter(
                    environment: RenderOptions.processEnvironment(), outputFD: 2,
                    inputFD: terminal >= 0 ? terminal : nil
                ) { ids in onCancel(ids) })
        } catch {
            if terminal >= 0 { close(terminal) }
            throw DisplayError(message: "\(error)", exitStatus: ExitCode.unavailable)
        }
    }

    /// The presenter, as the session's display.
    func make() -> any ActivityRenderer {
        switch self {
        case .terminal(let presenter): presenter
        case .jsonLines(let control, let onCancel):
            OverlayJSONLinesPresenter(outputFD: 1, control: control, onCancel: onCancel)
        }
    }

    /// The session could not start: the terminal overlay's thread ends, the channel is closed.
    func discard() {
        switch self {
        case .terminal(let presenter): presenter.finish()
        case .jsonLines(let control, _): control?.stop()
        }
    }
}
