#!/usr/bin/env bash
# Runs tqdm, rich and indicatif through the same per-call loop as activity-bench measures for
# `advance(by: 1)` and `activity_advance`, and prints each one's cost beside ours, as ratios; then
# `activity render` beside tqdm counting lines, `pv -l` and `wc -l` (reading the bytes: the
# floor) on the same generated file, as ratios of the medians of five runs; and the peak memory
# of `activity export` and `activity report` on a generated recording of 500,501 activities.
# A missing dependency skips its comparison, and says so. Results: bench-results/compare.json.
#
#   Benchmarks/compare.sh            # uses bench-results/results.json (or $BENCH_RESULTS/), running activity-bench if absent
#   pip install tqdm rich; apt-get install librust-indicatif-dev cargo   # the competitors
set -uo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_RESULTS:-bench-results}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -f "$out/results.json" ]; then
    echo "no $out/results.json yet: running activity-bench" >&2
    swift run -c release activity-bench --output "$out" >/dev/null || { echo "activity-bench failed" >&2; exit 1; }
fi

echo "measuring tqdm, rich and the activity Python package…" >&2
if command -v python3 >/dev/null; then
    make -s -C Sources/CActivity BUILD="$work/libactivity" >/dev/null
    ACTIVITY_LIBRARY="$work/libactivity/libactivity.so.0" PYTHONPATH="$PWD/Python/src" \
        python3 Benchmarks/compare/python_loops.py >"$work/python.json" || echo '{}' >"$work/python.json"
else
    echo "skipped tqdm and rich: python3 is not installed" >&2
    echo '{}' >"$work/python.json"
fi

echo "measuring indicatif…" >&2
registry=/usr/share/cargo/registry
if command -v cargo >/dev/null && compgen -G "$registry/indicatif-*" >/dev/null; then
    mkdir -p "$work/indicatif/src" "$work/indicatif/.cargo"
    cp Benchmarks/compare/indicatif_loop.rs "$work/indicatif/src/main.rs"
    version=$(basename "$(ls -d "$registry"/indicatif-* | sort -V | tail -1)" | sed 's/^indicatif-//')
    cat >"$work/indicatif/Cargo.toml" <<TOML
[package]
name = "indicatif-loop"
version = "0.1.0"
edition = "2021"
[dependencies]
indicatif = "=$version"
[profile.release]
opt-level = 3
TOML
    cat >"$work/indicatif/.cargo/config.toml" <<TOML
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "$registry"
TOML
    if (cd "$work/indicatif" && cargo build --release --offline -q 2>"$work/cargo.log"); then
        "$work/indicatif/target/release/indicatif-loop" 2>/dev/null >"$work/indicatif.json" || echo '{}' >"$work/indicatif.json"
    else
        echo "skipped indicatif: it did not build offline (see below)" >&2
        tail -5 "$work/cargo.log" >&2
        echo '{}' >"$work/indicatif.json"
    fi
else
    echo "skipped indicatif: needs cargo and Debian's librust-indicatif-dev (apt-get install librust-indicatif-dev)" >&2
    echo '{}' >"$work/indicatif.json"
fi

echo "measuring activity render beside tqdm, pv and wc counting the same lines…" >&2
# Five runs of each, on the same generated file: the figures are the medians, and their
# ratios. `activity render` runs without a history file, as activity-bench measures it, and
# once more with one, as it runs by default: in a state directory of its own, empty before the
# first of the five runs, so the others read and write what the runs before them kept.
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
swift build -c release --static-swift-stdlib --product activity >/dev/null && \
    swift build -c release --static-swift-stdlib --product activity-bench >/dev/null
