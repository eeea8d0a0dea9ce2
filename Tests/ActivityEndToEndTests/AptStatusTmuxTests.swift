import Foundation
import TestSupport
import Testing

/// `activity run -- apt-get …` on a terminal: apt's status descriptor reaches the command through
/// the pseudo-terminal's session leader, and its lines become the live display's activities.
@Suite("apt's status descriptor on a pseudo-terminal", .serialized)
struct AptStatusTmuxTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ActivityAdaptersTests/Fixtures/apt")

    @Test(
        "apt-get under activity run on a terminal: downloading and installing shown and ended, the file gone",
        .enabled(if: PseudoTerminalRunTests.available))
    func onTerminal() throws {
        let pane = try TmuxPane()
        let folder = pane.folder.url.path
        // A stand-in apt-get (bash: sh cannot name descriptors above 9) that finds the descriptor
        // where apt does, in the file APT_CONFIG names, and writes the recorded status lines there.
        // Copied by cp in the pane: a file this process writes may be open in a child that a test
        // running alongside is starting, and then cannot be executed for a moment (ETXTBSY).
        _ = try pane.folder.file(
            "apt-get.txt",
            contents: """
                #!/bin/bash
                printf '%s' "$APT_CONFIG" > \(folder)/apt-config-path
                fd=$(sed -n 's/^APT::Status-Fd "\\([0-9]*\\)";$/\\1/p' "$APT_CONFIG")
                [ -t 1 ] && echo "apt-get on a terminal"
                while IFS= read -r line; do
                    printf '%s\\n' "$line" >&$fd
                    sleep 0.02
                done < \(Self.fixtures.path)/apt-install-statusfd-C.txt
                cat \(Self.fixtures.path)/apt-install-stdout-C.txt

                """)
        try pane.type(
            "cp \(folder)/apt-get.txt \(folder)/apt-get; chmod +x \(folder)/apt-get; "
                + "PATH=\(folder):$PATH activity run -v -- apt-get install -y hello-adapt; echo FIN''ISHED $?")
        #expect(try pane.waitFor("FINISHED 0"))
        let transcript = try pane.transcript()
        #expect(transcript.contains("apt-get on a terminal"))
        #expect(transcript.contains("apt-get install -y hello-adapt: apt: status on descriptor "))
        #expect(transcript.contains("✔ Downloading packages"))
        #expect(transcript.contains("✔ Installing packages"))
        #expect(transcript.contains("Setting up hello-adapt (1.0) ..."))
        #expect(!transcript.contains("pmstatus"))
        let path = try String(contentsOfFile: folder + "/apt-config-path", encoding: .utf8)
        #expect(path.hasSuffix("/apt.conf"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
