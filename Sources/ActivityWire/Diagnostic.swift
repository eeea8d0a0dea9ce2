/// A problem found in one line of a stream, by the decoder or the stream validator.
///
/// Diagnostics never stop a stream: the line is skipped (or, for warnings, used as far as it
/// goes) and reading goes on.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number in the stream.
    public var line: Int
    public var code: Code
    public var message: String
    /// Where the line came from when the stream has several sources (`activity run`'s
    /// reporters: `reporter build.sh (pid 4242)`); `nil` for the one input.
    public var source: String?

    public init(line: Int, code: Code, message: String, source: String? = nil) {
        self.line = line
        self.code = code
        self.message = message
        self.source = source
    }

    public var severity: Severity { code.severity }

    /// `LINE: code: message`.
    public var description: String { "\(line): \(code.rawValue): \(message)" }
}

extension Diagnostic {
    /// How bad a problem is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// The stream still means what its producer intended (a newer version's line was skipped,
        /// an unknown parent was attached at the top).
        case warning
        /// The line breaks the protocol and was skipped, or broke a rule across lines.
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// A stable diagnostic code. Codes are part of the protocol's tooling contract: the fixtures
    /// under `Schemas/examples/invalid/` name them, and they are never renamed.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        // Line-level: the line is skipped.
        /// The line is longer than 64 KiB.
        case lineTooLong = "line-too-long"
        /// The line is not valid UTF-8.
        case invalidUTF8 = "invalid-utf8"
        /// The line is not JSON.
        case invalidJSON = "invalid-json"
        /// The line is JSON, but not an object.
        case notAnObject = "not-an-object"
        /// An object key appears twice.
        case duplicateKey = "duplicate-key"
        /// A required field is absent.
        case missingField = "missing-field"
        /// A field has the wrong JSON type.
        case wrongType = "wrong-type"
        /// A number is negative, not finite, or above 2^53.
        case outOfRange = "out-of-range"
        /// An id is empty, longer than 128 bytes, or holds a forbidden character.
        case invalidID = "invalid-id"
        /// A string field holds a value outside its enumeration (`status`, `level`, `blocking`).
        case invalidValue = "invalid-value"
        /// `attrs` breaks its rules: too many keys, a key too long, a value not a string, number or bool.
        case invalidAttrs = "invalid-attrs"
        /// `v` is higher than this consumer understands: the line is skipped.
        case unsupportedVersion = "unsupported-version"

        // Stream-level: rules across lines.
        /// `progress`, `end` or `log` names an id that was never begun.
        case unknownActivity = "unknown-activity"
        /// A second `begin` for an id.
        case duplicateBegin = "duplicate-begin"
        /// An event for an id that has already ended.
        case alreadyEnded = "already-ended"
        /// `begin` names a parent that is not open; the activity is attached at the top.
        case unknownParent = "unknown-parent"
        /// An activity ended while some of its children were still open.
        case childrenOpen = "children-open"
        /// The stream ended with this activity still open.
        case neverEnded = "never-ended"
        /// Under `activity run`: a reporter changed or ended an activity it did not begin (another
        /// process's, or the run's own). The event is skipped.
        case notOwner = "not-owner"

        public var severity: Severity {
            switch self {
            case .unsupportedVersion, .unknownParent, .neverEnded: .warning
            default: .error
            }
        }
    }
}
