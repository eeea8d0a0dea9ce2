import Foundation
import TestSupport
import Testing

@Suite("libactivity C tests (make check, check-tsan, check-asan)")
struct MakeCheckTests {
    @Test("The C tests pass with gcc, and the stress tests pass under ThreadSanitizer and AddressSanitizer/UBSan")
    func cTestsWithGCCAndSanitizers() async throws {
        let build = LibactivityBuild.buildArea.appending(path: "check-gcc")
        let outcome = try await LibactivityBuild.offPool {
            try LibactivityBuild.make(["check", "check-tsan", "check-asan", "CC=gcc", "CXX=g++", "BUILD=\(build.path)"])
        }
        #expect(outcome.status == 0, "make check check-tsan check-asan failed:\n\(outcome.combined)")
        // Each run ends with its own summary line (the API, stress and control tests in the plain,
        // TSan and ASan builds, and the fork scenarios repeated in the plain and ASan builds);
        // none may report a failure.
        Self.expectSummaries(outcome, count: 11)
        #expect(!outcome.combined.contains("WARNING: ThreadSanitizer"), "\(outcome.combined)")
        #expect(!outcome.combined.contains("ERROR: AddressSanitizer"), "\(outcome.combined)")
        #expect(!outcome.combined.contains("runtime error:"), "\(outcome.combined)")
    }

    /// The clang a fresh machine has is the Swift toolchain's, whatever else is on PATH.
    @Test("The C tests pass with the Swift toolchain's clang")
    func cTestsWithToolchainClang() async throws {
        let clang = try LibactivityBuild.toolchainClang()
        let build = LibactivityBuild.buildArea.appending(path: "check-toolchain-clang")
        let outcome = try await LibactivityBuild.offPool {
            try LibactivityBuild.make(["check", "CC=\(clang)", "CXX=\(clang)++", "BUILD=\(build.path)"])
        }
        #expect(outcome.status == 0, "make check with \(clang) failed:\n\(outcome.combined)")
        #expect(outcome.output.contains("ok    enum types with \(clang)\n"), "\(outcome.combined)")
        #expect(outcome.output.contains("ok    enum types with \(clang)++\n"), "\(outcome.combined)")
        Self.expectSummaries(outcome, count: 4)
    }

    private static func expectSummaries(_ outcome: LibactivityBuild.Outcome, count: Int) {
        let summaries = outcome.output.split(separator: "\n").filter { $0.contains(" passed, ") }
        #expect(summaries.count == count, "\(outcome.combined)")
        #expect(summaries.allSatisfy { $0.contains(" 0 failed") }, "\(outcome.combined)")
    }
}
