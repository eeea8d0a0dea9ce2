import Foundation
import TestSupport

/// The `wcwidth` PyPI package, asked through `python3`: the reference the width table is checked
/// against. `nil` when python3 or the package is missing.
enum WcwidthOracle {
    /// The output of a Python script that imports `wcwidth`, or `nil` when it cannot run.
    static func run(_ script: String, input: String = "") -> String? {
        guard
            let result = try? CommandRunner.run(
                "/usr/bin/env", ["python3", "-c", script], input: Data(input.utf8), timeout: 600),
            result.status == 0
        else { return nil }
        return result.standardOutput
    }

    static let available: Bool = run("import wcwidth") != nil

    /// `wcwidth.wcwidth` of every code point but the surrogates, as runs: the Unicode version of
    /// the package, then `first width` wherever the width changes.
    static let widths: (version: String, runs: [(first: UInt32, width: Int)])? = {
        let script = """
            import wcwidth
            width = getattr(wcwidth.wcwidth, "__wrapped__", wcwidth.wcwidth)
            lines = [wcwidth.list_versions()[-1]]
            last = None
            for c in range(0x110000):
                if 0xD800 <= c <= 0xDFFF:
                    continue
                w = width(chr(c))
                if w != last:
                    lines.append("%x %d" % (c, w))
                    last = w
            print("\\n".join(lines))
            """
        guard let output = run(script) else { return nil }
        var lines = output.split(separator: "\n")
        guard !lines.isEmpty else { return nil }
        let version = String(lines.removeFirst())
        let runs = lines.compactMap { line -> (UInt32, Int)? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let first = UInt32(parts[0], radix: 16), let width = Int(parts[1]) else {
                return nil
            }
            return (first, width)
        }
        return (version, runs)
    }()

    /// `wcwidth.wcswidth` of each line of `texts`.
    static func stringWidths(_ texts: [String]) -> [Int]? {
        let script = """
            import sys, wcwidth
            for line in sys.stdin.read().split("\\n"):
                print(wcwidth.wcswidth(line))
            """
        guard let output = run(script, input: texts.joined(separator: "\n")) else { return nil }
        return output.split(separator: "\n").compactMap { Int($0) }
    }
}
