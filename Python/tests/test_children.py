"""Child processes report under the activity current where they were started, to the same sink:
os.fork, multiprocessing's three start methods, pools and subprocess."""

import json
import multiprocessing
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

import activity

# Every wait is for a process to finish; this bound only keeps a broken test from hanging.
SAFETY_NET = 300


def read_events(path):
    assert activity.flush(5000)
    with open(path) as lines:
        return [json.loads(line) for line in lines]


@pytest.fixture
def sink(tmp_path, request):
    """The parent reports to a file: through file:PATH, or through fd:N, a descriptor this process
    opened (so not inheritable: a child gets it only if it is passed)."""
    path = tmp_path / "events.jsonl"
    kind = getattr(request, "param", "file")
    if kind == "file":
        activity.set_sink(f"file:{path}")
        yield lambda: read_events(path)
    else:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        assert descriptor > 2 and not os.get_inheritable(descriptor)
        activity.set_sink(f"fd:{descriptor}")
        yield lambda: read_events(path)
        activity.set_sink("none")
        os.close(descriptor)
    activity.set_sink("none")


def begins(lines):
    return {line["title"]: line for line in lines if line["type"] == "begin"}


def ended(lines):
    return {line["id"] for line in lines if line["type"] == "end"}


def assert_nested(lines, child, parent):
    found = begins(lines)
    assert child in found, f"no begin for {child!r} in {lines}"
    assert found[child].get("parent") == found[parent]["id"], found[child]
    assert found[child]["id"] in ended(lines)


def work(title):
    with activity.begin(title):
        pass


LEFT_OPEN = []


def leave_open(title):
    LEFT_OPEN.append(activity.begin(title))


def doubled(number):
    with activity.begin(f"task {number}"):
        return number * 2


def test_an_os_fork_child_nests_under_the_current_activity(sink):
    with activity.begin("Parent"):
        child = os.fork()
        if child == 0:
            status = 1
            try:
                work("Forked")
                status = 0
            finally:
                os._exit(status)
        _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert_nested(sink(), "Forked", "Parent")


@pytest.mark.parametrize("sink", ["file", "fd"], indirect=True)
@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_a_multiprocessing_child_nests_and_reaches_the_sink(sink, method):
    context = multiprocessing.get_context(method)
    with activity.begin("Parent"):
        child = context.Process(target=work, args=(f"Worker ({method})",))
        child.start()
    with activity.begin("Later"):  # what is current when the child runs does not matter
        child.join(SAFETY_NET)
    assert child.exitcode == 0
    assert_nested(sink(), f"Worker ({method})", "Parent")


def test_a_worker_ends_what_it_left_open_when_it_exits(sink):
    context = multiprocessing.get_context("forkserver")  # leaves through os._exit, without atexit
    with activity.begin("Parent"):
        child = context.Process(target=leave_open, args=("Left open",))
        child.start()
        child.join(SAFETY_NET)
    lines = sink()
    left = begins(lines)["Left open"]
    end = next(line for line in lines if line["type"] == "end" and line["id"] == left["id"])
    assert end["status"] == "failure" and end["error"] == "never ended"


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_pool_tasks_nest_under_the_activity_current_where_they_were_submitted(sink, method):
    with activity.begin("Pool"):
        pool = multiprocessing.get_context(method).Pool(2)
    try:
        with activity.begin("First"):
            assert pool.map(doubled, [1, 2]) == [2, 4]
        with activity.begin("Second"):
            assert pool.apply_async(doubled, (3,)).get(SAFETY_NET) == 6
            assert sorted(pool.imap_unordered(doubled, [4])) == [8]
        assert pool.apply(doubled, (5,)) == 10  # outside any activity: top-level, as here
    finally:
        pool.close()
        pool.join()
    lines = sink()
    for number in (1, 2):
        assert_nested(lines, f"task {number}", "First")
    for number in (3, 4):
        assert_nested(lines, f"task {number}", "Second")
    assert "parent" not in begins(lines)["task 5"]


