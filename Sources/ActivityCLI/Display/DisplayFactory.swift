import ActivityPOSIX
import ActivityRendering
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Builds the display the options ask for: a render session, with live OTLP export among its
/// renderers when `--otlp-endpoint` or the OpenTelemetry environment asks for it.
///
/// A log file that cannot be created fails with exit status 73 and a plugin not on `PATH` with
/// 69, before anything is drawn.
enum DisplayFactory {
    /// - Parameter onCancel: what Esc in the terminal overlay (or a request on `--control` under
    ///   `--mode overlay-jsonl`) does with the activities it asks to
    ///   cancel: `run` sends each back to its reporter (or interrupts its command); the other
    ///   commands, which cannot reach the producers, interrupt themselves (the display finishes,
    ///   the command ends by SIGINT).
    ///   `sendCancel`: where a render session's cancel requests (a plugin's, a Swift renderer's)
    ///   go; `nil` where producers cannot be reached.
    static func make(
        _ options: DisplayOptions,
        onCancel: @escaping @Sendable ([ActivityID]) -> Void = { _ in kill(getpid(), SIGINT) },
        sendCancel: (@Sendable (ActivityID) -> Void)? = nil
    ) throws(DisplayError) -> SessionDisplay {
        let otlp: OTLPSettings?
        do throws(HTTPEndpoint.Invalid) {
            otlp = try OTLPSettings.resolve(option: options.otlpEndpoint, environment: SystemCall.environment)
        } catch {
            throw DisplayError(message: error.message, exitStatus: ExitCode.usage)
        }
        var renderOptions = RenderOptions(
            logFile: options.logFile, logFormat: options.logFormat, plugins: options.plugins)
        renderOptions.verbosity = options.verbosity
        renderOptions.handlesSignals = true
        renderOptions.summary = options.summary
        renderOptions.taskbarProgress = options.taskbarProgress
        renderOptions.onCancelRequest = sendCancel
        renderOptions.historyFile = options.history
        renderOptions.batchesOutput = options.batchesOutput
        renderOptions.writesInBackground = options.writesInBackground
        renderOptions.eventsAreLive = options.eventsAreLive
        // Live export follows the stream beside the display, as the log file does.
        let export = otlp.map { OTLPRenderer(settings: $0) }
        if let export { renderOptions.renderers.append(export) }
        do throws(DisplayError) {
            return SessionDisplay(session: try makeSession(options, renderOptions, onCancel: onCancel), export: export)
        } catch {
            // Its sending thread stops: nothing was drawn, nothing is sent.
            export?.exporter.finish()
            throw error
        }
    }

    /// The render session drawing on the terminal or the overlay, with the log file, plugins,
    /// history file and the renderers `renderOptions` add.
    private static func makeSession(
        _ options: DisplayOptions, _ renderOptions: RenderOptions, onCancel: @escaping @Sendable ([ActivityID]) -> Void
    ) throws(DisplayError) -> RenderSession {
        var renderOptions = renderOptions
        let overlay: OverlayDisplay?
        switch options.mode {
        case .session(let mode): (renderOptions.mode, overlay) = (mode, nil)
        case .overlay, .overlayJSONL: overlay = try OverlayDisplay(options, onCancel: onCancel)
        }
        do throws(RenderError) {
            guard let overlay else { return try RenderSession(options: renderOptions) }
            // The overlay draws in place of the mode's display; the log file, plugins and history
            // file are the session's, as in every other mode.
            do throws(RenderError) {
                return try RenderSession(options: renderOptions) { [overlay.make()] }
            } catch {
                overlay.discard()
                throw error
            }
        } catch {
            throw DisplayError(message: Self.message(for: error, options), exitStatus: Self.exitStatus(for: error))
        }
    }

    /// The exit status of a display that could not be set up: 73 for the log file, 69 for a plugin.
    static func exitStatus(for error: RenderError) -> Int32 {
        switch error {
        case .logFile: ExitCode.cannotCreate
        case .pluginName, .pluginNotFound, .pluginFailed: ExitCode.unavailable
        }
    }

    /// The message, worded after the option that asked for it.
    static func message(for error: RenderError, _ options: DisplayOptions) -> String {
        switch error {
        case .logFile(let path, let reason): "--log-file \(path): \(reason)"
        case .pluginNotFound(let name, let program): "--plugin \(name): no executable \(program) on PATH"
        default: error.message
        }
    }
}
