"""Writes the protocol streams other producers write, for Benchmarks/ingest.sh: the same kinds of
event as activity-bench's canonical streams, encoded by Python's json module in the key orders,
separators, escapes and number forms that producers use instead of ours.

    python3 Benchmarks/compare/third_party_streams.py DIR [EVENTS]

Writes DIR/NAME.jsonl for every stream in STREAMS (about EVENTS lines each, default 1,000,000)
and prints their names. Deterministic: the same arguments write the same bytes.
"""
import json
import random
import sys

START = 1_764_417_600.0
PREFIX = "3f9c2a71d04be815."


def progress_events(count):
    """100 activities, each begun, then `count` progress updates among them, then ended: the
    events of `activity-bench --write-stream progress`, as dicts in our encoder's key order."""
    ids = [f"{PREFIX}{n}" for n in range(100)]
    for n, id in enumerate(ids):
        yield {"v": 1, "type": "begin", "id": id, "title": f"Compiling module {n}", "total": 1_000_000}
    for i in range(count):
        yield {"v": 1, "type": "progress", "ts": START + i / 1000, "id": ids[i % 100], "completed": i // 100}
    for id in ids:
        yield {"v": 1, "type": "end", "id": id}


def build_events(count, message_every):
    """A build: a root, 8 targets, files under them 8 at a time; per file a begin, 17 progress
    updates (a message on every `message_every`th, with non-ASCII text), a warning and an end."""
    time = START

    def stamp():
        nonlocal time
        time += 0.0001
        return round(time, 6)

    root = PREFIX + "0"
    yield {"v": 1, "type": "begin", "ts": stamp(), "id": root, "title": "Build swift-activity"}
    targets = [f"{PREFIX}{n}" for n in range(1, 9)]
    for n, target in enumerate(targets):
        yield {"v": 1, "type": "begin", "ts": stamp(), "id": target, "title": f"Compile target {n}", "parent": root}
    file, written = 100, 9
    while written < count:
        group = [(f"{PREFIX}{file + k}", targets[k]) for k in range(8)]
        for id, parent in group:
            yield {"v": 1, "type": "begin", "ts": stamp(), "id": id, "parent": parent,
                   "title": f"Compiling Fichier{file}.swift", "total": 17, "unit": "étapes"}
        for step in range(1, 18):
            for id, _ in group:
                event = {"v": 1, "type": "progress", "ts": stamp(), "id": id, "completed": float(step)}
                if step % message_every == 0:
                    event["message"] = f"passe {step} — «optimisation» ✓"
                yield event
        for id, _ in group:
            yield {"v": 1, "type": "log", "ts": stamp(), "id": id, "level": "warning",
                   "message": "warning: variable 'x' was never used\tsee \"Main.swift\""}
        for id, _ in group:
            yield {"v": 1, "type": "end", "ts": stamp(), "id": id}
        file += 8
        written += 8 * 20
    for target in targets:
        yield {"v": 1, "type": "end", "ts": stamp(), "id": target}
    yield {"v": 1, "type": "end", "ts": stamp(), "id": root}


def reorder(event, first, last):
    """The event with the keys of `first` first and those of `last` last, the rest between."""
    keys = [k for k in first if k in event]
    keys += [k for k in event if k not in first and k not in last]
    keys += [k for k in last if k in event]
    return {k: event[k] for k in keys}


def python_sorted(count):
    # json.dumps' defaults: ", " and ": ", keys sorted; ASCII escapes for anything else.
    return (json.dumps(e, sort_keys=True) for e in progress_events(count))


def producer_order(count):
    # A producer's own dict order (id first, v last), compact, a message on every 4th update,
    # non-ASCII text as \u escapes (ensure_ascii), counts as floats ("4.0").
    return (json.dumps(reorder(e, ["id"], ["v"]), separators=(",", ":")) for e in build_events(count, 4))


def ts_last(count):
    return (json.dumps(reorder(e, [], ["ts"]), separators=(",", ":")) for e in progress_events(count))


def build_mix(count):
    # A message on every update, UTF-8 kept as it is, json.dumps' default separators.
    return (json.dumps(e, ensure_ascii=False) for e in build_events(count, 1))


def shuffled(count):
    shuffle = random.Random(30)

    def line(event):
        keys = list(event)
        shuffle.shuffle(keys)
        return json.dumps({k: event[k] for k in keys}, separators=(",", ":"), ensure_ascii=False)

    return (line(e) for e in build_events(count, 4))


STREAMS = {
    "python-sorted": python_sorted,
    "producer-order": producer_order,
    "ts-last": ts_last,
    "build-mix": build_mix,
    "shuffled": shuffled,
}

if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    directory = sys.argv[1]
    events = int(sys.argv[2]) if len(sys.argv) == 3 else 1_000_000
    for name, lines in STREAMS.items():
        with open(f"{directory}/{name}.jsonl", "w", encoding="utf-8") as out:
            for line in lines(events):
                out.write(line)
                out.write("\n")
        print(name)
