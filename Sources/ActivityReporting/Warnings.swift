import ActivityPOSIX
import ActivityTerminal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One-time warnings about bad input, written to standard error.
///
/// Bad numbers and bad settings never crash the program and never stop the report: the value is
/// clamped or ignored, and the first occurrence of each kind of problem prints one line, so a
/// tight loop that passes a negative delta does not flood the terminal.
enum Warnings {
    enum Kind: Int, CaseIterable {
        case negativeAdvance
        case nonFiniteNumber
        case negativeNumber
        case hugeNumber
        case badSinkSetting
        case badParentSetting
        case bootstrapTwice
        case invalidAttribute
        case badControlSetting
        case sinkWriteFailed
        case interruptEnding
    }

    private static let issued = Atomic<Int>(0)

    /// Writes `message` to standard error, unless a warning of this kind was already written.
    static func once(_ kind: Kind, _ message: @autoclosure () -> String) {
        let bit = 1 << kind.rawValue
        let before = issued.bitwiseOr(bit, ordering: .relaxed).oldValue
        guard before & bit == 0 else { return }
        // What a message quotes from outside (a setting, a path, an error's text) may hold
        // controls: they are written as visible escapes, through the one sanitizer.
        write("swift-activity: warning: \(TerminalSanitizer.escaped(message())) (shown once)\n")
    }

    /// Writes `text` to standard error with one `write(2)`, ignoring failures.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            _ = SystemCall.write(2, buffer.baseAddress, buffer.count)
        }
    }
}

/// Numbers as the protocol allows them: finite, ≥ 0, ≤ 2^53.
enum Numbers {
    /// The count or total as the wire may carry it, or `nil` to ignore it; warns once.
    static func sanitized(_ value: Double, what: String) -> Double? {
        guard value.isFinite else {
            Warnings.once(.nonFiniteNumber, "\(what) \(value) ignored: counts must be finite numbers")
            return nil
        }
        if value < 0 {
            Warnings.once(.negativeNumber, "\(what) \(value) clamped to 0: counts are never negative")
            return 0
        }
        if value > WireLimits.maxCount {
            Warnings.once(.hugeNumber, "\(what) \(value) clamped to 2^53, the largest exact count")
            return WireLimits.maxCount
        }
        return value
    }
}
