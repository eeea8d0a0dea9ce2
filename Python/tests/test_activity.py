"""The Python package against the real libactivity (ACTIVITY_LIBRARY), with a file sink."""

import asyncio
import json
import math
import os
import sys

import pytest

import activity


@pytest.fixture
def events(tmp_path):
    path = tmp_path / "events.jsonl"
    activity.set_sink(f"file:{path}")

    def read():
        assert activity.flush(2000)
        return [json.loads(line) for line in path.read_text().splitlines()]

    yield read
    activity.set_sink("none")


def ends(lines):
    return {line["id"]: line for line in lines if line["type"] == "end"}


def test_a_block_begins_counts_and_ends(events):
    with activity.begin("Copying", total=1000, unit="files") as copy:
        for _ in range(1000):
            copy.advance()
    lines = events()
    assert [line["type"] for line in lines][0] == "begin"
    begin = lines[0]
    assert begin["title"] == "Copying" and begin["total"] == 1000 and begin["unit"] == "files"
    end = ends(lines)[begin["id"]]
    assert end.get("status", "success") == "success"
    # The latest count goes out before the end, however the calls were coalesced.
    completed = [line["completed"] for line in lines if line.get("completed") is not None]
    assert completed[-1] == 1000


def test_blocks_nest_under_the_current_activity(events):
    with activity.begin("Outer") as outer:
        assert activity.current() is outer
        with activity.begin("Inner"):
            pass
        assert activity.current() is outer
    assert activity.current() is None
    lines = events()
    begins = {line["title"]: line for line in lines if line["type"] == "begin"}
    assert begins["Inner"]["parent"] == begins["Outer"]["id"]


def test_track_counts_items_and_nests_what_the_loop_begins(events):
    seen = []
    for item in activity.track(range(250), "Indexing", unit="photos"):
        seen.append(item)
        if item == 3:
            with activity.begin("Thumbnail"):
                pass
    assert seen == list(range(250))
    lines = events()
    begins = {line["title"]: line for line in lines if line["type"] == "begin"}
    assert begins["Indexing"]["total"] == 250
    assert begins["Thumbnail"]["parent"] == begins["Indexing"]["id"]
    tracked = begins["Indexing"]["id"]
    assert tracked in ends(lines)
    assert [line["completed"] for line in lines if line["id"] == tracked and "completed" in line][-1] == 250


def test_track_of_an_iterator_is_indeterminate_and_an_early_break_ends_it(events):
    for item in activity.track(iter(range(10)), "Streaming"):
        if item == 4:
            break
    lines = events()
    begin = next(line for line in lines if line["type"] == "begin")
    assert "total" not in begin
    assert begin["id"] in ends(lines)


def test_an_exception_ends_the_activity_as_a_failure(events):
    with pytest.raises(ConnectionError):
        with activity.begin("Uploading"):
            raise ConnectionError("connection reset by peer")
    end = next(line for line in events() if line["type"] == "end")
    assert end["status"] == "failure"
    assert end["error"] == "ConnectionError: connection reset by peer"


@pytest.mark.parametrize("delta", [float("nan"), float("inf"), -1])
def test_bad_counts_are_refused(events, delta):
    with activity.begin("Checking") as check:
        with pytest.raises(activity.ActivityError):
            check.advance(delta)
        assert not math.isnan(check.completed)
    events()


def test_bad_status_and_level_are_named():
    with pytest.raises(ValueError, match="status must be one of"):
        activity.begin("x").end("done")
    with pytest.raises(ValueError, match="level must be one of"):
        activity.log("x", level="loud")


def test_asyncio_tasks_each_nest_under_the_activity_that_started_them(events):
    async def step(name):
        with activity.begin(name):
            await asyncio.sleep(0)

    async def main():
        with activity.begin("Batch"):
            await asyncio.gather(step("a"), step("b"))

    asyncio.run(main())
    begins = {line["title"]: line for line in events() if line["type"] == "begin"}
    assert begins["a"]["parent"] == begins["Batch"]["id"]
    assert begins["b"]["parent"] == begins["Batch"]["id"]


