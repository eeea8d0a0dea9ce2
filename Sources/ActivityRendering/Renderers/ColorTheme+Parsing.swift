import ActivityTerminal
import ActivityWire

/// Reading a theme from text: `ACTIVITY_COLORS`, in the format of `GCC_COLORS` and `LS_COLORS`.
extension ColorTheme {
    /// The environment variable the terminal display reads its colours from.
    public static let environmentVariable = "ACTIVITY_COLORS"

    /// An entry of a `role=SGR:…` text that was ignored, and why.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: Sendable, Hashable {
            /// No `=`: not `role=SGR`.
            case notAnEntry
            /// The name before `=` is no ``ColorRole``.
            case unknownRole
            /// The parameters after `=` are not SGR parameters (see ``ColorTheme/validate(_:)``).
            case invalidParameters
            /// More than ``ColorTheme/maxParameters`` parameters.
            case tooManyParameters
        }

        /// The entry as written.
        public var entry: String
        public var kind: Kind

        public init(entry: String, kind: Kind) {
            self.entry = entry
            self.kind = kind
        }

        /// `unknown role 'baz'`, the entry made safe for a terminal and cut to 40 columns.
        public var description: String {
            let shown = DisplayWidth.truncate(TerminalSanitizer.display(entry), to: 40)
            switch kind {
            case .notAnEntry: return "'\(shown)' is not role=SGR"
            case .unknownRole:
                let name = shown.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                return "unknown role '\(name)'"
            case .invalidParameters: return "'\(shown)': not SGR parameters (numbers 0-255 separated by ';')"
            case .tooManyParameters: return "'\(shown)': more than \(ColorTheme.maxParameters) SGR parameters"
            }
        }
    }

    /// Reads `role=SGR:role=SGR…` over `base`.
    ///
    /// Entries are separated by `:`; each sets one ``ColorRole`` (by its ``ColorRole/name``) to
    /// SGR parameters, or to no colour when nothing follows the `=`. A later entry for a role wins;
    /// empty entries are skipped. An entry that is not `role=SGR`, names no role, or has parameters
    /// that are not numbers 0–255 separated by `;` (at most ``maxParameters``) is ignored and
    /// listed in `problems`; the other entries still apply.
    ///
    /// ```swift
    /// let (theme, problems) = ColorTheme.parse("bar=34:error=1;31")
    /// theme[.bar]             // "34"
    /// problems.first?.kind    // .unknownRole
    /// ```
    public static func parse(
        _ specification: String, over base: ColorTheme = ColorTheme()
    ) -> (
        theme: ColorTheme, problems: [Problem]
    ) {
        var theme = base
        var problems: [Problem] = []
        for entry in specification.split(separator: ":") {
            guard let equals = entry.firstIndex(of: "=") else {
                problems.append(Problem(entry: String(entry), kind: .notAnEntry))
                continue
            }
            guard let role = ColorRole(name: String(entry[..<equals])) else {
                problems.append(Problem(entry: String(entry), kind: .unknownRole))
                continue
            }
            do throws(InvalidParameters) {
                try theme.setParameters(String(entry[entry.index(after: equals)...]), for: role)
            } catch {
                problems.append(
                    Problem(entry: String(entry), kind: error.tooMany ? .tooManyParameters : .invalidParameters))
            }
        }
        return (theme, problems)
    }

    /// The one warning for all of `problems`, or `nil` when there are none:
    /// `ACTIVITY_COLORS: unknown role 'baz' (roles: spinner, …); ignored`.
    package static func warning(for problems: [Problem]) -> String? {
        guard !problems.isEmpty else { return nil }
        var text = environmentVariable + ": " + problems.map(\.description).joined(separator: ", ")
        if problems.contains(where: { $0.kind == .unknownRole }) {
            text += " (roles: " + ColorRole.allCases.map(\.name).joined(separator: ", ") + ")"
        }
        return text + "; ignored"
    }

    /// The theme `ACTIVITY_COLORS` in `environment` asks for (the default one when it is unset
    /// or empty), and the warning for the entries it ignored.
    package static func detect(environment: [String: String]) -> (theme: ColorTheme, warning: String?) {
        guard let specification = environment[environmentVariable], !specification.isEmpty else {
            return (ColorTheme(), nil)
        }
        let (theme, problems) = parse(specification)
        return (theme, warning(for: problems))
    }
}
