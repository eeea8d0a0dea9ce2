"""A library that cannot be loaded turns reporting off: `import activity` never fails for it."""

import os
import subprocess
import sys
import tempfile

import activity

PROGRAM = """
import activity
with activity.Activity("work", total=3) as work:
    work.advance()
    work.set_message("half")
    assert work.id == ""
activity.log("left", "warning")
activity.set_sink("file:" + SINK_FILE)
assert activity.flush()
print("done")
"""


def run(library: str, sink: str) -> subprocess.CompletedProcess:
    folder = tempfile.mkdtemp()
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ACTIVITY_")}
    environment["ACTIVITY_LIBRARY"] = library
    environment["ACTIVITY_SINK"] = sink
    # The package these tests import (the installed one, under the Swift suite), loaded afresh.
    environment["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(activity.__file__)))
    program = PROGRAM.replace("SINK_FILE", repr(os.path.join(folder, "set.jsonl")))
    return subprocess.run([sys.executable, "-c", program], env=environment, cwd=folder,
                          capture_output=True, text=True, timeout=120)


def test_missing_library_with_a_sink_warns_once_and_does_nothing():
    with tempfile.TemporaryDirectory() as folder:
        events = os.path.join(folder, "events.jsonl")
        finished = run(os.path.join(folder, "no-such-libactivity.so.0"), "file:" + events)
        assert finished.returncode == 0, finished.stderr
        assert finished.stdout == "done\n"
        lines = finished.stderr.splitlines()
        assert len(lines) == 1, finished.stderr
        assert lines[0].startswith("activity: ACTIVITY_SINK=file:" + events + ": libactivity could not be loaded")
        assert lines[0].endswith("reporting is off")
        assert not os.path.exists(events)


def test_missing_library_without_a_sink_is_silent():
    with tempfile.TemporaryDirectory() as folder:
        finished = run(os.path.join(folder, "no-such-libactivity.so.0"), "none")
        assert finished.returncode == 0, finished.stderr
        assert finished.stdout == "done\n"
        # set_sink asks for reporting: the one warning comes then.
        assert finished.stderr.count("libactivity could not be loaded") == 1, finished.stderr
        assert "set.jsonl" in finished.stderr


def test_unloadable_library_is_treated_as_missing():
    with tempfile.TemporaryDirectory() as folder:
        broken = os.path.join(folder, "libactivity.so.0")
        with open(broken, "w") as file:
            file.write("not a shared object\n")
        finished = run(broken, "stderr")
        assert finished.returncode == 0, finished.stderr
        assert finished.stderr.count("libactivity could not be loaded") == 1, finished.stderr
