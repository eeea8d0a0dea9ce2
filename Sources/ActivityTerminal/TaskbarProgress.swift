/// Terminal progress integration (OSC 9;4, first from ConEmu): the overall fraction shown in the
/// terminal's tab or the taskbar, an error state after a failure, an indeterminate state.
///
/// Sent only to terminals known to show it (as cargo decides): Windows Terminal (`WT_SESSION`),
/// ConEmu (`ConEmuANSI=ON`), Ghostty 1.2 or later, iTerm2 3.6.6 or later, WezTerm, and VTE
/// terminals (GNOME Terminal, Ptyxis) from VTE 0.80. Never to a terminal that shows OSC 9 as a
/// notification (iTerm2 before 3.6.6 pops one up for every update).
package enum TaskbarProgress: Equatable, Sendable {
    /// Nothing shown (also how it is removed at the end).
    case cleared
    /// Work under way, this far (0 to 100).
    case normal(percent: Int)
    /// Something failed; the work goes on (this far).
    case error(percent: Int)
    /// Work of unknown size.
    case indeterminate

    /// The sequence: `ESC ] 9 ; 4 ; STATE ; PERCENT ESC \`.
    package var sequence: [UInt8] {
        let (state, percent): (Int, Int) =
            switch self {
            case .cleared: (0, 0)
            case .normal(let percent): (1, percent)
            case .error(let percent): (2, percent)
            case .indeterminate: (3, 0)
            }
        return Array("\u{1B}]9;4;\(state);\(min(100, max(0, percent)))\u{1B}\\".utf8)
    }

    /// How often the state is sent again while it does not change: Ghostty clears a state it has
    /// not heard about for about 15 seconds.
    package static let refreshInterval = 10.0

    /// Whether `--osc-progress auto` sends it to the terminal `environment` describes.
    package static func isSupported(environment: [String: String]) -> Bool {
        if environment["WT_SESSION"].map({ !$0.isEmpty }) ?? false { return true }
        if environment["ConEmuANSI"] == "ON" { return true }
        let version = environment["TERM_PROGRAM_VERSION"] ?? ""
        switch environment["TERM_PROGRAM"] {
        case "WezTerm": return true
        case "ghostty": return atLeast(version, [1, 2])
        case "iTerm.app": return atLeast(version, [3, 6, 6])
        default: break
        }
        if let vte = environment["VTE_VERSION"].flatMap(Int.init) { return vte >= 8000 }
        return false
    }

    /// Whether a dotted version is at least `minimum` (a missing or odd version is not).
    static func atLeast(_ version: String, _ minimum: [Int]) -> Bool {
        let parts = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? -1 }
        guard !parts.isEmpty, parts[0] >= 0 else { return false }
        for (index, wanted) in minimum.enumerated() {
            let have = index < parts.count ? parts[index] : 0
            if have != wanted { return have > wanted }
        }
        return true
    }
}
