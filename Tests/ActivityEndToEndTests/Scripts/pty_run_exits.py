#!/usr/bin/env python3
"""Runs `activity run --mode tty -- sh -c 'seq 1 LINES'` RUNS times, each on a pseudo-terminal
of 100x30 whose master this script reads as fast as it can (a `pty.fork()` parent, as a terminal
emulator is), while two busy loops keep both cores loaded. Every run must show the last line and
exit 0; one that has not exited BOUND seconds after it started is a hang: the script prints what
each of the run's processes waits in (state, wchan of every thread, and gdb's backtraces when
gdb is installed), kills it and exits 1.

    pty_run_exits.py ACTIVITY RUNS LINES BOUND

Prints "ok RUNS runs" when every run exited.
"""
import os
import signal
import subprocess
import sys
import time

from pty_reading import describe, read_until_exit, start_on_pty

activity, runs, lines, bound = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
command = [activity, "run", "--mode", "tty", "--", "sh", "-c", f"seq 1 {lines}"]


def run_once(index):
    pid, master = start_on_pty(command)
    output, status, reading = read_until_exit(pid, master, time.monotonic() + bound)
    if status is None:
        print(f"run {index} had not exited after {bound} s ({len(output)} bytes read, "
              f"{'reading' if reading else 'output ended'}):")
        print(describe(pid))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return False
    os.close(master)
    if os.waitstatus_to_exitcode(status) != 0 or f"\n{lines}\r".encode() not in output:
        print(f"run {index}: status {os.waitstatus_to_exitcode(status)}, last output {bytes(output[-300:])!r}")
        return False
    return True


busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(2)]
try:
    for index in range(runs):
        if not run_once(index):
            sys.exit(1)
    print(f"ok {runs} runs")
finally:
    for loop in busy:
        loop.kill()
        loop.wait()
