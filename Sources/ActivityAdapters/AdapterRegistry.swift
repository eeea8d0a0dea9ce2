/// A built-in adapter: its name, what it reads, and how to make one.
public struct AdapterInfo: Sendable {
    /// The name `activity adapt NAME` and `activity run --adapter NAME` take.
    public var name: String
    /// Other names it answers to (`dpkg` for `apt`).
    public var aliases: [String]
    /// The formats it understands, one line each, for `activity adapt --list`.
    public var formats: [String]
    /// Whether the tool prints its progress on standard output (rsync, ffmpeg's `-progress pipe:1`,
    /// ninja), so that `activity run` reads that stream too when it goes to a file or a pipe.
    /// Otherwise such output is the tool's data (`curl -s URL > file`) and passes by unread.
    public var reportsOnStandardOutput = false
    /// Whether it reads a binary stream rather than lines (Zig's `ZIG_PROGRESS` frames, through
    /// ``ZigProgressAdapter``): its line adapter reads nothing.
    public var readsBinaryStream = false
    /// Makes the adapter for a command line (`pv -n -b -s 20M` counts bytes of 20 MiB), or for
    /// none (`activity adapt`).
    let make: @Sendable (_ command: [String]) -> any ToolAdapter

    /// A new adapter for `command` (the tool's full command line, when known).
    public func makeAdapter(command: [String] = []) -> any ToolAdapter { make(command) }
}

