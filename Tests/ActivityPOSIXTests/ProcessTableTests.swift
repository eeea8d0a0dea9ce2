import ActivityPOSIX
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the platform layer finds out about processes and itself: the same answers as the calls
/// that ask about this process directly.
@Suite("ProcessTable, peers, this program, pseudo-terminals")
struct ProcessTableTests {
    @Test("this process's place, name and image")
    func thisProcess() throws {
        let place = try #require(ProcessTable.place(of: getpid()))
        #expect(place == ProcessTable.Place(parent: getppid(), group: getpgrp(), session: getsid(0)))
        #expect(ProcessTable.parent(of: getpid()) == getppid())
        #expect(ProcessTable.command(of: getpid())?.isEmpty == false)
        let image = try #require(ProcessTable.image(of: getpid()))
        #expect(image.contains(0))
    }

    @Test("a process that does not exist has no answers")
    func noProcess() {
        #expect(ProcessTable.place(of: -1) == nil)
        #expect(ProcessTable.command(of: 0) == nil)
        #expect(ProcessTable.image(of: -1) == nil)
    }

    @Test("the other end of a Unix socket is this process, of this user")
    func peer() throws {
        var pair: [Int32] = []
        try #require(SystemCall.unixStreamSocketPair(&pair))
        defer { pair.forEach { SystemCall.close($0) } }
        #expect(UnixAddress.peerProcess(pair[0]) == getpid())
        #expect(UnixAddress.peerUser(pair[0]) == getuid())
    }

    @Test("this program's path can be executed")
    func executable() throws {
        let path = try #require(SystemCall.executablePath())
        #expect(access(path, X_OK) == 0)
    }

    @Test("a pseudo-terminal's master is close-on-exec, and its slave a terminal")
    func pseudoTerminal() throws {
        let (master, slavePath) = try PseudoTerminalDevice.open()
        defer { SystemCall.close(master) }
        #expect(fcntl(master, F_GETFD) & FD_CLOEXEC != 0)
        let slave = SystemCall.open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        defer { SystemCall.close(slave) }
        #expect(slave >= 0 && isatty(slave) == 1)
    }
}

/// Descriptors made for this process alone: an accepted connection and a pipe's own description.
@Suite("Accepted connections and own descriptions")
struct OwnDescriptorTests {
    @Test("an accepted connection is close-on-exec and non-blocking from the start")
    func acceptedConnection() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("socket").path
        let listener = SystemCall.unixStreamSocket()
        defer { SystemCall.close(listener) }
        var address = try #require(UnixAddress(path: path))
        try #require(address.withSockaddr { bind(listener, $0, $1) } == 0 && listen(listener, 1) == 0)
        let client = SystemCall.unixStreamSocket()
        defer { SystemCall.close(client) }
        try #require(address.withSockaddr { SystemCall.connect(client, $0, $1) } == 0)
        let accepted = SystemCall.acceptConnection(listener)
        defer { SystemCall.close(accepted) }
        try #require(accepted >= 0)
        #expect(fcntl(accepted, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(accepted, F_GETFL) & O_NONBLOCK != 0)
    }

    @Test("a pipe's own description is non-blocking; the caller's keeps its flags")
    func ownDescription() throws {
        var ends: [Int32] = []
        try #require(SystemCall.pipe(&ends))
        defer { ends.forEach { SystemCall.close($0) } }
        let own = SystemCall.openOwnDescription(of: ends[0], flags: O_NONBLOCK)
        defer { SystemCall.close(own) }
        try #require(own >= 0, "\(SystemError("open"))")
        #expect(fcntl(own, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(ends[0], F_GETFL) & O_NONBLOCK == 0)
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(try SystemCall.read(own, into: &buffer) == .wouldBlock)
    }
}
