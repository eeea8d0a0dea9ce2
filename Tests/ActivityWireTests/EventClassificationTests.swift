import ActivityWire
import Testing

@Suite("What makes a line an event")
struct EventClassificationTests {
    let decoder = ActivityEventDecoder()

    @Test(
        "Objects without a top-level \"v\" are text, whatever their keys",
        arguments: [
            #"{"a":"b","a":"c"}"#,  // JSONTestSuite y_object_duplicated_key
            #"{"a":"b","a":"b"}"#,  // y_object_duplicated_key_and_value
            #"{"type":"version","@level":"info","@message":"Terraform 1.9.0"}"#,  // a tool's JSON log
            #"{"type":"begin","id":"a","title":"no version"}"#,
            #"{"type":"x","type":"y"}"#,
            #"{"x":{"v":1},"x":2}"#,  // a nested "v" claims nothing
        ])
    func textObjects(_ line: String) throws {
        let decoded = decoder.decode(line)
        guard case .text(let diagnostic) = decoded else {
            Issue.record("\(line) should be text, is \(decoded)")
            return
        }
        #expect(diagnostic.code == .missingField)
    }

    @Test(
        "An object with a top-level \"v\" is an event, and event rules apply to it",
        arguments: [
            #"{"v":1,"v":1,"type":"log","message":"m"}"#,
            #"{"v":1,"type":"log","message":"m","a":1,"a":2}"#,
            #"{"a":1,"a":2,"v":1,"type":"log","message":"m"}"#,
            #"{"\u0076":1,"type":"log","message":"m","v":1}"#,
        ])
    func eventRules(_ line: String) {
        #expect(decoder.decode(line).diagnostic?.code == .duplicateKey)
        guard case .invalid = decoder.decode(line) else {
            Issue.record("\(line) should be an invalid event")
            return
        }
    }

    @Test("A \"v\" spelled with an escape is still \"v\"")
    func escapedVersionKey() {
        #expect(decoder.decode(#"{"\u0076":1,"type":"log","message":"m"}"#) == .event(.log(.init(message: "m"))))
    }

    @Test("A line too long to read whole is an event only if its start shows a top-level \"v\"")
    func overlong() throws {
        let fill = String(repeating: "z", count: 70_000)
        let lines = [
            #"{"v":1,"type":"log","message":""# + fill + #""}"#,
            #"{"tool":"x","a":1,"a":2,"data":""# + fill + #""}"#,
            #"{"nested":{"v":1},"data":""# + fill + #""}"#,
            #"  { "type" : "log", "\u0076" : 1, "message":""# + fill + #""}"#,
        ]
        var reader = EventStreamReader(source: BytesSource(Array(lines.joined(separator: "\n").utf8), chunkSize: 4096))
        var kinds: [String] = []
        try reader.forEach { item in
            guard item.isLineStart else { return }
            switch item.decoded {
            case .invalid(let d) where d.code == .lineTooLong: kinds.append("event")
            case .text(let d) where d.code == .lineTooLong: kinds.append("text")
            default: kinds.append("\(item.decoded)")
            }
        }
        #expect(kinds == ["event", "text", "text", "event"])
    }
}
