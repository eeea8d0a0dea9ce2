import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads and writes a history file (``ActivityHistory``) so that it stays valid whatever
/// happens: concurrent writers, a crash half-way, a file that is not a history.
///
/// - Reading takes no lock: a file is only ever replaced whole, by `rename(2)`.
/// - Writing takes an advisory lock (`flock(2)`) on `FILE.lock`, reads the file again, adds this
///   run's entries to what is there, writes `FILE.tmp.PID` and renames it over `FILE`: two
///   processes that write at once both keep their entries. The lock is waited for at most
///   ``lockWait`` seconds.
/// - A file that does not start with the history header (someone's other file) or that is of a
///   newer version is never written over; lines that cannot be read are dropped with one
///   warning.
package enum HistoryFile {
    /// The largest file read, in bytes: 2,000 entries take about 200 KiB.
    static let maxBytes = 16 << 20
    /// How long a writer waits for another one, in seconds.
    static let lockWait = 5.0

    /// What loading found.
    package struct Loaded: Sendable {
        package var history = ActivityHistory()
        /// One warning for the person, when the file could not be read (whole or in part).
        package var warning: String?
        /// Whether the file may be written at the end: not when it is something else.
        package var writable = true
    }

    /// Reads the history at `path`; a missing file is an empty history.
    package static func load(_ path: String) -> Loaded {
        var loaded = Loaded()
        let bytes: [UInt8]
        switch readWhole(path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            if failure.missing { return loaded }
            loaded.warning = "history \(path): \(failure.message); not used, not written"
            loaded.writable = false
            return loaded
        }
        do throws(ActivityHistory.TextProblem) {
            let decoded = try ActivityHistory.decode(bytes)
            loaded.history = decoded.history
            if let problem = decoded.problem {
                loaded.warning = "history \(path): \(problem); unreadable lines dropped"
            }
        } catch {
            loaded.writable = false
            loaded.warning = "history \(path): " + describe(error) + "; not used, not written"
        }
        return loaded
    }

    /// Adds `runs` to the history at `path`, creating its directory when needed. Returns a
    /// warning when it could not.
    package static func save(_ runs: ActivityHistory, to path: String) -> String? {
        guard !runs.isEmpty else { return nil }
        let directory = parentDirectory(of: path)
        if let error = makeDirectories(directory) {
            return "history: cannot create \(directory): \(SystemError.reason(error)); history not written"
        }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return "history \(path).lock: \(SystemError.reason(errno)); history not written" }
        defer { close(lock) }
        guard acquire(lock) else { return "history \(path): another run holds it; history not written" }
        var history = ActivityHistory()
        switch readWhole(path) {
        case .success(let bytes):
            do throws(ActivityHistory.TextProblem) {
                history = try ActivityHistory.decode(bytes).history
            } catch {
                return "history \(path): " + describe(error) + "; not written"
            }
        case .failure(let failure) where !failure.missing:
            return "history \(path): \(failure.message); not written"
        case .failure:
            break
        }
        history.merge(runs)
        return replace(path, with: history.encoded())
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it over `path`.
    private static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        let temporary = path + ".tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "history \(temporary): \(SystemError.reason(errno)); history not written" }
        // A file of our own making never stalls: a stall is a failure.
        var failure = bytes.withUnsafeBytes { raw in SystemCall.writeAll(fd, raw) { _, _ in false } }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            return "history \(path): \(SystemError.reason(failure)); history not written"
        }
        return nil
    }

    /// Takes the lock, waiting at most ``lockWait`` seconds for another writer.
    private static func acquire(_ lock: Int32) -> Bool {
        var waited = 0.0
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < lockWait else { return false }
            SystemClock.sleep(seconds: 0.01)
            waited += 0.01
        }
        return true
    }

    private struct ReadFailure: Error {
        var message: String
        var missing = false
    }

    private static func readWhole(_ path: String) -> Result<[UInt8], ReadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            return .failure(ReadFailure(message: SystemError.reason(error), missing: error == ENOENT))
        }
        defer { close(fd) }
        do {
            let bytes = try SystemCall.readToEnd(fd, limit: maxBytes + 1)
            guard bytes.count <= maxBytes else { return .failure(ReadFailure(message: "larger than 16 MiB")) }
            return .success(bytes)
        } catch {
            return .failure(ReadFailure(message: SystemError.reason(error.code)))
        }
    }

    /// `mkdir -p`, private (0700) for what it creates; returns the errno of a failure.
    private static func makeDirectories(_ directory: String) -> Int32? {
        guard !directory.isEmpty, directory != "/" else { return nil }
        var status = stat()
        if stat(directory, &status) == 0 { return (status.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR }
        if let error = makeDirectories(parentDirectory(of: directory)) { return error }
        return mkdir(directory, 0o700) == 0 || errno == EEXIST ? nil : errno
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func describe(_ problem: ActivityHistory.TextProblem) -> String {
        switch problem {
        case .notHistory: "not a history file (its first line is not 'activity-history 1')"
        case .newerVersion(let version): "written in format \(version), which this version cannot read"
        }
    }
}
