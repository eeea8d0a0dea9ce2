import Foundation
import TestSupport
import Testing

@testable import ActivityPOSIX

/// The one spawn: one `PATH` search, one list of signals put back at their defaults, a group of
/// the child's own, descriptors as asked.
@Suite("ProcessSpawn: PATH, signals, group, descriptors")
struct ProcessSpawnTests {
    /// Runs `arguments` with its standard output on a pipe; what it wrote, its exit status, and
    /// its process group as it ran.
    static func output(
        _ arguments: [String], environment: [String] = SystemCall.environment(),
        descriptors: [ProcessSpawn.Descriptor] = []
    ) throws -> (text: String, status: Int32) {
        var ends: [Int32] = []
        try #require(SystemCall.pipe(&ends))
        let pid: pid_t
        do {
            pid = try ProcessSpawn.spawn(
                arguments, environment: environment, descriptors: [.duplicate(ends[1], as: 1)] + descriptors)
        } catch {
            ends.forEach { SystemCall.close($0) }
            throw error
        }
        SystemCall.close(ends[1])
        defer { SystemCall.close(ends[0]) }
        let bytes = try SystemCall.readToEnd(ends[0], limit: 1 << 20)
        let (status, _) = CommandRunner.wait(pid, timeout: 30, what: arguments.joined(separator: " "))
        return (String(decoding: bytes, as: UTF8.self), status)
    }

    @Test("a program is found in the child's PATH; a missing one fails with ENOENT")
    func pathSearch() throws {
        #expect(ProcessSpawn.executable("sh", environment: ["PATH=/nonexistent:/bin"]) == "/bin/sh")
        #expect(ProcessSpawn.executable("no-such-program-here", environment: ["PATH=/bin"]) == nil)
        #expect(ProcessSpawn.executable("/bin/sh", environment: []) == "/bin/sh")
        let result = try Self.output(["sh", "-c", "echo found"], environment: ["PATH=/nonexistent:/bin"])
        #expect(result == ("found\n", 0))
        #expect(throws: SystemError("posix_spawn", code: ENOENT)) {
            try ProcessSpawn.spawn(["no-such-program-here"], environment: ["PATH=/bin"])
        }
    }

    @Test("without PATH in the child's environment, the default folders")
    func defaultPath() throws {
        let found = try #require(ProcessSpawn.executable("sh", environment: ["HOME=/"]))
        #expect(found == ProcessSpawn.executable("sh", searching: ProcessSpawn.defaultPath))
        #expect(try Self.output(["sh", "-c", "echo default"], environment: ["HOME=/"]) == ("default\n", 0))
    }

    @Test("a file that is not executable is found, as execvp finds it, and fails with EACCES")
    func notExecutable() throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("plain-file", contents: "echo never\n")
        #expect(ProcessSpawn.executable("plain-file", searching: folder.url.path) == nil)
        #expect(ProcessSpawn.executable("plain-file", environment: ["PATH=\(folder.url.path)"]) == file.path)
        #expect(throws: SystemError("posix_spawn", code: EACCES)) {
            try ProcessSpawn.spawn(["plain-file"], environment: ["PATH=\(folder.url.path)"])
        }
    }

    @Test("a script without #! runs with /bin/sh, its arguments after it")
    func scriptWithoutInterpreter() throws {
        let folder = try TemporaryFolder()
        _ = try folder.file("bare-script", contents: "echo \"bare $1\"\n", executable: true)
        let result = try Self.output(["bare-script", "one"], environment: ["PATH=\(folder.url.path):/usr/bin:/bin"])
        #expect(result == ("bare one\n", 0))
    }

    @Test("the signals the package changes are back at their defaults, others stay ignored; the mask is empty")
    func signals() throws {
        // Changed by the package: ignored here, at its default in the child. Not the package's:
        // the caller's choice, kept, as exec(2) keeps it. Neither is one that a test running
        // meanwhile handles through ProcessSignals.
        let ours = SIGTTIN
        let theirs = SIGPROF
        #expect(SignalNumbers.changedByThePackage.contains(ours))
        #expect(!SignalNumbers.changedByThePackage.contains(theirs))
        let oldOurs = signal(ours, SIG_IGN)
        let oldTheirs = signal(theirs, SIG_IGN)
        defer {
            signal(ours, oldOurs)
            signal(theirs, oldTheirs)
        }
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGUSR1)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &block, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        let status = try Self.output(["cat", "/proc/self/status"]).text
        func mask(_ name: String) throws -> UInt64 {
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(name + ":") })
            return try #require(UInt64(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16))
        }
        let ignored = try mask("SigIgn")
        #expect(ignored & (1 << UInt64(ours - 1)) == 0, "SIGTTIN is at its default")
        #expect(ignored & (1 << UInt64(theirs - 1)) != 0, "SIGPROF stays ignored")
        #expect(try mask("SigBlk") == 0)
    }

    @Test("the child leads a process group of its own")
    func processGroup() throws {
        // The fifth field of /proc/PID/stat is the group (the shell's name holds no space).
        let result = try Self.output(["sh", "-c", "echo $$; cut -d ' ' -f 5 /proc/$$/stat"])
        let numbers = result.text.split(whereSeparator: \.isWhitespace).map(String.init)
        try #require(numbers.count == 2)
        #expect(numbers[0] == numbers[1])
        #expect(numbers[0] != String(getpgrp()))
    }

    @Test("a close-on-exec descriptor kept is open in the child under its number; others are not")
    func keptDescriptor() throws {
        var kept: [Int32] = []
        var other: [Int32] = []
        try #require(SystemCall.pipe(&kept) && SystemCall.pipe(&other))
        defer { (kept + other).forEach { SystemCall.close($0) } }
        let script = "for fd in \(kept[1]) \(other[1]); do if [ -e /proc/self/fd/$fd ]; then echo $fd; fi; done"
        let result = try Self.output(["sh", "-c", script], descriptors: [.keep(kept[1])])
        #expect(result == ("\(kept[1])\n", 0))
    }
}
