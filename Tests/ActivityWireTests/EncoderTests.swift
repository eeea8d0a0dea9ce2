import ActivityWire
import Testing

@Suite("Encoder")
struct EncoderTests {
    let encoder = ActivityEventEncoder()
    let id = ActivityID("dl.1")!

    private func text(_ event: ActivityEvent) -> String {
        String(decoding: encoder.encode(event), as: UTF8.self)
    }

    @Test("Canonical lines: fixed key order, defaults left out, integers as integers")
    func canonical() {
        #expect(
            text(.begin(.init(id: id, title: "Downloading", parent: ActivityID("root"), total: 12, unit: "files")))
                == #"{"v":1,"type":"begin","id":"dl.1","parent":"root","title":"Downloading","total":12,"unit":"files"}"#
                + "\n")
        #expect(
            text(
                .begin(
                    .init(
                        id: id, title: "T", completed: 2, cancellable: true, blocking: .dim,
                        attrs: ["x-b": true, "x-a": 1.5], timestamp: 1_764_417_600.25)))
                == #"{"v":1,"type":"begin","ts":1764417600.25,"id":"dl.1","title":"T","completed":2,"cancellable":true,"blocking":"dim","attrs":{"x-a":1.5,"x-b":true}}"#
                + "\n")
        #expect(
            text(.progress(.init(id: id, completed: 0.5, total: .indeterminate, message: "m", title: "t")))
                == #"{"v":1,"type":"progress","id":"dl.1","completed":0.5,"total":null,"title":"t","message":"m"}"#
                + "\n")
        #expect(text(.log(.init(message: "hi"))) == #"{"v":1,"type":"log","level":"info","message":"hi"}"# + "\n")
        #expect(
            text(.end(.init(id: id, status: .failure, message: "m", error: "e", completed: 3, total: .value(4))))
                == #"{"v":1,"type":"end","id":"dl.1","status":"failure","completed":3,"total":4,"message":"m","error":"e"}"#
                + "\n")
    }

    @Test("Strings are escaped per RFC 8259; slash and non-ASCII are not")
    func escaping() {
        let line = text(.log(.init(message: "a\"b\\c/d\n\t\r\u{08}\u{0C}\u{01}\u{1F}é😀\u{7F}")))
        #expect(
            line == #"{"v":1,"type":"log","level":"info","message":"a\"b\\c/d\n\t\r\b\f\u0001\u001fé😀"# + "\u{7F}\"}\n")
    }

    @Test("Forbidden numbers are never written")
    func numbers() {
        #expect(text(.progress(.init(id: id, completed: -3))).contains(#""completed":0"#))
        #expect(text(.progress(.init(id: id, completed: .infinity))).contains(#""completed":9007199254740992"#))
        #expect(!text(.progress(.init(id: id, completed: .nan))).contains("completed"))
        #expect(text(.progress(.init(id: id, completed: 1e-7))).contains(#""completed":1e-07"#))
        #expect(text(.progress(.init(id: id, completed: 123_456_789_012))).contains(#""completed":123456789012"#))
    }

    @Test("A line never exceeds 4096 bytes; text is cut on a UTF-8 boundary with an ellipsis", arguments: [1, 2, 3, 4])
    func truncation(scalarBytes: Int) throws {
        let scalar = ["a", "é", "語", "😀"][scalarBytes - 1]
        let long = String(repeating: scalar, count: 10_000)
        let events: [ActivityEvent] = [
            .log(.init(message: long)),
            .begin(.init(id: id, title: long, message: long, attrs: ["x-note": .string(long)])),
            .progress(.init(id: id, message: long, title: long)),
            .end(.init(id: id, status: .failure, message: long, error: long)),
            .log(.init(message: String(repeating: "\u{01}", count: 5000))),  // escapes grow six-fold
        ]
        for event in events {
            let bytes = encoder.encode(event)
            #expect(bytes.count <= 4096)
            #expect(bytes.count > 3000, "truncation should keep most of the room")
            #expect(bytes.last == 0x0A)
            let decoded = ActivityEventDecoder().decode(bytes.dropLast(), line: 1)
            let event = try #require(decoded.event, "\(decoded)")
            #expect(String(decoding: encoder.encode(event), as: UTF8.self).contains("…"))
        }
    }

    @Test("A short line is never truncated")
    func noTruncation() {
        let message = String(repeating: "x", count: 3900)
        let line = text(.log(.init(message: message)))
        #expect(line.count < 4096)
        #expect(line.contains(message))
    }
}
