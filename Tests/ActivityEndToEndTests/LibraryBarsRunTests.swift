import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity run -- CMD` for a command no tool adapter is chosen for: the bars of tqdm, rich and
/// indicatif in its output become activities under the command's, with nothing named (issue 29).
@Suite("activity run: library bars recognized without naming an adapter")
struct LibraryBarsRunTests {
    /// Runs a Python program under `activity run --mode plain` (pipes) with `options`; returns
    /// the recording of the run and its result.
    func run(_ program: String, options: [String] = []) throws -> (log: EventLog, result: CommandResult) {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("log.jsonl").path
        let result = try CommandRunner.run(
            CommandRunner.activity,
            ["run", "--mode", "plain", "--log-file", log, "--log-format", "jsonl"] + options + [
                "--", "python3", "-c", program,
            ], timeout: 120)
        let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        return (EventLog(text), result)
    }

    static let training = """
        from tqdm import tqdm
        for step in tqdm(range(40), desc="Training", unit="batch"):
            pass
        print("trained")
        """

    @Test("a tqdm bar becomes an activity under the command's, counted in its unit, and ends at its total")
    func tqdmRecognized() throws {
        let (log, result) = try run(Self.training)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "trained\n")
        let begin = try #require(
            log.events.compactMap { if case .begin(let begin) = $0, begin.title == "Training" { begin } else { nil } }
                .first, "\(log.events)")
        #expect(begin.unit == "batch")
        #expect(begin.total == 40)
        #expect(begin.parent != nil, "under the command's activity")
        let end = try #require(
            log.events.compactMap { if case .end(let end) = $0, end.id == begin.id { end } else { nil } }.first)
        #expect(end.status == .success)
        // The bar is consumed: it is not passed on as text.
        #expect(!result.standardError.contains("Training:"))
    }

    @Test("--adapter none leaves the bar as the program's text")
    func adapterNone() throws {
        let (log, result) = try run(Self.training, options: ["--adapter", "none"])
        #expect(result.status == 0)
        #expect(!log.events.contains { if case .begin(let begin) = $0 { begin.title == "Training" } else { false } })
        #expect(result.standardError.contains("Training: 100%"))
    }

    @Test("output that only looks like progress passes through byte for byte")
    func lookalikesPass() throws {
        let text = "50% of 10/20 done\r\nrate: 3 it/s | 45%| x\nplain line\n"
        let (log, result) = try run("import sys; sys.stderr.write(\(String(reflecting: text)))")
        #expect(result.status == 0)
        #expect(result.standardError.contains(text), "\(result.standardError.debugDescription)")
        #expect(log.events.filter { if case .begin = $0 { true } else { false } }.count == 1, "the command's only")
    }
}
