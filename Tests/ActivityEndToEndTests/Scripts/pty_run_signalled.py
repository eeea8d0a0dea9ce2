#!/usr/bin/env python3
"""Runs `activity run --mode tty -- sh -c 'seq 1 LINES'` RUNS times on a pseudo-terminal, and
signals `activity` between this script's reads, thousands of times a run: SIGNAL `winch` resizes
the pty (99 and 100 columns in turn, so each resize is a SIGWINCH), `tstp` sends SIGTSTP (a
Ctrl-Z; `activity` leads an orphaned process group here, so it gives the terminal back and carries
on). Every run must show the last line and exit 0 within BOUND seconds; one that does not is
reported with the wchan of its threads and gdb's backtraces, and the script exits 1.
`activity`'s handler used to iterate an array, which allocates in a debug build: a signal that
came while the main thread was in `malloc` deadlocked on the allocator's lock.

    pty_run_signalled.py ACTIVITY RUNS LINES BOUND SIGNAL

Prints "ok RUNS runs" when every run exited.
"""
import fcntl
import os
import signal
import struct
import sys
import termios
import time

from pty_reading import describe, read_until_exit, start_on_pty

activity, runs, lines, bound = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
resizing = {"winch": True, "tstp": False}[sys.argv[5]]
command = [activity, "run", "--mode", "tty", "--", "sh", "-c", f"seq 1 {lines}"]


def run_once(index):
    pid, master = start_on_pty(command)
    signals = 0

    def signal_it(output):
        nonlocal signals
        if resizing:
            fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100 - signals % 2, 0, 0))
            signals += 1
        elif output:  # once it runs: before its exec, the child is still Python
            os.kill(pid, signal.SIGTSTP)
            signals += 1

    output, status, _ = read_until_exit(pid, master, time.monotonic() + bound, wait=0.001, between_reads=signal_it)
    if status is None:
        print(f"run {index} had not exited after {bound} s ({len(output)} bytes read, {signals} signals):")
        print(describe(pid))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return False
    os.close(master)
    if os.waitstatus_to_exitcode(status) != 0 or f"\n{lines}\r".encode() not in output:
        print(f"run {index}: status {os.waitstatus_to_exitcode(status)}, last output {bytes(output[-300:])!r}")
        return False
    return True


for index in range(runs):
    if not run_once(index):
        sys.exit(1)
print(f"ok {runs} runs")
