import ActivityWire
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `activity run -- apt-get …` gives apt a status descriptor through `APT_CONFIG`: a stand-in
/// apt-get that finds the descriptor where apt does (in the file `APT_CONFIG` names, or in
/// `-o APT::Status-Fd=N`) and writes recorded status lines to it; and, as root, the real apt.
@Suite("apt's status descriptor under activity run", .serialized)
struct AptStatusDescriptorTests {
    /// A stand-in apt-get (bash: sh cannot name descriptors above 9) in `folder`. It keeps what
    /// `APT_CONFIG` was and what the file said, writes `inherited` to descriptor 3 when that is
    /// open, then `statusFixture` to the status descriptor and `stdoutFixture` to its standard
    /// output. With `wait` as its first argument it then marks `waiting` and becomes `sleep` until
    /// it is stopped, with no child of its own in between: a SIGINT that reaches bash while it
    /// waits for a child that then exits normally (`touch`, or a `sleep` between fork and exec)
    /// makes bash go on, as if the child had handled it, and the test's Ctrl-C would be lost.
    static func fakeAptGet(
        in folder: URL, statusFixture: String = "apt/apt-install-statusfd-C.txt",
        stdoutFixture: String = "apt/apt-install-stdout-C.txt", exitStatus: Int32 = 0
    ) throws {
        let fixtures = AdapterFixtures.folder.path
        let script = """
            #!/bin/bash
            dir=\(folder.path)
            printf '%s' "${APT_CONFIG-}" > "$dir/apt-config-path"
            [ -n "${APT_CONFIG-}" ] && cp "$APT_CONFIG" "$dir/apt-config-seen"
            fd=
            for arg in "$@"; do case $arg in APT::Status-Fd=*) fd=${arg#APT::Status-Fd=};; esac; done
            if [ -z "$fd" ] && [ -n "${APT_CONFIG-}" ]; then
                fd=$(sed -n 's/^APT::Status-Fd "\\([0-9]*\\)";$/\\1/p' "$APT_CONFIG")
            fi
            { echo inherited >&3; } 2>/dev/null
            if [ -z "$fd" ]; then echo "E: no status descriptor" >&2; exit 0; fi
            while IFS= read -r line; do printf '%s\\n' "$line" >&$fd; done < \(fixtures)/\(statusFixture)
            cat \(fixtures)/\(stdoutFixture)
            if [ "$1" = wait ]; then : > "$dir/waiting"; exec sleep 100; fi
            exit \(exitStatus)

            """
        try install(script, as: "apt-get", in: folder)
    }

    /// Makes the executable `name` in `folder`. It is copied by `cp`, another process: a file this
    /// process writes may be open in a child that a test running alongside is starting, and then
    /// cannot be executed for a moment (ETXTBSY).
    static func install(_ script: String, as name: String, in folder: URL) throws {
        try script.write(to: folder.appendingPathComponent(name + ".txt"), atomically: true, encoding: .utf8)
        try LiveToolTests.shell("cp \(name).txt \(name) && chmod +x \(name)", in: folder)
    }