/// The built-in adapters, and which one `activity run` picks for a command.
///
/// ```swift
/// if let info = AdapterRegistry.adapter(forCommand: ["git", "clone", "--progress", url]) {
///     var pipeline = AdapterPipeline(adapter: info.makeAdapter(command: command), toolName: info.name)
/// }
/// ```
public enum AdapterRegistry {
    public static let builtIn: [AdapterInfo] = [
        AdapterInfo(
            name: "git", aliases: [],
            formats: ["clone, fetch, push with --progress (or on a terminal): phases with counts and bytes; fatal:"]
        ) { _ in GitAdapter() },
        AdapterInfo(
            name: "curl", aliases: [],
            formats: ["the default progress meter", "-# (--progress-bar)", "curl: (N) errors (with -f: HTTP errors)"]
        ) { _ in CurlAdapter() },
        AdapterInfo(
            name: "wget", aliases: [],
            formats: [
                "--progress=bar (bar:force)", "--progress=dot (dot:default, dot:binary, dot:mega)",
                "Length: as the total", "ERROR N: and failed: errors",
            ]
        ) { _ in WgetAdapter() },
        AdapterInfo(
            name: "pv", aliases: [],
            formats: [
                "the display on a terminal or with -f (default, -s, -F of %b %t %r %a %p %e %N)",
                "pv -n, pv -n -t (percent)",
            ]
        ) { command in
            let options = PvOptions(command)
            return PvAdapter(bytes: options.bytes, total: options.size)
        },
        AdapterInfo(name: "pv-bytes", aliases: [], formats: ["pv -n -b, pv -n -t -b (bytes)"]) { command in
            PvAdapter(bytes: true, total: PvOptions(command).size)
        },
        AdapterInfo(name: "dd", aliases: [], formats: ["status=progress"]) { _ in DdAdapter() },
        AdapterInfo(
            name: "tqdm", aliases: [],
            formats: [
                "the default bar (desc, unit, unit_scale, postfix, no total)",
                "position=N bars: nested under the bar above on a terminal (screen rows), side by side in a pipe",
            ]
        ) { _ in TqdmAdapter() },
        AdapterInfo(
            name: "rich", aliases: [],
            formats: [
                "track and Progress rows, several tasks, transient: M/N, DownloadColumn bytes, or a percentage"
            ],
            // rich's Console writes to standard output.
            reportsOnStandardOutput: true
        ) { _ in RichAdapter() },
        AdapterInfo(
            name: "indicatif", aliases: [],
            formats: [
                "bars on a terminal (none in a pipe): the default style, {bar} {pos}/{len} {msg}, {bytes}/{total_bytes}",
                "MultiProgress rows, one activity each",
            ]
        ) { _ in IndicatifAdapter() },
        AdapterInfo(
            name: "bars", aliases: [],
            formats: [
                "tqdm, rich or indicatif bars, whichever a program draws: what run reads when no tool's adapter is chosen"
            ]
        ) { _ in LibraryBarsAdapter() },
        AdapterInfo(
            name: "rsync", aliases: [], formats: ["--info=progress2 (files checked of a growing total)"],
            reportsOnStandardOutput: true
        ) { _ in RsyncAdapter() },
        AdapterInfo(
            name: "tar", aliases: [],
            formats: [
                "--checkpoint=N --checkpoint-action=echo (GNU tar)",
                "--checkpoint-action=dot: dots counted (N records each with --checkpoint=N), no total",
            ]
        ) { command in TarAdapter(command: command) },
        AdapterInfo(
            name: "ffmpeg", aliases: [],
            formats: ["-progress pipe:1 key=value blocks", "the frame= … time= stats line"],
            reportsOnStandardOutput: true
        ) { _ in FfmpegAdapter() },
        AdapterInfo(
            name: "pip", aliases: ["pip3"],
            formats: [
                "the default bar on a terminal and its last frame in a pipe (rich: N/M MB)",
                "--progress-bar raw (pip 24.1 or later)",
            ],
            reportsOnStandardOutput: true
        ) { _ in PipAdapter() },
        AdapterInfo(
            name: "apt", aliases: ["apt-get", "dpkg"],
            formats: [
                "-o APT::Status-Fd=N: dlstatus, pmstatus, pmerror, pmconffile",
                "dpkg --status-fd N: processing:, status:",
                "apt's Progress: [ 40%] status row on a terminal (Dpkg::Progress-Fancy)",
            ]
        ) { _ in AptStatusAdapter() },
        AdapterInfo(
            name: "cargo", aliases: [],
            formats: [
                "the Building [=>  ] N/M: units status line (terminal)",
                "Compiling NAME vX lines counted (pipe), Finished, error: could not compile",
            ]
        ) { _ in CargoAdapter() },
        AdapterInfo(
            name: "ansible", aliases: ["ansible-playbook"],
            formats: [
                "the default output: PLAY [..], TASK [..], ok:/changed:/fatal: [host], ...ignoring, PLAY RECAP",
                "ANSIBLE_STDOUT_CALLBACK=ansible.posix.jsonl events; plays with their tasks nested, no totals",
            ],
            reportsOnStandardOutput: true
        ) { _ in AnsibleAdapter() },
        AdapterInfo(
            name: "terraform", aliases: ["tofu"],
            formats: [
                "-json (Terraform, OpenTofu): the run counting resources applied of the plan, each resource's apply nested",
                "diagnostic lines as log lines, change_summary",
            ]
        ) { command in TerraformAdapter(command: command) },
        AdapterInfo(
            name: "nix", aliases: [],
            formats: [
                "--log-format internal-json: @nix start/stop/result/msg; activities nested as Nix nests them",
                "resProgress done/expected (bytes for copies and downloads), a build's phase and log line as its message",
            ]
        ) { _ in NixAdapter() },
        AdapterInfo(
            name: "buildkit", aliases: ["buildx", "buildctl"],
            formats: [
                "--progress=rawjson (docker buildx build, docker build, buildctl build): the build counting its steps",
                "each step nested, its statuses in bytes under it, its output as log lines, CACHED, errors",
            ]
        ) { _ in BuildKitAdapter() },
        AdapterInfo(
            name: "docker-stream", aliases: ["jsonmessage"],
            formats: [
                "the Docker Engine's JSON messages (pull, push, load): layers in bytes under the whole, errorDetail",
                "a classic build's stream lines as log lines, Step N/M as its count",
            ]
        ) { _ in DockerStreamAdapter() },
        AdapterInfo(
            name: "bazel", aliases: ["bep"],
            formats: [
                "--build_event_json_file (BEP JSON): targets built of the patterns' targets, buildFinished",
                "failed targets, tests not PASSED and the console's ERROR: lines as errors",
            ]
        ) { _ in BazelAdapter() },
        AdapterInfo(
            name: "pnpm", aliases: [],
            formats: [
                "--reporter=ndjson: packages added of resolved, downloads in bytes, lifecycle scripts nested",
                "error records as the failure, warn records as warnings",
            ],
            reportsOnStandardOutput: true
        ) { _ in PnpmAdapter() },
        AdapterInfo(
            name: "ninja", aliases: ["swift-build", "meson", "cmake"],
            formats: ["[n/m] text status lines (ninja, swift build, meson, CMake with ninja)"],
            reportsOnStandardOutput: true
        ) { _ in NinjaAdapter() },
        AdapterInfo(
            name: "zig", aliases: [],
            formats: [
                "ZIG_PROGRESS frames (binary): the node tree as activities, nested as Zig nests them, [done/total]",
                "activity run passes the descriptor to zig itself; a node that leaves the tree ends",
            ],
            readsBinaryStream: true
        ) { _ in ZigProgressAdapter.NoLines() },
    ]

