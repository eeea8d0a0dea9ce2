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
        replay(chunks.map { ($0, true) }, with: name, columns: columns, rows: rows, exitStatus: exitStatus)
    }

    /// Output the command wrote as `writes`, each one whole, read as `activity run` reads a
    /// pseudo-terminal: a write comes in pieces of 2048 bytes (as the kernel copies it), the
    /// rows are read after a piece when ``RowsSchedule`` says so (every piece when `scheduled`
    /// is false), and after each write, when the command pauses and the schedule's wait ends.
    static func adapt(
        writes: [[UInt8]], with name: String, scheduled: Bool = true, columns: Int = 100, rows: Int = 30,
        exitStatus: Int32? = 0
    ) -> Adapted {
        var schedule = RowsSchedule()
        var steps: [(chunk: [UInt8], readsRows: Bool)] = []
        for write in writes {
            for piece in chunks(write, 2048) {
                let reads = !scheduled || schedule.readsAfter(piece.count, at: 0)
                if reads { schedule.didRead() }
                steps.append((Array(piece), reads))
            }
            if steps.last?.readsRows == false {
                steps.append(([], true))
                schedule.didRead()
            }
        }
        return replay(steps, with: name, columns: columns, rows: rows, exitStatus: exitStatus)
    }

    /// Feeds each step's chunk to the screen, and reads its rows after the steps that say so.
    private static func replay(
        _ steps: [(chunk: [UInt8], readsRows: Bool)], with name: String, columns: Int, rows: Int, exitStatus: Int32?
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
        for step in steps {
            screen.feed(step.chunk)
            if step.readsRows { read() }
        }
        screen.finish()
        read()
        let beforeInputEnded = outputs.count
        outputs += pipeline.finish(exitStatus: exitStatus)
        return Adapted(outputs: outputs, failureMessage: pipeline.failureMessage, beforeInputEnded: beforeInputEnded)
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
