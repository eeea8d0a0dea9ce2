import Foundation
import TestSupport
import Testing

/// The completion scripts and the man page, loaded in the real shells and in groff: each is
/// generated from the commands' option table, so these also check that the table says what the
/// parser accepts.
@Suite("activity completion and manpage")
struct CompletionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The script for `shell`, written to a folder of its own.
    func script(_ shell: String, named name: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let result = try CommandRunner.activity(["completion", shell])
        #expect(result.status == 0)
        _ = try folder.file(name, contents: result.standardOutput)
        return folder
    }

    func lines(_ text: String) -> [String] {
        // `isNewline`: zsh's pseudo-terminal ends lines in "\r\n", one Character.
        text.split(whereSeparator: \.isNewline).map { String($0.split(separator: "\t").first ?? "") }
            .filter { !$0.isEmpty }
    }

    static let cases: [(line: [String], expected: [String])] = [
        (["activity", "ren"], ["render"]),
        (["activity", "render", "--mo"], ["--mode"]),
        (["activity", "render", "--mode", ""], ["auto", "tty", "plain", "log", "jsonl", "overlay", "overlay-jsonl"]),
        (["activity", "emit", ""], ["begin", "progress", "end", "log"]),
        (["activity", "emit", "end", "x", "--status", "f"], ["failure"]),
        (["activity", "emit", "log", "--level", "w"], ["warning"]),
        (["activity", "completion", ""], ["bash", "zsh", "fish"]),
        (["activity", "run", "--mode", "plain", "tru"], ["true"]),
        (["activity", "run", "--mo"], ["--mode"]),
    ]

    @Test("bash: the script loads and completes commands, options, their values and the command to run")
    func bash() throws {
        let folder = try script("bash", named: "activity.bash")
        for (line, expected) in Self.cases {
            let result = try CommandRunner.run(
                "/bin/bash",
                [
                    "-c",
                    #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _activity; printf '%s\n' "${COMPREPLY[@]}""#,
                    "bash", folder.url.appendingPathComponent("activity.bash").path,
                ] + line)
            #expect(result.standardError.isEmpty, "\(line): \(result.standardError)")
            for word in expected { #expect(lines(result.standardOutput).contains(word), "\(line) → \(word)") }
        }
    }

    @Test("fish: the script loads and completes commands, options, their values and the command to run")
    func fish() throws {
        let folder = try script("fish", named: "activity.fish")
        for (line, expected) in Self.cases {
            let result = try CommandRunner.run(
                "/usr/bin/env",
                [
                    "fish", "--no-config", "-c", #"source $argv[1]; complete -C $argv[2]"#,
                    folder.url.appendingPathComponent("activity.fish").path, line.joined(separator: " "),
                ])
            #expect(result.standardError.isEmpty, "\(line): \(result.standardError)")
            for word in expected { #expect(lines(result.standardOutput).contains(word), "\(line) → \(word)") }
        }
    }

    @Test("zsh: the function loads through compinit and offers the same completions")
    func zsh() throws {
        let folder = try script("zsh", named: "_activity")
        for (line, expected) in Self.cases {
            let result = try CommandRunner.run(
                "/usr/bin/env",
                [
                    "zsh", "-f", Self.fixtures.appendingPathComponent("capture-completions.zsh").path, folder.url.path,
                    line.joined(separator: " "),
                ], timeout: 30)
            for word in expected { #expect(lines(result.standardOutput).contains(word), "\(line) → \(word)") }
        }
    }

    @Test("the man page renders without a warning and names every command and option")
    func manPage() throws {
        let page = try CommandRunner.activity(["manpage"])
        #expect(page.status == 0)
        let folder = try TemporaryFolder()
        let file = try folder.file("activity.1", contents: page.standardOutput)
        let checked = try CommandRunner.run("/usr/bin/env", ["groff", "-man", "-ww", "-z", file.path])
        #expect(checked.status == 0)
        #expect(checked.standardError.isEmpty, "\(checked.standardError)")
        let rendered = try CommandRunner.run(
            "/usr/bin/env", ["man", "-l", file.path], environment: ["MANWIDTH": "100", "MAN_KEEP_FORMATTING": ""])
        #expect(rendered.status == 0)
        #expect(rendered.standardError.isEmpty, "\(rendered.standardError)")
        for name in ["render", "run", "emit", "validate", "replay", "demo", "completion", "--log-format", "--grace"] {
            #expect(rendered.standardOutput.contains(name), "\(name) is not in the man page")
        }
        #expect(rendered.standardOutput.contains("ACTIVITY_SINK"))
        // The options before any command, and every variable the command reads.
        for name in ["activity help [COMMAND]", "-h, --help", "--version"] {
            #expect(rendered.standardOutput.contains(name), "\(name) is not in the man page")
        }
        for variable in [
            "ACTIVITY_CONTROL", "ACTIVITY_HISTORY", "XDG_STATE_HOME", "OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SERVICE_NAME",
        ] {
            #expect(rendered.standardOutput.contains(variable), "\(variable) is not in the man page")
        }
    }

    @Test("cli.md's table of variables is the man page's")
    func environmentTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Docs/cli.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Environment").last)
        let documented = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return String(line.dropFirst(3).prefix { $0 != "`" })
        }
        let page = try CommandRunner.activity(["manpage"]).standardOutput
        let listed = page.components(separatedBy: ".SH ENVIRONMENT").last?.components(separatedBy: ".SH").first ?? ""
        let variables = listed.split(separator: "\n").filter { $0.hasPrefix("\\fB") }.map {
            String($0.dropFirst(3).prefix { $0 != "\\" })
        }
        #expect(documented.count > 10)
        #expect(documented == variables)
    }

    @Test("a bad shell is a usage error naming it")
    func badShell() throws {
        let result = try CommandRunner.activity(["completion", "tcsh"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("SHELL must be one of bash|zsh|fish, not 'tcsh'"))
    }
}