"$bin/activity-bench" --write-stream progress "$work/progress.jsonl" 1000000
"$bin/activity-bench" --write-stream mix "$work/mix.jsonl" 1000000
python3 - "$bin/activity" "$work" >"$work/lines.json" <<'PY'
import json, shutil, subprocess, sys, time
activity, work = sys.argv[1], sys.argv[2]
import os
render = lambda f: [activity, "render", "--mode", "plain", f]
tools = {
    "activity render --mode plain": (render, {"ACTIVITY_HISTORY": "off"}),
    "activity render --mode plain, with its history": (render, None),
    "tqdm counting lines (python3 -m tqdm)": (lambda f: [sys.executable, "-m", "tqdm"], {}),
    "pv -l": (lambda f: ["pv", "-l", "-q"], {}),
    "wc -l": (lambda f: ["wc", "-l"], {}),
}
result = {}
for stream in ["progress", "mix"]:
    path = f"{work}/{stream}.jsonl"
    lines = sum(1 for _ in open(path, "rb"))
    for name, (command, settings) in tools.items():
        argv = command(path)
        env = dict(os.environ, **(settings or {}))
        if settings is None:
            state = f"{work}/state-{stream}"
            shutil.rmtree(state, ignore_errors=True)
            env.pop("ACTIVITY_HISTORY", None)
            env["XDG_STATE_HOME"] = state
        if shutil.which(argv[0]) is None and not argv[0].startswith("/"):
            continue
        if name.startswith("tqdm"):
            try:
                import tqdm  # noqa: F401
            except ImportError:
                continue
        runs = []
        for _ in range(5):
            with open(path, "rb") as source:
                start = time.perf_counter()
                subprocess.run(
                    argv, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
                runs.append(time.perf_counter() - start)
        seconds = sorted(runs)[len(runs) // 2]
        result.setdefault(stream, {})[name] = {"seconds": seconds, "linesPerSecond": lines / seconds}
json.dump(result, sys.stdout)
PY
python3 - "$work/lines.json" <<'PY'
import json, sys
for stream, tools in json.load(open(sys.argv[1])).items():
    ours = tools.get("activity render --mode plain")
    print(f"{stream} stream, 1 M lines:")
    for name, figure in tools.items():
        ratio = f"activity render {ours['linesPerSecond'] / figure['linesPerSecond']:.2f}× as fast" if ours and figure is not ours else ""
        print(f"  {name:48} {figure['linesPerSecond'] / 1e6:6.2f} M lines/s  {figure['seconds']:6.3f} s  {ratio}")
PY

echo "measuring the peak memory of activity export and report on a recording of 500,501 activities…" >&2
python3 Benchmarks/compare/export_memory.py "$bin/activity" "$work" >"$work/memory.json" || echo '{}' >"$work/memory.json"

python3 - "$out/results.json" "$work/python.json" "$work/indicatif.json" "$out/compare.json" "$work/lines.json" \
    "$work/memory.json" <<'PY'
import json, sys
ours = {f["name"]: f["median"] for f in json.load(open(sys.argv[1]))["figures"]}
theirs = {}
for path in sys.argv[2:4]:
    theirs.update(json.load(open(path)))
python_pairs = [
    ("tqdm update(1)", "python activity advance()"),
    ("tqdm(iterable), per item", "python activity.track(iterable), per item"),
    ("tqdm update(1)", "python activity.tqdm update(1)"),
    ("tqdm(iterable), per item", "python activity.tqdm(iterable), per item"),
]
python_rows = []
for tqdm_name, ours_name in python_pairs:
    tqdm_ns, ours_ns = theirs.get(tqdm_name), theirs.pop(ours_name, None)
    if tqdm_ns and ours_ns:
        python_rows.append({"tqdm": tqdm_name, "ours": ours_name, "tqdmNs": tqdm_ns, "oursNs": ours_ns,
                            "timesFasterThanTqdm": tqdm_ns / ours_ns})
        print(f"Python: {ours_name} {ours_ns:.1f} ns, {tqdm_name} {tqdm_ns:.1f} ns: {tqdm_ns / ours_ns:.2f}× as fast")
    else:
        print(f"Python: {ours_name} beside {tqdm_name}: skipped (tqdm or the package is missing)")
theirs.pop("tqdm(iterable), per item", None)  # compared above, not with the Swift and C calls
mine = {
    "Swift advance(by: 1)": ours.get("Swift advance(by: 1), one thread, sink attached"),
    "C activity_advance": ours.get("C activity_advance, one thread, sink attached"),
}
rows = []
print(f"{'library call':32} {'ns/call':>10} " + " ".join(f"{'× ' + k:>24}" for k in mine))
for name, ns in sorted(theirs.items()):
    if ns is None:
        print(f"{name:32} {'skipped: not installed':>10}")
        continue
    ratios = {k: (ns / v if v else None) for k, v in mine.items()}
    rows.append({"call": name, "nsPerCall": ns, "timesSlowerThanOurs": ratios})
    print(f"{name:32} {ns:10.1f} " + " ".join(f"{(f'{r:.1f}×' if r else '—'):>24}" for r in ratios.values()))
for k, v in mine.items():
    print(f"{'ours: ' + k:32} {(f'{v:10.2f}' if v else '   missing'):>10}")
lines = json.load(open(sys.argv[5]))
memory = json.load(open(sys.argv[6]))
json.dump({"ours": mine, "theirs": rows, "python": python_rows, "lineCounting": lines, "exportMemory": memory},
          open(sys.argv[4], "w"), indent=2)
PY
echo "written to $out/compare.json" >&2
