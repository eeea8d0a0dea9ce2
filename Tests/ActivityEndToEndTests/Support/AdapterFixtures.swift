import Foundation

/// The adapters' captures of the real tools (`Tests/ActivityAdaptersTests/Fixtures`, described in
/// its README): the adapters' unit tests read them in process, the end-to-end tests feed them to
/// the built `activity` and to stand-ins for the tools.
enum AdapterFixtures {
    static let folder = Repository.root.appendingPathComponent("Tests/ActivityAdaptersTests/Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The activities `zig/zig-build.bin` makes, as ZigProgressTests has the adapter make them.
    static let zigBuildActivities = [
        "steps success 2.0/2.0 ", "compile exe hello Debug native success 0.0/? ",
        "Semantic Analysis success 1523.0/? ", "Code Generation success 200.0/200.0 ", "install hello success 0.0/? ",
    ]
}
