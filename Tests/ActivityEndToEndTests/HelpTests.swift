import TestSupport
import Testing

@Suite("activity: help, version, usage errors")
struct HelpTests {
    @Test(
        "--help, help COMMAND and COMMAND --help print the help",
        arguments: ["render", "run", "emit", "validate", "replay", "demo", "adapt", "report", "export"])
    func commandHelp(command: String) throws {
        let viaHelp = try CommandRunner.activity(["help", command])
        let viaOption = try CommandRunner.activity([command, "--help"])
        #expect(viaHelp.status == 0)
        #expect(viaOption.status == 0)
        #expect(viaHelp.standardOutput == viaOption.standardOutput)
        #expect(viaHelp.standardError.isEmpty)
        Golden.check(viaHelp.standardOutput, named: "help-\(command).txt")
    }

    @Test("adapt --list names every built-in adapter and what it reads")
    func adapterList() throws {
        let list = try CommandRunner.activity(["adapt", "--list"])
        #expect(list.status == 0)
        Golden.check(list.standardOutput, named: "adapt-list.txt")
    }

    @Test("the overview and the version")
    func overview() throws {
        let help = try CommandRunner.activity(["--help"])
        #expect(help.status == 0)
        Golden.check(help.standardOutput, named: "help.txt")
        let version = try CommandRunner.activity(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput.hasPrefix("activity "))
    }

    @Test(
        "bad command lines: one line naming the problem and the usage, exit 64",
        arguments: [
            (["frob"], "activity: unknown command 'frob' (usage: activity COMMAND [OPTIONS]; see 'activity --help')\n"),
            (
                ["validate", "--frob"],
                "activity validate: unknown option '--frob' (usage: activity validate [-q|--quiet] [--json] [--strict] [FILE…])\n"
            ),
            (
                ["emit", "begin"],
                "activity emit begin: missing TITLE (usage: activity emit begin [--id ID] [--parent ID] [--total N] [--unit U] [--message M] [--cancel-signal HUP|INT|TERM|USR1|USR2] [--cancellable] TITLE)\n"
            ),
            (
                ["emit", "end", "x", "--status", "abandoned"],
                "activity emit end: --status must be one of success|failure|cancelled|skipped, not 'abandoned' (usage: activity emit end [--status success|failure|cancelled|skipped] [--message M] [--error E] ID)\n"
            ),
            (
                ["emit", "progress", "bad id"],
                "activity emit progress: ID must be 1 to 128 characters of [A-Za-z0-9._:@/+-], not 'bad id' (usage: activity emit progress [--completed N] [--total N|none] [--message M] [--title T] ID)\n"
            ),
            (
                ["replay", "--speed", "0", "x"],
                "activity replay: --speed must be a positive number, not '0' (usage: activity replay [--speed X] [--max-gap S] [--mode auto|tty|plain|log|jsonl|overlay|overlay-jsonl] [--control CHANNEL] [--log-file PATH] [--log-format text|jsonl] [--plugin NAME]… [-v|--verbose] [-q|--quiet] [--summary off|short|full] [--osc-progress auto|on|off] [--otlp-endpoint URL] FILE)\n"
            ),
            (["help", "frob"], "activity: no help for 'frob' (usage: activity help COMMAND)\n"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CommandRunner.activity(arguments)
        #expect(result.status == 64)
        #expect(result.standardError == message)
        #expect(result.standardOutput.isEmpty)
    }

    @Test("run needs a command; its own options stop at the command")
    func runUsage() throws {
        let missing = try CommandRunner.activity(["run", "--mode", "jsonl"])
        #expect(missing.status == 64)
        #expect(missing.standardError.hasPrefix("activity run: missing CMD (usage: activity run "))
        let badMode = try CommandRunner.activity(["run", "--mode", "fancy", "--", "true"])
        #expect(badMode.status == 64)
        #expect(badMode.standardError.contains("--mode must be one of auto|tty|plain|log|jsonl|overlay|overlay-jsonl"))
    }
}
