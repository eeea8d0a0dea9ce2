#if canImport(Glibc)
    import Glibc
#endif

/// The consumers one input goes through, each by the name `Scripts/fuzz --consumers` takes.
enum Consumer: String, CaseIterable {
    /// The store: every event folded into the activities' state, ticks and the end of the stream.
    case fold
    /// `--mode plain`: lines, with the history's estimates.
    case plain
    /// `--mode tty`: live frames at every tick and resize, with the history's estimates.
    case tty
    /// `--log-file` in its text format.
    case log
    /// `--mode jsonl` and `--log-format jsonl`: the normalized stream.
    case jsonl
    /// The overlay's model, its state lines (`--mode overlay-jsonl`) and its terminal frame.
    case overlay
    /// `activity report`: the HTML page and the SVG timeline.
    case report
    /// `activity export --format chrome-trace`.
    case chromeTrace = "chrome-trace"
    /// `activity export --format otlp-json` (the live exporter's span encoder too).
    case otlpJSON = "otlp-json"
    /// The history file: read (every line the generator wrote, good or bad), the runs that
    /// succeeded added, written and read back.
    case history

    /// The consumers chosen by `ACTIVITY_FUZZ_CONSUMERS` (comma-separated names), all without it.
    /// An unknown name stops the fuzzer at once with the list of names.
    static let selected: Set<Consumer> = {
        guard let raw = getenv("ACTIVITY_FUZZ_CONSUMERS"), raw.pointee != 0 else { return Set(allCases) }
        var chosen = Set<Consumer>()
        for name in String(cString: raw).split(separator: ",") {
            guard let consumer = Consumer(rawValue: String(name)) else {
                let names = allCases.map(\.rawValue).joined(separator: ", ")
                let message = Array("error: ACTIVITY_FUZZ_CONSUMERS names \(name), not one of: \(names)\n".utf8)
                _ = write(2, message, message.count)
                exit(2)
            }
            chosen.insert(consumer)
        }
        return chosen
    }()
}

/// A broken promise: a trap, which libFuzzer saves as a crash like any other.
func check(_ condition: Bool, _ consumer: Consumer, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    fatalError("\(consumer.rawValue): \(message())")
}
