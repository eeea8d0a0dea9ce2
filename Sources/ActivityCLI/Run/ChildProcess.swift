import ActivityPOSIX
import ActivityRendering
import ActivityTerminal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spawned child in its own process group: waits for it on a thread of its own, forwards
/// signals to its group, and handles job control (Ctrl-Z): when it owns the real terminal, by
/// handing the terminal over; when it runs on a pseudo-terminal, through `suspension`.
final class ChildProcess: Sendable {
    let pid: pid_t
    /// The terminal handed to the child's process group, if any.
    let terminal: Int32?
    /// On a pseudo-terminal: what `activity` does around its own stop when the command stops.
    let suspension: Suspension?
    private let outcome = Mutex<Int32?>(nil)
    /// Woken once when the child has exited (poll ``exitNotice``'s read end); `nil` when no
    /// pipe could be made.
    let exitNotice = try? WakeUpPipe()

    /// Called on the waiting thread when the command on a pseudo-terminal stops (Ctrl-Z typed
    /// into it): `before` gives the real terminal back, `activity` stops itself as a shell's job
    /// would, and `after` takes the terminal again when it is continued (`fg`).
    struct Suspension: Sendable {
        var before: @Sendable () -> Void
        var after: @Sendable () -> Void
    }

    init(pid: pid_t, terminal: Int32?, suspension: Suspension? = nil) {
        self.pid = pid
        self.terminal = terminal
        self.suspension = suspension
        if let terminal { Self.setForeground(terminal, group: pid) }
    }

    /// Starts the waiting thread; `false` when none could be started (nothing would notice
    /// the child's exit).
    func startWaiting() -> Bool {
        exitNotice != nil && HelperThread.detach(named: "activity.wait") { [self] in waitLoop() }
    }

    /// The raw `waitpid` status once the child has exited.
    var status: Int32? { outcome.withLock { $0 } }

    /// Sends `signal` to the child's process group.
    func forward(_ signal: Int32) {
        if kill(-pid, signal) != 0 { kill(pid, signal) }
    }

    /// Gives the terminal back to `activity`'s own process group and closes the notice pipe.
    func release() {
        if let terminal { Self.setForeground(terminal, group: getpgrp()) }
        exitNotice?.close()
    }

    private func waitLoop() {
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, terminal == nil && suspension == nil ? 0 : WUNTRACED)
            if result < 0 {
                if errno == EINTR { continue }
                status = 0x7f00  // no child left to wait for: report exit status 127
            } else if Self.stopSignal(status) != nil {
                handleStop(Self.stopSignal(status)!)
                continue
            }
            outcome.withLock { $0 = status }
            exitNotice?.wake()
            return
        }
    }

    /// The child stopped: it read the terminal before it was handed over (continue it), or
    /// the person pressed Ctrl-Z (stop `activity` too, then resume both).
    private func handleStop(_ signal: Int32) {
        // Stopped as a job, never by SIGSTOP: `activity` in an orphaned process group (started
        // by a terminal emulator or a `pty.fork()` parent, not a shell) would wait for a SIGCONT
        // nobody sends, for ever; there the command is continued at once, as the kernel does
        // with a job's Ctrl-Z in such a group.
        if let suspension {
            suspension.before()
            ProcessSignals.stopAsJob()
            suspension.after()
            forward(SIGCONT)
            return
        }
        guard let terminal else { return }
        if signal == SIGTTIN || signal == SIGTTOU {
            Self.setForeground(terminal, group: pid)
            forward(SIGCONT)
            return
        }
        Self.setForeground(terminal, group: getpgrp())
        // Leave the shell a usable terminal while suspended: the cursor shown, colours reset.
        RenderSession.restoreTerminal()
        // Raised in this thread: the process stops before the call returns, so the command is
        // not continued until `activity` itself is (`fg`).
        ProcessSignals.stopAsJob()
        Self.setForeground(terminal, group: pid)
        forward(SIGCONT)
    }

    /// Makes `group` the terminal's foreground process group, without being stopped for it.
    static func setForeground(_ terminal: Int32, group: pid_t) {
        var block = sigset_t()
        var old = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        _ = tcsetpgrp(terminal, group)
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }

    // MARK: - Decoding wait statuses

    static func exitCode(_ status: Int32) -> Int32? {
        status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }

    static func termSignal(_ status: Int32) -> Int32? {
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f ? signal : nil
    }

    static func stopSignal(_ status: Int32) -> Int32? {
        status & 0xff == 0x7f ? (status >> 8) & 0xff : nil
    }
}
