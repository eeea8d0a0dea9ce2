import Foundation

/// The adapters' HTTP server (`serve.py`) on 127.0.0.1, stopped when released.
final class LocalServer {
    let process = Process()
    let input = Pipe()
    let base: String

    /// Serves from `directory` (its files under `/file/MS/NAME`), the current one when `nil`.
    init(directory: URL? = nil) throws {
        let script = AdapterFixtures.folder.appendingPathComponent("serve.py")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var port = ""
        while !port.hasSuffix("\n"), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            port += String(decoding: byte, as: UTF8.self)
        }
        base = "http://127.0.0.1:\(port.trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    deinit {
        // serve.py stops when its standard input closes.
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
