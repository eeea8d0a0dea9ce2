import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

/// What an adapter must make of one captured output: the activities as they end, what passes
/// through, and the failure message.
struct FixtureCase: CustomTestStringConvertible, Sendable {
    var file: String
    var adapter: String
    var command: [String] = []
    /// `title status completed/total error` of each activity, in order of begin.
    var activities: [String]
    var failure: String? = nil
    /// Lines that must pass through unchanged; progress lines that must not.
    var passes: [String] = []
    var consumes: [String] = []
    var exitStatus: Int32? = nil

    var testDescription: String { file }
}

@Suite("Adapters read the real tools' output")
struct FixtureTests {
    static let cases = toolCases + ansibleCases + machineFormatCases

    static let toolCases: [FixtureCase] = [
        FixtureCase(
            file: "git/git-clone-C.txt", adapter: "git",
            activities: [
                "remote: Enumerating objects success 454.0/? ", "remote: Counting objects success 454.0/454.0 ",
                "remote: Compressing objects success 454.0/454.0 ", "Receiving objects success 454.0/454.0 ",
                "Resolving deltas success 151.0/151.0 ",
            ],
            passes: [
                "Cloning into 'clone1'...\n",
                "remote: Total 454 (delta 151), reused 0 (delta 0), pack-reused 0        \n",
            ],
            consumes: ["Receiving objects", "% ("]),
        FixtureCase(
            file: "git/git-clone-de.txt", adapter: "git",
            activities: [
                "remote: Objekte aufzählen success 454.0/? ", "remote: Zähle Objekte success 454.0/454.0 ",
                "remote: Komprimiere Objekte success 454.0/454.0 ", "Empfange Objekte success 454.0/454.0 ",
                "Löse Unterschiede auf success 151.0/151.0 ",
            ],
            passes: ["Klone nach 'clone2'...\n"], consumes: ["Empfange Objekte"]),
        FixtureCase(
            file: "git/git-clone-pty-C.txt", adapter: "git",
            activities: [
                "remote: Enumerating objects success 3002.0/? ", "remote: Counting objects success 3002.0/3002.0 ",
                "remote: Compressing objects success 3002.0/3002.0 ", "Receiving objects success 3002.0/3002.0 ",
                "Updating files success 3000.0/3000.0 ",
            ],
            passes: [
                "Cloning into 'clone-pty'...\r\n",
                "remote: Total 3002 (delta 0), reused 0 (delta 0), pack-reused 0\u{1B}[K\r\n",
            ],
            consumes: ["Receiving objects", "% ("]),
        FixtureCase(
            file: "git/git-fetch-C.txt", adapter: "git",
            activities: [
                "remote: Enumerating objects success 158.0/? ", "remote: Counting objects success 158.0/158.0 ",
                "remote: Compressing objects success 102.0/102.0 ", "Receiving objects success 102.0/102.0 ",
                "Resolving deltas success 56.0/56.0 ",
            ],
            passes: ["From file:///tmp/cap/repo\n"]),
        FixtureCase(
            file: "git/git-push-C.txt", adapter: "git",
            activities: [
                "Enumerating objects success 454.0/? ", "Counting objects success 454.0/454.0 ",
                "Compressing objects success 303.0/303.0 ", "Writing objects success 454.0/454.0 ",
                "remote: Resolving deltas success 151.0/151.0 ",
            ],
            passes: ["Delta compression using up to 2 threads\n", "To file:///tmp/cap/bare.git\n"]),
        FixtureCase(
            file: "git/git-fatal-C.txt", adapter: "git",
            activities: ["git failure 0.0/? fatal: '/tmp/cap/nonexistent' does not appear to be a git repository"],
            failure: "fatal: '/tmp/cap/nonexistent' does not appear to be a git repository",
            passes: ["fatal: '/tmp/cap/nonexistent' does not appear to be a git repository\n"]),
        FixtureCase(
            file: "curl/curl-meter-C.txt", adapter: "curl",
            activities: ["Downloading success 2999296.0/2999296.0 "], consumes: ["% Total", "Dload"]),
        FixtureCase(
            file: "curl/curl-meter-pty-C.txt", adapter: "curl",
            activities: ["Downloading success 2999296.0/2999296.0 "], consumes: ["% Total", "Dload", "1058k", "\r\n"]),
        FixtureCase(
            file: "curl/curl-meter-de.txt", adapter: "curl", activities: ["Downloading success 2999296.0/2999296.0 "]),
        FixtureCase(
            file: "curl/curl-meter-nototal-C.txt", adapter: "curl", activities: ["Downloading success 2999296.0/? "]),
        FixtureCase(file: "curl/curl-bar-C.txt", adapter: "curl", activities: ["Downloading success 100.0/100.0 "]),
        FixtureCase(file: "curl/curl-bar-de.txt", adapter: "curl", activities: ["Downloading success 100.0/100.0 "]),
        FixtureCase(
            file: "curl/curl-bar-nototal-C.txt", adapter: "curl", activities: ["Downloading success 0.0/? "],
            consumes: ["#", "\n"], exitStatus: 0),
        FixtureCase(
            file: "curl/curl-bar-nototal-pty-C.txt", adapter: "curl", activities: ["Downloading success 0.0/? "],
            // The moving bar ends with `\r` and curl's `\n` comes as `\r\n`: no blank line stays.
            consumes: ["#", "\r\n"], exitStatus: 0),
        FixtureCase(
            file: "curl/curl-404-C.txt", adapter: "curl",
            activities: ["Downloading failure 0.0/335.0 curl: (22) The requested URL returned error: 404"],
            failure: "curl: (22) The requested URL returned error: 404",
            passes: ["curl: (22) The requested URL returned error: 404\n"]),
        FixtureCase(
            file: "curl/curl-refused-C.txt", adapter: "curl",
            activities: [
                "Downloading failure 0.0/? curl: (7) Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server"
            ],
            failure: "curl: (7) Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server"),
        FixtureCase(
            file: "wget/wget-bar-C.txt", adapter: "wget",
            activities: ["Downloading success 3000000.0/3000000.0 "],
            passes: ["Length: 3000000 (2.9M) [application/octet-stream]\n", "saved [3000000/3000000]\n"],
            consumes: ["[====", "1015KB/s"]),
        FixtureCase(
            file: "wget/wget-bar-pty-C.txt", adapter: "wget",
            activities: ["Downloading success 3000000.0/3000000.0 "],
            // One blank line before and after where the bar was, as on pipes.
            passes: ["Saving to: '/dev/null'\r\n\r\n20", "saved [3000000/3000000]\r\n\r\n"],
            consumes: ["[====", "100%"]),
        FixtureCase(
            file: "wget/wget-bar-de.txt", adapter: "wget", activities: ["Downloading success 3000000.0/3000000.0 "],
            passes: ["Länge: 3000000 (2,9M)"]),
        FixtureCase(
            file: "wget/wget-dot-C.txt", adapter: "wget", activities: ["Downloading success 1500000.0/1500000.0 "],
            consumes: ["......"]),
        FixtureCase(
            file: "wget/wget-dot-de.txt", adapter: "wget", activities: ["Downloading success 1500000.0/1500000.0 "]),
        FixtureCase(
            file: "wget/wget-dotmega-C.txt", adapter: "wget", activities: ["Downloading success 4000000.0/4000000.0 "]),
        FixtureCase(
            file: "wget/wget-dotgiga-C.txt", adapter: "wget",
            activities: ["Downloading success 70000000.0/70000000.0 "], consumes: ["........"]),
        FixtureCase(
            file: "wget/wget-dotgiga-short-C.txt", adapter: "wget",
            activities: ["Downloading success 3000000.0/3000000.0 "], consumes: ["0K .."]),
        FixtureCase(
            file: "wget/wget-dotbinary-C.txt", adapter: "wget",
            activities: ["Downloading success 1000000.0/1000000.0 "], consumes: ["........"]),
        FixtureCase(
            file: "wget/wget-404-C.txt", adapter: "wget",
            activities: ["Downloading failure 0.0/? ERROR 404: Not Found."],
            failure: "ERROR 404: Not Found.", passes: ["ERROR 404: Not Found.\n"]),
        FixtureCase(
            file: "wget/wget-refused-C.txt", adapter: "wget",
            activities: ["Downloading failure 0.0/? failed: Connection refused."],
            failure: "failed: Connection refused."),
        FixtureCase(
            file: "tqdm/tqdm-desc-C.txt", adapter: "tqdm", activities: ["Training success 200.0/200.0 "],
            consumes: ["Training:  45%|", "| 200/200 ["]),
        FixtureCase(
            file: "tqdm/tqdm-desc-pty-C.txt", adapter: "tqdm", activities: ["Training success 100.0/100.0 "],
            consumes: ["Training:  50%|"]),
        FixtureCase(
            file: "tqdm/tqdm-bytes-C.txt", adapter: "tqdm", activities: ["Progress success 10000000.0/10000000.0 "],
            consumes: ["| 9.80M/10.0M ["]),
        FixtureCase(
            file: "tqdm/tqdm-nototal-C.txt", adapter: "tqdm", activities: ["Counting success 150.0/? "],
            consumes: ["Counting: 150it ["]),
        FixtureCase(
            file: "tqdm/tqdm-nototal-C.txt", adapter: "tqdm",
            activities: ["Counting failure 150.0/? tqdm exited with status 1"],
            exitStatus: 1),
        FixtureCase(
            file: "tqdm/tqdm-postfix-write-C.txt", adapter: "tqdm", activities: ["Epoch 1 success 60.0/60.0 "],
            passes: ["checkpoint saved\n"], consumes: ["loss=0.0167", "Epoch 1:  50%|"]),
        FixtureCase(
            file: "tqdm/tqdm-failed-C.txt", adapter: "tqdm",
            activities: ["Downloading failure 40.0/100.0 RuntimeError: connection reset"],
            failure: "RuntimeError: connection reset",
            passes: ["Traceback (most recent call last):\n", "RuntimeError: connection reset\n"],
            consumes: ["Downloading:  40%|"], exitStatus: 1),
        FixtureCase(
            file: "tqdm/tqdm-nested-C.txt", adapter: "tqdm",
            activities: [
                "outer success 3.0/3.0 ", "inner success 5.0/5.0 ", "inner success 5.0/5.0 ", "inner success 5.0/5.0 ",
            ],
            consumes: ["inner:  60%|", "outer:  33%|"]),
        FixtureCase(
            file: "rich/rich-track-pty-C.txt", adapter: "rich", activities: ["Processing... success 100.0/100.0 "],
            consumes: ["Processing... ", " 48% "]),
        FixtureCase(
            file: "rich/rich-track-C.txt", adapter: "rich", activities: ["Processing... success 100.0/100.0 "],
            consumes: ["100%"]),
        FixtureCase(
            file: "rich/rich-two-pty-C.txt", adapter: "rich",
            activities: ["Downloading success 100.0/100.0 ", "Extracting success 100.0/100.0 "],
            passes: ["checkpoint saved\r\n"], consumes: ["Downloading ", "Extracting ", "0:00:01"]),
        FixtureCase(
            file: "rich/rich-two-C.txt", adapter: "rich",
            activities: ["Downloading success 100.0/100.0 ", "Extracting success 100.0/100.0 "],
            passes: ["checkpoint saved\n"], consumes: ["Downloading ", "Extracting "]),
        FixtureCase(
            file: "rich/rich-transient-pty-C.txt", adapter: "rich", activities: ["Compiling success 100.0/100.0 "],
            passes: ["compiled 30 files\r\n"], consumes: ["Compiling "]),
        // In a pipe a transient display draws nothing: nothing to read.
        FixtureCase(
            file: "rich/rich-transient-C.txt", adapter: "rich", activities: [], passes: ["\ncompiled 30 files\n"]),
        FixtureCase(
            file: "rich/rich-download-pty-C.txt", adapter: "rich",
            activities: ["big.iso success 5000000.0/5000000.0 "], consumes: ["/5.0 MB", "MB/s"]),
        FixtureCase(
            file: "rich/rich-download-C.txt", adapter: "rich", activities: ["big.iso success 5000000.0/5000000.0 "]),
        FixtureCase(
            file: "rich/rich-columns-pty-C.txt", adapter: "rich",
            activities: ["Files success 25.0/25.0 ", "Waiting success 1.0/1.0 "], consumes: ["/25", "0/?"]),
        FixtureCase(
            file: "rich/rich-columns-C.txt", adapter: "rich",
            activities: ["Files success 25.0/25.0 ", "Waiting success 1.0/1.0 "]),
        // Without a total, a task whose display stopped may be done: the exit status decides.
        FixtureCase(
            file: "rich/rich-nototal-pty-C.txt", adapter: "rich", activities: ["Scanning success 0.0/? "],
            consumes: ["Scanning ", "it/s"]),
        FixtureCase(
            file: "rich/rich-nototal-pty-C.txt", adapter: "rich",
            activities: ["Scanning failure 0.0/? rich exited with status 1"], exitStatus: 1),
        FixtureCase(
            file: "rich/rich-nototal-C.txt", adapter: "rich", activities: ["Scanning success 0.0/? "],
            consumes: ["Scanning "]),
        FixtureCase(
            file: "rich/rich-failed-pty-C.txt", adapter: "rich",
            activities: ["Uploading failure 40.0/100.0 RuntimeError: connection reset"],
            failure: "RuntimeError: connection reset",
            passes: ["Traceback (most recent call last):\r\n", "RuntimeError: connection reset\r\n"],
            consumes: ["Uploading "], exitStatus: 1),
        FixtureCase(
            file: "rich/rich-failed-C.txt", adapter: "rich",
            activities: ["Uploading failure 40.0/100.0 RuntimeError: connection reset"],
            failure: "RuntimeError: connection reset", passes: ["RuntimeError: connection reset\n"],
            exitStatus: 1),
        FixtureCase(
            file: "indicatif/indicatif-default-pty-C.txt", adapter: "indicatif",
            activities: ["Progress success 40.0/40.0 "], passes: ["checkpoint saved\r\n"], consumes: ["░ 20/40"]),
        FixtureCase(
            file: "indicatif/indicatif-template-pty-C.txt", adapter: "indicatif",
            activities: ["Progress success 30.0/30.0 "], consumes: ["#>--", "] 29/30 compiling unit 29"]),
        FixtureCase(
            file: "indicatif/indicatif-bytes-pty-C.txt", adapter: "indicatif",
            activities: ["Progress success 5242880.0/5242880.0 "], consumes: ["MiB/5.00 MiB"]),
        FixtureCase(
            file: "indicatif/indicatif-multi-pty-C.txt", adapter: "indicatif",
            activities: ["Progress success 20.0/20.0 ", "Progress success 40.0/40.0 "],
            consumes: ["20/20", "fetching", "building"]),
        FixtureCase(
            file: "indicatif/indicatif-failed-pty-C.txt", adapter: "indicatif",
            activities: ["Progress failure 12.0/30.0 error: connection reset"], failure: "error: connection reset",
            // The abandoned bar stays on screen, and the error is printed on its row.
            passes: ["12/30error: connection reset\r\n"], consumes: ["░ 11/30"], exitStatus: 1),
        // indicatif draws nothing when its standard error is not a terminal.
        FixtureCase(file: "indicatif/indicatif-default-C.txt", adapter: "indicatif", activities: [], exitStatus: 0),
        FixtureCase(
            file: "indicatif/indicatif-failed-C.txt", adapter: "indicatif", activities: [],
            failure: "error: connection reset", passes: ["error: connection reset\n"], exitStatus: 1),
        FixtureCase(file: "pv/pv-n-C.txt", adapter: "pv", activities: ["Transferring success 100.0/100.0 "]),
        FixtureCase(
            file: "pv/pv-n-interrupted-C.txt", adapter: "pv",
            activities: ["Transferring failure 8.0/100.0 pv exited with status 32"], exitStatus: 32),
        FixtureCase(
            file: "pv/pv-nb-C.txt", adapter: "pv-bytes", command: ["pv", "-n", "-b", "-s", "20000000"],
            activities: ["Transferring success 20000000.0/20000000.0 "]),
        FixtureCase(
            file: "pv/pv-nb-pipe-C.txt", adapter: "pv", command: ["pv", "-nb"],
            activities: ["Transferring success 20000000.0/? "]),
        FixtureCase(
            file: "pv/pv-ntb-C.txt", adapter: "pv-bytes", activities: ["Transferring success 20000000.0/? "]),
        FixtureCase(
            file: "pv/pv-ntb-de.txt", adapter: "pv-bytes", activities: ["Transferring success 20000000.0/? "]),
        FixtureCase(
            file: "pv/pv-default-pty-C.txt", adapter: "pv", activities: ["Transferring success 100.0/100.0 "],
            consumes: ["ETA", "MiB"]),
        FixtureCase(
            file: "pv/pv-default-pipe-C.txt", adapter: "pv", activities: ["Transferring success 100.0/100.0 "],
            consumes: ["ETA", "MiB"]),
        FixtureCase(
            file: "pv/pv-size-pty-C.txt", adapter: "pv", command: ["pv", "-s", "20000000"],
            activities: ["Transferring success 100.0/100.0 "], consumes: ["ETA"]),
        // Without a size pv shows no percentage: its rounded byte count is the progress.
        FixtureCase(
            file: "pv/pv-nosize-pty-C.txt", adapter: "pv", activities: ["Transferring success 20027802.0/? "],
            consumes: ["<=>"]),
        FixtureCase(
            file: "pv/pv-nosize-pipe-C.txt", adapter: "pv", activities: ["Transferring success 20027802.0/? "],
            consumes: ["<=>"]),
        FixtureCase(
            file: "pv/pv-format-C.txt", adapter: "pv", command: ["pv", "-F", "%b %t %r %p %e"],
            activities: ["Transferring success 100.0/100.0 "], consumes: ["ETA"]),
        FixtureCase(
            file: "pv/pv-format-tba-C.txt", adapter: "pv", command: ["pv", "-F", "%t %b %a"],
            activities: ["Transferring success 20027802.0/? "], consumes: ["MiB/s"]),
        FixtureCase(
            file: "pv/pv-format-named-C.txt", adapter: "pv", command: ["pv", "-N", "z.bin", "-F", "%N %b %p"],
            activities: ["Transferring z.bin success 100.0/100.0 "], consumes: ["z.bin:"]),
        FixtureCase(
            file: "pv/pv-default-interrupted-C.txt", adapter: "pv",
            activities: ["Transferring failure 41.0/100.0 pv exited with status 32"], exitStatus: 32),
        FixtureCase(
            file: "pv/pv-missing-C.txt", adapter: "pv",
            activities: ["pv failure 0.0/? pv: /nonexistent: No such file or directory"],
            failure: "pv: /nonexistent: No such file or directory", exitStatus: 1),
        FixtureCase(
            file: "dd/dd-C.txt", adapter: "dd", activities: ["Copying success 20000000.0/? "],
            passes: ["267+43 records in\n", "20000000 bytes (20 MB, 19 MiB) copied, 2.35528 s, 8.5 MB/s\n"],
            consumes: ["copied, 1 s"]),
        FixtureCase(file: "dd/dd-de.txt", adapter: "dd", activities: ["Copying success 20000000.0/? "]),
        FixtureCase(
            file: "dd/dd-error-C.txt", adapter: "dd",
            activities: ["dd failure 0.0/? dd: failed to open '/nonexistent': No such file or directory"],
            failure: "dd: failed to open '/nonexistent': No such file or directory"),
        FixtureCase(
            file: "rsync/rsync-progress2-C.txt", adapter: "rsync", activities: ["Synchronizing success 83.0/83.0 "],
            consumes: ["to-chk"]),
        FixtureCase(
            file: "rsync/rsync-progress2-de.txt", adapter: "rsync", activities: ["Synchronizing success 83.0/83.0 "]),
        FixtureCase(
            file: "tar/tar-checkpoint-C.txt", adapter: "tar", activities: ["Writing archive success 1500.0/? "]),
        FixtureCase(
            file: "tar/tar-interrupted-C.txt", adapter: "tar",
            activities: ["Writing archive failure 300.0/? tar exited with status 130"], exitStatus: 130),
        FixtureCase(
            file: "tar/tar-dot-C.txt", adapter: "tar",
            command: ["tar", "--checkpoint=200", "--checkpoint-action=dot", "-cf", "/dev/null", "src"],
            activities: ["Writing archive success 1800.0/? "], consumes: ["."]),
        FixtureCase(
            file: "tar/tar-dot-pty-C.txt", adapter: "tar",
            command: ["tar", "--checkpoint=200", "--checkpoint-action=dot", "-cf", "/dev/null", "src"],
            activities: ["Writing archive success 1800.0/? "], consumes: ["."]),
        // Without the command line the dots count checkpoints.
        FixtureCase(file: "tar/tar-dot-C.txt", adapter: "tar", activities: ["Archiving success 9.0/? "]),
        FixtureCase(
            file: "tar/tar-dot-totals-C.txt", adapter: "tar",
            command: ["tar", "--checkpoint=200", "--checkpoint-action=dot", "--totals", "-cf", "/dev/null", "src"],
            activities: ["Writing archive success 1800.0/? "],
            passes: [".........Total bytes written: 20080640 (20MiB, 30GiB/s)\n"]),
        FixtureCase(
            file: "tar/tar-echo-dot-C.txt", adapter: "tar", activities: ["Writing archive success 1800.0/? "],
            consumes: ["checkpoint", "."]),
        FixtureCase(file: "tar/tar-read-C.txt", adapter: "tar", activities: ["Reading archive success 1800.0/? "]),
        FixtureCase(
            file: "tar/tar-error-C.txt", adapter: "tar",
            activities: ["tar failure 0.0/? tar: /tmp/nonexist.tar: Cannot open: No such file or directory"],
            failure: "tar: /tmp/nonexist.tar: Cannot open: No such file or directory"),
        FixtureCase(
            file: "pip/pip-raw-C.txt", adapter: "pip",
            activities: ["Downloading bigpkg-1.0-py3-none-any.whl success 3001097.0/3001097.0 "],
            passes: ["  Downloading bigpkg-1.0-py3-none-any.whl (3.0 MB)\n"], consumes: ["Progress "]),
        FixtureCase(
            file: "pip/pip-bar-pty-C.txt", adapter: "pip",
            activities: ["Downloading bigpkg-1.0-py3-none-any.whl success 3000000.0/3000000.0 "],
            passes: [
                "  Downloading http://127.0.0.1:39259/file/40/bigpkg-1.0-py3-none-any.whl (3.0 MB)\r\n",
                "Successfully downloaded bigpkg\r\n",
            ],
            consumes: ["MB/s", "━"]),
        FixtureCase(
            file: "pip/pip-bar-pipe-C.txt", adapter: "pip",
            activities: ["Downloading bigpkg-1.0-py3-none-any.whl success 3000000.0/3000000.0 "],
            passes: ["Successfully downloaded bigpkg\n"], consumes: ["MB/s"]),
        FixtureCase(
            file: "pip/pip-install-pty-C.txt", adapter: "pip",
            activities: ["Downloading bigpkg-1.0-py3-none-any.whl success 3000000.0/3000000.0 "],
            passes: ["Successfully installed bigpkg-1.0\r\n"], consumes: ["MB/s"]),
        FixtureCase(
            file: "pip/pip-error-C.txt", adapter: "pip",
            activities: [
                "pip failure 0.0/? ERROR: HTTP error 404 while getting http://127.0.0.1:34915/nothere-1.0-py3-none-any.whl"
            ],
            failure: "ERROR: HTTP error 404 while getting http://127.0.0.1:34915/nothere-1.0-py3-none-any.whl"),
        FixtureCase(
            file: "ffmpeg/ffmpeg-progress-stdout-C.txt", adapter: "ffmpeg", activities: ["Transcoding success 2.96/? "],
            consumes: ["out_time_us="]),
        FixtureCase(
            file: "ffmpeg/ffmpeg-stderr-C.txt", adapter: "ffmpeg", activities: ["Transcoding success 2.96/3.0 "],
            passes: ["  Duration: 00:00:03.00, start: 0.000000, bitrate: 222 kb/s\n"], consumes: ["frame="]),
        FixtureCase(
            file: "apt/apt-install-statusfd-C.txt", adapter: "apt",
            activities: ["Downloading packages success 100.0/100.0 ", "Installing packages success 80.0/100.0 "],
            consumes: ["pmstatus:"]),
        // apt exited 0: its installation is done, though its last pmstatus said 80 %.
        FixtureCase(
            file: "apt/apt-install-statusfd-C.txt", adapter: "apt",
            activities: ["Downloading packages success 100.0/100.0 ", "Installing packages success 100.0/100.0 "],
            exitStatus: 0),
        FixtureCase(
            file: "apt/apt-pmconffile-statusfd-C.txt", adapter: "apt",
            activities: ["Downloading packages success 100.0/100.0 ", "Installing packages success 100.0/100.0 "],
            exitStatus: 0),
        FixtureCase(
            file: "apt/apt-install-statusfd-de.txt", adapter: "apt",
            activities: ["Downloading packages success 100.0/100.0 ", "Installing packages success 80.0/100.0 "]),
        FixtureCase(
            file: "apt/apt-pmerror-statusfd-C.txt", adapter: "apt",
            activities: [
                "Downloading packages success 100.0/100.0 ",
                "Installing packages failure 60.0/100.0 fail-adapt: installed fail-adapt package post-installation script subprocess returned error exit status 1",
            ],
            failure:
                "fail-adapt: installed fail-adapt package post-installation script subprocess returned error exit status 1"
        ),
        FixtureCase(
            file: "apt/apt-pmconffile-statusfd-C.txt", adapter: "apt",
            activities: ["Downloading packages success 100.0/100.0 ", "Installing packages success 80.0/100.0 "]),
        FixtureCase(file: "apt/dpkg-remove-statusfd-C.txt", adapter: "dpkg", activities: ["dpkg success 0.0/? "]),
        // The same status lines from a dpkg that was then stopped: its exit status decides.
        FixtureCase(
            file: "apt/dpkg-remove-statusfd-C.txt", adapter: "dpkg",
            activities: ["dpkg failure 0.0/? dpkg exited with status 2"], exitStatus: 2),
        FixtureCase(
            file: "apt/dpkg-depends-statusfd-C.txt", adapter: "dpkg",
            activities: ["dpkg failure 0.0/? broken-adapt: dependency problems - leaving unconfigured"],
            failure: "broken-adapt: dependency problems - leaving unconfigured"),
        FixtureCase(
            file: "cargo/cargo-build-pty-C.txt", adapter: "cargo", activities: ["Building success 22.0/22.0 "],
            passes: ["   Compiling\u{1B}[0m indicatif v0.17.3\r\n"], consumes: ["Building\u{1B}[0m ["]),
        FixtureCase(
            file: "cargo/cargo-build-C.txt", adapter: "cargo", activities: ["Building success 14.0/? "],
            passes: ["   Compiling indicatif v0.17.3\n", "    Finished `dev` profile"]),
        FixtureCase(
            file: "cargo/cargo-error-C.txt", adapter: "cargo",
            activities: ["Building failure 1.0/? error[E0308]: mismatched types"],
            failure: "error[E0308]: mismatched types", passes: ["error[E0308]: mismatched types\n"], exitStatus: 101),
        FixtureCase(
            file: "cargo/cargo-error-pty-C.txt", adapter: "cargo",
            activities: ["Building failure 21.0/22.0 error[E0308]: mismatched types"],
            failure: "error[E0308]: mismatched types", exitStatus: 101),
        FixtureCase(
            file: "ninja/ninja-C.txt", adapter: "ninja", activities: ["Building success 4.0/4.0 "], consumes: ["[1/4]"]),
        FixtureCase(
            file: "ninja/ninja-fail-C.txt", adapter: "ninja", activities: ["Building failure 5.0/5.0 FAILED: broken.o"],
            failure: "FAILED: broken.o", passes: ["FAILED: broken.o \n", "ninja: build stopped: subcommand failed.\n"]),
        FixtureCase(
            file: "ninja/swift-build-C.txt", adapter: "ninja", activities: ["Building success 7.0/8.0 "],
            passes: ["Build complete! (5.30s)\n"]),
    ]

