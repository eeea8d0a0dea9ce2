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
final class AptStatusDescriptor {
    /// The descriptor's number, the same in the command as here.
    let number: Int32
    /// Where `run` reads the status lines; -1 once taken or closed.
    private var readEnd: Int32
    /// The configuration file `APT_CONFIG` names for the command.
    let configPath: String
    private var writeEnd: Int32

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

    private init(number: Int32, readEnd: Int32, configPath: String) {
        self.number = number
        self.writeEnd = number
        self.readEnd = readEnd
        self.configPath = configPath
    }

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

        var ends: [Int32] = [-1, -1]
        guard SystemCall.pipe(&ends) else { return .skipped("pipe: \(SystemError.reason(errno))") }
        // A number nothing the command inherits uses (a jobserver's, `exec 3>file`'s), and never
        // 0, 1 or 2 even when activity was started without them.
        let number = fcntl(ends[1], F_DUPFD_CLOEXEC, 3)
        let error = errno
        SystemCall.close(ends[1])
        guard number >= 0 else {
            SystemCall.close(ends[0])
            return .skipped("fcntl: \(SystemError.reason(error))")
        }
        let descriptor = AptStatusDescriptor(
            number: number, readEnd: ends[0], configPath: directory + "/" + fileName)
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

    /// Once the command has its copy: only the command's copies keep the pipe open.
    func closeWriteEnd() {
        if writeEnd >= 0 { SystemCall.close(writeEnd) }
        writeEnd = -1
    }

    /// Closes both ends and removes the file; every exit path of `run` calls it.
    func close() {
        closeWriteEnd()
        if readEnd >= 0 { SystemCall.close(readEnd) }
        readEnd = -1
        unlink(configPath)
    }

    /// Hands the read end to the loop that reads it (and closes it).
    func takeReadEnd() -> Int32 {
        defer { readEnd = -1 }
        return readEnd
    }

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
