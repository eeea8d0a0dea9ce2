import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes one `activity run` may signal for a cancel: its own tree, never a process a
/// reporter merely names.
///
/// A process is the run's when its chain of parents reaches the run's process, or when it is in
/// the command's process group or session (the command leads its group, or, on a pseudo-terminal,
/// its session): that holds even for a process whose parent exited and which the kernel gave to
/// init. A process cannot enter a group or session of another session, so nothing outside can
/// make itself the run's. Read from the process table (`ProcessTable`) each time it is asked, so a pid the kernel
/// gave to another process since is judged as that process.
struct ProcessTree: Sendable {
    /// A process's parent, group and session (`ProcessTable.place(of:)`).
    typealias Place = ProcessTable.Place

    /// The run's own process.
    let run: pid_t
    /// The command's pid: the leader of its process group, or of its session on a terminal.
    var command: pid_t?
    /// A process's place, nil when it does not exist (or is not readable).
    let place: @Sendable (pid_t) -> Place?
    /// The pid of the process that connected a reporter's socket (`SO_PEERCRED`, taken at
    /// `connect`): who the reporter really is, whatever its lines say.
    let peer: @Sendable (Int32) -> pid_t?

    /// The system's processes, for the run of this process.
    static func system(command: pid_t?) -> ProcessTree {
        ProcessTree(run: getpid(), command: command, place: ProcessTable.place(of:), peer: UnixAddress.peerProcess)
    }

    /// Whether `pid` is a process of the run (not the run itself, nor init).
    func contains(_ pid: pid_t) -> Bool {
        guard pid > 1, pid != run else { return false }
        var current = pid
        // The chain is short; the bound only guards against a table that changes under us.
        for _ in 0..<Self.maxDepth {
            guard let place = place(current) else { return false }
            if let command, place.group == command || place.session == command { return true }
            if place.parent == run { return true }
            guard place.parent > 1 else { return false }
            current = place.parent
        }
        return false
    }

    /// Whether `owner` is `process` or one of its ancestors; nil when that cannot be told: when
    /// `process` is gone (a short-lived reporter such as `activity emit` may have exited already),
    /// or when a process on the chain exits between two reads (`activity emit` inside `$( )`
    /// names the shell above the subshell, and the subshell may end while its parent is asked).
    func isSelfOrAncestor(_ owner: pid_t, of process: pid_t) -> Bool? {
        guard var place = place(process) else { return nil }
        if owner == process { return true }
        for _ in 0..<Self.maxDepth {
            if place.parent == owner { return true }
            // The run's own process, or init: above every owner the run would take.
            guard place.parent > 1, place.parent != run else { return false }
            guard let next = self.place(place.parent) else { return nil }
            place = next
        }
        return false
    }

    /// Whether the process a reporter on connection `fd` names as its owner may be signalled for
    /// it: a process of the run, and, while the reporter's process still exists, that process or
    /// one of its ancestors. A reporter that has exited already (`activity emit` writes one line
    /// and ends) leaves the first test alone, which is the one that keeps the rest of the
    /// machine safe.
    func verifies(owner: pid_t, claimedOn fd: Int32) -> Bool {
        guard contains(owner), let reporter = peer(fd) else { return false }
        return isSelfOrAncestor(owner, of: reporter) ?? true
    }

    private static let maxDepth = 512
}
