#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts every child process of the package (`run`'s command and its session leader, renderer
/// plugins, external adapters), one way: `posix_spawn`, the program found by one `PATH` search
/// (``executable(_:environment:)``), every signal the package changes back at its default
/// (``SignalNumbers/changedByThePackage``), an empty signal mask, and a process group of its own
/// (or a session), so that a signal to `-pid` reaches everything the child starts.
///
/// Not Foundation's `Process`: it closes every descriptor above 2 on Linux (make's jobserver,
/// `exec 3>file`) and gives no control over the child's group or terminal. Descriptors of the
/// caller that are not close-on-exec stay open in the child.
///
/// ```swift
/// let pid = try ProcessSpawn.spawn(
///     ["make", "-j8"], environment: SystemCall.environment(), descriptors: [.duplicate(output, as: 1)])
/// ```
package enum ProcessSpawn {
    /// What the child finds on its descriptors, besides what it inherits.
    package enum Descriptor: Equatable, Sendable {
        /// The caller's `fd` is the child's `target` (`dup2`).
        case duplicate(Int32, as: Int32)
        /// A close-on-exec descriptor of the caller's that the child keeps under the same number.
        case keep(Int32)
        /// The pseudo-terminal slave at `path` as the child's standard output and error (and input,
        /// when `input`), and the controlling terminal of its new session (``Group/session``).
        case terminal(path: String, input: Bool)
        /// The child's group made the foreground of the terminal on `fd` before the program
        /// starts, as a shell does for its child: a program that checks at once whether it is in
        /// the foreground (wget) never sees itself in the background. Where the C library cannot
        /// (glibc before 2.35, Darwin) nothing is done here: the caller makes it the foreground
        /// just after the spawn as well, a moment late there.
        case foreground(terminal: Int32)
    }

    /// Where the child stands among the processes.
    package enum Group: Sendable {
        /// A process group of its own, in the caller's session.
        case own
        /// A session of its own (whose leader it is), for ``Descriptor/terminal(path:input:)``.
        case session
    }

    /// Where the programs are when the environment has no `PATH`.
    package static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// The file that runs for `command`, as a shell and `execvp(3)` find it: a name with a `/`
    /// as it is (when it exists), else the first executable regular file of that name in the
    /// `PATH` of `environment` (``defaultPath`` without one), else the first file of that name
    /// at all (which then fails to start with `EACCES`, as `execvp` reports it). `nil` when none
    /// exists.
    package static func executable(_ command: String, environment: [String]) -> String? {
        if command.contains("/") { return access(command, F_OK) == 0 ? command : nil }
        let path = environment.first { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) } ?? defaultPath
        return executable(command, searching: path) ?? existing(command, searching: path)
    }

    /// The first executable regular file named `program` in the folders of `path` (an empty
    /// entry is the current folder), or `nil`.
    package static func executable(_ program: String, searching path: String) -> String? {
        candidates(program, path).first { candidate in
            var info = stat()
            return stat(candidate, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(candidate, X_OK) == 0
        }
    }

    private static func existing(_ program: String, searching path: String) -> String? {
        candidates(program, path).first { access($0, F_OK) == 0 }
    }

    private static func candidates(_ program: String, _ path: String) -> [String] {
        path.split(separator: ":", omittingEmptySubsequences: false).map {
            ($0.isEmpty ? "." : String($0)) + "/" + program
        }
    }

    /// Starts `arguments[0]`, found by ``executable(_:environment:)``; a script without `#!` runs
    /// with `/bin/sh`, as a shell and `execvp(3)` do.
    ///
    /// - Parameters:
    ///   - arguments: the program and its arguments (not empty).
    ///   - environment: the child's whole environment, `NAME=value` strings.
    ///   - descriptors: what the child gets on its descriptors, in this order.
    ///   - group: a process group of its own, or a session.
    /// - Returns: the child's pid, which is also its process group.
    /// - Throws: ``SystemError`` of `posix_spawn`: `ENOENT` when no such program exists (or
    ///   its `#!` interpreter does not), `EACCES` when it cannot be executed, …
    package static func spawn(
        _ arguments: [String], environment: [String], descriptors: [Descriptor] = [], group: Group = .own
    ) throws(SystemError) -> pid_t {
        guard let program = arguments.first, let path = executable(program, environment: environment) else {
            throw SystemError("posix_spawn", code: ENOENT)
        }
        var actions = FileActions(descriptors)
        defer { actions.destroy() }
        var attributes = Attributes(group: group)
        defer { attributes.destroy() }
        let result = start(path, [program] + arguments.dropFirst(), environment, &actions, &attributes)
        if case .failure(let error) = result, error.code == ENOEXEC {
            return try start("/bin/sh", ["/bin/sh", path] + arguments.dropFirst(), environment, &actions, &attributes)
                .get()
        }
        return try result.get()
    }

    private static func start(
        _ path: String, _ arguments: [String], _ environment: [String], _ actions: inout FileActions,
        _ attributes: inout Attributes
    ) -> Result<pid_t, SystemError> {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions.value, &attributes.value, argv, envp)
        return status == 0 ? .success(pid) : .failure(SystemError("posix_spawn", code: status))
    }
}

