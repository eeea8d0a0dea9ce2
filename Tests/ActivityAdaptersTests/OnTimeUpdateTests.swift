import ActivityAdapters
import ActivityWire
import Testing

/// dd, rsync and wget write `\r` before each update, so a line ends only when the next one
/// starts: their adapters take an update as soon as it is whole, so the display is never one
/// behind.
@Suite("dd, rsync and wget: each update is taken when it is whole, not when the next one starts")
struct OnTimeUpdateTests {
    /// What each progress or begin event says, in order: completed, and the message when set.
    static func updates(_ outputs: [AdapterOutput]) -> [String] {
        outputs.compactMap { output -> String? in
            switch output {
            case .event(.begin(let begin)): "\(begin.completed) \(begin.message ?? "")"
            case .event(.progress(let progress)):
                "\(progress.completed.map { "\($0)" } ?? "-") \(progress.message ?? "")"
            default: nil
            }
        }
    }

    static func pipeline(_ name: String) -> AdapterPipeline {
        AdapterPipeline(adapter: AdapterRegistry.named(name)!.makeAdapter(), toolName: name, idPrefix: "t")
    }

    @Test("dd: an update ending with its rate is shown at once; one cut before it waits")
    func dd() {
        var pipeline = Self.pipeline("dd")
        for (text, expected) in [
            ("\r8454144 bytes (8.5 MB, 8.1 MiB) copied, 1 s, 7.8 MB/s", ["8454144.0 "]),
            ("\r16842752 bytes (17 MB, 16 MiB) copied, 2 s, 8.1 MB/s ", ["16842752.0 "]),
            ("\r16842752 Bytes (17 MB, 16 MiB) kopiert, 3 s, 5,6 MB/s", []),  // the same count again
            ("\r25231360 bytes (25 MB, 24 MiB) copied, 3 s, 8.4 MB/", []),
            ("s", ["25231360.0 "]),
        ] {
            let outputs = pipeline.feed(Array(text.utf8), from: .standardError)
            #expect(Self.updates(outputs) == expected, "\(text.debugDescription)")
            #expect(outputs.allSatisfy { if case .passthrough = $0 { false } else { true } })
        }
    }

    @Test("rsync: an update with its last column is shown at once; one cut before it waits")
    func rsync() {
        var pipeline = Self.pipeline("rsync")
        for (text, expected) in [
            ("\r         32,768   0%    0.00kB/s    0:00:00  ", ["0.0 32,768 bytes, 0%"]),
            ("\r        300,000   1%  254.85MB/s    0:00:00 (xfr#1, to-chk=79/83)", ["4.0 300,000 bytes, 1%"]),
            ("\r        600,000   3%  540.95MB/s    0:00:00 (xfr#2, to-chk=78/8", []),
            ("3)", ["5.0 600,000 bytes, 3%"]),
            ("\r        700,000   3%  540.95MB/s    0:0", []),
            ("0:00  ", ["- 700,000 bytes, 3%"]),
        ] {
            let outputs = pipeline.feed(Array(text.utf8), from: .standardError)
            #expect(Self.updates(outputs) == expected, "\(text.debugDescription)")
            #expect(outputs.allSatisfy { if case .passthrough = $0 { false } else { true } })
        }
    }

    @Test("wget: a bar is shown once its rate follows its size; one cut in its size waits")
    func wget() {
        var pipeline = Self.pipeline("wget")
        for (text, expected) in [
            ("\r/dev/null            34%[=====>              ]   1.00M  1015KB/s", ["1048576.0 "]),
            ("\r/dev/null            69%[============>       ]   2.0", []),
            ("0M  10", ["2097152.0 "]),
            ("15KB/s    eta 1s  ", []),
        ] {
            let outputs = pipeline.feed(Array(text.utf8), from: .standardError)
            #expect(Self.updates(outputs) == expected, "\(text.debugDescription)")
            #expect(outputs.allSatisfy { if case .passthrough = $0 { false } else { true } })
        }
    }
}
