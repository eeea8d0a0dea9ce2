import Foundation

/// The path of the executable `name` in the first folder of `PATH` (then of `alsoIn`) that holds
/// one, or `nil`.
package func executableOnPath(_ name: String, alsoIn extraFolders: [String] = []) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let folders = path.split(separator: ":").map(String.init) + extraFolders
    return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
