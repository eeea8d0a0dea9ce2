import Foundation

/// Writes the figures as JSON (for machines) and as a Markdown table (for people).
enum Report {
    static func json(_ figures: [Figure], settings: BenchSettings) throws -> Data {
        let machine = ProcessInfo.processInfo
        let object: [String: Any] = [
            "date": ISO8601DateFormatter().string(from: Date()),
            "machine": [
                "cores": machine.activeProcessorCount,
                "memoryBytes": machine.physicalMemory,
                "os": machine.operatingSystemVersionString,
                "cpu": cpuModel ?? "unknown",
            ],
            "runs": settings.runs,
            "quick": settings.scale < 1,
            "figures": figures.map { figure -> [String: Any] in
                var entry: [String: Any] = [
                    "name": figure.name, "unit": figure.unit, "median": figure.median, "min": figure.min,
                    "max": figure.max, "runs": figure.runs, "better": figure.better.rawValue,
                ]
                if let target = figure.target { entry["target"] = target }
                if let meets = figure.meetsTarget { entry["meetsTarget"] = meets }
                if let anchor = figure.anchor { entry["anchor"] = anchor }
                if let note = figure.note { entry["note"] = note }
                return entry
            },
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    /// The processor's name, as Linux gives it: runs on machines with other cores differ by
    /// more than most changes do (an atomic add costs three times as much on some).
    static var cpuModel: String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line?.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func table(_ figures: [Figure]) -> String {
        var lines = [
            "| what | median | min | max | unit | target | anchor |",
            "|---|---:|---:|---:|---|---|---|",
        ]
        for figure in figures {
            let target: String
            if let value = figure.target {
                let mark = figure.meetsTarget == true ? "✔" : "✖"
                target = "\(mark) \(figure.better == .lower ? "≤" : "≥") \(format(value))"
            } else {
                target = ""
            }
            lines.append(
                "| \(figure.name) | \(format(figure.median)) | \(format(figure.min)) | \(format(figure.max)) "
                    + "| \(figure.unit) | \(target) | \(figure.anchor ?? "") |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        switch abs(value) {
        case 1e6...: return String(format: "%.2fM", value / 1e6)
        case 1e4..<1e6: return String(format: "%.0f", value)
        case 100..<1e4: return String(format: "%.1f", value)
        case 1..<100: return String(format: "%.2f", value)
        default: return String(format: "%.3f", value)
        }
    }
}
