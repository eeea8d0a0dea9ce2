#!/usr/bin/env bash
# Measures `activity render` on streams other producers write, beside tqdm counting the same
# lines and `wc -l` reading the bytes, as ratios from one run: libactivity's own output of a test
# suite, Python's json module in sorted key order with its default separators, a producer's own
# key order with \u escapes, progress with "ts" last, a nested build mix with a message on every
# update, the mix with shuffled keys, and our own canonical stream. Also the decoder on each
# stream beside the same events re-encoded in canonical form. Best of RUNS runs of each.
#
#   Benchmarks/ingest.sh [EVENTS [RUNS]]   # default 1000000 events, 3 runs
#
# Results: bench-results/ingest.json and ingest.md (or $BENCH_RESULTS/). Needs python3 with
# tqdm (pip install tqdm), cc and json-c (for libactivity).
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
runs=${2:-3}
out=${BENCH_RESULTS:-bench-results}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -c 'import tqdm' 2>/dev/null || { echo "ingest.sh needs tqdm: pip install tqdm" >&2; exit 1; }
echo "building activity, activity-bench and libactivity…" >&2
swift build -c release --static-swift-stdlib --product activity >/dev/null
swift build -c release --static-swift-stdlib --product activity-bench >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
make -s -C Sources/CActivity BUILD="$work/libactivity" "$work/libactivity/libactivity.a" >/dev/null
# shellcheck disable=SC2046 # pkg-config prints several flags
cc -O2 -std=c11 -ISources/CActivity/include -o "$work/suite" Benchmarks/compare/libactivity_suite.c \
    "$work/libactivity/libactivity.a" $(pkg-config --libs json-c) -lpthread -lm

echo "writing the streams…" >&2
# A test is a begin and an end: EVENTS/2 tests make about EVENTS lines.
ACTIVITY_SINK="file:$work/libactivity.jsonl" "$work/suite" $((events / 2))
python3 Benchmarks/compare/third_party_streams.py "$work" "$events" >/dev/null
"$bin/activity-bench" --write-stream progress "$work/canonical.jsonl" "$events"

streams=()
for name in libactivity python-sorted producer-order ts-last build-mix shuffled canonical; do
    streams+=("$work/$name.jsonl")
done
python3 Benchmarks/compare/ingest_measure.py "$bin/activity" "$bin/activity-bench" "$runs" "${streams[@]}" \
    >"$work/ingest.json"
cp "$work/ingest.json" "$out/ingest.json"
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(uname -sr)"
python3 Benchmarks/compare/ingest_table.py "$out/ingest.json" "$machine" "$runs" >"$out/ingest.md"
cat "$out/ingest.md"
echo "written to $out/ingest.json and $out/ingest.md" >&2
