import ActivityAdapters
import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The progress descriptor for `activity run -- zig …`: `run` is the parent Zig's
/// `std.Progress` reports to.
///
/// A `zig` whose environment has `ZIG_PROGRESS=N` writes its progress tree as binary frames to
/// descriptor N instead of drawing it on the terminal (and passes a descriptor of its own to
/// each child it starts, nesting their trees in its frames). So `run` opens a pipe, hands its
/// write end to the command under the same number N and reads frames from the read end
/// (``ZigProgressAdapter``). Zig prints its errors and output as before.
final class ZigProgressDescriptor: StatusDescriptor {
    /// The pipe Zig writes its frames to.
    private let pipe: StatusPipe

    private init(pipe: StatusPipe) { self.pipe = pipe }

    var number: Int32 { pipe.number }

    /// Opens the descriptor when the adapter chosen for `command` is Zig's; `nil` otherwise.
    /// The reason on failure, for `-v`: after `sudo` or `doas`, which close every descriptor
    /// above 2, a `zig` told of one would draw nothing and write its frames nowhere.
    static func open(command: [String], adapterName: String?) -> Result<ZigProgressDescriptor, Skipped>? {
        guard let adapterName, AdapterRegistry.named(adapterName)?.readsBinaryStream == true else { return nil }
        let program = command.drop { word in
            AdapterChoice.programName(word) == "env" || word.hasPrefix("-") || word.contains("=")
        }.first.map(AdapterChoice.programName)
        if program == "sudo" || program == "doas" {
            return .failure(Skipped(reason: "\(program!) closes descriptors above 2"))
        }
        // Non-blocking, as Zig's own parent makes it: Zig's writer skips a frame when the pipe is
        // full, so a reader that falls behind never holds up the command's exit (Zig joins the
        // thread that writes them). Never 0, 1 or 2 (Zig would write its frames into the
        // command's output).
        do {
            return .success(ZigProgressDescriptor(pipe: try StatusPipe(nonBlocking: true)))
        } catch {
            return .failure(Skipped(reason: "\(error)"))
        }
    }

    struct Skipped: Error {
        var reason: String
    }

    /// The command's environment with `ZIG_PROGRESS` naming this descriptor (a value the person
    /// set names a descriptor of theirs, which is not read: run's replaces it).
    func environment(_ environment: [String]) -> [String] {
        environment.filter { !$0.hasPrefix("ZIG_PROGRESS=") } + ["ZIG_PROGRESS=\(number)"]
    }

    var note: String { "zig: progress on descriptor \(number) through ZIG_PROGRESS" }

    func closeWriteEnd() { pipe.closeWriteEnd() }
    func close() { pipe.close() }
    func takeReadEnd() -> Int32 { pipe.takeReadEnd() }
}

/// A descriptor `run` passes to the command for the tool's machine-readable progress
/// (``AptStatusDescriptor``, ``ZigProgressDescriptor``), read in a pipeline of its own.
protocol StatusDescriptor: AnyObject {
    /// The descriptor's number, the same in the command as here.
    var number: Int32 { get }
    /// Once the command has its copy: only the command's copies keep the pipe open.
    func closeWriteEnd()
    /// Closes both ends (and removes what was made for it); every exit path of `run` calls it.
    func close()
    /// Hands the read end to the loop that reads it (and closes it); -1 once taken or closed.
    func takeReadEnd() -> Int32
}
