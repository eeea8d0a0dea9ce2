import ActivityPOSIX
import ActivityTerminal
public import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a ``RenderSession`` shows the stream on its display descriptor.
public enum RenderMode: String, Sendable, CaseIterable {
    /// `tty` when the display is a terminal, `TERM` is set and not `dumb`, and `CI` is unset;
    /// `plain` otherwise.
    case auto
    /// The live, redrawn display (``TerminalRenderer/Mode/tty``), even on a non-terminal.
    case tty
    /// Plain lines (``TerminalRenderer/Mode/plain``).
    case plain
    /// The text log format (``LogFileRenderer``) on the display.
    case log
    /// The normalized JSON-lines stream (``JSONLinesRenderer``) on the display.
    case jsonl
}

/// What a ``RenderSession`` draws, and where.
///
/// ```swift
/// var options = RenderOptions()
/// options.logFile = "build.log"
/// options.plugins = ["notify"]
/// let session = try RenderSession(options: options)
/// ```
public struct RenderOptions: Sendable {
    /// The display: `auto` (the default) picks `tty` or `plain`.
    public var mode: RenderMode
    /// A log file to append to (`--log-file PATH`).
    public var logFile: String?
    /// The log file's format (`--log-format`); `text` by default.
    public var logFormat: LogFormat
    /// External renderers: each NAME runs `activity-render-NAME` from `PATH` (`--plugin NAME`).
    public var plugins: [String]
    /// The descriptor the display is drawn on; 2 (standard error) by default.
    public var displayFileDescriptor: Int32
    /// The environment consulted: `TERM`, `CI`, `NO_COLOR`, `CLICOLOR`, `CLICOLOR_FORCE`,
    /// `ACTIVITY_COLORS` (``ColorTheme/parse(_:over:)``), `LC_ALL`/`LC_CTYPE`/`LANG`,
    /// `COLUMNS`/`LINES`, and `PATH` (for plugins, which also get it as their environment). The
    /// process's environment by default.
    public var environment: [String: String]
    /// Whether the session installs its SIGINT, SIGTERM and SIGWINCH handlers in TTY mode (see
    /// ``RenderSession``): only when asked (`false` by default), since signal dispositions belong
    /// to the program. Without them the size is still followed (polled on every frame), and
    /// ``RenderSession/finish()`` restores the terminal.
    public var handlesSignals: Bool
    /// Which finished activities leave a permanent line.
    public var verbosity: Verbosity = .normal
    /// Whether the live display shows the overall progress in the terminal's tab or taskbar
    /// (OSC 9;4): `nil` (the default) where the terminal is known to support it.
    public var taskbarProgress: Bool?
    /// How much the terminal display's closing summary says; ``SummaryDetail/full`` by default.
    public var summary: SummaryDetail = .full

    /// A history file (``ActivityHistory``): how long activities took before, read for
    /// "usually 2m10s" estimates and the summary's "slower than usual", written at the end with
    /// this run's. `nil` (the default): none.
    public var historyFile: String?

    /// Where ``RenderSession/requestCancel(_:)`` sends a cancel (``ActivityStore/onCancelRequest``).
    public var onCancelRequest: (@Sendable (ActivityID) -> Void)?

    /// Whether the plain, log and JSON-lines displays and the passed-through output gather their
    /// lines and write many at once (``OutputBatch``), for a caller that reads its input on one
    /// thread and calls ``RenderSession/flushOutput()`` before each read that may wait. The TTY
    /// display, which writes one frame at a time, never does. `false` by default.
    package var batchesOutput = false
    /// Whether the plain and log displays write on a thread of their own (``BackgroundWriter``),
    /// for a caller that must go on reading while a reader of the display stalls (`activity
    /// run`, which answers reporters meanwhile and stops reading its command while
    /// ``RenderSession/outputIsBehind``). Not with ``batchesOutput``. `false` by default.
    package var writesInBackground = false
    /// Whether events come as the work happens (a pipe, `activity run`), not from a recording
    /// read at full speed (``TerminalRenderer/Configuration/eventsAreLive``): plain mode then
    /// writes a begin line it holds back once its time has passed on the clock. `false` by
    /// default, so that the lines depend only on the events.
    package var eventsAreLive = false
    /// Renderers of the caller's that follow the stream beside the display, as the log file
    /// does (`activity`'s live OTLP export): they get every change the store accepts, in the
    /// mode's display or a display of the caller's own, and finish after the display. Sendable,
    /// as the options are; the session still calls them one at a time.
    package var renderers: [any ActivityRenderer & Sendable] = []

    public init(
        mode: RenderMode = .auto, logFile: String? = nil, logFormat: LogFormat = .text, plugins: [String] = [],
        displayFileDescriptor: Int32 = 2, environment: [String: String] = RenderOptions.processEnvironment(),
        handlesSignals: Bool = false
    ) {
        self.mode = mode
        self.logFile = logFile
        self.logFormat = logFormat
        self.plugins = plugins
        self.displayFileDescriptor = displayFileDescriptor
        self.environment = environment
        self.handlesSignals = handlesSignals
    }

    /// This process's environment variables.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for text in SystemCall.environment() {
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
        }
        return result
    }

    /// The mode `auto` stands for here: `tty` or `plain`. Other modes are returned unchanged.
    public func resolvedMode() -> RenderMode {
        guard mode == .auto else { return mode }
        let term = environment["TERM"] ?? ""
        let ci = environment["CI"].map { !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" } ?? false
        // In the background a live region would be redrawn over the shell's prompt and whatever
        // the foreground job prints: plain lines only add lines.
        let terminal =
            TerminalDevice.isTerminal(displayFileDescriptor) && !TerminalDevice.isInBackground(displayFileDescriptor)
        return terminal && !term.isEmpty && term != "dumb" && !ci ? .tty : .plain
    }
}
