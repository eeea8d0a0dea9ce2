import ActivityWire
import Foundation
import TestSupport
import Testing

/// Stream checks shared by the libactivity suites.
enum Support {
    /// Decodes a whole stream with ActivityWire and applies the stream rules.
    static func check(_ bytes: [UInt8]) throws -> StreamReport {
        var reader = EventStreamReader(source: BytesSource(bytes))
        var validator = StreamValidator()
        var report = StreamReport()
        var lastLine = 0
        try reader.forEach { item in
            guard item.isLineStart else { return }
            lastLine = item.line
            report.lines += 1
            if item.bytes.count + 1 > WireLimits.maxProducedLineBytes { report.overlong += 1 }
            switch item.decoded {
            case .event(let event):
                report.events.append(event)
                report.raw.append(Array(item.bytes))
                report.diagnostics += validator.check(event, line: item.line)
            default:
                report.diagnostics.append(
                    item.decoded.diagnostic ?? Diagnostic(line: item.line, code: .invalidJSON, message: "not an event"))
            }
        }
        report.diagnostics += validator.finish(atLine: lastLine + 1)
        if let last = bytes.last, last != 0x0A { report.unterminated = true }
        return report
    }
}

/// What a stream turned out to hold.
struct StreamReport {
    var lines = 0
    var events: [ActivityEvent] = []
    /// Each event's line as written, without its newline.
    var raw: [[UInt8]] = []
    var diagnostics: [Diagnostic] = []
    var overlong = 0
    var unterminated = false

    func count(_ type: String) -> Int { events.filter { $0.typeName == type }.count }

    /// Every begin has its end, nothing else is wrong, and every line is whole and short enough.
    var isClean: Bool {
        diagnostics.isEmpty && overlong == 0 && !unterminated && count("begin") == count("end")
    }

    var summary: String {
        "\(lines) lines, \(count("begin")) begin, \(count("progress")) progress, \(count("log")) log, "
            + "\(count("end")) end; \(overlong) too long; diagnostics: "
            + diagnostics.prefix(5).map(\.description).joined(separator: "; ")
    }
}
