"""The Markdown tables of Benchmarks/ingest.sh's results: ratios first, then the absolute figures
with the machine they came from.

    python3 ingest_table.py ingest.json MACHINE RUNS > ingest.md
"""
import json
import sys

results = json.load(open(sys.argv[1]))
machine, runs = sys.argv[2], sys.argv[3]

LABELS = {
    "libactivity": "libactivity's own output of a test suite (begin/end pairs, nested; 500,000 tests at 1 M events)",
    "python-sorted": "Python `json.dumps(sort_keys=True)` (alphabetical keys, `\", \"` and `\": \"`)",
    "producer-order": "a producer's own key order (id first, v last), a message on every 4th update, `\\u` escapes",
    "ts-last": "progress with `ts` last",
    "build-mix": "a nested build mix with a message on every update (`\", \"`, `\": \"`, UTF-8)",
    "shuffled": "the build mix with its keys shuffled on every line",
    "canonical": "`activity-bench --write-stream progress` (our canonical order)",
}


def mark(value, target, higher):
    met = value >= target if higher else value <= target
    return f"{value:.2f}× {'✔' if met else '✖'}"


print(f"Best of {runs} runs of each, on {machine}; the tools take turns within each run.\n")
print("| stream | live display vs tqdm (≥ 3×) | plain lines vs tqdm (≥ 3×) | live vs `wc -l` (≤ 10×) "
      "| plain vs `wc -l` (≤ 10×) | decode: as written ÷ canonical (≤ 1.3×) |")
print("|---|---:|---:|---:|---:|---:|")
for name, r in results.items():
    q = r["ratios"]
    print(f"| {LABELS.get(name, name)} | {mark(q['liveVsTqdm'], 3, True)} | {mark(q['plainVsTqdm'], 3, True)} "
          f"| {mark(q['liveVsWc'], 10, False)} | {mark(q['plainVsWc'], 10, False)} "
          f"| {mark(q['decodeCanonicalVsAsWritten'], 1.3, False)} |")
print("\nAbsolute figures (seconds, best run; decoder in million events per second):\n")
print("| stream | lines | MB | live | plain | tqdm | `wc -l` | decode as written | decode canonical "
      "| decode + fold as written | decode + fold canonical |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, r in results.items():
    s, d = r["seconds"], r["decoder"]
    print(f"| {name} | {r['lines']:,} | {r['bytes'] / 1e6:.0f} | {s['live']:.3f} | {s['plain']:.3f} "
          f"| {s['tqdm']:.3f} | {s['wc']:.4f} | {d['decodeAsWritten'] / 1e6:.2f} | {d['decodeCanonical'] / 1e6:.2f} "
          f"| {d['foldAsWritten'] / 1e6:.2f} | {d['foldCanonical'] / 1e6:.2f} |")
