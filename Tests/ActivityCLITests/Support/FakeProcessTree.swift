import ActivityPOSIX

@testable import ActivityCLI

extension ProcessTree {
    /// A process table of its own: `table` gives each pid's parent (group and session the pid's
    /// own unless `groups` says otherwise), `peers` the process behind each connection (a pid
    /// missing from `table` is one that has exited).
    static func fake(
        run: Int32 = 100, command: Int32? = nil, table: [Int32: Int32] = [:], groups: [Int32: Int32] = [:],
        peers: [Int32: Int32] = [:]
    ) -> ProcessTree {
        ProcessTree(
            run: run, command: command,
            place: { pid in
                table[pid].map { ProcessTree.Place(parent: $0, group: groups[pid] ?? pid, session: groups[pid] ?? pid) }
            },
            peer: { peers[$0] ?? 9999 })
    }

    /// A run (pid 100) whose children are 4242 and 4343, every reporter one that has exited.
    static var emitScripts: ProcessTree { fake(table: [4242: 100, 4343: 100]) }
}
