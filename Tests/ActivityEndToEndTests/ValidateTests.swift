import Foundation
import TestSupport
import Testing

@Suite("activity validate")
struct ValidateTests {
    static func fixtures(_ kind: String) throws -> [String] {
        let folder = Repository.path("Schemas/examples/\(kind)")
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    @Test("every problem of the invalid fixtures, FILE:LINE: code: message, exit 1")
    func invalid() throws {
        let files = try Self.fixtures("invalid")
        let result = try CommandRunner.activity(
            ["validate"] + files, currentDirectory: Repository.root.appendingPathComponent("Schemas/examples/invalid"))
        #expect(result.status == 1)
        #expect(result.standardError.isEmpty)
        Golden.check(result.standardOutput, named: "validate-invalid.txt")
        for file in files {
            #expect(result.standardOutput.contains(file + ":"), "no problem reported for \(file)")
        }
    }

    @Test("the valid fixtures pass; their warnings are printed and fail only with --strict")
    func valid() throws {
        let files = try Self.fixtures("valid")
        let folder = Repository.root.appendingPathComponent("Schemas/examples/valid")
        let result = try CommandRunner.activity(["validate"] + files, currentDirectory: folder)
        #expect(result.status == 0)
        Golden.check(result.standardOutput, named: "validate-valid.txt")
        let strict = try CommandRunner.activity(["validate", "--strict"] + files, currentDirectory: folder)
        #expect(strict.status == (result.standardOutput.isEmpty ? 0 : 1))
    }

    @Test("--json and --quiet; standard input")
    func formats() throws {
        let input = Data(#"{"v":1,"type":"begin","id":"a","title":"A"}"#.utf8 + [10] + Data("oops\n".utf8))
        let json = try CommandRunner.activity(["validate", "--json"], input: input)
        #expect(json.status == 1)
        Golden.check(json.standardOutput, named: "validate-json.jsonl")
        let quiet = try CommandRunner.activity(["validate", "-q", "-"], input: input)
        #expect(quiet.status == 1)
        #expect(quiet.standardOutput.isEmpty && quiet.standardError.isEmpty)
    }

    @Test("a file that cannot be opened: a message, exit 66, the other files still checked")
    func missingFile() throws {
        let good = Repository.path("Schemas/examples/invalid/duplicate-key.jsonl")
        let result = try CommandRunner.activity(["validate", "/nonexistent.jsonl", good])
        #expect(result.status == 66)
        #expect(result.standardError == "activity validate: /nonexistent.jsonl: No such file or directory\n")
        #expect(result.standardOutput.contains("duplicate-key"))
        let directory = try CommandRunner.activity(["validate", "/"])
        #expect(directory.status == 74)
        #expect(directory.standardError == "activity validate: /: Is a directory\n")
    }

    @Test("a closed standard output ends the command quietly")
    func closedPipe() throws {
        let folder = try TemporaryFolder()
        let big = try folder.file("big.jsonl", contents: String(repeating: "not an event\n", count: 200_000))
        let result = try CommandRunner.run(
            "/bin/sh", ["-c", "(activity validate \"$0\" 2>\"$0.err\"; echo $? >\"$0.status\") | head -n 1", big.path])
        #expect(result.standardOutput.hasPrefix(big.path + ":1: invalid-json"))
        #expect(result.standardOutput.split(separator: "\n").count == 1)
        let errors = try String(contentsOfFile: big.path + ".err", encoding: .utf8)
        #expect(errors.isEmpty)
        // Problems were found before the reader left: status 1, not a death by SIGPIPE.
        #expect(try String(contentsOfFile: big.path + ".status", encoding: .utf8) == "1\n")
    }

    @Test("a hostile file name is shown with its controls escaped, never raw")
    func hostileName() throws {
        let result = try CommandRunner.activity(["validate", "nonexist\u{1B}]0;X\u{07}\u{1B}[2J\u{202E}.jsonl"])
        #expect(result.standardError.contains(#"nonexist\x1b]0;X\x07\x1b[2J\u{202e}.jsonl"#))
        #expect(!result.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0 == "\u{202E}" })
    }
}
