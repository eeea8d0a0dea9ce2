#!/usr/bin/env python3
"""A structural checker for the Trace Event Format, written from its specification
(https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU), and a
comparison with the recording the trace was made from.

    check_trace_events.py RECORDING.jsonl TRACE.json

Checks: the JSON Object Format (traceEvents, displayTimeUnit ms|ns); every event has a known
phase, a name, integer pid and tid, a numeric ts in microseconds; X events a dur >= 0; B/E and
X events on one thread nest properly; b/e async events pair up by (cat, id) with the end after the
begin; C counters carry numeric args; M metadata names the process and thread; i instant events a
valid scope. Then the recording: every activity is exactly one slice (X, or a b/e pair) whose start
and duration equal the recording's to the microsecond, and whose args name its id.
Prints "ok N slices" or the problems.
"""
import json
import sys

recording_path, trace_path = sys.argv[1], sys.argv[2]
trace = json.load(open(trace_path, encoding="utf-8"))
problems = []
def expect(condition, message):
    if not condition:
        problems.append(message)

expect(isinstance(trace, dict) and isinstance(trace.get("traceEvents"), list), "no traceEvents array")
expect(trace.get("displayTimeUnit", "ms") in ("ms", "ns"), "displayTimeUnit")
events = trace["traceEvents"]
phases = set("BEXiIbneCMsftPOND(),R")
slices, stacks, async_open, metadata = {}, {}, {}, set()
for number, event in enumerate(events):
    where = "event %d" % number
    ph = event.get("ph")
    expect(ph in phases, "%s: phase %r" % (where, ph))
    expect(isinstance(event.get("name"), str), "%s: name" % where)
    expect(isinstance(event.get("pid"), int) and isinstance(event.get("tid"), int), "%s: pid/tid" % where)
    if ph == "M":
        metadata.add(event["name"])
        expect(isinstance(event.get("args", {}).get("name"), str), "%s: metadata args.name" % where)
        continue
    expect(isinstance(event.get("ts"), (int, float)) and event["ts"] >= 0, "%s: ts" % where)
    args = event.get("args", {})
    if ph == "X":
        expect(isinstance(event.get("dur"), (int, float)) and event["dur"] >= 0, "%s: dur" % where)
        key = (event["pid"], event["tid"])
        stacks.setdefault(key, []).append((event["ts"], event["ts"] + event["dur"], number))
        slices.setdefault(args.get("id"), []).append((event["ts"], event["dur"]))
    elif ph == "b":
        key = (event.get("cat"), event.get("id"))
        expect(key[1] is not None and key[0] is not None, "%s: async begin without cat and id" % where)
        expect(key not in async_open, "%s: async id %s begun twice" % (where, key))
        async_open[key] = (event["ts"], args.get("id"))
    elif ph == "e":
        key = (event.get("cat"), event.get("id"))
        begin = async_open.pop(key, None)
        expect(begin is not None, "%s: async end without begin %s" % (where, key))
        if begin:
            expect(event["ts"] >= begin[0], "%s: async end before its begin" % where)
            slices.setdefault(begin[1], []).append((begin[0], event["ts"] - begin[0]))
    elif ph == "C":
        expect(args and all(isinstance(v, (int, float)) for v in args.values()), "%s: counter args" % where)
    elif ph in "iI":
        expect(event.get("s", "t") in ("g", "p", "t"), "%s: instant scope" % where)
expect(not async_open, "async begins without an end: %s" % list(async_open))
expect({"process_name", "thread_name"} <= metadata, "process and thread names")

# X events on one thread must nest: sorted by start (longer first), each inside the enclosing one.
for key, spans in stacks.items():
    stack = []
    for start, end, number in sorted(spans, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1][1] <= start and not (stack[-1][1] == start and stack[-1][0] == start):
            stack.pop()
        if stack:
            expect(end <= stack[-1][1], "event %d overlaps event %d on thread %s without nesting"
                   % (number, stack[-1][2], key))
        stack.append((start, end, number))

begins, ends = {}, {}
for line in open(recording_path, encoding="utf-8"):
    line = line.strip()
    if not line.startswith("{"):
        continue
    event = json.loads(line)
    if event.get("type") == "begin":
        begins[event["id"]] = event["ts"]
    elif event.get("type") == "end":
        ends[event["id"]] = event["ts"]
origin = min(begins.values())
for activity_id, start in begins.items():
    found = slices.get(activity_id, [])
    expect(len(found) == 1, "%s: %d slices" % (activity_id, len(found)))
    if len(found) == 1 and activity_id in ends:
        ts, dur = found[0]
        expect(abs(ts - (start - origin) * 1e6) <= 1, "%s: ts %s vs %s" % (activity_id, ts, start))
        expect(abs(dur - (ends[activity_id] - start) * 1e6) <= 2, "%s: dur %s" % (activity_id, dur))
expect(set(slices) - {None} <= set(begins), "slices for unknown ids")

if problems:
    print("\n".join(problems[:50]))
    sys.exit(1)
print("ok %d slices" % sum(len(v) for v in slices.values()))
