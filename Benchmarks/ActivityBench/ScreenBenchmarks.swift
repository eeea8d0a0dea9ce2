import ActivityTerminal

/// How fast the screen model of a command's terminal reads what the command writes, in MB/s:
/// plain lines (`seq`'s output, the fast path for printable ASCII), long text lines, and a
/// progress bar redrawn with `\r` and colours.
enum ScreenBenchmarks {
    static func figures(settings: BenchSettings) -> [Figure] {
        [
            throughput(
                "screen: seq lines", bytes: lines(count: settings.iterations(300_000)) { "\($0 + 1)" }, target: nil,
                note: "`seq 1 300000` as a pty gives it (\\r\\n)", settings: settings),
            throughput(
                "screen: 80-column text lines",
                bytes: lines(count: settings.iterations(100_000)) {
                    "\($0) the quick brown fox jumps over the lazy dog, again and again, line after line."
                }, target: nil, note: "100 × 30 screen, every line final", settings: settings),
            throughput(
                "screen: coloured \\r progress bar", bytes: progressBar(frames: settings.iterations(100_000)),
                target: nil, note: "a tqdm-like bar redrawn in place with SGR colours", settings: settings),
        ]
    }

    private static func lines(count: Int, _ text: (Int) -> String) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<count { bytes += Array(text(index).utf8) + [0x0D, 0x0A] }
        return bytes
    }

    private static func progressBar(frames: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in 0..<frames {
            let done = frame % 51
            let bar = String(repeating: "█", count: done) + String(repeating: " ", count: 50 - done)
            bytes += Array(
                "\r\u{1B}[32mtraining\u{1B}[0m \(done * 2)%|\u{1B}[36m\(bar)\u{1B}[0m| \(frame)/\(frames)".utf8)
        }
        return bytes
    }

    private static func throughput(
        _ name: String, bytes: [UInt8], target: Double?, note: String, settings: BenchSettings
    ) -> Figure {
        let runs = repeated(settings) {
            var screen = CommandScreen(columns: 100, rows: 30)
            var written = 0
            let start = nowNanoseconds()
            bytes.withUnsafeBytes { all in
                // Read in the 64 KiB pieces a pty read gives, the final rows taken after each.
                var offset = 0
                while offset < all.count {
                    let end = min(all.count, offset + 65_536)
                    screen.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                    written += screen.takeFinalBytes().count
                    offset = end
                }
            }
            let seconds = Double(nowNanoseconds() - start) / 1e9
            precondition(written > 0 || bytes.isEmpty || name.contains("progress"))
            return Double(bytes.count) / seconds / 1e6
        }
        return Figure(name: name, unit: "MB/s", runs: runs, target: target, better: .higher, anchor: nil, note: note)
    }
}
