import ActivityWire

/// apt's and dpkg's machine-readable status (`apt-get -o APT::Status-Fd=N`, `dpkg --status-fd N`):
/// one activity for downloading (`dlstatus:N:PERCENT:TEXT`) and one for installing
/// (`pmstatus:PACKAGE:PERCENT:TEXT`), in percent, with apt's text (which names the package) as
/// the message. `pmerror:PACKAGE:PERCENT:MESSAGE` fails the installation with
/// `PACKAGE: MESSAGE`; `pmconffile:` (dpkg asks about a changed configuration file) becomes a
/// warning. dpkg's own `processing: ACTION: PACKAGE` and `status: PACKAGE: STATE` lines make one
/// activity without a total; `status: PACKAGE : error : MESSAGE` fails it. The texts are
/// translated and the numbers are not, so every locale reads the same. apt's last `pmstatus` is
/// often short of 100 % (80 % for one package): when apt exits 0 the installation ends at 100 %.
/// Read from a screen (`activity run` on a terminal), apt's own status row, `Progress: [ 40%]`,
/// is the installation's progress too.
struct AptStatusAdapter: ToolAdapter {
    private static let download = "download"
    private static let install = "install"
    private var failed = false
    private var seen = false

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text)
        if line.row?.index != nil, let percent = Self.progressRowPercent(text) {
            seen = true
            activities.update(Self.install, title: "Installing packages", unit: "%", completed: percent, total: 100)
            activities.markReachesTotalOnSuccess(Self.install)
            return true
        }
        let fields = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        if fields.count == 4, let percent = NumberText.decimal(fields[2]) {
            switch fields[0] {
            case "dlstatus":
                activities.update(
                    Self.download, title: "Downloading packages", unit: "%", completed: percent, total: 100,
                    message: String(fields[3]))
                if percent >= 100 { activities.markComplete(Self.download) }
                return true
            case "pmstatus":
                if activities.isOpen(Self.download) { activities.succeed(Self.download) }
                seen = true
                activities.update(
                    Self.install, title: "Installing packages", unit: "%", completed: percent, total: 100,
                    message: String(fields[3]))
                // apt's last pmstatus is where dpkg's triggers begin, not 100 %.
                activities.markReachesTotalOnSuccess(Self.install)
                return true
            case "pmerror":
                failed = true
                activities.fail(Self.install, error: "\(fields[1]): \(fields[3])")
                return true
            case "pmconffile":
                activities.log(
                    "dpkg asks about the changed configuration file \(fields[1])", level: .warning, key: Self.install)
                return true
            default:
                break
            }
        }
        return readDpkg(text, &activities)
    }

    private mutating func readDpkg(_ text: Substring, _ activities: inout AdaptedActivities) -> Bool {
        if text.hasPrefix("processing: ") {
            let parts = text.dropFirst("processing: ".count).split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return false }
            seen = true
            activities.update(Self.install, title: "dpkg", message: "\(parts[0]) \(parts[1].trimmingSpaces)")
            return true
        }
        guard text.hasPrefix("status: ") else { return false }
        let parts = text.dropFirst("status: ".count).split(separator: ":", maxSplits: 2).map(\.trimmingSpaces)
        if parts.count == 3, parts[1] == "error" {
            failed = true
            activities.fail(activities.isOpen(Self.install) ? Self.install : nil, error: "\(parts[0]): \(parts[2])")
            return true
        }
        guard parts.count == 2 else { return false }
        seen = true
        activities.update(Self.install, title: "dpkg", message: "\(parts[0]): \(parts[1])")
        return true
    }

    /// The percentage of apt's status row (`Dpkg::Progress-Fancy`, on by default for `apt`):
    /// `Progress: [ 40%] [########....]` in the row apt keeps at the bottom of the screen under
    /// a scroll region. The word is translated (`Fortschritt:`); `[%3i%%]` is not.
    static func progressRowPercent(_ text: Substring) -> Double? {
        guard let colon = text.firstIndex(of: ":"), colon > text.startIndex,
            !text[..<colon].contains(" "), text[colon...].hasPrefix(": [")
        else { return nil }
        let field = text[text.index(colon, offsetBy: 3)...].prefix(5)
        guard field.count == 5, field.hasSuffix("%]") else { return nil }
        let digits = field.dropLast(2).drop { $0 == " " }
        guard !digits.isEmpty, digits.allSatisfy(NumberText.isDigit), let percent = Double(String(digits)),
            percent <= 100
        else { return nil }
        return percent
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        // apt and dpkg print no completion: their exit status decides when it is known.
        if seen && !failed { activities.markProbablyComplete(Self.install) }
    }
}
