import ActivityRendering

/// `--history FILE|off` and `--no-history` of `render` and `run`: where the durations of past
/// runs are kept (see `ActivityHistory`).
///
/// Without the options, `ACTIVITY_HISTORY` (a path, or `off`) decides; without it, the file is
/// `$XDG_STATE_HOME/activity/history`, or `~/.local/state/activity/history`.
enum HistoryOption {
    static let group = OptionGroup(
        title: "history options",
        options: [
            .value(
                "history", "FILE|off", values: .file,
                help: "remember how long each activity took in FILE, for 'usually 2m10s' estimates and the "
                    + "summary's steps slower than usual (default: ACTIVITY_HISTORY, else "
                    + "$XDG_STATE_HOME/activity/history or ~/.local/state/activity/history); off: none"),
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
        case "": throw parser.usageError("--history needs a file, or off")
        case "off": return nil
        case let path?: return path
        case nil: break
        }
        if let setting = environment["ACTIVITY_HISTORY"], !setting.isEmpty {
            return setting == "off" ? nil : setting
        }
        return defaultPath(environment)
    }

    /// `$XDG_STATE_HOME/activity/history`, else `$HOME/.local/state/activity/history`; `nil`
    /// without either (relative ones do not count, as the XDG specification says).
    static func defaultPath(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/activity/history" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/activity/history" }
        return nil
    }
}