def test_without_a_sink_every_call_does_nothing():
    activity.set_sink("none")
    with activity.begin("Quiet", total=3) as quiet:
        quiet.advance()
        quiet.log("nobody hears this")


def test_the_version_is_the_package_version():
    assert activity.version() == activity.__version__


def _listen(tmp_path):
    import socket

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp_path / "sink"))
    listener.listen(1)
    listener.settimeout(10)
    activity.set_sink(f"unix:{tmp_path / 'sink'}")
    return listener


def _wait_for(condition):
    import time

    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline, "not within 5 s"
        time.sleep(0.002)


def test_a_cancel_from_the_consumer_reaches_the_work(tmp_path):
    import threading

    listener = _listen(tmp_path)
    try:
        called = threading.Event()
        with pytest.raises(activity.Cancelled):
            with activity.begin("Uploading", total=10, cancellable=True) as upload:
                upload.on_cancel(called.set)
                connection, _ = listener.accept()
                begin = json.loads(connection.makefile().readline())
                assert begin["cancellable"] is True and begin["id"] == upload.id
                assert not upload.cancel_requested
                line = json.dumps({"v": 1, "type": "cancel", "id": upload.id}) + "\n"
                connection.sendall(line.encode() * 2)  # a second cancel changes nothing
                _wait_for(lambda: upload.cancel_requested)
                assert called.wait(5)
                raise activity.Cancelled("stopped by the person watching")
        rest = connection.makefile().readline()
        assert json.loads(rest)["status"] == "cancelled"
        connection.close()
    finally:
        listener.close()
        activity.set_sink("none")


def test_an_activity_that_is_not_cancellable_ignores_cancels(tmp_path):
    listener = _listen(tmp_path)
    try:
        plain = activity.begin("Plain")
        marker = activity.begin("Marker", cancellable=True)
        connection, _ = listener.accept()
        for target in (plain, marker):
            connection.sendall((json.dumps({"v": 1, "type": "cancel", "id": target.id}) + "\n").encode())
        _wait_for(lambda: marker.cancel_requested)
        assert not plain.cancel_requested
        with pytest.raises(activity.ActivityError):
            plain.on_cancel(lambda: None)
        plain.end()
        marker.end("cancelled")
        connection.close()
    finally:
        listener.close()
        activity.set_sink("none")


def _end_of(lines, title):
    begin = next(line for line in lines if line["type"] == "begin" and line["title"] == title)
    return ends(lines)[begin["id"]]


def test_an_exception_in_a_track_loop_ends_it_as_a_failure(events):
    with pytest.raises(ValueError):
        for _ in activity.track([1, 2, 3], "Failing"):
            raise ValueError("inside track")
    end = _end_of(events(), "Failing")
    assert end["status"] == "failure"
    if sys.version_info >= (3, 12):
        assert end["error"] == "ValueError: inside track"
    else:  # Python hides the exception from the iterator; only that one left the loop is known
        assert end["error"].startswith("left by an exception")


def test_an_exception_from_the_tracked_iterable_ends_it_as_a_failure(events):
    def items():
        yield 1
        raise OSError("disk gone")

    with pytest.raises(OSError):
        for _ in activity.track(items(), "Reading"):
            pass
    end = _end_of(events(), "Reading")
    assert end["status"] == "failure" and end["error"] == "OSError: disk gone"


def test_ctrl_c_in_a_track_loop_ends_it_as_cancelled_from_python_3_12(events):
    with pytest.raises(KeyboardInterrupt):
        for _ in activity.track([1, 2, 3], "Interrupted"):
            raise KeyboardInterrupt
    end = _end_of(events(), "Interrupted")
    assert end["status"] == ("cancelled" if sys.version_info >= (3, 12) else "failure")


