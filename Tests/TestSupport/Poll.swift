import Foundation

/// The one wait of the tests: a test waits for a condition, never for a time.
///
/// Every `timeout` is a bound for a broken run only, long enough for a machine busy with the rest
/// of the tests; a condition that holds ends the wait at once.
package enum Poll {
    /// `probe`'s first answer that is not `nil`, asked every `interval` seconds for at most
    /// `timeout` seconds; `nil` after that.
    package static func answer<Answer>(
        timeout: Double = 60, every interval: Double = 0.01, _ probe: () throws -> Answer?
    ) rethrows -> Answer? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let answer = try probe() { return answer }
            if Date() >= deadline { return nil }
            usleep(useconds_t(interval * 1_000_000))
        }
    }

    /// Whether `condition` held within `timeout` seconds, asked every `interval` seconds.
    ///
    /// Disfavoured, so that an async caller gets the variant that suspends instead of blocking a
    /// thread the work it waits for may need.
    @_disfavoredOverload
    @discardableResult
    package static func until(
        timeout: Double = 60, every interval: Double = 0.01, _ condition: () throws -> Bool
    ) rethrows -> Bool {
        try answer(timeout: timeout, every: interval) { try condition() ? true : nil } ?? false
    }

    /// Whether `condition` held within `timeout` seconds, asked every `interval` seconds without
    /// blocking a thread of the cooperative pool.
    @discardableResult
    package static func until(
        timeout: Double = 60, every interval: Double = 0.001, isolation: isolated (any Actor)? = #isolation,
        _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            if try await condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .seconds(interval))
        }
    }

    /// Whether the file at `path` contains `text` within `timeout` seconds.
    package static func file(_ path: String, contains text: String, timeout: Double = 60) -> Bool {
        until(timeout: timeout) { ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains(text) }
    }

    /// The file's text once it is not empty (a ready file a program writes), or `nil` after
    /// `timeout` seconds.
    package static func nonEmptyFile(_ path: String, timeout: Double = 60) -> String? {
        answer(timeout: timeout) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty else { return nil }
            return text
        }
    }
}