def test_thread_pool_tasks_nest_under_the_activity_current_where_they_were_submitted(sink):
    from multiprocessing.pool import ThreadPool

    pool = ThreadPool(2)
    try:
        with activity.begin("Threads"):
            assert pool.map(doubled, [1, 2]) == [2, 4]
    finally:
        pool.close()
        pool.join()
    lines = sink()
    for number in (1, 2):
        assert_nested(lines, f"task {number}", "Threads")


def test_executor_tasks_nest_under_the_activity_current_where_they_were_submitted(sink):
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver")) as executor:
        with activity.begin("Submitting"):
            assert executor.submit(doubled, 1).result(SAFETY_NET) == 2
            assert list(executor.map(doubled, [2, 3], timeout=SAFETY_NET)) == [4, 6]
    lines = sink()
    for number in (1, 2, 3):
        assert_nested(lines, f"task {number}", "Submitting")


CHILD = "import activity\nwith activity.begin('Subprocess'): pass\n"


def clean_environment():
    """This process's environment without ACTIVITY_* variables, the package importable."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ACTIVITY_")}
    environment["ACTIVITY_LIBRARY"] = os.environ.get("ACTIVITY_LIBRARY", "")
    environment["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(activity.__file__)))
    return environment


@pytest.mark.parametrize("sink", ["file", "fd"], indirect=True)
@pytest.mark.parametrize("given", ["inherited", "explicit"])
def test_a_subprocess_nests_and_reaches_the_sink(sink, given, monkeypatch):
    environment = clean_environment()
    if given == "inherited":
        for key in ("ACTIVITY_SINK", "ACTIVITY_PARENT"):
            monkeypatch.delenv(key, raising=False)
        monkeypatch.setenv("PYTHONPATH", environment["PYTHONPATH"])
    with activity.begin("Parent"):
        finished = subprocess.run([sys.executable, "-c", CHILD], env=None if given == "inherited" else environment,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=SAFETY_NET)
    assert finished.returncode == 0, finished.stderr
    assert finished.stderr == ""
    assert_nested(sink(), "Subprocess", "Parent")


def test_a_subprocess_environment_that_sets_the_variables_keeps_them(sink):
    environment = clean_environment()
    environment["ACTIVITY_SINK"] = "none"
    environment["ACTIVITY_PARENT"] = "chosen.1"
    program = "import os; print(os.environ['ACTIVITY_SINK'], os.environ['ACTIVITY_PARENT'])"
    with activity.begin("Parent"):
        finished = subprocess.run([sys.executable, "-c", program], env=environment, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=SAFETY_NET)
    assert finished.stdout == "none chosen.1\n", finished.stderr
    sink()


def test_outside_any_activity_a_subprocess_keeps_the_process_parent(monkeypatch):
    activity.set_sink("none")
    monkeypatch.setenv("ACTIVITY_PARENT", "outer.7")
    environment = clean_environment()
    environment["ACTIVITY_PARENT"] = "outer.7"
    program = "import os; print(os.environ.get('ACTIVITY_PARENT'), os.environ.get('ACTIVITY_SINK'))"
    finished = subprocess.run([sys.executable, "-c", program], env=environment, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=SAFETY_NET)
    assert finished.stdout == "outer.7 none\n", finished.stderr


def test_child_environment_names_the_activity_and_the_sink(tmp_path):
    activity.set_sink(f"file:{tmp_path / 'events.jsonl'}")
    try:
        with activity.begin("Parent") as parent:
            environment = activity.child_environment(base={"PATH": "/bin"})
            assert environment == {"PATH": "/bin", "ACTIVITY_PARENT": parent.id,
                                   "ACTIVITY_SINK": f"file:{tmp_path / 'events.jsonl'}"}
            other = activity.child_environment(parent, base={"ACTIVITY_PARENT": "mine.2"})
            assert other["ACTIVITY_PARENT"] == "mine.2"
        activity.set_sink("file:relative.jsonl")
        assert activity.child_environment(base={})["ACTIVITY_SINK"] == "file:" + os.path.abspath("relative.jsonl")
    finally:
        activity.set_sink("none")
