import ActivityAdapters
import ActivityTerminal
import ActivityWire

@testable import ActivityCLI

/// A captured pseudo-terminal output replayed as `activity run` reads it on a terminal: through
/// the command's screen (``CommandScreen``), whose rows the adapter reads (``ScreenRows``).
enum ScreenReplay {
    /// Feeds `input` to a screen of `columns` × `rows` in chunks of `chunkSize` bytes (by default
    /// a chunk per frame: cut before each `\r` that is not a line end, where the libraries
    /// begin each redraw, as their writes come to a reader that keeps up), and after
    /// each chunk hands the adapter `name` what changed on it; at the end the screen's rows
    /// in use are final, then the adapter ends with `exitStatus`.
    static func adapt(
        _ input: [UInt8], with name: String, columns: Int = 100, rows: Int = 30, chunkSize: Int? = nil,
        exitStatus: Int32? = 0
    ) -> Adapted {
        adapt(
            chunks: chunks(input, chunkSize).map(Array.init), with: name, columns: columns, rows: rows,
            exitStatus: exitStatus)
    }

    /// The same for output whose chunks are given: each one as the command wrote it.
    static func adapt(
        chunks: [[UInt8]], with name: String, columns: Int = 100, rows: Int = 30, exitStatus: Int32? = 0
    ) -> Adapted {
        let info = AdapterRegistry.named(name)!
        var pipeline = AdapterPipeline(adapter: info.makeAdapter(command: []), toolName: name, idPrefix: "t")
        pipeline.dropsPassthrough = true
        var screen = CommandScreen(columns: columns, rows: rows)
        screen.notesOverwrites = true
        var outputs: [AdapterOutput] = []
        func read() {
            var changed = ScreenRows()
            let overwritten = screen.takeOverwrittenFrames()
            changed.add(final: screen.takeFinalRows(), overwritten: overwritten)
            changed.setCurrent(from: screen)
            outputs += pipeline.read(changed)
        }
        for chunk in chunks {
            screen.feed(chunk)
            read()
        }
        screen.finish()
        read()
        outputs += pipeline.finish(exitStatus: exitStatus)
        return Adapted(outputs: outputs, failureMessage: pipeline.failureMessage)
    }

    /// `input` cut into chunks of `size` bytes, or before each `\r` not followed by `\n`.
    static func chunks(_ input: [UInt8], _ size: Int?) -> [ArraySlice<UInt8>] {
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        if let size {
            while start < input.count {
                chunks.append(input[start..<min(input.count, start + max(1, size))])
                start += max(1, size)
            }
            return chunks
        }
        for index in input.indices.dropFirst()
        where input[index] == 0x0D && (index + 1 == input.count || input[index + 1] != 0x0A) {
            chunks.append(input[start..<index])
            start = index
        }
        chunks.append(input[start...])
        return chunks
    }
}
