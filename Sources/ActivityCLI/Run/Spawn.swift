import ActivityRendering

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts the command of `activity run` with `posix_spawnp`.
///
/// The child gets its standard output and error on the given pipes, its own process group (so
/// that a forwarded signal reaches the whole tree it starts), default dispositions for every
/// signal `activity` handles or ignores, and an empty signal mask. Descriptors of the caller that
/// are not close-on-exec stay open in the child (make's jobserver, `exec 3>file`).
enum Spawn {
    struct Failure: Error, Sendable {
        var errno: Int32
        /// Whether the command's file was found: ENOENT for a file that exists means its `#!`
        /// interpreter is missing.
        var found = false
        /// The exit status the shell would give: 127 not found, 126 not executable.
        var exitStatus: Int32 {
            (errno == ENOENT || errno == ENOTDIR) && !found ? ExitCode.commandNotFound : ExitCode.cannotExecute
        }
        static func isDirectory(_ path: String) -> Bool {
            var status = stat()
            return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        }

        func message(for command: String) -> String {
            switch errno {
            case ENOENT where found: "\(command): cannot execute: its #! interpreter was not found"
            case ENOENT, ENOTDIR: "\(command): command not found"
            case EACCES where command.contains("/") && Self.isDirectory(command):
                "\(command): cannot execute: it is a directory"
            default: "\(command): cannot execute: \(POSIX.describe(errno))"
            }
        }
    }

    /// glibc's POSIX_SPAWN_SETSID (since 2.26), which the Glibc module does not import.
    static let setSessionFlag: Int32 = 0x80

    /// Where the child's standard streams go.
    enum Streams {
        /// Output and error on these descriptors (pipes); input inherited.
        case pipes(output: Int32, error: Int32)
        /// A session of its own whose controlling terminal is the pty slave at `path`: output
        /// and error on it, and input too when `input` (else inherited).
        case terminal(path: String, input: Bool)
        /// The caller's own.
        case inherited
        /// The caller's own, with the child's process group made the foreground of the terminal
        /// on `terminal` before the command starts, as a shell's child does before its exec: a
        /// program that checks at once whether it is in the foreground (wget, which otherwise
        /// writes to `wget-log`) must never see itself in the background.
        case inheritedInForeground(terminal: Int32)
    }

    /// glibc's `posix_spawn_file_actions_addtcsetpgrp_np` (since 2.35), looked up at run time
    /// because the Glibc module does not import it and older C libraries lack it; without it the
    /// caller makes the child the foreground right after the spawn, a moment late.
    private static let addForegroundAction:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addtcsetpgrp_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// Spawns `arguments[0]` (looked up in `PATH`) with its output and error on pipes.
    static func spawn(
        _ arguments: [String], environment: [String], standardOutput: Int32, standardError: Int32
    ) throws(Failure) -> pid_t {
        try spawn(arguments, environment: environment, streams: .pipes(output: standardOutput, error: standardError))
    }

    /// Spawns `arguments[0]` (looked up in `PATH`) and returns its pid. On a terminal the child
    /// leads a session of its own (so its pid is also its process group), in its own process
    /// group otherwise: either way a signal to `-pid` reaches everything it starts.
    /// `keeping` are close-on-exec descriptors (3 or above) the child gets under the same numbers.
    static func spawn(
        _ arguments: [String], environment: [String], streams: Streams, keeping: [Int32] = []
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto itself clears close-on-exec (POSIX.1-2024; glibc since 2.29).
        for fd in keeping { posix_spawn_file_actions_adddup2(&actions, fd, fd) }
        var sessionFlag = POSIX_SPAWN_SETPGROUP
        switch streams {
        case .pipes(let output, let error):
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, error, 2)
        case .terminal(let path, let input):
            // After setsid() (which glibc's posix_spawn does before the file actions), opening
            // the slave without O_NOCTTY makes it the session's controlling terminal.
            sessionFlag = Self.setSessionFlag
            posix_spawn_file_actions_addopen(&actions, 1, path, O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            if input { posix_spawn_file_actions_adddup2(&actions, 1, 0) }
        case .inherited:
            break
        case .inheritedInForeground(let terminal):
            _ = addForegroundAction?(&actions, terminal)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in SignalPipe.handled + [SIGPIPE, SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        let flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | sessionFlag
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        if result == ENOEXEC, let script = resolve(arguments[0], environment: environment) {
            // A script without `#!`: run it with the shell, as a shell and execvp(3) do.
            let shellArguments = (["/bin/sh", script] + arguments.dropFirst()).map { strdup($0) } + [nil]
            defer { shellArguments.forEach { free($0) } }
            let retried = posix_spawn(&pid, "/bin/sh", &actions, &attributes, shellArguments, envp)
            guard retried == 0 else { throw Failure(errno: retried, found: true) }
            return pid
        }
        guard result == 0 else {
            throw Failure(errno: result, found: resolve(arguments[0], environment: environment) != nil)
        }
        return pid
    }

    /// The file `command` names, looked up in `PATH` as `posix_spawnp` does; `nil` when none exists.
    static func resolve(_ command: String, environment: [String]) -> String? {
        if command.contains("/") { return access(command, F_OK) == 0 ? command : nil }
        let path = environment.first { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) } ?? "/usr/bin:/bin"
        return PluginHost.find(command, path: path)
    }

    /// The environment for the child: the caller's, with `ACTIVITY_SINK` and `ACTIVITY_PARENT` set.
    static func environment(sink: String, parent: String) -> [String] {
        // ACTIVITY_CONTROL belongs to an outer consumer's sink: the socket is the command's channel.
        POSIX.environment().filter {
            !$0.hasPrefix("ACTIVITY_SINK=") && !$0.hasPrefix("ACTIVITY_PARENT=") && !$0.hasPrefix("ACTIVITY_CONTROL=")
        }
            + ["ACTIVITY_SINK=\(sink)", "ACTIVITY_PARENT=\(parent)"]
    }

    /// The command line as a title: the program's name without its folder (and, for an
    /// interpreter running a script, the script's name without its folder), then the arguments,
    /// quoted where a shell would need it: `bash /home/me/bin/login.sh -v` is `bash login.sh -v`.
    static func title(_ arguments: [String]) -> String {
        var words = arguments
        if let program = words.first { words[0] = baseName(program) }
        if words.count > 1, isInterpreter(words[0]), !words[1].hasPrefix("-"), words[1].contains("/") {
            words[1] = baseName(words[1])
        }
        return words.map { argument in
            let plain =
                !argument.isEmpty
                && argument.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || $0.properties.numericType != nil
                        || "-_./=:,+@%^".unicodeScalars.contains($0)
                }
            return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    private static func baseName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.isEmpty ? path : name
    }

    /// Programs whose first argument is the script that says what runs.
    private static func isInterpreter(_ name: String) -> Bool {
        let interpreters: Set<String> = [
            "sh", "bash", "dash", "zsh", "ksh", "fish", "node", "ruby", "perl", "php", "lua",
        ]
        return interpreters.contains(name) || name.hasPrefix("python")
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
