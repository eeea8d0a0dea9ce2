import ActivityWire

/// One activity as an OpenTelemetry span in the OTLP JSON encoding.
///
/// The mapping: the activity is a span named by its title (kind `INTERNAL`); its parent is the
/// parent span; the trace is its top-level activity (``TraceIdentifiers``); its log lines are
/// span events named `log`; the outcome is the span status (`success` OK, `failure` and
/// `abandoned` ERROR with the error as the message, `cancelled` and `skipped` UNSET) and the
/// `activity.status` attribute; `attrs` are attributes under their own keys; id, message,
/// error and counts are `activity.*` attributes.
///
/// The encoding follows the OTLP/JSON rules: lowerCamelCase field names, trace and span ids as
/// hex strings, 64-bit integers (`…UnixNano`, `intValue`) as decimal strings, enums as numbers.
public struct OTLPSpanEncoder: Sendable {
    public init() {}

    /// The span object, one JSON object on one line.
    public func span(for activity: TimelineActivity) -> String {
        let trace = TraceIdentifiers.traceID(root: activity.rootID)
        var out =
            "{\"traceId\":\"\(trace)\",\"spanId\":\"\(TraceIdentifiers.spanID(activity.id, root: activity.rootID))\""
        if let parent = activity.parentID {
            out += ",\"parentSpanId\":\"\(TraceIdentifiers.spanID(parent, root: activity.rootID))\""
        }
        out += ",\"name\":\(MarkupText.json(activity.title)),\"kind\":1"
        out += ",\"startTimeUnixNano\":\"\(Self.nanoseconds(activity.start))\""
        out += ",\"endTimeUnixNano\":\"\(Self.nanoseconds(activity.end))\""
        out += ",\"attributes\":[" + attributes(of: activity).joined(separator: ",") + "]"
        if !activity.logs.isEmpty {
            out += ",\"events\":["
            out += activity.logs.map { log in
                "{\"timeUnixNano\":\"\(Self.nanoseconds(log.time))\",\"name\":\"log\",\"attributes\":["
                    + Self.attribute("log.severity", string: log.level.rawValue) + ","
                    + Self.attribute("log.message", string: log.message) + "]}"
            }.joined(separator: ",")
            out += "]"
        }
        if activity.logCount > activity.logs.count {
            out += ",\"droppedEventsCount\":\(activity.logCount - activity.logs.count)"
        }
        out += ",\"status\":" + status(of: activity) + "}"
        return out
    }

    private func attributes(of activity: TimelineActivity) -> [String] {
        var list = [
            Self.attribute("activity.id", string: activity.id.rawValue),
            Self.attribute("activity.status", string: activity.outcome.rawValue),
        ]
        if let message = activity.message { list.append(Self.attribute("activity.message", string: message)) }
        if let error = activity.error { list.append(Self.attribute("activity.error", string: error)) }
        list.append(Self.attribute("activity.completed", number: activity.completed))
        if let total = activity.total { list.append(Self.attribute("activity.total", number: total)) }
        if let unit = activity.unit { list.append(Self.attribute("activity.unit", string: unit)) }
        for key in activity.attrs.keys.sorted() {
            switch activity.attrs[key]! {
            case .string(let text): list.append(Self.attribute(key, string: text))
            case .number(let number): list.append(Self.attribute(key, number: number))
            case .bool(let flag): list.append("{\"key\":\(MarkupText.json(key)),\"value\":{\"boolValue\":\(flag)}}")
            }
        }
        return list
    }

    private func status(of activity: TimelineActivity) -> String {
        switch activity.outcome {
        case .success: return "{\"code\":1}"
        case .cancelled, .skipped: return "{}"
        case .failure, .abandoned:
            let message =
                activity.error ?? activity.message
                ?? (activity.outcome == .abandoned ? "abandoned: the activity never ended" : "failed")
            return "{\"message\":\(MarkupText.json(message)),\"code\":2}"
        }
    }

    static func attribute(_ key: String, string: String) -> String {
        "{\"key\":\(MarkupText.json(key)),\"value\":{\"stringValue\":\(MarkupText.json(string))}}"
    }

    /// Integral numbers as `intValue` (a decimal string, as int64 is in OTLP JSON), others as `doubleValue`.
    static func attribute(_ key: String, number: Double) -> String {
        let value =
            number == number.rounded() && abs(number) < 9.0e15
            ? "{\"intValue\":\"\(Int64(number))\"}" : "{\"doubleValue\":\(TimelineFormat.json(number))}"
        return "{\"key\":\(MarkupText.json(key)),\"value\":\(value)}"
    }

    /// Unix nanoseconds as a decimal string, exact to the microsecond the recording holds.
    static func nanoseconds(_ unixSeconds: Double) -> String {
        let seconds = max(0, unixSeconds)
        let whole = UInt64(saturating: seconds, rounding: .down)
        // Up to a whole second (a fraction that rounds up), added below as nanoseconds.
        let micros = UInt64(
            saturating: (seconds - seconds.rounded(.down)) * 1_000_000, rounding: .toNearestOrAwayFromZero)
        let (wholeNanoseconds, overflow) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, carry) = wholeNanoseconds.addingReportingOverflow(micros * 1000)
        // From 2554 on (ts 18446744074), Unix nanoseconds no longer fit: the latest that does.
        return String(overflow || carry ? UInt64.max : nanoseconds)
    }
}
