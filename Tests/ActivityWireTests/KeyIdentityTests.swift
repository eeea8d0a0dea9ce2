import ActivityWire
import Testing

@Suite("Keys are equal only when their code points are")
struct KeyIdentityTests {
    let decoder = ActivityEventDecoder()

    @Test(
        "Keys that differ in code points are different keys, even when Unicode calls them equivalent",
        arguments: [
            #""e\u0301":1,"\u00e9":2"#,  // decomposed and precomposed é
            #""\u212a":1,"K":2"#,  // KELVIN SIGN and K
            #""\u00c5":1,"\u212b":2"#,  // Å and ANGSTROM SIGN
            #""\udc00":1,"\udc01":2"#,  // two different lone surrogates
            #""\udc00":1,"\ufffd":2"#,  // a lone surrogate and the replacement character
        ])
    func distinctKeys(_ members: String) {
        let line = #"{"v":1,"type":"log","message":"m","# + members + "}"
        #expect(decoder.decode(line) == .event(.log(.init(message: "m"))), "\(line)")
    }

    @Test(
        "Keys with the same code points are the same key, however they are escaped",
        arguments: [
            #""\ud83d\ude00":1,"😀":2"#,
            #""\u00e9":1,"é":2"#,
            #""\udc00":1,"\uDC00":2"#,
            #""\u0074itle":1,"title":2"#,
        ])
    func sameKeys(_ members: String) {
        let line = #"{"v":1,"type":"log","message":"m","# + members + "}"
        #expect(decoder.decode(line).diagnostic?.code == .duplicateKey, "\(line)")
    }

    @Test("attrs keys that differ in code points both survive decoding and encoding")
    func attrsKeysKept() throws {
        let line =
            #"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-e\u0301":1,"x-\u00e9":2,"x-\u212a":3,"x-K":4}}"#
        let event = try #require(decoder.decode(line).event)
        let canonical = String(decoding: ActivityEventEncoder().encode(event), as: UTF8.self)
        // Sorted by bytes: "K" (4B), "e" (65), U+00E9 (C3 A9), U+212A (E2 84 AA).
        #expect(
            canonical == #"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-K":4,"x-e"# + "\u{301}"
                + #"":1,"x-"# + "\u{E9}" + #"":2,"x-"# + "\u{212A}" + #"":3}}"# + "\n")
        #expect(decoder.decode(Array(canonical.utf8.dropLast())).event == event)
        guard case .begin(let begin) = event else { throw CancellationError() }
        #expect(begin.attributes.count == 4)
        #expect(begin.attributes[AttributeKey("x-e\u{301}")] == 1)
        #expect(begin.attributes[AttributeKey("x-\u{E9}")] == 2)
    }

    @Test("A repeated attrs key is a duplicate key")
    func attrsDuplicate() {
        let line = #"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-a":1,"x-\u0061":2}}"#
        #expect(decoder.decode(line).diagnostic?.code == .duplicateKey)
    }

    @Test("A lone surrogate escape in an attrs key becomes U+FFFD, as in a title: the begin is kept")
    func attrsLoneSurrogate() throws {
        let line = #"{"v":1,"type":"begin","id":"a","title":"t\uDADA","attrs":{"x-\uDADA":1}}"#
        guard case .begin(let begin) = try #require(decoder.decode(line).event) else { throw CancellationError() }
        #expect(begin.title == "t\u{FFFD}")
        #expect(begin.attributes == [AttributeKey("x-\u{FFFD}"): 1])
        // Keys that differ on the wire only in their lone surrogates (or a surrogate and U+FFFD
        // itself) are one key once read: the first is kept, the line is no duplicate.
        let two = #"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-\udc00":1,"x-\udc01":2,"x-\ufffd":3}}"#
        guard case .begin(let merged) = try #require(decoder.decode(two).event) else { throw CancellationError() }
        #expect(merged.attributes == [AttributeKey("x-\u{FFFD}"): 1])
        // The same surrogate twice is the same key written twice.
        let repeated = #"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-\udc00":1,"x-\uDC00":2}}"#
        #expect(decoder.decode(repeated).diagnostic?.code == .duplicateKey)
    }

    @Test("AttributeKey compares, hashes and sorts by bytes")
    func attributeKey() {
        let decomposed = AttributeKey("e\u{301}")
        let precomposed = AttributeKey("\u{E9}")
        #expect("e\u{301}" == "\u{E9}")  // what String does
        #expect(decomposed != precomposed)
        #expect(Set([decomposed, precomposed]).count == 2)
        #expect([precomposed, decomposed, "Z"].sorted() == ["Z", decomposed, precomposed])
    }

    @Test("The String-keyed attrs view keeps the first key in byte order, deterministically")
    func attrsView() {
        var begin = ActivityEvent.Begin(id: ActivityID("a")!, title: "t")
        begin.attributes = [AttributeKey("x-\u{E9}"): 2, AttributeKey("x-e\u{301}"): 1, "x-k": true]
        #expect(begin.attrs.count == 2)
        #expect(begin.attrs["x-\u{E9}"] == 1)
        #expect(begin.attrs["x-k"] == true)
        begin.attrs = ["x-z": "s"]
        #expect(begin.attributes == ["x-z": "s"])
    }
}
