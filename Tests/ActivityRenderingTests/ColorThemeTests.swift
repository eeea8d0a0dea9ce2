import Testing

@testable import ActivityRendering

@Suite("ColorTheme: roles and ACTIVITY_COLORS")
struct ColorThemeTests {
    @Test("a new theme has every role's default; names read back")
    func defaults() {
        let theme = ColorTheme()
        for role in ColorRole.allCases {
            #expect(theme[role] == role.defaultParameters)
            #expect(ColorRole(name: role.name) == role)
        }
        #expect(ColorRole(name: "barTrack") == nil)
        #expect(theme[.logError] == "1;31")
        #expect(theme == ColorTheme.parse("").theme)
    }

    @Test("valid entries set their roles; the others keep their defaults; the last entry for a role wins")
    func valid() {
        let (theme, problems) = ColorTheme.parse("bar=34:log-error=01;31:success=38;5;82:bar=1;34::bar-track=90")
        #expect(problems.isEmpty)
        #expect(theme[.bar] == "1;34")
        #expect(theme[.logError] == "01;31")
        #expect(theme[.success] == "38;5;82")
        #expect(theme[.barTrack] == "90")
        #expect(theme[.failure] == "31")
        var expected = ColorTheme()
        try! expected.setParameters("1;34", for: .bar)
        try! expected.setParameters("01;31", for: .logError)
        try! expected.setParameters("38;5;82", for: .success)
        try! expected.setParameters("90", for: .barTrack)
        #expect(theme == expected)
    }

    @Test("an empty value means no colour for that role")
    func emptyRole() {
        let (theme, problems) = ColorTheme.parse("detail=:failure=")
        #expect(problems.isEmpty)
        #expect(theme[.detail] == "")
        #expect(!theme.colors(.detail))
        #expect(!theme.colors(.failure))
        #expect(theme.colors(.success))
        #expect(theme.drawsAlike(.detail, nil))
        #expect(!theme.drawsAlike(.message, nil))
    }

    @Test(
        "bad entries are ignored, each named, and the good ones still apply",
        arguments: [
            ("baz=1", ColorTheme.Problem.Kind.unknownRole),
            ("bar", .notAnEntry),
            ("bar=1;x", .invalidParameters),
            ("bar=\u{1B}[31m", .invalidParameters),
            ("bar=256", .invalidParameters),
            ("bar=0000000000031", .invalidParameters),
            ("bar=1;;31", .invalidParameters),
            ("bar=;", .invalidParameters),
            ("bar= 31", .invalidParameters),
            ("bar=-1", .invalidParameters),
            ("bar=" + Array(repeating: "1", count: 17).joined(separator: ";"), .tooManyParameters),
        ])
    func badEntry(_ entry: String, _ kind: ColorTheme.Problem.Kind) {
        let (theme, problems) = ColorTheme.parse("success=34:" + entry + ":failure=35")
        #expect(problems == [ColorTheme.Problem(entry: entry, kind: kind)])
        #expect(theme[.bar] == "36")
        #expect(theme[.success] == "34")
        #expect(theme[.failure] == "35")
    }

    @Test("limits: 255 and 16 parameters pass, leading zeros too")
    func limits() {
        let sixteen = Array(repeating: "255", count: 16).joined(separator: ";")
        let (theme, problems) = ColorTheme.parse("bar=" + sixteen + ":tail=002")
        #expect(problems.isEmpty)
        #expect(theme[.bar] == sixteen)
        #expect(theme[.tail] == "002")
    }

    @Test("one warning for all the problems, naming each entry, safe for a terminal")
    func oneWarning() throws {
        #expect(ColorTheme.warning(for: []) == nil)
        let single = ColorTheme.parse("bar=34:baz=1").problems
        let roles = ColorRole.allCases.map(\.name).joined(separator: ", ")
        #expect(ColorTheme.warning(for: single) == "ACTIVITY_COLORS: unknown role 'baz' (roles: \(roles)); ignored")
        #expect(roles.hasPrefix("spinner, title, bar, bar-track, "))

        let (_, problems) = ColorTheme.parse("baz=1:bar=1;x:bar:title=\u{1B}]0;pwned\u{7}")
        let warning = try #require(ColorTheme.warning(for: problems))
        #expect(warning.split(separator: "\n").count == 1)
        #expect(!warning.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(warning.hasPrefix("ACTIVITY_COLORS: unknown role 'baz', 'bar=1;x': not SGR parameters"))
        #expect(warning.contains(", 'bar' is not role=SGR, 'title="))
        #expect(warning.hasSuffix("); ignored"))

        let long = ColorTheme.parse("bar=" + String(repeating: "x", count: 500)).problems
        #expect(try #require(ColorTheme.warning(for: long)).count < 140)
    }

    @Test("setting parameters in code checks them too")
    func setInCode() {
        var theme = ColorTheme()
        #expect(throws: ColorTheme.InvalidParameters(parameters: "31m", tooMany: false)) {
            try theme.setParameters("31m", for: .failure)
        }
        #expect(theme[.failure] == "31")
        try? theme.setParameters("", for: .failure)
        #expect(theme[.failure] == "")
    }

    @Test("ACTIVITY_COLORS is read only when colour is on: NO_COLOR and a non-terminal win")
    func environment() {
        let colours = ["ACTIVITY_COLORS": "bar=34:nope=1"]
        let terminal = TerminalStyle.detect(environment: colours, isTerminal: true)
        #expect(terminal.style.color)
        #expect(terminal.style.colors[.bar] == "34")
        #expect(terminal.colorWarning?.contains("unknown role 'nope'") == true)
        for (environment, isTerminal) in [
            (colours.merging(["NO_COLOR": "1"]) { $1 }, true), (colours.merging(["CLICOLOR": "0"]) { $1 }, true),
            (colours, false), (colours.merging(["NO_COLOR": "1", "CLICOLOR_FORCE": "1"]) { $1 }, false),
        ] {
            let detected = TerminalStyle.detect(environment: environment, isTerminal: isTerminal)
            #expect(!detected.style.color)
            #expect(detected.colorWarning == nil)
        }
        let forced = TerminalStyle.detect(
            environment: colours.merging(["CLICOLOR_FORCE": "1"]) { $1 }, isTerminal: false)
        #expect(forced.style.color && forced.style.colors[.bar] == "34")
        #expect(TerminalStyle.detect(environment: colours).colors[.bar] == "34")
    }
}