    /// The adapter called `name` (or one of its aliases).
    public static func named(_ name: String) -> AdapterInfo? {
        builtIn.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// The adapter for a command, chosen by its program's name: `git`, `curl`, `wget`, `pv`, `dd`,
    /// `rsync`, `tar`, `ffmpeg`, `pip`/`pip3`/`python -m pip`, `ninja`, `swift build`, `cargo`, `apt-get`,
    /// `apt`, `dpkg`, `ansible-playbook`, `zig`, also after `sudo` or `env`. `pv` with `-b` counts bytes.
    /// A tool's machine format is read where its command line turns it on (``machineFormat(_:_:)``).
    public static func adapter(forCommand command: [String]) -> AdapterInfo? {
        var words = command[...]
        while let first = words.first, ["sudo", "env"].contains(programName(first)) {
            words = words.dropFirst().drop { $0.hasPrefix("-") || $0.contains("=") }
        }
        guard let first = words.first else { return nil }
        let program = programName(first)
        let rest = Array(words.dropFirst())
        if let machineFormat = machineFormat(program, rest) { return named(machineFormat) }
        switch program {
        case "git", "curl", "wget", "dd", "rsync", "tar", "ffmpeg", "ninja", "cargo", "apt", "apt-get", "dpkg",
            "ansible", "ansible-playbook", "zig":
            return named(program)
        case "pv":
            return named(PvOptions(command).bytes ? "pv-bytes" : "pv")
        case "swift":
            return rest.first == "build" ? named("ninja") : nil
        case _ where program.hasPrefix("pip") && program.dropFirst(3).allSatisfy { $0.isNumber || $0 == "." }:
            return named("pip")
        case _ where program.hasPrefix("python"):
            return rest.count >= 2 && rest[0] == "-m" && rest[1] == "pip" ? named("pip") : nil
        default:
            return nil
        }
    }

    /// The machine format a command line turns on: `terraform apply -json`,
    /// `nix build --log-format internal-json`, `docker buildx build --progress=rawjson`.
    static func machineFormat(_ program: String, _ arguments: [String]) -> String? {
        switch program {
        case "terraform", "tofu":
            return arguments.contains { $0 == "-json" || $0 == "--json" } ? "terraform" : nil
        case "docker", "docker-buildx", "buildctl":
            return optionValue("--progress", in: arguments) == "rawjson" ? "buildkit" : nil
        case "pnpm":
            return optionValue("--reporter", in: arguments) == "ndjson" ? "pnpm" : nil
        case "bazel", "bazelisk":
            let file = optionValue("--build_event_json_file", in: arguments)
            return file == "/dev/stderr" || file == "/dev/fd/2" ? "bazel" : nil
        case _ where program.hasPrefix("nix"):
            return optionValue("--log-format", in: arguments) == "internal-json" ? "nix" : nil
        default:
            return nil
        }
    }

    /// The value of a long option, written `--name value` or `--name=value`.
    static func optionValue(_ name: String, in arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == name { return index + 1 < arguments.count ? arguments[index + 1] : nil }
            if argument.hasPrefix(name + "=") { return String(argument.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// `/usr/bin/git` → `git`.
    static func programName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}

/// What `pv`'s command line says about its numbers: `-b` (bytes) and `-s SIZE`.
struct PvOptions {
    var bytes = false
    var size: Double?

    init(_ command: [String]) {
        var index = 1
        while index < command.count {
            let argument = command[index]
            index += 1
            if argument == "--bytes" { bytes = true }
            if argument.hasPrefix("--size=") { size = NumberText.size(argument.dropFirst(7)) }
            if argument == "--size", index < command.count { size = NumberText.size(command[index][...]) }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--") else { continue }
            // Short options may be grouped (`-nb`); `s` and the other letters that take a value end the group.
            for (offset, letter) in argument.dropFirst().enumerated() {
                if letter == "b" { bytes = true }
                if letter == "s" {
                    let inline = argument.dropFirst(offset + 2)
                    size = NumberText.size(inline.isEmpty && index < command.count ? command[index][...] : inline)
                }
                if "sLBNAdDFimRPxuW".contains(letter) { break }
            }
        }
    }
}
