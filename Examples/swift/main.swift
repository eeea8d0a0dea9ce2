// activity-example-downloads: simulates a few downloads in parallel, each with a nested
// verification step, and reports them through ActivityReporting.
//
//     swift run activity-example-downloads                      # reports nowhere (ACTIVITY_SINK unset)
//     ACTIVITY_SINK=stderr swift run activity-example-downloads  # JSON lines on stderr
//     activity run -- swift run activity-example-downloads       # bars, once `activity` is built
//
// Options: --files N (default 4), --fast (no simulated network delay), --fail NAME (that file's
// download fails, the others go on), --wait-for-cancel (instead of downloading, wait up to 30 s for
// the person watching to cancel: Esc in `activity run --mode overlay`).

import ActivityReporting
import Foundation

struct DownloadError: Error, CustomStringConvertible {
    var file: String
    var description: String { "connection reset while downloading \(file)" }
}

struct Options {
    var files = 4
    var fast = false
    var failing: String?
    var waitForCancel = false

    init(arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--files":
                guard let value = rest.popFirst().flatMap({ Int($0) }), (1...64).contains(value) else {
                    throw UsageError("--files needs a number from 1 to 64")
                }
                files = value
            case "--fast":
                fast = true
            case "--wait-for-cancel":
                waitForCancel = true
            case "--fail":
                guard let value = rest.popFirst() else { throw UsageError("--fail needs a file name") }
                failing = value
            case "-h", "--help":
                throw UsageError(nil)
            default:
                throw UsageError("unknown option \(argument)")
            }
        }
    }
}

struct UsageError: Error {
    var message: String?
    init(_ message: String?) { self.message = message }
}

/// One simulated file: a name, a size, and a deterministic chunk size.
struct RemoteFile: Sendable {
    var name: String
    var size: Int

    static func catalog(count: Int) -> [RemoteFile] {
        (1...count).map { RemoteFile(name: "archive-\($0).tar.gz", size: 200_000 * $0 + 37_000) }
    }
}

func download(_ file: RemoteFile, options: Options) async throws {
    try await withActivity(file.name, total: file.size, unit: "bytes") { activity in
        let chunk = 16_384
        var received = 0
        while received < file.size {
            try Task.checkCancellation()
            if !options.fast { try await Task.sleep(for: .milliseconds(15)) }
            let count = min(chunk, file.size - received)
            received += count
            activity.advance(by: count)
            if file.name == options.failing, received > file.size / 2 { throw DownloadError(file: file.name) }
        }
        try await withActivity("Verifying checksum", total: 4, unit: "blocks") { verify in
            for _ in 0..<4 {
                if !options.fast { try await Task.sleep(for: .milliseconds(20)) }
                verify.advance()
            }
        }
    }
}

// Ctrl-C or a SIGTERM ends the open downloads as cancelled, not abandoned, before the program dies.
ActivitySystem.endActivitiesOnInterrupt()

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    let usage = "usage: activity-example-downloads [--files N] [--fast] [--fail NAME] [--wait-for-cancel]\n"
    FileHandle.standardError.write(Data(((error.message.map { "error: \($0)\n" } ?? "") + usage).utf8))
    exit(error.message == nil ? 0 : 64)
}

if options.waitForCancel {
    // A cancel from the consumer cancels the task running the body: the sleep throws, and the
    // activity ends cancelled. The command itself goes on.
    do {
        try await withActivity("Waiting for Cancel", cancellable: true) { _ in
            try await Task.sleep(for: .seconds(30))
        }
        print("finished")
    } catch {
        print("stopped: cancelled")
    }
    exit(0)
}

let files = RemoteFile.catalog(count: options.files)
let noun = files.count == 1 ? "file" : "files"
let failures = await withActivity("Downloading \(files.count) \(noun)", total: files.count, unit: "files") {
    downloads -> Int in
    await withTaskGroup(of: Bool.self) { group in
        for file in files {
            group.addTask {
                do {
                    try await download(file, options: options)
                    return true
                } catch {
                    Activity.current?.log("\(file.name): \(error)", level: .error)
                    return false
                }
            }
        }
        var failed = 0
        for await succeeded in group {
            downloads.advance()
            if !succeeded { failed += 1 }
        }
        downloads.update(message: failed == 0 ? "all files downloaded" : "\(failed) of \(files.count) failed")
        return failed
    }
}
print(failures == 0 ? "downloaded \(files.count) \(noun)" : "\(failures) of \(files.count) downloads failed")
exit(failures == 0 ? 0 : 1)
