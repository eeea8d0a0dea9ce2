#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals the package names: the ones it takes itself, and their conventional names.
package enum SignalNumbers {
    /// The signals whose default action ends the process and that `activity` takes itself; faults
    /// (SIGSEGV, SIGABRT, …) are not among them: they are this process's own errors.
    package static let terminating: [Int32] = {
        let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU, SIGXFSZ]
        #if os(Linux)
            return signals + [SIGPWR]
        #else
            return signals
        #endif
    }()

    /// Every signal the package handles or ignores, job control aside: the terminating ones,
    /// SIGPIPE, SIGCHLD and SIGWINCH. Each is blocked in every helper thread (``HelperThread``), so
    /// it reaches the thread that handles it.
    package static let handledByThePackage: [Int32] = terminating + [SIGPIPE, SIGCHLD, SIGWINCH]

    /// Every signal whose disposition the package changes (it handles, ignores or relies on
    /// them): ``handledByThePackage`` and job control (SIGTSTP, SIGTTIN, SIGTTOU). A child it spawns
    /// gets each back at its default (``ProcessSpawn``).
    package static let changedByThePackage: [Int32] = handledByThePackage + [SIGTSTP, SIGTTIN, SIGTTOU]

    /// The conventional name of a signal (`SIGTERM`), or `signal N`.
    package static func name(_ signal: Int32) -> String {
        var names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGCHLD: "SIGCHLD", SIGCONT: "SIGCONT", SIGSTOP: "SIGSTOP", SIGTSTP: "SIGTSTP", SIGTTIN: "SIGTTIN",
            SIGTTOU: "SIGTTOU", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGWINCH: "SIGWINCH", SIGSYS: "SIGSYS",
            SIGVTALRM: "SIGVTALRM",
        ]
        #if os(Linux)
            names[SIGPWR] = "SIGPWR"
        #endif
        return names[signal] ?? "signal \(signal)"
    }
}
