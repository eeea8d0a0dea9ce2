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
        var text = Self.header + "\n"
        for entry in entries.values.sorted(by: { $0.lastEnded < $1.lastEnded }) {
            var fields = [
                Self.number(entry.lastEnded), Self.number(entry.completed), entry.total.map(Self.number) ?? "-",
                entry.durations.map(Self.number).joined(separator: ","),
            ]
            fields += entry.path.map(Self.escaped)
            text += fields.joined(separator: "\t") + "\n"
        }
        return Array(text.utf8)
    }

    /// Reads a file's text. Lines that cannot be read are left out; the first one's number and
    /// why are returned, for one warning.
    static func decode(_ bytes: [UInt8]) throws(TextProblem) -> (history: ActivityHistory, problem: String?) {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let first = String(decoding: lines.first ?? [], as: UTF8.self)
        guard first.hasPrefix(headerPrefix) else { throw .notHistory }
        guard first == header else { throw .newerVersion(String(first.dropFirst(headerPrefix.count))) }
        var history = ActivityHistory()
        var problem: String?
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            guard let entry = Self.parseEntry(line) else {
                problem = problem ?? "line \(index + 1) is not a history entry"
                continue
            }
            history.entries[key(entry.path)] = entry
        }
        history.evict()
        return (history, problem)
    }

    /// One line's entry, or `nil` when it is malformed.
    /// One entry, split on its bytes: a tab and a comma are always separators (titles have
    /// their tabs escaped), whatever follows them.
    private static func parseEntry(_ line: ArraySlice<UInt8>) -> Entry? {
        func number(_ field: ArraySlice<UInt8>) -> Double? {
            Double(String(decoding: field, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
        }
        let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
        guard fields.count >= 5, let ended = number(fields[0]), let completed = number(fields[1]) else { return nil }
        let total: Double?
        if fields[2].elementsEqual([UInt8(ascii: "-")]) {
            total = nil
        } else {
            guard let value = number(fields[2]) else { return nil }
            total = value
        }
        var durations: [Double] = []
        for text in fields[3].split(separator: UInt8(ascii: ",")) {
            guard let value = number(text), value >= 0 else { return nil }
            durations.append(value)
        }
        guard !durations.isEmpty, durations.count <= durationsKept else { return nil }
        var path: [String] = []
        for field in fields[4...] {
            guard let title = unescaped(String(decoding: field, as: UTF8.self)) else { return nil }
            path.append(title)
        }
        return Entry(path: path, durations: durations, completed: completed, total: total, lastEnded: ended)
    }

    /// A number with at most three decimals: `130.5`, `42`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
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
