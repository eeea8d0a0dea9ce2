import ActivityRendering
import ActivityWire
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Plugin host", .serialized)
struct PluginHostTests {
    func install(_ name: String, _ script: String, in directory: String) {
        let path = directory + "/activity-render-" + name
        writeFile(path, "#!/bin/sh\n" + script + "\n")
        chmod(path, 0o755)
    }

    @Test("a shell-script plugin on PATH reads the normalized JSON lines")
    func feedsPlugin() throws {
        try withTemporaryDirectory { directory in
            install("tee", "cat > \"$PLUGIN_OUT\"", in: directory)
            let display = DisplayFile(directory: directory)
            let options = RenderOptions(
                mode: .plain, plugins: ["tee"], displayFileDescriptor: display.descriptor,
                environment: ["PATH": directory + ":/usr/bin:/bin", "PLUGIN_OUT": directory + "/got.jsonl"])
            let session = try RenderSession(options: options)
            session.handle(E.begin("a", "A", parent: "ghost", at: 5))
            session.handle(.progress(.init(id: E.id("a"), completed: 1)))
            session.finish()
            let lines = (readFile(directory + "/got.jsonl") ?? "").split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.first == #"{"v":1,"type":"begin","ts":5,"id":"a","title":"A"}"#)
            #expect(lines.last?.contains(#""status":"abandoned""#) == true)
            #expect(!display.text.contains("plugin"))
        }
    }

    @Test("a plugin that dies gives one warning and rendering carries on")
    func dyingPlugin() throws {
        try withTemporaryDirectory { directory in
            install("die", "exit 3", in: directory)
            let display = DisplayFile(directory: directory)
            let options = RenderOptions(
                mode: .plain, plugins: ["die"], displayFileDescriptor: display.descriptor,
                environment: ["PATH": directory + ":/usr/bin:/bin", "LANG": "C.UTF-8"])
            let session = try RenderSession(options: options)
            session.handle(E.begin("a", "Still drawn", total: 100, at: 0))
            // Progress until the warning shows: the plugin's end is noticed when it is next written to.
            var step = 0
            let warned = Poll.until {
                step += 1
                session.handle(E.progress("a", Double(step % 100), at: Double(step) * 0.01))
                return display.text.contains("plugin")
            }
            #expect(warned)
            session.handle(E.end("a", at: Double(step) * 0.01 + 1))
            session.finish()
            let text = display.text
            #expect(text.components("plugin \"die\"").count == 2, "\(text)")
            #expect(text.contains("warning: plugin \"die\" exited with status 3; rendering goes on without it"))
            #expect(text.contains("✔ Still drawn"))
        }
    }

    @Test("a plugin that ignores its input is terminated at the end")
    func stubbornPlugin() throws {
        try withTemporaryDirectory { directory in
            install("sleepy", "trap '' TERM; exec sleep 30", in: directory)
            let plugin = try PluginHost(name: "sleepy", environment: ["PATH": directory + ":/usr/bin:/bin"])
            plugin.exitTimeout = 0.2
            #expect(plugin.isRunning)
            let store = ActivityStore()
            plugin.finish(store, now: 0)
            #expect(!plugin.isRunning)
            #expect(plugin.takeNotices().count <= 1)
        }
    }

    @Test("what a stopped plugin started is stopped with it: nothing is left holding its output")
    func pluginChildren() throws {
        try withTemporaryDirectory { directory in
            let pidFile = directory + "/child.pid"
            // A shell that starts a child and waits: SIGTERM to the shell alone would leave the child.
            install("parent", "sleep 30 & echo $! > '\(pidFile)'; wait", in: directory)
            let plugin = try PluginHost(name: "parent", environment: ["PATH": directory + ":/usr/bin:/bin"])
            plugin.exitTimeout = 0.2
            let child = try #require(
                Poll.answer {
                    (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
                        pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
                    }
                },
                "the plugin never started its child")
            plugin.finish(ActivityStore(), now: 0)
            let gone = Poll.until { kill(child, 0) != 0 }
            #expect(gone, "the plugin's child \(child) outlived it")
            if !gone { kill(child, SIGKILL) }
        }
    }

    /// The signals ignored in a process of the plugin's, from its `/proc/PID/status`.
    static func ignoredSignals(_ status: String) -> UInt64? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn:") }) else { return nil }
        return UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    }

    @Test("a plugin gets back at its default every signal activity changes, as run's command does")
    func pluginSignals() throws {
        try withTemporaryDirectory { directory in
            let out = directory + "/status"
            // grep runs with the dispositions the plugin's shell got, ignored ones kept.
            install("signals", "grep SigIgn /proc/self/status > '\(out)'; cat > /dev/null", in: directory)
            // SIGTTIN is one activity changes (it stops or ignores it around a terminal), but it
            // was not on the plugins' own list; SIGPROF is the caller's alone and stays ignored.
            let oldTTIN = signal(SIGTTIN, SIG_IGN)
            let oldPROF = signal(SIGPROF, SIG_IGN)
            let plugin: PluginHost
            do {
                defer {
                    signal(SIGTTIN, oldTTIN)
                    signal(SIGPROF, oldPROF)
                }
                plugin = try PluginHost(name: "signals", environment: ["PATH": directory + ":/usr/bin:/bin"])
            }
            plugin.finish(ActivityStore(), now: 0)
            let ignored = try #require(Self.ignoredSignals(readFile(out) ?? ""), "the plugin wrote no status")
            #expect(ignored & (1 << UInt64(SIGTTIN - 1)) == 0, "SIGTTIN is at its default in the plugin")
            #expect(ignored & (1 << UInt64(SIGPROF - 1)) != 0, "SIGPROF stays ignored")
        }
    }

    @Test("a plugin that is a script without #! runs with /bin/sh, as a shell runs it")
    func pluginWithoutInterpreter() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/activity-render-bare"
            writeFile(path, "cat > '\(directory)/got.jsonl'\n")
            chmod(path, 0o755)
            let plugin = try PluginHost(name: "bare", environment: ["PATH": directory + ":/usr/bin:/bin"])
            var store = ActivityStore()
            for update in store.updates(applying: E.begin("a", "A", at: 5)) { plugin.render(update, in: store) }
            plugin.finish(store, now: 6)
            #expect(readFile(directory + "/got.jsonl")?.contains(#""title":"A""#) == true)
        }
    }
}