    /// `activity run --mode jsonl [extra] -- command` in `folder`, through a shell that opens
    /// descriptor 3 on `inherited.txt` first (as make's jobserver or `exec 3>file` would), with
    /// `folder` first on `PATH` and `environment` added.
    static func start(
        _ command: [String], in folder: URL, extra: [String] = [], environment: [String: String] = [:]
    ) throws -> LiveToolTests.Started {
        try LiveToolTests.launch(
            "/bin/sh",
            ["-c", #"exec 3>inherited.txt; exec "$0" "$@""#, CommandRunner.activity, "run", "--mode", "jsonl"] + extra
                + ["--"] + command, in: folder, path: folder.path, environment: environment)
    }

    static func run(
        _ command: [String], in folder: URL, extra: [String] = ["-v"], environment: [String: String] = [:]
    ) throws -> LiveToolTests.Recorded {
        let started = try start(command, in: folder, extra: extra, environment: environment)
        return try LiveToolTests.recorded(status: started.wait(), in: folder)
    }

    static func text(_ name: String, in folder: URL) -> String? {
        try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The info lines `run` logged (what `-v` says).
    static func notes(_ result: LiveToolTests.Recorded) -> [String] {
        let decoder = ActivityEventDecoder()
        return result.display.split(separator: "\n").compactMap { line in
            guard case .event(.log(let log)) = decoder.decode(String(line)) else { return nil }
            return log.message
        }
    }

    @Test(
        "apt-get install: downloading and installing from the descriptor, its number past inherited ones, the file gone"
    )
    func install() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.fakeAptGet(in: folder)
        let result = try Self.run(["apt-get", "install", "-y", "hello-adapt"], in: folder)
        #expect(result.status == 0)
        // apt's last pmstatus says 80 %; apt exited 0, so the installation ends at 100 %.
        #expect(
            result.activities.map(\.description) == [
                "Downloading packages success 100.0/100.0 ", "Installing packages success 100.0/100.0 ",
            ])
        // The status lines are the adapter's; apt's output passes as it came.
        #expect(!result.display.contains("pmstatus"))
        #expect(
            result.output
                == Self.text("apt-install-stdout-C.txt", in: AdapterFixtures.folder.appendingPathComponent("apt")))
        let path = try #require(Self.text("apt-config-path", in: folder))
        let config = try #require(Self.text("apt-config-seen", in: folder))
        let number = try #require(
            config.split(separator: "\n").first { $0.hasPrefix("APT::Status-Fd ") }.flatMap {
                Int32($0.dropFirst(16).dropLast(2))
            })
        #expect(number > 3, "descriptor 3 was the command's own")
        #expect(config.contains("\nAPT::Keep-Fds:: \"\(number)\";\n"))
        #expect(!config.contains("#include"))
        #expect(Self.notes(result) == ["apt: status on descriptor \(number) through APT_CONFIG=\(path)"])
        #expect(Self.text("inherited.txt", in: folder) == "inherited\n")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a failed installation fails with dpkg's error, as the command does")
    func pmerror() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.fakeAptGet(
            in: folder, statusFixture: "apt/apt-pmerror-statusfd-C.txt", stdoutFixture: "apt/apt-pmerror-stdout-C.txt",
            exitStatus: 100)
        let result = try Self.run(["apt-get", "install", "-y", "fail-adapt"], in: folder, extra: [])
        #expect(result.status == 100)
        let error =
            "fail-adapt: installed fail-adapt package post-installation script subprocess returned error exit status 1"
        #expect(result.activities.last?.description == "Installing packages failure 60.0/100.0 \(error)")
        #expect(result.root?.error == "\(error) (exit status 100)")
        #expect(Self.notes(result).isEmpty, "without -v, nothing is said")
    }

    @Test(
        "the person's APT_CONFIG is included after run's setting, by its absolute path; one naming no file is left alone"
    )
    func includesPersonsConfig() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.fakeAptGet(in: folder)
        try "Dir::Cache \"/nowhere\";\n".write(
            to: folder.appendingPathComponent("mine.conf"), atomically: true, encoding: .utf8)
        for value in [folder.path + "/mine.conf", "mine.conf"] {
            let result = try Self.run(["apt-get", "install", "x"], in: folder, environment: ["APT_CONFIG": value])
            #expect(result.activities.map(\.title) == ["Downloading packages", "Installing packages"])
            let config = try #require(Self.text("apt-config-seen", in: folder)).split(separator: "\n")
            #expect(config.last == "#include \"\(folder.path)/mine.conf\";")
            // Before it: the person's own status descriptor, if they set one, wins.
            #expect(config.dropLast().contains { $0.hasPrefix("APT::Status-Fd \"") })
        }
        let missing = try Self.run(
            ["apt-get", "install", "x"], in: folder, environment: ["APT_CONFIG": folder.path + "/none.conf"])
        #expect(Self.text("apt-config-path", in: folder) == folder.path + "/none.conf")
        #expect(missing.activities.isEmpty)
        #expect(
            Self.notes(missing) == [
                "apt: no status descriptor: APT_CONFIG=\(folder.path)/none.conf names no file, left as it is"
            ])
    }

    @Test("-o APT::Status-Fd=2 on the command line: run adds nothing, the lines come on standard error")
    func explicitOption() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.fakeAptGet(in: folder)
        let result = try Self.run(["apt-get", "-o", "APT::Status-Fd=2", "install", "x"], in: folder)
        #expect(result.status == 0)
        #expect(Self.text("apt-config-path", in: folder) == "")
        #expect(result.activities.map(\.title) == ["Downloading packages", "Installing packages"])
        #expect(result.activities.allSatisfy { $0.status == .success })
        #expect(Self.notes(result) == ["apt: no status descriptor: the command line names apt's status descriptor"])
    }

    @Test("after sudo, and where env sets APT_CONFIG, run opens no descriptor and says why")
    func notThroughSudoOrEnv() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.fakeAptGet(in: folder)
        try Self.install("#!/bin/sh\nexec \"$@\"\n", as: "sudo", in: folder)
        let sudo = try Self.run(["sudo", "apt-get", "install", "x"], in: folder)
        #expect(sudo.status == 0)
        #expect(Self.text("apt-config-path", in: folder) == "")
        #expect(sudo.activities.isEmpty)
        #expect(Self.notes(sudo).first?.hasPrefix("apt: no status descriptor: sudo closes descriptors above 2") == true)
        let env = try Self.run(["env", "APT_CONFIG=/dev/null", "apt-get", "install", "x"], in: folder)
        #expect(Self.text("apt-config-path", in: folder) == "/dev/null")
        #expect(Self.notes(env) == ["apt: no status descriptor: env sets APT_CONFIG, which would replace run's"])
    }

    @Test("Ctrl-C or SIGTERM during the installation: the file is gone all the same", arguments: [SIGINT, SIGTERM])
    func interrupted(signal: Int32) throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.fakeAptGet(in: folder)
        let started = try Self.start(["apt-get", "wait", "x"], in: folder)
        let waiting = folder.appendingPathComponent("waiting").path
        #expect(Poll.until { FileManager.default.fileExists(atPath: waiting) })
        #expect(try LiveToolTests.waitForDisplay("Installing packages", in: folder))
        let path = try #require(Self.text("apt-config-path", in: folder))
        #expect(FileManager.default.fileExists(atPath: path))
        kill(started.pid, signal)
        let result = try LiveToolTests.recorded(status: started.wait(), in: folder)
        #expect(result.status == 128 + signal)
        #expect(result.activities.map(\.title) == ["Downloading packages", "Installing packages"])
        #expect(result.activities.allSatisfy { $0.status != nil }, "every activity ended")
        #expect(result.root?.error == "killed by \(signal == SIGINT ? "SIGINT" : "SIGTERM")")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    static var rootWithApt: Bool {
        getuid() == 0 && LiveToolTests.installed("apt-get") && LiveToolTests.installed("dpkg-scanpackages")
            && LiveToolTests.installed("dpkg-deb")
    }

    @Test(
        "the real apt-get writes its status to the descriptor, and reads the person's APT_CONFIG (root, offline)",
        .enabled(if: rootWithApt))
    func realApt() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        // A file: repository of one package and apt's state, all in the folder: nothing of the
        // system's apt is read or written but its programs.
        let root = folder.path
        try LiveToolTests.shell(
            """
            mkdir -p pkg/DEBIAN repo state/lists/partial cache/archives/partial etc/sources.list.d etc/preferences.d
            printf 'Package: hello-live\\nVersion: 1.0\\nArchitecture: all\\nMaintainer: x <x@x>\\nDescription: t\\n' \
                > pkg/DEBIAN/control
            dpkg-deb -b pkg repo/hello-live_1.0_all.deb
            cd repo && dpkg-scanpackages . 2>/dev/null | gzip > Packages.gz && cd ..
            : > state/status
            echo 'deb [trusted=yes] file:\(root)/repo ./' > etc/sources.list
            cat > mine.conf <<EOF
            Dir::State "\(root)/state";
            Dir::State::status "\(root)/state/status";
            Dir::Cache "\(root)/cache";
            Dir::Etc::sourcelist "\(root)/etc/sources.list";
            Dir::Etc::sourceparts "\(root)/etc/sources.list.d";
            Dir::Etc::preferencesparts "\(root)/etc/preferences.d";
            Acquire::Languages "none";
            APT::Sandbox::User "root";
            APT::Update::Post-Invoke { "ls /proc/self/fd > \(root)/hook-fds"; };
            EOF
            """, in: folder)
        let result = try Self.run(
            ["apt-get", "update"], in: folder, environment: ["APT_CONFIG": root + "/mine.conf"])
        #expect(result.status == 0)
        let download = try #require(result.activities.first)
        #expect(download.title == "Downloading packages")
        #expect(download.status == .success && download.completed == 100)
        // apt read the person's settings: the lists are in the folder.
        let lists = try FileManager.default.contentsOfDirectory(atPath: root + "/state/lists")
        #expect(lists.contains { $0.contains("_repo_") })
        let note = try #require(Self.notes(result).first)
        #expect(note.hasPrefix("apt: status on descriptor "))
        // A hook apt runs still has the descriptor: an apt program it ran could write there.
        let number = String(note.dropFirst("apt: status on descriptor ".count).prefix { $0.isNumber })
        let hookDescriptors = try #require(Self.text("hook-fds", in: folder)).split(separator: "\n")
        #expect(hookDescriptors.contains(Substring(number)))
        #expect(!FileManager.default.fileExists(atPath: String(note.split(separator: "=").last ?? "")))
    }
}
