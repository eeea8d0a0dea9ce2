import ActivityWire

/// Takes the cancel lines out of what a plugin writes on its standard output, and passes the rest
/// on byte for byte.
///
/// A line that is exactly a control line of the protocol (`{"v":1,"type":"cancel","id":…}`) asks
/// for a cancel; everything else is the plugin's own output, as it was before plugins could
/// answer. Only a line that starts with `{` is held back until its end (at most
/// ``maxHeldBytes``, then it is output); other bytes go on as they arrive, so a prompt without a
/// newline is not delayed.
///
/// ```swift
/// var output = PluginOutput()
/// let (bytes, cancels) = output.feed(chunk)   // write `bytes` on, requestCancel each of `cancels`
/// ```
package struct PluginOutput: Sendable {
    /// The longest line held back as a possible control line.
    package static let maxHeldBytes = WireLimits.maxProducedLineBytes

    private var held: [UInt8] = []
    private var atLineStart = true
    /// Whether the current line started with `{` and is being held.
    private var holding = false

    package init() {}

    /// Adds what the plugin wrote; returns what to pass on and the activities to cancel.
    package mutating func feed(_ chunk: some Collection<UInt8>) -> (output: [UInt8], cancels: [ActivityID]) {
        var output: [UInt8] = []
        var cancels: [ActivityID] = []
        for byte in chunk {
            if atLineStart {
                atLineStart = false
                holding = byte == UInt8(ascii: "{")
            }
            if byte == 0x0A {
                if holding, case .cancel(let id)? = ControlMessage(decoding: held) {
                    cancels.append(id)
                } else {
                    output += held
                    output.append(byte)
                }
                held.removeAll(keepingCapacity: true)
                holding = false
                atLineStart = true
            } else if holding {
                held.append(byte)
                if held.count > Self.maxHeldBytes {  // too long to be a control line
                    output += held
                    held.removeAll(keepingCapacity: true)
                    holding = false
                }
            } else {
                output.append(byte)
            }
        }
        return (output, cancels)
    }

    /// At the end of the plugin's output: a last line without a newline is output, never read as
    /// a request (a request is a whole line).
    package mutating func finish() -> [UInt8] {
        defer {
            held.removeAll()
            holding = false
            atLineStart = true
        }
        return held
    }
}
