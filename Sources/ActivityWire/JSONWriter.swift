/// The byte-level writer behind ``ActivityEventEncoder``: compact JSON, RFC 8259 escaping,
/// numbers as integers when integral.
enum JSONWriter {
    static func write(_ event: ActivityEvent, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"v":1,"type":""#.utf8)
        out.append(contentsOf: event.typeName.utf8)
        out.append(UInt8(ascii: "\""))
        if let ts = event.timestamp { number("ts", ts, into: &out) }
        switch event {
        case .begin(let e):
            string("id", e.id.rawValue, into: &out)
            if let parent = e.parent { string("parent", parent.rawValue, into: &out) }
            string("title", e.title, into: &out)
            if let total = e.total { number("total", total, into: &out) }
            if e.completed != 0 { number("completed", e.completed, into: &out) }
            if let unit = e.unit { string("unit", unit, into: &out) }
            if let message = e.message { string("message", message, into: &out) }
            if e.cancellable { raw("cancellable", "true", into: &out) }
            if e.blocking != .none { string("blocking", e.blocking.rawValue, into: &out) }
            if !e.attributes.isEmpty { attributes(e.attributes, into: &out) }
        case .progress(let e):
            string("id", e.id.rawValue, into: &out)
            if let completed = e.completed { number("completed", completed, into: &out) }
            if let total = e.total { self.total(total, into: &out) }
            if let title = e.title { string("title", title, into: &out) }
            if let message = e.message { string("message", message, into: &out) }
        case .log(let e):
            if let id = e.id { string("id", id.rawValue, into: &out) }
            string("level", e.level.rawValue, into: &out)
            string("message", e.message, into: &out)
        case .end(let e):
            string("id", e.id.rawValue, into: &out)
            string("status", e.status.rawValue, into: &out)
            if let completed = e.completed { number("completed", completed, into: &out) }
            if let total = e.total { self.total(total, into: &out) }
            if let message = e.message { string("message", message, into: &out) }
            if let error = e.error { string("error", error, into: &out) }
        }
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
    }

    private static func key(_ name: StaticString, into out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    private static func raw(_ name: StaticString, _ value: StaticString, into out: inout [UInt8]) {
        key(name, into: &out)
        value.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static func string(_ name: StaticString, _ value: String, into out: inout [UInt8]) {
        key(name, into: &out)
        quoted(value, into: &out)
    }

    private static func number(_ name: StaticString, _ value: Double, into out: inout [UInt8]) {
        guard !value.isNaN else { return }
        key(name, into: &out)
        count(value, into: &out)
    }

    private static func total(_ total: ActivityEvent.Total, into out: inout [UInt8]) {
        switch total {
        case .indeterminate: raw("total", "null", into: &out)
        case .value(let v): number("total", v, into: &out)
        }
    }

    private static func attributes(_ attrs: [AttributeKey: AttributeValue], into out: inout [UInt8]) {
        key("attrs", into: &out)
        out.append(UInt8(ascii: "{"))
        for (index, name) in attrs.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            quoted(name.rawValue, into: &out)
            out.append(UInt8(ascii: ":"))
            switch attrs[name]! {
            case .string(let s): quoted(s, into: &out)
            case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
            case .number(let n): finite(n, into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A count: clamped to [0, 2^53].
    private static func count(_ value: Double, into out: inout [UInt8]) {
        finite(min(max(value, 0), WireLimits.maxCount), into: &out)
    }

    /// Any finite number, as an integer when integral. A non-finite one (only possible inside
    /// `attrs`) becomes `null`, since JSON has no spelling for it.
    static func finite(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if value == value.rounded(.towardZero), abs(value) <= WireLimits.maxCount {
            integer(Int64(saturating: value), into: &out)
        } else {
            out.append(contentsOf: value.description.utf8)
        }
    }

    static func integer(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            out.append(UInt8(ascii: "0") &+ UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes hold the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            while magnitude > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            }
            out.append(contentsOf: buffer[index...])
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// `value` as a JSON string: `"` and `\` escaped, control characters below U+0020 escaped,
    /// everything else (including `/` and non-ASCII) as UTF-8.
    static func quoted(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// JSON string literals for the package's other JSON outputs (`activity validate --json`, the
/// overlay state stream), escaped exactly as event lines are.
package enum JSONText {
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        JSONWriter.quoted(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
