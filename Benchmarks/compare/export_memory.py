#!/usr/bin/env python3
"""Peak memory of `activity export` and `activity report` on a large recording.

Generates the recording with timeline_recording.py (a root, SUITES suites, TESTS tests each:
500,501 activities by default), runs each command once on it, and reads the child's peak
resident set from wait4's rusage. Prints a table on standard error and JSON on standard output.

    python3 Benchmarks/compare/export_memory.py ACTIVITY WORKDIR [--suites 500] [--tests 1000]
"""
import argparse
import json
import os
import subprocess
import sys
import time

TARGET_MB = 200


def measure(argv: list[str]) -> dict:
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    problems = child.stderr.read().decode(errors="replace")
    if child.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {child.returncode}: {problems}")
    return {"peakMB": usage.ru_maxrss / 1024, "seconds": seconds}  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("activity")
    parser.add_argument("work")
    parser.add_argument("--suites", type=int, default=500)
    parser.add_argument("--tests", type=int, default=1000)
    arguments = parser.parse_args()
    recording = os.path.join(arguments.work, "timeline.jsonl")
    generator = os.path.join(os.path.dirname(os.path.abspath(__file__)), "timeline_recording.py")
    with open(recording, "w") as out:
        subprocess.run(
            [sys.executable, generator, "--suites", str(arguments.suites), "--tests", str(arguments.tests)],
            stdout=out, check=True)
    activities = 1 + arguments.suites * (1 + arguments.tests)
    commands = {
        "export --format chrome-trace": ["export", "--format", "chrome-trace"],
        "export --format otlp-json": ["export", "--format", "otlp-json"],
        "report": ["report"],
        "report --format svg": ["report", "--format", "svg"],
    }
    result = {"activities": activities, "recordingMB": os.path.getsize(recording) / 1e6, "targetMB": TARGET_MB,
              "commands": {}}
    print(f"{activities:,} activities, a {result['recordingMB']:.0f} MB recording:", file=sys.stderr)
    for name, arguments_ in commands.items():
        output = os.path.join(arguments.work, "timeline.out")
        figure = measure([arguments.activity, *arguments_, "-o", output, recording])
        figure["outputMB"] = os.path.getsize(output) / 1e6
        os.remove(output)
        result["commands"][name] = figure
        verdict = "within" if figure["peakMB"] <= TARGET_MB else "over"
        print(f"  activity {name:30} peak {figure['peakMB']:6.0f} MB ({verdict} {TARGET_MB} MB), "
              f"{figure['seconds']:5.1f} s, writes {figure['outputMB']:.0f} MB", file=sys.stderr)
    os.remove(recording)
    json.dump(result, sys.stdout, indent=2)


if __name__ == "__main__":
    main()
