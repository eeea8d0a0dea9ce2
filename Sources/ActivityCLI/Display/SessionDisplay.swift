import ActivityRendering

/// What `render`, `run`, `replay` and `demo` draw on: a `RenderSession` (terminal, plain, log
/// text or JSON lines on standard error, or an overlay, with the log file, plugins and history
/// file the options ask for) and, with `--otlp-endpoint`, the live OTLP export among its
/// renderers (``OTLPRenderer``).
///
/// Events, output, problems and what `activity run` adds (its command's terminal output, the
/// activity that output belongs to, Ctrl-Z, the cancel key, whether it draws on a terminal, the
/// reporters' names) are the session's own API, ``session``. Only finishing is this type's: the export's last spans are
/// waited for after the session has drawn its last lines.
final class SessionDisplay: Sendable {
    let session: RenderSession
    private let export: OTLPRenderer?

    /// - Parameter export: the OTLP renderer among `session`'s renderers, if there is one: its
    ///   warnings are drawn by `session` from now on.
    init(session: RenderSession, export: OTLPRenderer? = nil) {
        self.session = session
        self.export = export
        export?.warn(on: session)
    }

    /// Ends the session (open activities end as abandoned, the terminal is restored), then waits
    /// a bounded time for the spans on their way to the collector. Safe to call more than once.
    func finish() {
        guard let export else { return session.finish() }
        export.finish(after: session.finish)
    }
}
