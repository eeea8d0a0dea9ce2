import ActivityRendering
import ActivityWire
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A plugin's standard output: cancel lines out, the rest on as it came")
struct PluginOutputTests {
    func feed(_ text: String, in chunks: Int = 1) -> (output: String, cancels: [String]) {
        var filter = PluginOutput()
        let bytes = Array(text.utf8)
        let size = max(1, (bytes.count + chunks - 1) / chunks)
        var output: [UInt8] = []
        var cancels: [ActivityID] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            let (out, ids) = filter.feed(bytes[start..<min(bytes.count, start + size)])
            output += out
            cancels += ids
        }
        output += filter.finish()
        return (String(decoding: output, as: UTF8.self), cancels.map(\.rawValue))
    }

    @Test("a whole cancel line asks for a cancel and is not output, in one chunk or byte by byte")
    func cancelLine() {
        let text = "before\n{\"v\":1,\"type\":\"cancel\",\"id\":\"a.1\"}\nafter\n"
        for chunks in [1, 3, text.utf8.count] {
            let (output, cancels) = feed(text, in: chunks)
            #expect(output == "before\nafter\n")
            #expect(cancels == ["a.1"])
        }
    }

    @Test("kept as output: other JSON, a cancel without id or of another version, a partial last line, no newline")
    func ignoreRules() {
        let kept = [
            "{\"v\":1,\"type\":\"begin\",\"id\":\"a\",\"title\":\"A\"}\n",
            "{\"v\":1,\"type\":\"cancel\"}\n",
            "{\"v\":2,\"type\":\"cancel\",\"id\":\"a\"}\n",
            "  {\"v\":1,\"type\":\"cancel\",\"id\":\"a\"}\n",  // not at the start of the line
            "{\"v\":1,\"type\":\"cancel\",\"id\":\"a\"}",  // the stream ends before the line does
            "prompt> ",
            "{" + String(repeating: "x", count: PluginOutput.maxHeldBytes + 10) + "\n",
        ]
        for text in kept {
            let (output, cancels) = feed(text, in: 2)
            #expect(output == text, "\(text.prefix(60))")
            #expect(cancels.isEmpty, "\(text.prefix(60))")
        }
    }

    @Test("text that cannot be a control line goes on at once, not at the end of its line")
    func noDelay() {
        var filter = PluginOutput()
        #expect(filter.feed(Array("Password: ".utf8)).output == Array("Password: ".utf8))
        var fresh = PluginOutput()
        #expect(fresh.feed(Array("{\"v\"".utf8)).output.isEmpty)  // maybe a control line: held
    }

    final class Requests: Sendable {
        let ids = Mutex<[ActivityID]>([])
    }

    @Test("a plugin's cancel line reaches onCancelRequest for a running cancellable activity only")
    func pluginCancels() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/activity-render-canceller"
            let script = """
                #!/bin/sh
                while IFS= read -r line; do
                    case "$line" in
                    *'"type":"begin"'*) echo '{"v":1,"type":"cancel","id":"plain"}'; echo '{"v":1,"type":"cancel","id":"work"}' ;;
                    esac
                done
                """
            writeFile(path, script + "\n")
            chmod(path, 0o755)
            let requests = Requests()
            let display = DisplayFile(directory: directory)
            var options = RenderOptions(
                mode: .plain, plugins: ["canceller"], displayFileDescriptor: display.descriptor,
                environment: ["PATH": directory + ":/usr/bin:/bin"])
            options.onCancelRequest = { id in requests.ids.withLock { $0.append(id) } }
            let session = try RenderSession(options: options)
            session.handle(.begin(.init(id: ActivityID("plain")!, title: "Plain")))
            session.handle(.begin(.init(id: ActivityID("work")!, title: "Work", cancellable: true)))
            Poll.until { !requests.ids.withLock { $0.isEmpty } }
            session.finish()
            #expect(requests.ids.withLock { $0 }.map(\.rawValue).allSatisfy { $0 == "work" })
            #expect(!requests.ids.withLock { $0 }.isEmpty)
        }
    }
}