    /// ansible's two playbooks, each in its default output and in jsonl, in a pipe and on a pty:
    /// the four captures of one playbook make the same activities.
    static let ansibleCases: [FixtureCase] = ["", "-pty", "-jsonl", "-jsonl-pty"].flatMap { variant in
        [
            FixtureCase(
                file: "ansible/ansible-site\(variant)-C.txt", adapter: "ansible",
                activities: [
                    "Prepare the workspace success 3.0/? ",
                    "Create the directory success 1.0/? ",
                    "Write the greeting success 1.0/? ",
                    "Say it success 1.0/? ",
                    "Check the result success 1.0/? ",
                    "Count the files success 1.0/? ",
                ]),
            FixtureCase(
                file: "ansible/ansible-fail\(variant)-C.txt", adapter: "ansible",
                activities: [
                    "Deploy failure 2.0/? localhost: non-zero return code",
                    "Check the disk success 1.0/? ",
                    "Run the broken step failure 1.0/? localhost: non-zero return code",
                ],
                failure: "localhost: non-zero return code", exitStatus: 2),
        ]
    }

    @Test("activities, failure and passthrough", arguments: cases)
    func fixture(_ fixture: FixtureCase) throws {
        let input = try Fixture.bytes(fixture.file)
        let adapted = Fixture.adapt(
            input, with: fixture.adapter, command: fixture.command, exitStatus: fixture.exitStatus)
        #expect(adapted.activities.map(\.description) == fixture.activities)
        #expect(adapted.failureMessage == fixture.failure)
        #expect(adapted.isWellFormed)
        for line in fixture.passes { #expect(adapted.passthroughText.contains(line), "\(line) passes through") }
        for text in fixture.consumes { #expect(!adapted.passthroughText.contains(text), "\(text) is consumed") }
    }

    @Test("chunk boundaries change nothing: byte by byte, odd pieces and all at once", arguments: cases)
    func chunking(_ fixture: FixtureCase) throws {
        let input = try Fixture.bytes(fixture.file)
        let whole = Fixture.adapt(input, with: fixture.adapter, command: fixture.command)
        for size in [1, 7, 333] {
            let pieces = Fixture.adapt(input, with: fixture.adapter, command: fixture.command, chunkSize: size)
            #expect(pieces.passthrough == whole.passthrough, "chunks of \(size)")
            #expect(pieces.activities.map(\.description) == whole.activities.map(\.description), "chunks of \(size)")
        }
    }
}
