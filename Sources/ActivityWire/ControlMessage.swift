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
        guard UTF8Validation.isValid(bytes) else { return nil }
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        guard !scanner.atEnd, bytes[scanner.index] == UInt8(ascii: "{") else { return nil }
        var fields = RawFields()
        var otherKeys: [[UInt8]] = []
        var duplicate: [UInt8]?
        do throws(JSONScanner.SyntaxError) {
            try fields.scanObject(&scanner, otherKeys: &otherKeys, duplicate: &duplicate)
        } catch {
            return nil
        }
        guard duplicate == nil, case .number(let version)? = fields[.v],
            Array(bytes[version]) == [UInt8(ascii: "1")],
            case .string(let typeRange, let typeEscaped)? = fields[.type],
            scanner.decodeString(typeRange, escaped: typeEscaped) == "cancel",
            case .string(let idRange, let idEscaped)? = fields[.id],
            let id = ActivityID(scanner.decodeString(idRange, escaped: idEscaped))
        else { return nil }
        return .cancel(id)
    }
}
