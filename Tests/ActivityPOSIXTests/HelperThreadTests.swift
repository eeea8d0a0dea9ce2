import ActivityPOSIX
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A helper thread blocks every signal the package handles: the one list a spawned child also
/// gets back at its defaults, so no handled signal runs its handler in a helper's write.
@Suite("HelperThread: the package's signals blocked")
struct HelperThreadTests {
    /// The signals blocked in a new helper thread, of `candidates`.
    static func blockedInHelper(of candidates: [Int32]) throws -> [Int32] {
        let blocked = Mutex<[Int32]>([])
        let thread = try #require(
            HelperThread.start(named: "mask-check") {
                var mask = sigset_t()
                sigemptyset(&mask)
                pthread_sigmask(SIG_BLOCK, nil, &mask)
                let found = candidates.filter { sigismember(&mask, $0) == 1 }
                blocked.withLock { $0 = found }
            })
        pthread_join(thread, nil)
        return blocked.withLock { $0 }
    }

    @Test("every handled signal is blocked, the terminating ones that are rarely sent among them")
    func blocksEveryHandledSignal() throws {
        let expected = SignalNumbers.handledByThePackage + [SIGVTALRM, SIGXCPU, SIGXFSZ, SIGUSR1, SIGWINCH]
        #expect(Set(try Self.blockedInHelper(of: expected)) == Set(expected))
    }

    @Test("the list is the spawn's, job control aside")
    func sameListAsTheSpawn() {
        let jobControl: Set<Int32> = [SIGTSTP, SIGTTIN, SIGTTOU]
        #expect(
            Set(SignalNumbers.changedByThePackage).subtracting(jobControl) == Set(SignalNumbers.handledByThePackage))
        #expect(Set(SignalNumbers.handledByThePackage).isSuperset(of: SignalNumbers.terminating))
    }

    @Test("job control is left as the starting thread has it: it stops the process from any thread")
    func leavesJobControl() throws {
        let jobControl = [SIGTSTP, SIGTTIN, SIGTTOU]
        var mask = sigset_t()
        sigemptyset(&mask)
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        let blockedHere = jobControl.filter { sigismember(&mask, $0) == 1 }
        #expect(try Self.blockedInHelper(of: jobControl) == blockedHere)
    }
}
