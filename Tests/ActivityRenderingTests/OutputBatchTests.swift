import ActivityRendering
import ActivityWire
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A destination that records each write it is asked to make.
private final class RecordingDestination: BatchedDestination {
    let name: String
    let log: WriteLog
    var fails = false

    init(_ name: String, log: WriteLog) {
        self.name = name
        self.log = log
    }

    func writeNow(_ bytes: UnsafeRawBufferPointer) -> Bool {
        log.writes.append((name, String(decoding: bytes, as: UTF8.self)))
        return !fails
    }
}

private final class WriteLog {
    var writes: [(String, String)] = []
    var texts: [String] { writes.map { "\($0.0):\($0.1)" } }
}

private final class ManualClock {
    var now = 100.0
}

@Suite("OutputBatch")
struct OutputBatchTests {
    private func lines(_ range: ClosedRange<Int>) -> [[UInt8]] {
        range.map { Array("line \($0)\n".utf8) }
    }

    @Test("lines wait for flush() and are then written in one write, in order")
    func coalesces() {
        let log = WriteLog()
        let clock = ManualClock()
        let batch = OutputBatch(clock: { clock.now })
        let out = RecordingDestination("err", log: log)
        for line in lines(1...100) { #expect(batch.append(line, to: out)) }
        #expect(log.writes.isEmpty)
        #expect(batch.flush())
        #expect(log.texts == ["err:" + (1...100).map { "line \($0)\n" }.joined()])
        #expect(batch.isEmpty)
        #expect(batch.flush())
        #expect(log.writes.count == 1)
    }

    @Test("a line for another destination first writes what is pending: the order never changes")
    func keepsOrderAcrossDestinations() {
        let log = WriteLog()
        let batch = OutputBatch(clock: { 0 })
        let out = RecordingDestination("out", log: log)
        let err = RecordingDestination("err", log: log)
        batch.append(Array("a\n".utf8), to: out)
        batch.append(Array("b\n".utf8), to: out)
        batch.append(Array("1\n".utf8), to: err)
        batch.append(Array("c\n".utf8), to: out)
        batch.flush()
        #expect(log.texts == ["out:a\nb\n", "err:1\n", "out:c\n"])
    }

    @Test("past the limit the pending bytes are written at once")
    func limit() {
        let log = WriteLog()
        let batch = OutputBatch(limit: 100, clock: { 0 })
        let out = RecordingDestination("out", log: log)
        let line = Array(String(repeating: "x", count: 29).utf8) + [0x0A]
        for _ in 0..<10 { batch.append(line, to: out) }
        // 30 bytes a line: the fourth reaches 120 ≥ 100, the eighth 120 again.
        #expect(log.writes.map(\.1.utf8.count) == [120, 120])
        batch.flush()
        #expect(log.writes.map(\.1.utf8.count) == [120, 120, 60])
    }

    @Test("lines that keep coming are written once the oldest has waited maxDelay")
    func maxDelay() {
        let log = WriteLog()
        let clock = ManualClock()
        let batch = OutputBatch(maxDelay: 0.05, clock: { clock.now })
        let out = RecordingDestination("out", log: log)
        for line in lines(1...40) { batch.append(line, to: out) }
        #expect(log.writes.isEmpty, "no time passed")
        clock.now += 0.06
        for line in lines(41...56) { batch.append(line, to: out) }
        #expect(log.writes.count == 1, "written within 16 lines of the delay passing")
        // The clock is read every 16th line: the 48th is the first after the delay.
        #expect(log.writes.first?.1 == (1...48).map { "line \($0)\n" }.joined())
        batch.flush()
        #expect(log.writes.map(\.1).joined() == (1...56).map { "line \($0)\n" }.joined())
    }

    @Test("after end() every write is made at once")
    func ended() {
        let log = WriteLog()
        let batch = OutputBatch(clock: { 0 })
        let out = RecordingDestination("out", log: log)
        batch.append(Array("a\n".utf8), to: out)
        batch.end()
        #expect(log.texts == ["out:a\n"])
        batch.append(Array("b\n".utf8), to: out)
        #expect(log.texts == ["out:a\n", "out:b\n"])
    }

    @Test("a failed write is reported by the call that made it")
    func failure() {
        let log = WriteLog()
        let batch = OutputBatch(limit: 4, clock: { 0 })
        let out = RecordingDestination("out", log: log)
        out.fails = true
        #expect(batch.append(Array("ab".utf8), to: out))
        #expect(!batch.append(Array("cd".utf8), to: out))
    }

    @Test("a session that gathers its lines writes the same bytes, on flushOutput() and at the end")
    func sessionBytesUnchanged() throws {
        try withTemporaryDirectory { directory in
            var texts: [String] = []
            for batches in [false, true] {
                let display = DisplayFile(directory: directory, name: "display-\(batches)")
                var options = RenderOptions(
                    mode: .plain, displayFileDescriptor: display.descriptor, environment: ["LANG": "C.UTF-8"])
                options.batchesOutput = batches
                let session = try RenderSession(options: options, clock: { 100 })
                session.handle(E.begin("a", "Fetch", total: 2, at: 100))
                session.handle(E.log("hello", id: "a", at: 100.5))
                if batches { #expect(display.text.isEmpty, "gathered, not written yet") }
                session.flushOutput()
                #expect(display.text.contains("▶ Fetch"))
                #expect(display.text.contains("hello"))
                session.handle(E.end("a", at: 101))
                session.finish()
                session.report(Diagnostic(line: 9, code: .invalidJSON, message: "not JSON"))
                texts.append(display.text)
            }
            #expect(texts[0].contains("✔ Fetch"))
            #expect(texts[0] == texts[1])
        }
    }

    @Test("a batched pipe gets the bytes unchanged, written in whole lines, a line over PIPE_BUF too")
    func pipeWritesWholeLines() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let output = FileDescriptorOutput(fileDescriptor: fds[1])
        output.batch = OutputBatch(clock: { 0 })
        var expected: [UInt8] = []
        for number in 1...500 {
            let line = Array("line \(number) \(String(repeating: "=", count: number % 97))\n".utf8)
            expected += line
            output.write(line)
        }
        let long = Array(repeating: UInt8(ascii: "L"), count: 9000) + [0x0A]
        expected += long
        output.write(long)
        output.write(Array("tail\n".utf8))
        expected += Array("tail\n".utf8)
        // Reading in parallel: the pipe holds less than what is written.
        let reader = PipeDrain(fds[0])
        output.batch?.flush()
        close(fds[1])
        let received = reader.wait()
        #expect(received == expected)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeDrain: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private var thread = pthread_t()

    init(_ fd: Int32) {
        let box = Unmanaged.passRetained(Context(fd: fd, drain: self))
        pthread_create(
            &thread, nil,
            { raw in
                let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(context.fd, &chunk, chunk.count)
                    if count <= 0 { break }
                    context.drain.bytes += chunk[0..<count]
                }
                return nil
            }, box.toOpaque())
    }

    func wait() -> [UInt8] {
        pthread_join(thread, nil)
        return bytes
    }

    private final class Context {
        let fd: Int32
        let drain: PipeDrain
        init(fd: Int32, drain: PipeDrain) {
            self.fd = fd
            self.drain = drain
        }
    }
}
