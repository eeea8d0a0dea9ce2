"""Times `activity render` (live display and plain lines) beside tqdm counting the same lines and
`wc -l` reading the bytes, on every stream Benchmarks/ingest.sh wrote, and the decoder on each
stream beside the same events in canonical form (`activity-bench --ingest`). Prints JSON.

    python3 ingest_measure.py ACTIVITY ACTIVITY_BENCH RUNS STREAM.jsonl...

Every figure is the best of RUNS runs: the machine is shared, and the fastest run is the one
least disturbed. The tools take turns within each round, so a busy moment falls on all of them.
"""
import json
import os
import subprocess
import sys
import time

activity, bench, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
streams = sys.argv[4:]

base = dict(os.environ, ACTIVITY_HISTORY="off")
base.pop("CI", None)
# The live display as a terminal of 100×30 shows it: its frames go to /dev/null, as
# activity-bench's renderer-CPU figure draws them.
tty = dict(base, COLUMNS="100", LINES="30", TERM="xterm-256color", LANG="C.UTF-8")
TOOLS = {
    "live": ([activity, "render", "--mode", "tty"], tty),
    "plain": ([activity, "render", "--mode", "plain"], base),
    "tqdm": ([sys.executable, "-m", "tqdm"], base),
    "wc": (["wc", "-l"], base),
}


def seconds(argv, env, path):
    with open(path, "rb") as source:
        start = time.perf_counter()
        subprocess.run(argv, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        return time.perf_counter() - start


result = {}
for path in streams:
    name = os.path.basename(path).removesuffix(".jsonl")
    print(f"measuring {name}…", file=sys.stderr)
    best = {}
    for _ in range(runs):
        for tool, (argv, env) in TOOLS.items():
            elapsed = seconds(argv, env, path)
            best[tool] = min(best.get(tool, elapsed), elapsed)
    decoder = json.loads(
        subprocess.run([bench, "--runs", str(runs), "--ingest", path], check=True, capture_output=True).stdout)
    result[name] = {
        "lines": decoder["lines"],
        "bytes": os.path.getsize(path),
        "seconds": best,
        "decoder": decoder,
        "ratios": {
            "liveVsTqdm": best["tqdm"] / best["live"],
            "plainVsTqdm": best["tqdm"] / best["plain"],
            "liveVsWc": best["live"] / best["wc"],
            "plainVsWc": best["plain"] / best["wc"],
            "decodeCanonicalVsAsWritten": decoder["decodeCanonical"] / decoder["decodeAsWritten"],
            "foldCanonicalVsAsWritten": decoder["foldCanonical"] / decoder["foldAsWritten"],
        },
    }
json.dump(result, sys.stdout, indent=2)
