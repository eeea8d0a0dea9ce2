import ActivityWire

/// Typed readers for option values, with messages that name the option.
extension OptionParser {
    /// A count: a finite number from 0 to 2^53.
    func count(_ parsed: ParsedArguments, _ name: String) throws(CommandLineError) -> Double? {
        guard let text = parsed.value(name) else { return nil }
        guard Self.isDecimal(text), let number = Double(text), number <= WireLimits.maxCount,
            UInt64(text).map({ $0 <= 1 << 53 }) ?? true  // 2^53 + 1 would round down to 2^53
        else {
            throw usageError("--\(name) must be a decimal number from 0 to 2^53, not '\(text)'")
        }
        return number
    }

    /// Whether `text` is a plain decimal number as JSON writes one (no sign, hex, `inf` or `nan`).
    static func isDecimal(_ text: String) -> Bool {
        guard let first = text.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return text.utf8.allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e")
                || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
        }
    }

    /// A positive number, such as a speed factor.
    func positiveNumber(_ parsed: ParsedArguments, _ name: String) throws(CommandLineError) -> Double? {
        guard let text = parsed.value(name) else { return nil }
        guard let number = Double(text), number.isFinite, number > 0 else {
            throw usageError("--\(name) must be a positive number, not '\(text)'")
        }
        return number
    }

    /// An activity id.
    func id(_ parsed: ParsedArguments, _ name: String) throws(CommandLineError) -> ActivityID? {
        guard let text = parsed.value(name) else { return nil }
        return try id(text, what: "--\(name)")
    }

    /// An activity id given as `what`.
    func id(_ text: String, what: String) throws(CommandLineError) -> ActivityID {
        guard let id = ActivityID(text) else {
            throw usageError("\(what) must be 1 to 128 characters of [A-Za-z0-9._:@/+-], not '\(text)'")
        }
        return id
    }

    /// A value from a fixed set of names.
    func choice<T: RawRepresentable<String>>(
        _ parsed: ParsedArguments, _ name: String, among cases: [T]
    ) throws(CommandLineError) -> T? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = T(rawValue: text), cases.contains(where: { $0.rawValue == text }) else {
            let names = cases.map(\.rawValue).joined(separator: "|")
            throw usageError("--\(name) must be one of \(names), not '\(text)'")
        }
        return value
    }

    /// Fails unless there are exactly `range` positional arguments.
    func expectPositionals(
        _ parsed: ParsedArguments, _ range: ClosedRange<Int>, names: String
    ) throws(CommandLineError) {
        if parsed.positionals.count < range.lowerBound { throw usageError("missing \(names)") }
        if parsed.positionals.count > range.upperBound {
            let extra = parsed.positionals[range.upperBound]
            throw usageError("unexpected argument '\(extra)'")
        }
    }
}
