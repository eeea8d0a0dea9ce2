import ActivityAdapters
import ActivityPOSIX
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity adapt NAME [FILE]`: turns a tool's own progress output into events on standard
/// output, with the rest of its output unchanged; `activity adapt --list` names the adapters.
enum AdaptCommand {
    static let spec = CommandSpec(
        name: "adapt", summary: "turn a tool's own progress output into events (git, curl, wget, pv, …)",
        arguments: "NAME [FILE]", positionals: .choices(AdapterRegistry.builtIn.map(\.name)),
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value("exit-status", "N", help: "how the tool exited (0 to 255)"),
                    .flag("list", help: "name the adapters and the formats each understands"),
                ])
        ],
        description: """
            Reads a tool's output from FILE (or standard input, or '-') and writes activity events made
            from its progress, with the rest of its output unchanged, to standard output:
                git clone --progress URL 2>&1 | activity adapt git | activity render
            At the end of the input the open activities end: a success when the tool printed its own
            completion, a failure when it printed an error, otherwise as --exit-status says (without
            it, a success only when the known total was reached or, for pv, tar and dpkg, which print
            no completion of their own, when their output ended).

            NAME is a built-in adapter (see --list) or an external one, activity-adapt-NAME on PATH:
            the tool's output on its standard input, events and passthrough on its standard output.
            Events begun at the top level nest under ACTIVITY_PARENT when it is set.

            Some tools report progress only when asked: git --progress, wget --progress=bar:force,
            pv -f (or -n), dd status=progress, rsync --info=progress2, tar --checkpoint=N
            --checkpoint-action=echo, pip --progress-bar raw, ffmpeg -progress pipe:1,
            apt-get -o APT::Status-Fd=N, dpkg --status-fd N. Machine formats: terraform -json,
            nix --log-format internal-json, docker buildx build --progress=rawjson,
            pnpm --reporter=ndjson, bazel --build_event_json_file=FILE, the Docker Engine's JSON
            messages (docker-stream). See Docs/adapters.md.
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        if parsed.flag("list") {
            try parser.expectPositionals(parsed, 0...0, names: "")
            return ActivityCommand.show(list())
        }
        try parser.expectPositionals(parsed, 1...2, names: "NAME")
        var exitStatus: Int32?
        if let text = parsed.value("exit-status") {
            guard let value = Int32(text), (0...255).contains(value) else {
                throw parser.usageError("--exit-status must be a number from 0 to 255, not '\(text)'")
            }
            exitStatus = value
        }
        let name = parsed.positionals[0]
        let file = parsed.positionals.count > 1 ? parsed.positionals[1] : "-"
        guard let fd = CommandInput.descriptor(for: file) else {
            Console.error("\(file): \(SystemError.reason(errno))", command: "adapt")
            return ExitCode.noInput
        }
        defer { CommandInput.release(fd) }
        let adapter: any OutputAdapter
        do throws(AdapterChoice.Failure) {
            adapter = try AdapterChoice.make(
                name, command: [], parent: SystemCall.environment("ACTIVITY_PARENT").flatMap(ActivityID.init),
                idPrefix: ActivityID.randomPrefix())
        } catch {
            Console.error(error.message, command: "adapt")
            if case .invalidName = error { return ExitCode.usage }
            return ExitCode.unavailable
        }
        return pump(fd: fd, name: file, through: adapter, exitStatus: exitStatus)
    }

    /// Reads `fd` to its end through `adapter` and writes what comes out to standard output.
    static func pump(fd: Int32, name: String, through adapter: any OutputAdapter, exitStatus: Int32?) -> Int32 {
        let writer = AdapterOutputWriter()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var source = FileDescriptorSource(fileDescriptor: fd)
        while true {
            let count: Int
            do {
                count = try source.read(into: buffer)
            } catch {
                _ = writer.write(adapter.finish(exitStatus: exitStatus, signal: nil), final: true)
                Console.error("\(CommandInput.name(name)): \(error)", command: "adapt")
                return ExitCode.ioError
            }
            if count == 0 { break }
            let outputs = adapter.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]), from: .standardOutput)
            guard writer.write(outputs) else { return ExitCode.success }
        }
        _ = writer.write(adapter.finish(exitStatus: exitStatus, signal: nil), final: true)
        return ExitCode.success
    }

    static func list() -> String {
        var text = "built-in adapters (activity adapt NAME, activity run --adapter NAME):\n"
        for info in AdapterRegistry.builtIn {
            let aliases = info.aliases.isEmpty ? "" : " (also \(info.aliases.joined(separator: ", ")))"
            text += "  \(info.name)\(aliases)\n"
            for format in info.formats { text += "      \(format)\n" }
        }
        text += "external adapters: activity-adapt-NAME on PATH\n"
        return text
    }
}

/// Writes adapter output to standard output: events as JSON lines with `ts`, passthrough as is.
///
/// An event line must start a line of its own for the reader to see it, so while passthrough
/// stands in the middle of a line (a tool's `\r`-rewritten status that no adapter took), events
/// wait for its newline; at the very end a newline is added before them if none came.
final class AdapterOutputWriter {
    private let encoder = ActivityEventEncoder()
    private var atLineStart = true
    private var waiting: [ActivityEvent] = []

    /// Returns `false` once standard output is closed.
    func write(_ outputs: [AdapterOutput], final: Bool = false) -> Bool {
        var bytes: [UInt8] = []
        for output in outputs {
            switch output {
            case .event(var event):
                event.timestamp = SystemClock.unixTimestamp()
                if atLineStart {
                    encoder.encode(event, into: &bytes)
                } else if waiting.count < 1024 {
                    waiting.append(event)
                }
            case .passthrough(let data, _):
                guard let newline = data.lastIndex(of: 0x0A) else {
                    bytes += data
                    if !data.isEmpty { atLineStart = false }
                    continue
                }
                bytes += data[...newline]
                for event in waiting { encoder.encode(event, into: &bytes) }
                waiting.removeAll()
                bytes += data[(newline + 1)...]
                atLineStart = newline == data.count - 1
            }
        }
        if final && !waiting.isEmpty {
            bytes.append(0x0A)
            for event in waiting { encoder.encode(event, into: &bytes) }
            waiting.removeAll()
        }
        guard !bytes.isEmpty else { return true }
        do throws(SystemError) {
            try FileOutput.standardOutput.write(bytes)
            return true
        } catch {
            return false
        }
    }
}
