/// The exit statuses of `activity`, documented in `Docs/cli.md`.
///
/// They follow `sysexits.h` where it has a name for the case, and the shell's conventions for
/// commands that cannot be run (126, 127) or were killed (128 + signal).
enum ExitCode {
    static let success: Int32 = 0
    /// `validate` found problems; `run` passes the child's own status through instead.
    static let problems: Int32 = 1
    /// A malformed command line: unknown option, missing or bad argument (EX_USAGE).
    static let usage: Int32 = 64
    /// An input is not what the command reads: `report` or `export` of a file without events (EX_DATAERR).
    static let dataError: Int32 = 65
    /// An input file does not exist or cannot be opened (EX_NOINPUT).
    static let noInput: Int32 = 66
    /// A service the command needs is missing: a render plugin not found on PATH (EX_UNAVAILABLE).
    static let unavailable: Int32 = 69
    /// The operating system refused something: a socket, a pipe, a thread (EX_OSERR).
    static let osError: Int32 = 71
    /// An output file (`--log-file`) cannot be created (EX_CANTCREAT).
    static let cannotCreate: Int32 = 73
    /// Reading an input failed after it was opened (EX_IOERR).
    static let ioError: Int32 = 74
    /// `run`: the command exists but cannot be executed.
    static let cannotExecute: Int32 = 126
    /// `run`: the command was not found.
    static let commandNotFound: Int32 = 127

    /// The status of a process killed by `signal`.
    static func killed(by signal: Int32) -> Int32 { 128 + signal }
}
