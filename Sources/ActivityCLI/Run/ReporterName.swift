import ActivityPOSIX

/// How `activity run` names a reporter in the problems its lines raise: by the process at the
/// other end of its connection, `reporter build.sh (pid 4242)`, since "line 3" of an unnamed
/// connection says nothing. `activity emit` connects once per event for the script that runs
/// it, so an emit is named by that script. Where the process table does not say, by the pid alone.
enum ReporterName {
    /// The name of the reporter on the connection `fd`, or `nil` when its process is unknown.
    static func of(connection fd: Int32) -> String? {
        UnixAddress.peerProcess(fd).map(of(process:))
    }

    static func of(process pid: Int32) -> String {
        var pid = pid
        var command = ProcessTable.command(of: pid)
        if command == "activity", let parent = ProcessTable.parent(of: pid), parent > 1 {
            pid = parent
            command = ProcessTable.command(of: parent)
        }
        return command.map { "reporter \($0) (pid \(pid))" } ?? "reporter (pid \(pid))"
    }
}
