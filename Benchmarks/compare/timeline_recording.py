#!/usr/bin/env python3
"""Writes a recording like a large test run's, for measuring `activity export` and `report`.

One root activity, SUITES suites under it, TESTS tests in each: every activity a `begin` and an
`end` line with `ts`, as `--log-file PATH --log-format jsonl` records them (ids with a 64-bit
hex prefix, as libactivity makes them). Every 97th test fails with an error; nothing else is
random, so the same arguments give the same bytes.

    python3 Benchmarks/compare/timeline_recording.py [--suites 500] [--tests 1000] > run.jsonl
"""
import argparse
import json
import sys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", type=int, default=500)
    parser.add_argument("--tests", type=int, default=1000)
    arguments = parser.parse_args()
    out = sys.stdout
    prefix = "5f3c9a1e7b2d4c60"
    clock = 1_700_000_000.0
    counter = 0

    def line(fields: dict) -> None:
        out.write(json.dumps(fields, separators=(",", ":")) + "\n")

    def begin(parent, title):
        nonlocal counter
        counter += 1
        identifier = f"{prefix}.{counter}"
        fields = {"v": 1, "type": "begin", "ts": round(clock, 6), "id": identifier}
        if parent:
            fields["parent"] = parent
        fields["title"] = title
        line(fields)
        return identifier

    def end(identifier, status="success", error=None):
        fields = {"v": 1, "type": "end", "ts": round(clock, 6), "id": identifier, "status": status}
        if error:
            fields["error"] = error
        line(fields)

    root = begin(None, "Test run")
    test = 0
    for suite in range(arguments.suites):
        suite_id = begin(root, f"Suite{suite}Tests")
        for case in range(arguments.tests):
            test += 1
            case_id = begin(suite_id, f"test{case}_behavesAsDocumented()")
            clock += 0.000137
            if test % 97 == 0:
                end(case_id, "failure", f"Expectation failed: value {test} != {test + 1}")
            else:
                end(case_id)
        clock += 0.001
        end(suite_id)
    end(root)


if __name__ == "__main__":
    main()
