import Testing

@testable import ActivityCLI

@Suite("Option parser")
struct OptionParserTests {
    static let spec = CommandSpec(
        name: "test", summary: "a test", arguments: "ARGS",
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value("total", "N", help: "a count"), .flag("quiet", short: "q", help: "say less"),
                    .value("plugin", "NAME", repeatable: true, help: "a plugin"),
                    .value("mode", "MODE", short: "m", help: "a mode"),
                ])
        ], description: "")
    let parser = OptionParser(Self.spec)

    @Test("the usage spells every option out from the table")
    func usage() {
        #expect(parser.spec.usage == "activity test [--total N] [-q|--quiet] [--plugin NAME]… [-m|--mode MODE] ARGS")
    }

    @Test("long options with separate and inline values, flags, positionals")
    func forms() throws {
        let parsed = try parser.parse(["--total", "12", "a", "-q", "--plugin=x", "--plugin", "y", "b"])
        #expect(parsed.value("total") == "12")
        #expect(parsed.flag("quiet"))
        #expect(parsed.all("plugin") == ["x", "y"])
        #expect(parsed.positionals == ["a", "b"])
    }

    @Test("-- ends options; - is a positional")
    func doubleDash() throws {
        let parsed = try parser.parse(["-", "--", "--total", "-q"])
        #expect(parsed.positionals == ["-", "--total", "-q"])
        #expect(parsed.value("total") == nil)
    }

    @Test("short options take attached or separate values")
    func shortValues() throws {
        #expect(try parser.parse(["-mplain"]).value("mode") == "plain")
        #expect(try parser.parse(["-qm", "tty"]).value("mode") == "tty")
    }

    @Test("stopping at the first positional leaves the command's options alone")
    func stopsAtPositional() throws {
        var spec = Self.spec
        spec.stopsAtFirstPositional = true
        let run = OptionParser(spec)
        let parsed = try run.parse(["-q", "make", "-j4", "--total", "3"])
        #expect(parsed.flag("quiet"))
        #expect(parsed.positionals == ["make", "-j4", "--total", "3"])
    }

    @Test(
        "malformed command lines name the problem",
        arguments: [
            (["--frob"], "unknown option '--frob'"),
            (["-x"], "unknown option '-x'"),
            (["--total"], "--total needs a value"),
            (["--total", "1", "--total", "2"], "--total given more than once"),
            (["--quiet=yes"], "--quiet takes no value"),
        ])
    func errors(arguments: [String], message: String) {
        #expect(throws: CommandLineError.usage(command: "test", message: message, usage: parser.spec.usage)) {
            try parser.parse(arguments)
        }
    }

    @Test("--help anywhere before -- asks for help")
    func help() throws {
        #expect(throws: CommandLineError.helpRequested("test")) { try parser.parse(["a", "--help"]) }
        #expect(try parser.parse(["--", "--help"]).positionals == ["--help"])
    }

    @Test("counts are checked against the protocol's range")
    func counts() throws {
        #expect(try parser.count(parser.parse(["--total", "2.5"]), "total") == 2.5)
        for bad in ["-1", "nan", "inf", "1e300", "ten"] {
            #expect(throws: CommandLineError.self) { try parser.count(parser.parse(["--total", bad]), "total") }
        }
    }
}
