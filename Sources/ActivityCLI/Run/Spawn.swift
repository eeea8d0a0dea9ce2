import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts the command of `activity run` (``ProcessSpawn``).
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
            default: "\(command): cannot execute: \(SystemError.reason(errno))"
            }
        }
    }

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
        var descriptors = keeping.map { ProcessSpawn.Descriptor.keep($0) }
        var group = ProcessSpawn.Group.own
        switch streams {
        case .pipes(let output, let error):
            descriptors += [.duplicate(output, as: 1), .duplicate(error, as: 2)]
        case .terminal(let path, let input):
            descriptors.append(.terminal(path: path, input: input))
            group = .session
        case .inherited:
            break
        case .inheritedInForeground(let terminal):
            descriptors.append(.foreground(terminal: terminal))
        }
        do {
            return try ProcessSpawn.spawn(arguments, environment: environment, descriptors: descriptors, group: group)
        } catch {
            throw Failure(errno: error.code, found: resolve(arguments[0], environment: environment) != nil)
        }
    }

    /// The file that runs for `command`, found in the `PATH` of `environment` as
    /// ``ProcessSpawn/spawn(_:environment:descriptors:group:)`` finds it; `nil` when none exists.
    static func resolve(_ command: String, environment: [String]) -> String? {
        ProcessSpawn.executable(command, environment: environment)
    }

    /// The environment for the child: the caller's, with `ACTIVITY_SINK` and `ACTIVITY_PARENT` set.
    static func environment(sink: String, parent: String) -> [String] {
        // ACTIVITY_CONTROL belongs to an outer consumer's sink: the socket is the command's channel.
        SystemCall.environment().filter {
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
