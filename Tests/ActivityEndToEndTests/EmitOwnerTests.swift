import ActivityWire
import Foundation
import TestSupport
import Testing

@Suite("activity emit: the script owns what it begins")
struct EmitOwnerTests {
    @Test("a begin in a subshell (a command substitution with a redirect) is owned by the script, not the subshell")
    func ownerSurvivesSubshells() throws {
        let folder = try TemporaryFolder()
        let sink = folder.url.appendingPathComponent("events.jsonl").path
        let script = try folder.file(
            "owner.sh",
            contents: """
                echo $$
                a=$(activity emit begin Redirected 2>/dev/null)
                b=$( (activity emit begin Nested) 2>>"$0.err" )
                c=$(activity emit begin Bare)
                sh -c 'activity emit begin Child; echo $$'
                """)
        let result = try CommandRunner.run("/bin/bash", [script.path], environment: ["ACTIVITY_SINK": "file:" + sink])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        let scriptPID = try #require(lines.first.flatMap { Double($0) })
        let childPID = try #require(lines.last.flatMap { Double($0) })
        var owners: [String: AttributeValue] = [:]
        let decoder = ActivityEventDecoder()
        for line in try String(contentsOfFile: sink, encoding: .utf8).split(separator: "\n") {
            if case .event(.begin(let begin)) = decoder.decode(String(line)) {
                owners[begin.title] = begin.attrs["x-activity-owner-pid"]
            }
        }
        #expect(owners["Redirected"] == .number(scriptPID))
        #expect(owners["Nested"] == .number(scriptPID))
        #expect(owners["Bare"] == .number(scriptPID))
        // Another program (here a shell with other arguments) is a script of its own.
        #expect(owners["Child"] == .number(childPID))
    }

    @Test("under run, begins in $( … 2>/dev/null) and a 50-step loop with 2>>file all end in success")
    func notAbandonedUnderRun() throws {
        let folder = try TemporaryFolder()
        let events = folder.url.appendingPathComponent("events.jsonl").path
        // Each end is sent only once the display has shown a log line sent after the begin's
        // subshell exited: by then `run` has looked for owners that went away, so before the
        // fix every activity here was abandoned, every time.
        let script = try folder.file(
            "steps.sh",
            contents: """
                events=$1
                shown() {
                    n=0
                    until grep -qF "\\"$1\\"" "$events"; do
                        n=$((n + 1))
                        if [ $n -gt 6000 ]; then echo "the display never showed $1" >&2; exit 9; fi
                        sleep 0.01
                    done
                }
                id=$(activity emit begin "Compile" 2>/dev/null)
                activity emit log "sync 0"
                shown "sync 0"
                activity emit end "$id"
                for i in $(seq 1 50); do
                    id=$(activity emit begin "Step $i" 2>>"$0.err")
                    activity emit log "sync $i"
                    shown "sync $i"
                    activity emit end "$id"
                done
                """)
        let result = try CommandRunner.run(
            "/bin/sh",
            ["-c", #"exec activity run --mode jsonl -- bash "$0" "$1" 2>"$1""#, script.path, events],
            timeout: 180)
        #expect(result.status == 0)
        let log = EventLog(try String(contentsOfFile: events, encoding: .utf8))
        let titles = ["Compile"] + (1...50).map { "Step \($0)" }
        for title in titles {
            let begin = try #require(log.begin(titled: title))
            #expect(log.end(of: begin.id)?.status == .success, "\(title)")
        }
    }
}
