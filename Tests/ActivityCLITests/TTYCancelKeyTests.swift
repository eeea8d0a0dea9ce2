import ActivityRendering
import ActivityTerminal
import ActivityWire
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ActivityCLI

/// A display's cancel key that counts its presses.
final class CancelKeyDisplay: Sendable {
    let presses = Mutex(0)
    let takes: Bool
    init(takes: Bool) { self.takes = takes }
    func pressCancelKey() -> Bool {
        presses.withLock { $0 += 1 }
        return takes
    }
}

@Suite("activity run: which keys the TTY display takes as its cancel key")
struct CancelKeyRoutingTests {
    @Test("Esc alone, in line mode, when the display has something to cancel")
    func loneEsc() {
        let display = CancelKeyDisplay(takes: true)
        #expect(TerminalPump.takesCancelKey([0x1B][...], lineMode: { true }, press: display.pressCancelKey))
        #expect(display.presses.withLock { $0 } == 1)
    }

    @Test("Esc with more in the same read (an arrow key, Alt-x, a paste) goes to the command")
    func escapeSequences() {
        let display = CancelKeyDisplay(takes: true)
        for keys: [UInt8] in [[0x1B, 0x5B, 0x41], [0x1B, 0x78], [0x61, 0x1B], [0x1B, 0x1B], [0x03], [0x61]] {
            #expect(
                !TerminalPump.takesCancelKey(keys[...], lineMode: { true }, press: display.pressCancelKey), "\(keys)")
        }
        #expect(display.presses.withLock { $0 } == 0)
    }

    @Test("while the command reads keys one by one (line mode off), Esc is the command's")
    func notInLineMode() {
        let display = CancelKeyDisplay(takes: true)
        #expect(!TerminalPump.takesCancelKey([0x1B][...], lineMode: { false }, press: display.pressCancelKey))
        #expect(display.presses.withLock { $0 } == 0)
    }

    @Test("with nothing to cancel, the display leaves Esc to the command")
    func nothingToCancel() {
        let display = CancelKeyDisplay(takes: false)
        #expect(!TerminalPump.takesCancelKey([0x1B][...], lineMode: { true }, press: display.pressCancelKey))
        #expect(display.presses.withLock { $0 } == 1)
    }
}
