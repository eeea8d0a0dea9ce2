import ActivityWire
import Testing

@Suite("Diagnostics quote input safely")
struct DiagnosticQuotingTests {
    /// Scalars that must never reach a printer raw: they act on the display or show as nothing.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200B...0x200D, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// An escape sequence, a C1 CSI, bidi overrides and zero-width characters, as JSON escapes.
    static let hostile = #"x\u001b]0;PWNED\u0007\u009b2J\u202e\u2066\u200b\u2060\ufeff\u007f"#
    static let hostileShown = #"x\u001B]0;PWNED\u0007\u009B2J\u202E\u2066\u200B\u2060\uFEFF\u007F"#

    private func diagnostic(_ line: String) throws -> Diagnostic {
        try #require(ActivityEventDecoder().decode(line).diagnostic, "\(line) should give a diagnostic")
    }

    private func expectSafe(_ diagnostic: Diagnostic, code: Diagnostic.Code, showing shown: String) {
        #expect(diagnostic.code == code)
        #expect(
            !diagnostic.message.unicodeScalars.contains(where: Self.isHidden), "\(diagnostic.message.debugDescription)")
        #expect(!diagnostic.description.unicodeScalars.contains(where: Self.isHidden))
        #expect(diagnostic.message.contains(shown), "\(diagnostic.message)")
    }

    @Test("An invalid id or parent is quoted with its controls escaped")
    func invalidID() throws {
        let end = try diagnostic(#"{"v":1,"type":"end","id":"x\u001b]0;PWNED\u0007"}"#)
        expectSafe(end, code: .invalidID, showing: #"not "x\u001B]0;PWNED\u0007" (11 bytes)"#)
        let parent = try diagnostic(#"{"v":1,"type":"begin","id":"a","title":"t","parent":""# + Self.hostile + #""}"#)
        expectSafe(parent, code: .invalidID, showing: "\"" + Self.hostileShown + "\"")
    }

    @Test(
        "An enumeration value outside its cases is quoted with its controls escaped",
        arguments: [
            #"{"v":1,"type":"end","id":"a","status":"VALUE"}"#,
            #"{"v":1,"type":"log","message":"m","level":"VALUE"}"#,
            #"{"v":1,"type":"begin","id":"a","title":"t","blocking":"VALUE"}"#,
        ])
    func invalidValue(_ template: String) throws {
        let found = try diagnostic(template.replacing("VALUE", with: Self.hostile))
        expectSafe(found, code: .invalidValue, showing: "not \"" + Self.hostileShown + "\"")
    }

    @Test("attrs keys are quoted with their controls escaped")
    func attrsKeys() throws {
        let nested = try diagnostic(#"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-\u001b[2J":{}}}"#)
        expectSafe(nested, code: .invalidAttrs, showing: #""attrs.x-\u001B[2J""#)
        let huge = try diagnostic(#"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-\u202e":1e400}}"#)
        expectSafe(huge, code: .invalidAttrs, showing: #""attrs.x-\u202E""#)
        let twice = try diagnostic(#"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-\u0007":1,"x-\u0007":2}}"#)
        expectSafe(twice, code: .duplicateKey, showing: #""x-\u0007""#)
    }

    @Test("A repeated key is quoted with its controls escaped")
    func duplicateKey() throws {
        let found = try diagnostic(#"{"v":1,"type":"log","message":"m","\u001b]8;;":1,"\u001b]8;;":2}"#)
        expectSafe(found, code: .duplicateKey, showing: #""\u001B]8;;""#)
    }

    @Test("Long input is cut after 40 scalars, however the scalars combine")
    func capped() throws {
        let zalgo = "e" + String(repeating: "\u{0301}", count: 5000)  // one character, 5001 scalars
        let status = try diagnostic(#"{"v":1,"type":"end","id":"a","status":""# + zalgo + #""}"#)
        #expect(status.code == .invalidValue)
        #expect(status.message.unicodeScalars.count < 200, "\(status.message.unicodeScalars.count) scalars")
        #expect(status.message.hasSuffix("…\""))
        let id = try diagnostic(#"{"v":1,"type":"end","id":""# + String(repeating: "\\u0000", count: 300) + #""}"#)
        #expect(id.message.contains(String(repeating: "\\u0000", count: 40) + "…\" (300 bytes)"), "\(id.message)")
        let long = String(repeating: "9", count: 500)
        let count = try diagnostic(#"{"v":1,"type":"progress","id":"a","completed":"# + long + "}")
        #expect(count.code == .outOfRange)
        #expect(count.message.hasSuffix(String(repeating: "9", count: 40) + "…"), "\(count.message)")
        let version = try diagnostic(#"{"v":"# + long + #","type":"log","message":"m"}"#)
        #expect(version.code == .unsupportedVersion)
        #expect(version.message.count < 120, "\(version.message)")
    }

    @Test("Quotes and backslashes in quoted text are escaped, so the quoting is unambiguous")
    func quotesEscaped() throws {
        let found = try diagnostic(#"{"v":1,"type":"end","id":"a","status":"x\" or \\"}"#)
        #expect(found.message.hasSuffix(#"not "x\" or \\""#), "\(found.message)")
    }
}
