/// A line of the control direction: from a consumer back to the producer that began an activity.
///
/// Protocol v1 defines one control type, `cancel`: `{"v":1,"type":"cancel","id":"3f9c.12"}` asks
/// the producer to cancel the activity. It is a request; the producer decides, and ends the
/// activity `cancelled` when it stops. Producers ignore control lines of types they do not know,
/// of a higher `v`, and lines that are not control lines at all, so later versions can add types.
///
/// ```swift
/// let line = ControlMessage.cancel(id).encoded()          // bytes with the newline
/// if case .cancel(let id)? = ControlMessage(decoding: line.dropLast()) { … }
/// ```
public enum ControlMessage: Hashable, Sendable {
    /// Ask the producer to cancel this activity.
    case cancel(ActivityID)

    /// The line, newline included.
    public func encoded() -> [UInt8] {
        switch self {
        case .cancel(let id): Array(#"{"v":1,"type":"cancel","id":"\#(id.rawValue)"}"#.utf8) + [0x0A]
        }
    }

    /// Reads one line (without its newline), or returns `nil` for anything that is not a control
    /// line this version knows: not JSON, another `v`, an unknown type, a missing or invalid id.
    public init?(decoding line: some Collection<UInt8>) {
        let bytes = Array(line)
        guard let message = bytes.withUnsafeBufferPointer(Self.decode) else { return nil }
        self = message
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> ControlMessage? {
        guard case .success(let id?) = decodeRequest(bytes) else { return nil }
        return .cancel(id)
    }
}

/// Why a line on a consumer's own control channel is not a cancel request.
package struct ControlLineProblem: Error, Hashable, Sendable {
    package var message: String

    package init(message: String) {
        self.message = message
    }
}

extension ControlMessage {
    /// Reads a cancel request that a presenting process sends to a consumer (`activity
    /// --mode overlay-jsonl --control …`): `{"v":1,"type":"cancel","id":…}` names an activity;
    /// without `id` it is the presenter's Cancel control, whatever the overlay shows.
    ///
    /// - Returns: the id (`nil` for the Cancel control), or the problem, worded for a diagnostic.
    package static func decodeRequest(_ line: some Collection<UInt8>) -> Result<ActivityID?, ControlLineProblem> {
        Array(line).withUnsafeBufferPointer(decodeRequest)
    }

    private static func decodeRequest(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ActivityID?, ControlLineProblem> {
        func problem(_ message: String) -> Result<ActivityID?, ControlLineProblem> {
            .failure(ControlLineProblem(message: message))
        }
        guard UTF8Validation.isValid(bytes) else { return problem("not UTF-8") }
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        guard !scanner.atEnd, bytes[scanner.index] == UInt8(ascii: "{") else { return problem("not a JSON object") }
        let fields: RawFields
        let duplicate: [UInt8]?
        do throws(JSONScanner.SyntaxError) {
            (fields, duplicate) = try RawFields.scan(&scanner)
        } catch {
            return problem("not a JSON object")
        }
        if let duplicate {
            return problem("duplicate key \(Diagnostic.quoted(String(decoding: duplicate, as: UTF8.self)))")
        }
        guard case .number(let version)? = fields[.v], Array(bytes[version]) == [UInt8(ascii: "1")] else {
            return problem(#""v" must be 1"#)
        }
        guard case .string(let typeRange, let typeEscaped)? = fields[.type] else { return problem(#"no "type""#) }
        let type = scanner.decodeString(typeRange, escaped: typeEscaped)
        guard type == "cancel" else { return problem("unknown type \(Diagnostic.quoted(type)), only \"cancel\"") }
        guard let idField = fields[.id] else { return .success(nil) }
        guard case .string(let idRange, let idEscaped) = idField,
            let id = ActivityID(scanner.decodeString(idRange, escaped: idEscaped))
        else { return problem(#""id" is not an activity id"#) }
        return .success(id)
    }
}
