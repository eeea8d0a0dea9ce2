import Foundation
import TestSupport
import Testing

/// `Scripts/check-layers` keeps each system job in ActivityPOSIX: a raw read, a spawn, a socket,
/// a write, a sleep, the environment, an errno's words or a platform conditional (other than the
/// C library's import) anywhere else fails, with the file and the line.
@Suite("Scripts/check-layers: every system job in its layer")
struct LayerCheckTests {
    static let script = Repository.path("Scripts/check-layers")

    /// A copy of the repository's script, manifest and C library, for the check to run on.
    static func repositoryCopy() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for part in ["Scripts/check-layers", "Package.swift", "Sources/CActivity"] {
            let copy = folder.url.appendingPathComponent(part)
            try FileManager.default.createDirectory(
                at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Repository.path(part), toPath: copy.path)
        }
        return folder
    }

    /// Runs the check on a copy of the repository's script, manifest and C library beside one
    /// Swift file, `file` under `Sources/`, that holds `code` after a line of its own.
    static func check(_ code: String, in file: String) throws -> CommandResult {
        let folder = try repositoryCopy()
        let files = FileManager.default
        let path = folder.url.appendingPathComponent("Sources/" + file)
        try files.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try ("import Glibc\n" + code + "\n").write(to: path, atomically: true, encoding: .utf8)
        return try CommandRunner.run(folder.url.appendingPathComponent("Scripts/check-layers").path, [])
    }

    @Test("the repository passes")
    func repositoryPasses() throws {
        let result = try CommandRunner.run(Self.script, [])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }

    @Test(
        "a system job outside ActivityPOSIX is found, with its file and line",
        arguments: [
            "let count = read(fd, &buffer, buffer.count)",
            "let count = Glibc.read(fd, pointer, 16)",
            "let count = recv(fd, pointer, 16, 0)",
            "let count = pread(fd, pointer, 16, 0)",
            "let count = pwrite(fd, pointer, 16, 0)",
            "posix_spawn(&pid, path, &actions, &attributes, argv, envp)",
            "posix_spawn_file_actions_adddup2(&actions, 3, 1)",
            "let pid = fork()",
            "let home = getenv(\"HOME\")",
            "let fd = socket(AF_UNIX, SOCK_STREAM, 0)",
            "let text = String(cString: strerror(errno))",
            "let count = write(fd, pointer, 16)",
            "_ = send(fd, $0.baseAddress, $0.count, SystemCall.noSignal | Int32(MSG_DONTWAIT))",
            "usleep(10_000)",
            "nanosleep(&pause, nil)",
            "#if os(Linux)\n    let path = \"/proc/self/exe\"\n#endif",
            "#if canImport(Glibc)\n    import Glibc\n#elseif canImport(Darwin)\n    let flag: Int32 = 0\n#endif",
        ])
    func outsideFound(_ line: String) throws {
        let result = try Self.check(line, in: "ActivityCLI/Sample.swift")
        #expect(result.status == 1)
        #expect(result.standardError.contains("Sources/ActivityCLI/Sample.swift:2: "), "\(result.standardError)")
    }

    @Test(
        "the same jobs inside ActivityPOSIX, and methods that are only named read, pass",
        arguments: [
            ("ActivityPOSIX/Sample.swift", "let count = read(fd, &buffer, buffer.count)"),
            ("ActivityPOSIX/Sample.swift", "posix_spawn(&pid, path, &actions, &attributes, argv, envp)"),
            ("ActivityCLI/Sample.swift", "let more = reader.read(deliver)"),
            ("ActivityCLI/Sample.swift", "_ = read(line, &activities)"),
            ("ActivityCLI/Sample.swift", "let result = try SystemCall.read(fd, into: &buffer)"),
            ("ActivityCLI/Sample.swift", "let value = SystemCall.environment(\"HOME\")  // not getenv(\"HOME\")"),
            ("ActivityCLI/Sample.swift", "func write(_ bytes: [UInt8], lane: Int, droppable: Bool) {}"),
            ("ActivityCLI/Sample.swift", "write(time, \"begin\", fields)"),
            ("ActivityCLI/Sample.swift", "if !batch.isEmpty { send(batch) }"),
            ("ActivityCLI/Sample.swift", "_ = try? SystemCall.write(fd, from: line, socket: true, dontWait: true)"),
            ("ActivityTerminal/TerminalClaim.swift", "_ = write(descriptor, &byte, 1)"),
            ("ActivityPOSIX/Sample.swift", "#if os(Linux)\n    let path = \"/proc/self/exe\"\n#endif"),
            (
                "ActivityCLI/Sample.swift",
                "#if canImport(Glibc)\n    import Glibc\n#elseif canImport(Musl)\n    import Musl\n"
                    + "#elseif canImport(Darwin)\n    import Darwin\n#else\n    #error(\"no C library\")\n#endif"
            ),
            ("ActivityCLI/Sample.swift", "#if DEBUG\n    let checked = true\n#endif"),
        ])
    func insidePasses(_ file: String, _ line: String) throws {
        let result = try Self.check(line, in: file)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("an end-to-end test that imports the command's module is found, with its file and line")
    func endToEndImportFound() throws {
        let folder = try Self.repositoryCopy()
        let files = FileManager.default
        let tests = folder.url.appendingPathComponent("Tests/ActivityEndToEndTests")
        try files.createDirectory(at: tests, withIntermediateDirectories: true)
        try "import Testing\n@testable import ActivityCLI\n".write(
            to: tests.appendingPathComponent("Sample.swift"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(folder.url.appendingPathComponent("Scripts/check-layers").path, [])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("Tests/ActivityEndToEndTests/Sample.swift:2: "), "\(result.standardError)")
    }

    @Test("a test outside the end-to-end target that starts the built activity is found, with its file and line")
    func commandStartedOutsideFound() throws {
        let folder = try Self.repositoryCopy()
        let files = FileManager.default
        let tests = folder.url.appendingPathComponent("Tests/ActivityRenderingTests")
        try files.createDirectory(at: tests, withIntermediateDirectories: true)
        try "import TestSupport\nlet result = try CommandRunner.activity([\"render\"])\n".write(
            to: tests.appendingPathComponent("Sample.swift"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(folder.url.appendingPathComponent("Scripts/check-layers").path, [])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("Tests/ActivityRenderingTests/Sample.swift:2: only the end-to-end tests"),
            "\(result.standardError)")
    }
}
