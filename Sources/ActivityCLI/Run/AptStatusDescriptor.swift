import ActivityAdapters
import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A status descriptor for `activity run -- apt-get …`, given without touching the command line.
///
/// apt reads first the file `APT_CONFIG` names, then its own configuration, then the command
/// line (apt.conf(5)). So `run` opens a pipe, hands its write end to the command under the same
/// number N, and points `APT_CONFIG` at a file of its private directory that says
/// `APT::Status-Fd "N";` (and `APT::Keep-Fds:: "N";`) and includes the person's own `APT_CONFIG` file, if any, after it (their
/// settings, and a status descriptor of their own, still win, as does `-o APT::Status-Fd=…`).
/// apt's `dlstatus:`/`pmstatus:` lines then arrive on the read end, apart from what it prints.
///
/// Only for apt and apt-get themselves (also after `env`): dpkg takes its descriptor only as
/// `--status-fd`, and sudo closes every descriptor above 2, so after `sudo -E` an apt would find
/// the setting and write its status lines to whatever file it had opened under that number.
final class AptStatusDescriptor: StatusDescriptor {
    /// The pipe apt writes its status lines to.
    private let pipe: StatusPipe
    /// The configuration file `APT_CONFIG` names for the command.
    let configPath: String

    /// The file's name in `activity run`'s private directory.
    static let fileName = "apt.conf"

    /// What ``open(command:adapterName:environment:directory:)`` did.
    enum Outcome {
        case opened(AptStatusDescriptor)
        /// Not for this command, or not possible: why, for `-v`.
        case skipped(String)
        /// The command is not apt's.
        case notApt
    }

    private init(pipe: StatusPipe, configPath: String) {
        self.pipe = pipe
        self.configPath = configPath
    }

    /// The descriptor's number, the same in the command as here.
    var number: Int32 { pipe.number }

    deinit { close() }

    /// Opens the descriptor and writes its configuration file into `directory`, when the adapter
    /// chosen for `command` is apt's and the program is apt or apt-get.
    /// `environment` is the command's, where `APT_CONFIG` may be set already.
    static func open(command: [String], adapterName: String?, environment: [String], directory: String) -> Outcome {
        guard let adapterName, AdapterRegistry.named(adapterName)?.name == "apt" else { return .notApt }
        let (program, wrappers) = program(of: command)
        switch program {
        case "apt", "apt-get":
            break
        case "dpkg":
            return .skipped("dpkg takes a status descriptor only on its command line: --status-fd 2")
        case "sudo", "doas":
            return .skipped(
                "sudo closes descriptors above 2; -o APT::Status-Fd=2 on apt's command line reaches through it")
        default:
            return .notApt
        }
        if wrappers.contains(where: { $0.hasPrefix("APT_CONFIG=") }) {
            return .skipped("env sets APT_CONFIG, which would replace run's")
        }
        if command.contains(where: isStatusOption) {
            return .skipped("the command line names apt's status descriptor")
        }
        var included: String?
        if let value = environment.last(where: { $0.hasPrefix("APT_CONFIG=") })?.dropFirst(11), !value.isEmpty {
            switch includable(String(value)) {
            case .success(let path): included = path
            case .failure(let reason): return .skipped("APT_CONFIG=\(value) \(reason.text), left as it is")
            }
        }

        let pipe: StatusPipe
        do {
            pipe = try StatusPipe()
        } catch {
            return .skipped("\(error)")
        }
        let number = pipe.number
        let descriptor = AptStatusDescriptor(pipe: pipe, configPath: directory + "/" + fileName)
        var text = "// activity run: apt's status lines on descriptor \(number); removed when the command ends.\n"
        text += "APT::Status-Fd \"\(number)\";\n"
        // apt closes its descriptors above 2 for the programs it starts (dpkg, hooks), which
        // inherit APT_CONFIG all the same: an apt among them would fail writing to a closed one.
        text += "APT::Keep-Fds:: \"\(number)\";\n"
        if let included { text += "#include \"\(included)\";\n" }
        if let failure = descriptor.write(text) {
            return .skipped("\(descriptor.configPath): \(failure)")
        }
        return .opened(descriptor)
    }

    /// The command's environment with `APT_CONFIG` naming this descriptor's file.
    func environment(_ environment: [String]) -> [String] {
        environment.filter { !$0.hasPrefix("APT_CONFIG=") } + ["APT_CONFIG=" + configPath]
    }

    /// What `-v` says.
    var note: String { "apt: status on descriptor \(number) through APT_CONFIG=\(configPath)" }

    func closeWriteEnd() { pipe.closeWriteEnd() }

    /// Closes both ends and removes the file; every exit path of `run` calls it.
    func close() {
        pipe.close()
        unlink(configPath)
    }

    func takeReadEnd() -> Int32 { pipe.takeReadEnd() }

    /// The name of the program that runs, after `env` and its options and assignments (`wrappers`).
    private static func program(of command: [String]) -> (name: String?, wrappers: [String]) {
        var words = command[...]
        var wrappers: [String] = []
        while let first = words.first, AdapterChoice.programName(first) == "env" {
            let options = words.dropFirst().prefix { $0.hasPrefix("-") || $0.contains("=") }
            wrappers += options
            words = words.dropFirst(1 + options.count)
        }
        return (words.first.map(AdapterChoice.programName), wrappers)
    }

    /// `-o APT::Status-Fd=N`, `-oAPT::Status-Fd=N`, `--option=…` (apt's names ignore case).
    private static func isStatusOption(_ argument: String) -> Bool {
        argument.lowercased().contains("apt::status-fd")
    }

    private struct Unusable: Error {
        var text: String
    }

    /// The person's `APT_CONFIG` as an absolute path `#include` can name, or why not: apt reads
    /// it only when it is a file, and a quote or a line break cannot be written in apt's syntax.
    private static func includable(_ path: String) -> Result<String, Unusable> {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .failure(Unusable(text: "names no file"))
        }
        var absolute = path
        if !path.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else { return .failure(Unusable(text: "is relative to an unknown folder")) }
            defer { free(cwd) }
            absolute = String(cString: cwd) + "/" + path
        }
        guard !absolute.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 < 0x20 }) else {
            return .failure(Unusable(text: "cannot be included: a quote or a control character in its name"))
        }
        return .success(absolute)
    }

    /// Writes the configuration file (new, mode 0600); the error's text on failure.
    private func write(_ text: String) -> String? {
        let fd = SystemCall.open(configPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return SystemError.reason(errno) }
        defer { SystemCall.close(fd) }
        do throws(SystemError) {
            try FileOutput(fileDescriptor: fd).write(text)
            return nil
        } catch {
            return error.reason
        }
    }
}
