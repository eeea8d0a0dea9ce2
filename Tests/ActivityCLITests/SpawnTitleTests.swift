import Testing

@testable import ActivityCLI

@Suite("The run's title: the command line, short")
struct SpawnTitleTests {
    @Test(
        "the program without its folder; an interpreter's script without its folder; quoting where a shell needs it",
        arguments: [
            (["/usr/bin/make", "-j4"], "make -j4"),
            (["bash", "/home/me/bin/login.sh", "--fast"], "bash login.sh --fast"),
            (["/usr/bin/python3.11", "tools/build.py"], "python3.11 build.py"),
            (["sh", "-c", "echo hi"], "sh -c 'echo hi'"),
            (["git", "clone", "/srv/repo"], "git clone /srv/repo"),
        ])
    func title(command: [String], title: String) {
        #expect(Spawn.title(command) == title)
    }
}