def test_break_return_and_close_leave_a_track_loop_as_a_success(events):
    for item in activity.track([1, 2, 3, 4], "Broken"):
        if item == 2:
            break

    def first_over(limit):
        for item in activity.track([1, 5, 9], "Returned"):
            if item > limit:
                return item
    assert first_over(4) == 5

    # An exception caught inside the body does not leave the loop.
    for item in activity.track([1, 2], "Caught"):
        try:
            raise ValueError("handled")
        except ValueError:
            pass

    held = activity.track([1, 2, 3], "Closed")
    next(held)
    held.close()
    lines = events()
    for title in ("Broken", "Returned", "Caught", "Closed"):
        assert _end_of(lines, title).get("status", "success") == "success", title


def test_a_track_loop_left_with_the_iterator_held_is_no_longer_current(events):
    with activity.begin("Outer") as outer:
        items = activity.track([1, 2, 3], "Held")
        for _ in items:
            with activity.begin("Inside"):
                pass
            break
        assert activity.current() is outer
        with activity.begin("After"):
            pass
        # Taken up again, the loop nests what its body begins once more.
        for _ in items:
            assert activity.current() is not outer
            break
        del items  # released: ends it
    lines = events()
    begins = {line["title"]: line for line in lines if line["type"] == "begin"}
    assert begins["Inside"]["parent"] == begins["Held"]["id"]
    assert begins["After"]["parent"] == begins["Outer"]["id"]
    assert _end_of(lines, "Held").get("status", "success") == "success"


@pytest.mark.parametrize("total", [float("nan"), float("inf"), -3, "12"])
def test_bad_totals_are_refused(events, total):
    with pytest.raises(activity.ActivityError, match="total="):
        activity.begin("Checking", total=total)
    with pytest.raises(activity.ActivityError, match="total="):
        activity.track([1], "Checking", total=total)
    with activity.begin("Checking", total=3) as check:
        with pytest.raises(activity.ActivityError, match="total="):
            check.set_total(total)
        check.set_total(None)
        check.set_total(0)
    assert [line["title"] for line in events() if line["type"] == "begin"] == ["Checking"]


def test_a_track_iterator_held_until_the_interpreter_exits_ends_quietly(tmp_path):
    import subprocess

    script = (
        "import activity\n"
        "items = activity.track([1, 2, 3], 'Held to the end')\n"
        "for _ in items:\n"
        "    break\n")
    path = tmp_path / "events.jsonl"
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "ACTIVITY_SINK": f"file:{path}"})
    assert finished.returncode == 0 and finished.stderr == ""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert _end_of(lines, "Held to the end").get("status", "success") == "success"


def test_log_in_a_track_loop_nests_under_its_activity(events):
    for _ in activity.track([1], "Indexing"):
        activity.log("inside the loop")
    activity.log("outside")
    lines = events()
    logs = [line for line in lines if line["type"] == "log"]
    begin = next(line for line in lines if line["type"] == "begin")
    assert logs[0]["id"] == begin["id"]
    assert "id" not in logs[1]


def test_a_parent_can_be_given_by_id(events):
    with activity.begin("y", parent="abc.1"):
        pass
    with pytest.raises(activity.ActivityError, match="parent='not an id'"):
        activity.begin("z", parent="not an id")
    begin = next(line for line in events() if line["type"] == "begin")
    assert begin["parent"] == "abc.1"


def test_activities_still_open_at_exit_end_children_first(tmp_path):
    import subprocess

    script = (
        "import activity\n"
        "outer = activity.begin('Outer')\n"
        "inner = activity.begin('Inner', parent=outer)\n")
    path = tmp_path / "events.jsonl"
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "ACTIVITY_SINK": f"file:{path}"})
    assert finished.returncode == 0 and finished.stderr == ""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(line["type"], line.get("status")) for line in lines] == [
        ("begin", None), ("begin", None), ("end", "failure"), ("end", "failure")]
    assert lines[2]["id"] == lines[1]["id"] and lines[2]["error"] == "never ended"
