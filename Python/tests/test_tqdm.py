"""`from activity import tqdm, trange` against real tqdm: the same scripts, run with each, give the
same counts, totals, titles and postfixes (tqdm's from its bars as they close, ours from the events)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

tqdm_module = pytest.importorskip("tqdm")

SCRIPTS = {
    "nested loops": """
        for i in trange(3, desc="outer"):
            for j in tqdm(range(4), desc=f"inner {i}", leave=False, position=1):
                pass
    """,
    "manual updates": """
        with tqdm(total=100, desc="download", unit="B", unit_scale=True, initial=10) as bar:
            bar.update(40)
            bar.update(-5)
            bar.set_postfix(loss=0.51234, acc=0.9, name=" x ")
            bar.set_description("renamed")
            bar.n = 80
            bar.refresh()
            tqdm.write("a line above the bars")
    """,
    "assigned total, reset and postfix string": """
        bar = tqdm(desc="growing", postfix={"step": 1})
        bar.total = 10
        bar.update(3)
        bar.reset(total=20)
        bar.update(7)
        bar.set_postfix_str("almost")
        bar.close()
        bar.close()
    """,
    "break and disable": """
        for item in tqdm(iter(range(100)), desc="stream", total=100):
            if item == 41:
                break
        for item in tqdm([1, 2, 3], desc="quiet", disable=True):
            pass
        print(sum(tqdm([1, 2, 3], desc="summed")))
    """,
}

RECORDER = """
import atexit, json, sys, tqdm as _t
_closed = []
_close = _t.tqdm.close
def close(self):
    if not self.disable:
        _closed.append({"title": self.desc.removesuffix(": "), "completed": self.n, "total": self.total,
                        "message": self.postfix or None})
    _close(self)
_t.tqdm.close = close
atexit.register(lambda: json.dump(_closed, open(sys.argv[1], "w")))
"""


def _run(source, tmp_path, environment):
    path = tmp_path / "script.py"
    path.write_text(source)
    finished = subprocess.run([sys.executable, str(path), str(tmp_path / "record.json")], capture_output=True,
                              text=True, timeout=120, env={**os.environ, **environment})
    assert finished.returncode == 0, finished.stderr
    return finished.stdout


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_tqdm_script_reports_what_tqdm_counts(tmp_path, name):
    body = textwrap.dedent(SCRIPTS[name])
    theirs_out = _run(RECORDER + "from tqdm import tqdm, trange\n" + body, tmp_path, {})
    theirs = json.loads((tmp_path / "record.json").read_text())

    events = tmp_path / "events.jsonl"
    ours_out = _run("from activity import tqdm, trange\n" + body, tmp_path, {"ACTIVITY_SINK": f"file:{events}"})
    assert ours_out == theirs_out  # tqdm.write and the script's own output, byte for byte
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    state = {}
    for line in lines:
        entry = state.setdefault(line["id"], {"completed": 0})
        for key in ("title", "total", "completed", "message"):
            if key in line:
                entry[key] = line[key]
        if line["type"] == "begin":
            entry["begin"] = line
    ours = []
    for line in lines:
        if line["type"] == "end":
            entry = state[line["id"]]
            assert line.get("status", "success") == "success"
            ours.append({key: entry.get(key) for key in ("title", "completed", "total", "message")})
    assert ours == theirs
    if name == "manual updates":
        begin = next(line for line in lines if line["type"] == "begin")
        assert begin["unit"] == "bytes"  # unit="B" with unit_scale
    if name == "nested loops":
        begins = {line["title"]: line for line in lines if line["type"] == "begin"}
        assert all(begins[f"inner {i}"]["parent"] == begins["outer"]["id"] for i in range(3))


def test_tqdm_takes_tqdms_drawing_options_and_refuses_unknown_ones():
    from activity import tqdm

    bar = tqdm(total=3, ncols=80, file=sys.stderr, ascii=True, mininterval=1, bar_format="{l_bar}", colour="red",
               dynamic_ncols=True, smoothing=0, unit_divisor=1024, delay=0)
    bar.close()
    with pytest.raises(TypeError, match="nonsense"):
        tqdm(total=3, nonsense=1)


def test_an_exception_in_a_tqdm_loop_ends_it_as_a_failure(tmp_path):
    import activity
    from activity import tqdm

    path = tmp_path / "events.jsonl"
    activity.set_sink(f"file:{path}")
    try:
        with pytest.raises(ValueError):
            for _ in tqdm([1, 2], desc="failing"):
                raise ValueError("bad item")
        assert activity.flush(2000)
    finally:
        activity.set_sink("none")
    end = [json.loads(line) for line in path.read_text().splitlines()][-1]
    assert end["status"] == "failure"
    if sys.version_info >= (3, 12):
        assert end["error"] == "ValueError: bad item"
    else:  # as for activity.track: Python hides the exception from the iterator
        assert end["error"].startswith("left by an exception")
