import ActivityPOSIX
import Testing

@testable import ActivityTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// In-process, on SIGVTALRM, which nothing else in the test process uses.
@Suite("ProcessSignals", .serialized)
struct ProcessSignalsTests {
    private func handler(of signal: Int32) -> Int {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return current.handlerAddress
    }

    @Test("one handler for two claims; the disposition found is back when the last claim goes")
    func claims() {
        _ = signal(SIGVTALRM, SIG_IGN)
        defer { _ = signal(SIGVTALRM, SIG_DFL) }
        #expect(ProcessSignals.claim([SIGVTALRM]).isEmpty, "an ignored signal is left ignored")
        let first = ProcessSignals.claim([SIGVTALRM], evenIfIgnored: true)
        let installed = handler(of: SIGVTALRM)
        #expect(first == [SIGVTALRM] && installed > 1)
        let second = ProcessSignals.claim([SIGVTALRM])
        #expect(second == [SIGVTALRM] && handler(of: SIGVTALRM) == installed)
        ProcessSignals.release(first)
        #expect(handler(of: SIGVTALRM) == installed, "another claim still holds it")
        ProcessSignals.release(second)
        #expect(handler(of: SIGVTALRM) == 1, "SIG_IGN is back")
    }

    @Test("a handler the program installs after ours stays when the claim goes")
    func laterHandlerStays() {
        defer { _ = signal(SIGVTALRM, SIG_DFL) }
        let claimed = ProcessSignals.claim([SIGVTALRM])
        _ = signal(SIGVTALRM, SIG_IGN)
        ProcessSignals.release(claimed)
        #expect(handler(of: SIGVTALRM) == 1)
    }

    // No signal is raised here: the overlay presenter's tests, in this process, hold the
    // process's claims meanwhile. Delivery and restoring on a signal are tested end to end (run's
    // and render's signal tests, the overlay's and the TTY display's Ctrl-C and Ctrl-Z tests).

    @Test("a claim's bytes are written while shown, once; the input settings go back once; the drawer learns of it")
    func terminalClaim() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let claim = TerminalClaim(tracksShown: true, restoresAtExit: false)
        try #require(claim.take(output: ends[1], bytes: Array("LEAVE".utf8)))
        #expect(!claim.take(output: ends[1], bytes: []), "one drawer at a time")
        var buffer = [UInt8](repeating: 0, count: 16)
        claim.restore(markingRestored: true)
        #expect(read(ends[0], &buffer, buffer.count) < 0, "not shown: nothing written")
        #expect(claim.wasRestored)
        claim.setShown(true)
        claim.restore(markingRestored: true)
        claim.restore(markingRestored: true)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(count == 5 && Array(buffer[..<max(0, count)]) == Array("LEAVE".utf8))
        claim.release()
        claim.setShown(true)
        claim.restore(markingRestored: true)
        #expect(read(ends[0], &buffer, buffer.count) < 0, "released: nothing written")
        #expect(claim.take(output: ends[1], bytes: []))
        #expect(!claim.wasRestored, "a new drawer starts afresh")
    }
}
