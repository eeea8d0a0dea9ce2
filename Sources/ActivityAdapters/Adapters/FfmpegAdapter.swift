/// ffmpeg's progress: the `-progress pipe:1` (or `-progress FILE`) key=value blocks, and the stats
/// line on standard error (`frame=  24 fps= 23 q=2.0 size= 0kB time=00:00:00.92 bitrate=…`). One
/// activity in seconds of output, its total from the first input's `Duration:` (which passes
/// through). `progress=end` and the final stats line (`Lsize=`) complete it; `Conversion failed!`
/// is a failure. ffmpeg formats numbers in the C locale whatever the environment says.
struct FfmpegAdapter: ToolAdapter {
    private static let key = "transcode"
    private static let title = "Transcoding"
    private static let progressKeys: Set<Substring> = [
        "frame", "fps", "bitrate", "total_size", "out_time_us", "out_time_ms", "out_time", "dup_frames",
        "drop_frames", "speed", "progress",
    ]
    private var duration: Double?

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text)
        // A block line has one `=`; the stats line (`frame=… fps=…`) has several.
        if let equals = text.firstIndex(of: "="), text.lastIndex(of: "=") == equals, Self.isProgressKey(text[..<equals])
        {
            readProgress(key: text[..<equals], value: text[text.index(after: equals)...], &activities)
            return true
        }
        let trimmed = text.trimmingSpaces
        if trimmed.hasPrefix("frame=") || trimmed.hasPrefix("size="), let time = Self.statsTime(trimmed) {
            activities.update(Self.key, title: Self.title, unit: "s", completed: time, total: duration)
            if trimmed.contains("Lsize=") { activities.markComplete(Self.key) }
            return true
        }
        if duration == nil, trimmed.hasPrefix("Duration: ") {
            let value = trimmed.dropFirst("Duration: ".count).prefix { $0 != "," }
            duration = NumberText.clockTime(value)
            if let duration, activities.isOpen(Self.key) {
                activities.update(Self.key, title: Self.title, total: duration)
            }
            return false
        }
        if trimmed == "Conversion failed!" {
            activities.fail(nil, error: String(trimmed))
        }
        return false
    }

    static func isProgressKey(_ key: Substring) -> Bool {
        progressKeys.contains(key) || (key.hasPrefix("stream_") && key.hasSuffix("_q"))
    }

    private mutating func readProgress(key: Substring, value: Substring, _ activities: inout AdaptedActivities) {
        switch key {
        case "out_time_us":
            guard let microseconds = NumberText.integer(value) else { return }
            let seconds = (microseconds / 10_000).rounded() / 100
            activities.update(Self.key, title: Self.title, unit: "s", completed: seconds, total: duration)
        case "progress":
            activities.update(Self.key, title: Self.title, unit: "s", total: duration)
            if value == "end" { activities.markComplete(Self.key) }
        default:
            break
        }
    }

    /// The seconds in `time=00:00:00.92` of a stats line.
    static func statsTime(_ text: Substring) -> Double? {
        guard let range = text.firstRange(of: "time=") else { return nil }
        let value = text[range.upperBound...].prefix { $0 != " " }
        return NumberText.clockTime(value)
    }
}
