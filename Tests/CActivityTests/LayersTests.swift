import Foundation
import TestSupport
import Testing

/// libactivity's units are layers, and `Scripts/check-layers` (run by CI) is what keeps them so:
/// each case breaks the layering of a copy of the sources one way and expects the check to name
/// the file, the line and the rule.
@Suite("libactivity's layers (Scripts/check-layers)")
struct LayersTests {
    /// One way of breaking the layers: `insertion` goes on a line of its own after the first line
    /// of `file` that contains `anchor`; `expected` is the message, `LINE` standing for that line.
    struct Breakage: Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var anchor: String
        var insertion: String
        var expected: String
        var testDescription: String { name }
    }

    static let breakages: [Breakage] = [
        Breakage(
            name: "the sink includes the registry's header", file: "sink.c", anchor: "#include \"sink.h\"",
            insertion: "#include \"registry.h\"",
            expected: "sink.c:LINE: includes registry.h of a unit above or beside it"),
        Breakage(
            name: "the sink includes the registry's header in angle brackets", file: "sink.c",
            anchor: "#include \"sink.h\"", insertion: "#include <registry.h>",
            expected: "sink.c:LINE: includes registry.h of a unit above or beside it"),
        Breakage(
            name: "a header includes one of a unit above it", file: "control.h", anchor: "#include \"common.h\"",
            insertion: "#include \"registry.h\"",
            expected: "control.h:LINE: includes registry.h of a unit above or beside it"),
        Breakage(
            name: "a unit beside another includes its header", file: "ids.c", anchor: "#include \"ids.h\"",
            insertion: "#include \"event.h\"", expected: "ids.c:LINE: includes event.h of a unit above or beside it"),
        Breakage(
            name: "the sink declares a registry function by hand and calls it", file: "sink.c",
            anchor: "#include \"ids.h\"",
            insertion: "static void flush_everything(void)\n{\n    bool registry_flush(int, bool);\n"
                + "    registry_flush(0, false);\n}",
            expected: "sink.c:LINE: calls or declares registry_flush() of registry.c, a unit above or beside it"),
        Breakage(
            name: "the old shared header", file: "registry.c", anchor: "#include \"registry.h\"",
            insertion: "#include \"internal.h\"",
            expected: "registry.c:LINE: includes \"internal.h\", which is no unit's header"),
        Breakage(
            name: "a header declares what its source does not define", file: "control.h",
            anchor: "HIDDEN void control_after_fork_in_child(void);", insertion: "HIDDEN void control_reset(void);",
            expected: "control.h: declares control_reset(), which control.c does not define"),
        Breakage(
            name: "a source defines what its header does not declare", file: "ids.c", anchor: "#include \"ids.h\"",
            insertion: "int ids_count(void);\nint ids_count(void)\n{\n    return 0;\n}",
            expected: "ids.c: defines ids_count(), which ids.h does not declare"),
        Breakage(
            name: "a unit defines a function of the public API", file: "sink.c", anchor: "#include \"ids.h\"",
            insertion: "int activity_sink_fd(void);\nint activity_sink_fd(void)\n{\n    return -1;\n}",
            expected: "sink.c: defines activity_sink_fd(): the public API is activity.c's"),
    ]

    private static let script = LibactivityBuild.packageRoot.appending(path: "Scripts/check-layers").path

    @Test("The sources keep the layers")
    func sourcesKeepTheLayers() throws {
        let outcome = try LibactivityBuild.run(Self.script, ["--c-library", LibactivityBuild.libraryDirectory.path])
        #expect(outcome.status == 0, "\(outcome.combined)")
        #expect(outcome.output == "check-layers: every job is in its place\n", "\(outcome.combined)")
    }

    @Test("A break of the layers fails the check, named by file and line", arguments: breakages)
    func breakFailsTheCheck(_ breakage: Breakage) throws {
        let scratch = try TemporaryFolder()
        let copy = scratch.url.appending(path: "CActivity")
        try FileManager.default.copyItem(at: LibactivityBuild.libraryDirectory, to: copy)
        let file = copy.appending(path: breakage.file)
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        let anchor = try #require(lines.firstIndex { $0.contains(breakage.anchor) }, "no \(breakage.anchor)")
        lines.insert(breakage.insertion, at: anchor + 1)
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        // The first line of the insertion, or the one that names the function above.
        let inserted = breakage.insertion.components(separatedBy: "\n")
        let offset = inserted.firstIndex { $0.contains("registry_flush(0") } ?? 0
        let expected = breakage.expected.replacingOccurrences(of: "LINE", with: "\(anchor + 2 + offset)")

        let outcome = try LibactivityBuild.run(Self.script, ["--c-library", copy.path])
        #expect(outcome.status == 1, "\(outcome.combined)")
        #expect(outcome.error.contains("\(copy.path)/\(expected)"), "expected \(expected) in:\n\(outcome.combined)")
    }
}