extension ProcessSpawn {
    #if canImport(Darwin)
        fileprivate typealias FileActionsValue = posix_spawn_file_actions_t?
        fileprivate typealias AttributesValue = posix_spawnattr_t?
    #else
        fileprivate typealias FileActionsValue = posix_spawn_file_actions_t
        fileprivate typealias AttributesValue = posix_spawnattr_t
    #endif

    fileprivate struct FileActions {
        var value: FileActionsValue

        init(_ descriptors: [Descriptor]) {
            #if canImport(Darwin)
                value = nil
            #else
                value = posix_spawn_file_actions_t()
            #endif
            posix_spawn_file_actions_init(&value)
            for descriptor in descriptors {
                switch descriptor {
                case .duplicate(let fd, let target):
                    posix_spawn_file_actions_adddup2(&value, fd, target)
                case .keep(let fd):
                    // dup2 onto itself clears close-on-exec (POSIX.1-2024; glibc since 2.29).
                    posix_spawn_file_actions_adddup2(&value, fd, fd)
                case .terminal(let path, let input):
                    // After setsid() (which posix_spawn does before the file actions), opening the
                    // slave without O_NOCTTY makes it the session's controlling terminal.
                    posix_spawn_file_actions_addopen(&value, 1, path, O_RDWR, 0)
                    posix_spawn_file_actions_adddup2(&value, 1, 2)
                    if input { posix_spawn_file_actions_adddup2(&value, 1, 0) }
                case .foreground(let terminal):
                    #if os(Linux)
                        _ = addForegroundAction?(&value, terminal)
                    #else
                        _ = terminal  // no such file action: the caller sets the foreground after the spawn
                    #endif
                }
            }
        }

        mutating func destroy() { posix_spawn_file_actions_destroy(&value) }
    }

    fileprivate struct Attributes {
        var value: AttributesValue

        init(group: Group) {
            #if canImport(Darwin)
                value = nil
            #else
                value = posix_spawnattr_t()
            #endif
            posix_spawnattr_init(&value)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in SignalNumbers.changedByThePackage { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&value, &defaults)
            var mask = sigset_t()
            sigemptyset(&mask)
            posix_spawnattr_setsigmask(&value, &mask)
            posix_spawnattr_setpgroup(&value, 0)
            let placement = group == .session ? ProcessSpawn.setSessionFlag : Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setflags(&value, Int16(Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | placement))
        }

        mutating func destroy() { posix_spawnattr_destroy(&value) }
    }

    /// `POSIX_SPAWN_SETSID` (glibc since 2.26, Darwin since 10.15), which the Glibc module does
    /// not import.
    fileprivate static var setSessionFlag: Int32 {
        #if canImport(Darwin)
            0x0400
        #else
            0x80
        #endif
    }

    #if os(Linux)
        /// glibc's `posix_spawn_file_actions_addtcsetpgrp_np` (since 2.35), looked up at run time
        /// because the Glibc module does not import it and older C libraries lack it.
        fileprivate static let addForegroundAction:
            (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
                guard let symbol = dlsym(nil, "posix_spawn_file_actions_addtcsetpgrp_np") else { return nil }
                return unsafeBitCast(
                    symbol,
                    to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
            }()
    #endif
}
