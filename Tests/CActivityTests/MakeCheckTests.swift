import Foundation
import Testing

@Suite("libactivity C tests (make check, check-tsan, check-asan)")
struct MakeCheckTests {
    @Test("The C tests pass, and the stress tests pass under ThreadSanitizer and AddressSanitizer/UBSan")
    func cTestsAndSanitizers() async throws {
        let build = Support.buildArea.appending(path: "check")
        let outcome = try await Support.offPool {
            try Support.make(["check", "check-tsan", "check-asan", "BUILD=\(build.path)"])
        }
        #expect(outcome.status == 0, "make check check-tsan check-asan failed:\n\(outcome.combined)")
        // Each run ends with its own summary line (the API, stress and control tests in the plain,
        // TSan and ASan builds, and the fork scenarios repeated in the plain and ASan builds);
        // none may report a failure.
        let summaries = outcome.output.split(separator: "\n").filter { $0.contains(" passed, ") }
        #expect(summaries.count == 11, "\(outcome.combined)")
        #expect(summaries.allSatisfy { $0.contains(" 0 failed") }, "\(outcome.combined)")
        #expect(!outcome.combined.contains("WARNING: ThreadSanitizer"), "\(outcome.combined)")
        #expect(!outcome.combined.contains("ERROR: AddressSanitizer"), "\(outcome.combined)")
        #expect(!outcome.combined.contains("runtime error:"), "\(outcome.combined)")
    }
}
