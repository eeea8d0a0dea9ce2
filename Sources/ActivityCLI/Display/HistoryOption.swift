import ActivityRendering

/// `--history FILE|on|off` and `--no-history` of `render` and `run`: where the durations of past
/// runs are kept (see `ActivityHistory`).
///
/// Without the options, `ACTIVITY_HISTORY` (a path, `on` or `off`) decides; without it, or with
/// `on`, the file is `$XDG_STATE_HOME/activity/history`, or `~/.local/state/activity/history`.
/// (`on` is never a file in the current directory, which `ACTIVITY_HISTORY=on` would otherwise
/// leave behind; `./on` is.)
enum HistoryOption {
    static let group = OptionGroup(
        title: "history options",
        options: [
            .value(
                "history", "FILE|on|off", values: .file,
                help: "remember how long each activity took in FILE, for 'usually 2m10s' estimates and the "
                    + "summary's steps slower than usual (default: ACTIVITY_HISTORY, else "
                    + "$XDG_STATE_HOME/activity/history or ~/.local/state/activity/history); on: that "
                    + "default file; off: none"),
            .flag("no-history", help: "neither read nor write a history (same as --history off)"),
        ])

    /// The history file to use, `nil` for none.
    static func resolve(
        _ parsed: ParsedArguments, parser: OptionParser,
        environment: [String: String] = RenderOptions.processEnvironment()
    ) throws(CommandLineError) -> String? {
        let option = parsed.value("history")
        if parsed.flag("no-history") {
            guard option == nil || option == "off" else {
                throw parser.usageError("--history and --no-history exclude each other")
            }
            return nil
        }
        switch option {
        case "": throw parser.usageError("--history needs a file, on or off")
        case "off": return nil
        case "on": return defaultPath(environment)
        case let path?: return path
        case nil: break
        }
        switch environment["ACTIVITY_HISTORY"] {
        case "off": return nil
        case let path? where !path.isEmpty && path != "on": return path
        default: return defaultPath(environment)
        }
    }

    /// `$XDG_STATE_HOME/activity/history`, else `$HOME/.local/state/activity/history`; `nil`
    /// without either (relative ones do not count, as the XDG specification says).
    static func defaultPath(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/activity/history" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/activity/history" }
        return nil
    }
}
