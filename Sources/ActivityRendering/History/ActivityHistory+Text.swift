import ActivityWire

/// The history file's text, version 1 (see `Docs/rendering.md`):
///
/// ```
/// activity-history 1
/// 1714000000.123<TAB>42<TAB>-<TAB>130.5,128,131.2<TAB>Build<TAB>Compile
/// ```
///
/// The first line names the format and its version. Then one line per path: when its last run
/// ended (Unix seconds), that run's completed amount and total (`-` for none), the durations
/// of the last runs in seconds (oldest first, comma-separated), then the titles from the top
/// down, one field each, with `\` written `\\` and a tab `\t`.
extension ActivityHistory {
    /// The first line of a version 1 file.
    static let header = "activity-history 1"
    /// What every version's first line starts with.
    static let headerPrefix = "activity-history "

    /// Why a file's text is not a history that can be read.
    enum TextProblem: Error, Equatable {
        /// The first line is not a history header: the file is something else, and is left alone.
        case notHistory
        /// A version this program does not know: left alone too.
        case newerVersion(String)
    }

    /// The file's text.
    func encoded() -> [UInt8] {
        var text = Array((Self.header + "\n").utf8)
        for entry in entries.values.sorted(by: { $0.lastEnded < $1.lastEnded }) {
            Self.appendNumber(entry.lastEnded, to: &text)
            text.append(0x09)
            Self.appendNumber(entry.completed, to: &text)
            text.append(0x09)
            if let total = entry.total {
                Self.appendNumber(total, to: &text)
            } else {
                text.append(UInt8(ascii: "-"))
            }
            text.append(0x09)
            for (index, duration) in entry.durations.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                Self.appendNumber(duration, to: &text)
            }
            for title in entry.path {
                text.append(0x09)
                text += Self.escaped(title).utf8
            }
            text.append(0x0A)
        }
        return text
    }

    /// Reads a file's text. Lines that cannot be read are left out; the first one's number and
    /// why are returned, for one warning.
    static func decode(_ bytes: [UInt8]) throws(TextProblem) -> (history: ActivityHistory, problem: String?) {
        // An empty file (cut short, or emptied to start again) is an empty history.
        guard !bytes.isEmpty else { return (ActivityHistory(), nil) }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let first = String(decoding: lines.first ?? [], as: UTF8.self)
        guard first.hasPrefix(headerPrefix) else { throw .notHistory }
        guard first == header else { throw .newerVersion(String(first.dropFirst(headerPrefix.count))) }
        var history = ActivityHistory()
        history.entries.reserveCapacity(lines.count - 1)
        var problem: String?
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            guard let (key, entry) = Self.parseEntry(line) else {
                problem = problem ?? "line \(index + 1) is not a history entry"
                continue
            }
            history.entries[key] = entry
        }
        history.evict()
        return (history, problem)
    }

    /// One line's entry and its key, or `nil` when it is malformed: split on its bytes, a tab and
    /// a comma are always separators (titles have their tabs escaped), whatever follows them.
    private static func parseEntry(_ line: ArraySlice<UInt8>) -> (key: String, entry: Entry)? {
        var fields = FieldSplitter(line, on: 0x09)
        guard let ended = fields.next().flatMap(number), let completed = fields.next().flatMap(number),
            let totalField = fields.next(), let durationsField = fields.next()
        else { return nil }
        let total: Double?
        if totalField.elementsEqual(CollectionOfOne(UInt8(ascii: "-"))) {
            total = nil
        } else {
            guard let value = number(totalField) else { return nil }
            total = value
        }
        var durations: [Double] = []
        durations.reserveCapacity(durationsKept)
        var durationTexts = FieldSplitter(durationsField, on: UInt8(ascii: ","), omittingEmpty: true)
        while let text = durationTexts.next() {
            // A duration longer than the wire's largest `ts` (2^53 s, such as `1e300`) was never measured.
            guard let value = number(text), value >= 0, value <= WireLimits.maxCount else { return nil }
            durations.append(value)
        }
        guard !durations.isEmpty, durations.count <= durationsKept else { return nil }
        guard let titles = fields.remainder else { return nil }
        let escapes = titles.contains(UInt8(ascii: "\\"))
        var path: [String] = []
        path.reserveCapacity(titles.count { $0 == 0x09 } + 1)
        while let field = fields.next() {
            let text = String(decoding: field, as: UTF8.self)
            guard let title = escapes ? unescaped(text) : text else { return nil }
            path.append(title)
        }
        let entry = Entry(path: path, durations: durations, completed: completed, total: total, lastEnded: ended)
        // The key is the titles with line feeds for tabs: without escapes, their bytes as they are.
        guard !escapes else { return (key(path), entry) }
        let key = String(unsafeUninitializedCapacity: titles.count) { buffer in
            for (offset, byte) in titles.enumerated() { buffer[offset] = byte == 0x09 ? 0x0A : byte }
            return titles.count
        }
        return (key, entry)
    }

    /// A number field: as written, a plain decimal, read without making a `String`; else (a
    /// number in exponent form) as Swift reads it. Finite numbers only.
    private static func number(_ field: ArraySlice<UInt8>) -> Double? {
        let value =
            field.withUnsafeBufferPointer({ DecimalText.plain($0) })
            ?? Double(String(decoding: field, as: UTF8.self))
        guard let value, value.isFinite else { return nil }
        return value
    }

    /// The fields of a line, split on one byte, without an array of them.
    private struct FieldSplitter {
        private var rest: ArraySlice<UInt8>?
        private let separator: UInt8
        private let omittingEmpty: Bool

        init(_ line: ArraySlice<UInt8>, on separator: UInt8, omittingEmpty: Bool = false) {
            self.rest = line
            self.separator = separator
            self.omittingEmpty = omittingEmpty
        }

        /// What is left to split: the fields after those taken.
        var remainder: ArraySlice<UInt8>? { rest }

        mutating func next() -> ArraySlice<UInt8>? {
            while let current = rest {
                let field: ArraySlice<UInt8>
                if let end = current.firstIndex(of: separator) {
                    field = current[..<end]
                    rest = current[(end + 1)...]
                } else {
                    field = current
                    rest = nil
                }
                if !(omittingEmpty && field.isEmpty) { return field }
            }
            return nil
        }
    }

    /// Appends the UTF-8 of ``number(_:)``: below 10^12 the thousandths written from their
    /// integer, the zeros that end the decimals dropped, which is the text `String` gives the
    /// rounded value (doubles there are closer together than a thousandth, so the shortest text
    /// that reads back as it is that value's own), without making one.
    static func appendNumber(_ value: Double, to text: inout [UInt8]) {
        guard abs(value) < 1e12 else { return text += number(value).utf8 }
        DecimalText.appendFixed(value, decimals: 3, to: &text)
        while text.last == UInt8(ascii: "0") { text.removeLast() }
        if text.last == UInt8(ascii: ".") { text.removeLast() }
    }

    /// A number with at most three decimals: `130.5`, `42`.
    static func number(_ value: Double) -> String {
        // Scaled to thousandths, a value from 2^53 / 1000 on is no longer exact, and rounding it
        // could move it: such a value is written whole.
        let rounded = abs(value) < 9_007_199_254_740.992 ? (value * 1000).rounded() / 1000 : value
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(saturating: rounded)) }
        return String(rounded)
    }

    static func escaped(_ title: some StringProtocol) -> String {
        // Most titles hold neither: no walk over their characters.
        if !title.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") }) {
            return String(title)
        }
        var out = ""
        for character in title {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out
    }

    /// A title field read back; `nil` when it holds an escape that was never written.
    static func unescaped(_ field: some StringProtocol) -> String? {
        if !field.utf8.contains(UInt8(ascii: "\\")) { return String(field) }
        var out = ""
        var escaping = false
        for character in field {
            if escaping {
                switch character {
                case "\\": out.append("\\")
                case "t": out.append("\t")
                default: return nil
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return escaping ? nil : out
    }
}
