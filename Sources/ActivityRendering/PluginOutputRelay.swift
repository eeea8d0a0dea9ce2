import ActivityPOSIX
import ActivityWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a plugin's standard output on a thread of its own: cancel lines are kept for
/// ``takeCancels()``, everything else goes on to the session's standard output byte for byte
/// (``PluginOutput``). The display never waits for it: the thread alone reads the pipe, and a
/// slow standard output slows only the plugin, as it did when the plugin wrote there itself.
final class PluginOutputRelay: Sendable {
    private final class Context: Sendable {
        let input: Int32
        let output: Int32
        let cancels = Mutex<[ActivityID]>([])
        let done = Atomic<Bool>(false)

        init(input: Int32, output: Int32) {
            self.input = input
            self.output = output
        }

        func run() {
            let destination = FileDescriptorOutput(fileDescriptor: output)
            var filter = PluginOutput()
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while case .bytes(let count)? = try? SystemCall.read(input, into: &buffer) {
                let (bytes, ids) = filter.feed(buffer[..<count])
                if !ids.isEmpty { cancels.withLock { $0 += ids } }
                destination.write(bytes)
            }
            destination.write(filter.finish())
            close(input)
            done.store(true, ordering: .releasing)
        }
    }

    private let context: Context
    private let thread: pthread_t
    /// Whether ``wait(seconds:)`` has joined or detached the thread.
    private let released = Atomic<Bool>(false)

    /// Starts reading `input` (the read end of the plugin's standard output, now owned by the
    /// relay and closed at its end) and writing to `output`.
    init?(input: Int32, output: Int32 = 1) {
        let context = Context(input: input, output: output)
        guard let thread = HelperThread.start({ context.run() }) else { return nil }
        self.context = context
        self.thread = thread
    }

    /// The cancels read since the last call.
    func takeCancels() -> [ActivityID] {
        context.cancels.withLock { cancels in
            defer { cancels.removeAll() }
            return cancels
        }
    }

    /// Waits up to `seconds` for the plugin's output to end (every holder of the pipe has closed
    /// it) and the thread to pass the rest on. Returns whether it has; otherwise the thread is
    /// left to end on its own (a process the plugin started still holds the pipe).
    @discardableResult
    func wait(seconds: Double) -> Bool {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else {
            return context.done.load(ordering: .acquiring)
        }
        var left = Int(saturating: seconds * 100)
        while !context.done.load(ordering: .acquiring) {
            if left <= 0 {
                pthread_detach(thread)
                return false
            }
            SystemClock.sleep(seconds: 0.01)
            left -= 1
        }
        pthread_join(thread, nil)
        return true
    }
}
