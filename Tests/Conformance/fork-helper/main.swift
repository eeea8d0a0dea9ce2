// A test helper for ActivityReportingTests: reports from a process that forks, to show that the
// forked child opens its own connection and makes its own ids. Reports where ACTIVITY_SINK says;
// prints the parent activity's id.

import ActivityReporting

#if canImport(Glibc)
    import Glibc
#endif

let parent = Activity.begin("Parent process", total: 2, parent: nil)
parent.advance()
ActivitySystem.flush(timeout: 2)
let pid = fork()
if pid == 0 {
    let child = Activity.begin("Forked child", total: 5, parent: parent)
    child.advance(by: 5)
    child.end()
    ActivitySystem.flush(timeout: 2)
    _exit(0)
}
var status: Int32 = 0
waitpid(pid, &status, 0)
parent.advance()
parent.end()
print(parent.id)
