import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension EmitCommand {
    /// The process that owns an activity `emit begin` begins: the script that called it.
    ///
    /// That is not always `emit`'s parent. bash runs `id=$(activity emit begin T 2>/dev/null)`
    /// (a command substitution with a redirect, or with more than one command) in a subshell: a
    /// fork of the script that does not `exec`, and exits as soon as `emit` has. Owned by it, the
    /// activity would be abandoned as soon as `activity run` saw the subshell gone. So the walk
    /// goes up from the parent while a process runs the same program with the same arguments as
    /// its own parent (a fork that has not called `exec` has its parent's), and stops at the first
    /// that does not: the script. A script that runs itself again with the same arguments is taken
    /// for a subshell of the first; where `/proc` does not answer, the owner is the parent.
    static func owningProcess() -> Int32 {
        var pid = getppid()
        // Bounded: a chain of subshells nested this deep is not a script anyone writes.
        for _ in 0..<64 {
            guard let parent = ProcessTable.parent(of: pid), parent > 1,
                let image = ProcessTable.image(of: pid), image == ProcessTable.image(of: parent)
            else { break }
            pid = parent
        }
        return pid
    }
}
