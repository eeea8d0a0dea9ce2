import Testing

/// Recordings of many activities in the shapes that make a report aggregate, as JSON lines with
/// `ts` on every line: the same arguments give the same bytes.
public enum LargeRecording {
    public enum Shape: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// A root, suites under it, tests run one after another in each suite (so the critical
        /// path runs through every test); every `failEvery`-th test fails with a log line.
        case testRun
        /// A root and chains of nested activities, each level one child deep, failing at the leaves.
        case deep
        /// A root and siblings that all overlap: each one needs a row of its own.
        case wide

        public var testDescription: String { rawValue }
    }

    /// About `activities` activities of `shape`.
    public static func lines(_ shape: Shape, activities: Int, failEvery: Int = 97) -> String {
        var writer = Writer()
        let root = writer.begin(parent: nil, title: "Test run")
        switch shape {
        case .testRun:
            let perSuite = 1000
            let suites = max(1, (activities - 1) / (perSuite + 1))
            var test = 0
            for suite in 0..<suites {
                let suiteID = writer.begin(parent: root, title: "Suite\(suite)Tests")
                for step in 0..<perSuite {
                    test += 1
                    let id = writer.begin(parent: suiteID, title: "test\(step)_behavesAsDocumented()")
                    writer.clock += 0.000137 * Double(1 + step % 7)
                    if test % failEvery == 0 {
                        writer.log(id, "expected \(test), got \(test + 1)")
                        writer.end(id, status: "failure", error: "Expectation failed")
                    } else {
                        writer.end(id)
                    }
                }
                writer.clock += 0.001
                writer.end(suiteID)
            }
        case .deep:
            let depth = 100
            for chain in 0..<max(1, (activities - 1) / depth) {
                var open: [String] = []
                for level in 0..<depth {
                    open.append(writer.begin(parent: open.last ?? root, title: "chain \(chain) level \(level)"))
                    writer.clock += 0.0001
                }
                for (level, id) in open.enumerated().reversed() {
                    writer.clock += 0.0001
                    writer.end(id, status: level == depth - 1 && chain % 3 == 0 ? "failure" : "success")
                }
            }
        case .wide:
            var open: [String] = []
            for sibling in 0..<max(1, activities - 1) {
                open.append(writer.begin(parent: root, title: "worker \(sibling)"))
                writer.clock += 0.0001
            }
            for (sibling, id) in open.enumerated() {
                writer.end(id, status: (sibling + 1) % failEvery == 0 ? "failure" : "success")
            }
        }
        writer.end(root)
        return writer.text
    }

    private struct Writer {
        var text = ""
        var clock = 1_700_000_000.0
        var counter = 0

        mutating func begin(parent: String?, title: String) -> String {
            counter += 1
            let id = "5f3c9a1e7b2d4c60.\(counter)"
            let parentField = parent.map { #","parent":"\#($0)""# } ?? ""
            text += #"{"v":1,"type":"begin","ts":\#(clock),"id":"\#(id)"\#(parentField),"title":"\#(title)"}"# + "\n"
            return id
        }

        mutating func log(_ id: String, _ message: String) {
            text += #"{"v":1,"type":"log","ts":\#(clock),"id":"\#(id)","level":"error","message":"\#(message)"}"# + "\n"
        }

        mutating func end(_ id: String, status: String = "success", error: String? = nil) {
            let errorField = error.map { #","error":"\#($0)""# } ?? ""
            text += #"{"v":1,"type":"end","ts":\#(clock),"id":"\#(id)","status":"\#(status)"\#(errorField)}"# + "\n"
        }
    }
}
