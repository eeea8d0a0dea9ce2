import ActivityPOSIX
import ActivityTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity _session-leader CMD [ARGS…]`, started by `activity run` (internal, not for people):
/// the leader of the pseudo-terminal's session, with the pty as its controlling terminal, which
/// runs CMD in a process group of its own, in the foreground of the pty.
///
/// Why not run CMD itself as the session leader: a process group whose members have no parent in
/// another group of the same session is orphaned, and the kernel discards the stop signals the
/// terminal sends it, so Ctrl-Z (and a program's own suspend, as vim's) would do nothing. Here
/// CMD's parent is in the session, as a shell's jobs' is. When CMD stops, the leader stops itself
/// too, which `activity run` sees and follows (it gives the real terminal back and stops); when it
/// is continued (`fg`), it puts CMD in the foreground again and continues it. It ends the way CMD
/// ended: the same exit status, or killed by the same signal.
enum SessionLeader {
    static let command = "_session-leader"

    static func run(_ arguments: [String]) -> Int32 {
        let command = arguments.first == "--" ? Array(arguments.dropFirst()) : arguments
        guard !command.isEmpty else { return ExitCode.usage }
        let pid: pid_t
        do throws(Spawn.Failure) {
            pid = try Spawn.spawn(
                command, environment: SystemCall.environment(), streams: .inheritedInForeground(terminal: 2))
        } catch {
            Console.error(error.message(for: command[0]), command: "run")
            return error.exitStatus
        }
        setForeground(pid)  // done already where the C library could (Spawn.Streams.inheritedInForeground)
        // What `activity run` forwards to the leader's group goes on to the command's.
        ProcessSignals.forward(SignalPipe.handled, toGroup: pid)
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WUNTRACED)
            if result < 0 {
                if errno == EINTR { continue }
                return ExitCode.commandNotFound
            }
            if let signal = ChildProcess.stopSignal(status) {
                if signal == SIGTTOU || signal == SIGTTIN {
                    // It touched the terminal before it was made the foreground (posix_spawn
                    // leaves no moment between its start and its exec to do it): continue it.
                    setForeground(pid)
                    kill(-pid, SIGCONT)
                    continue
                }
                setForeground(getpgrp())
                raise(SIGSTOP)
                setForeground(pid)
                kill(-pid, SIGCONT)
                continue
            }
            if let code = ChildProcess.exitCode(status) { return code }
            dieBy(ChildProcess.termSignal(status) ?? SIGKILL)
        }
    }

    /// Makes `group` the pty's foreground process group (the pty is on descriptor 2).
    private static func setForeground(_ group: pid_t) {
        ChildProcess.setForeground(2, group: group)
    }

    /// Ends by `signal`, as the command did, without a core file of its own.
    private static func dieBy(_ signal: Int32) -> Never {
        SystemCall.disableCoreFiles()
        SignalPipe.dieBy(signal)
    }
}
