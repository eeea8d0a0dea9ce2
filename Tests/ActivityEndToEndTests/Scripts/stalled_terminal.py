#!/usr/bin/env python3
"""Runs `activity run --mode tty -v --log-file LOG --log-format jsonl -- SCRIPT` on a pseudo-terminal
of 100x30 whose master this script does not read until SCRIPT writes the fifo GATE: a terminal
that takes nothing (paused with Ctrl-S, or a stalled emulator). Then reads everything and waits
for the run to exit. Prints what it read, then "status N"; exits 1 when the gate was not written
within BOUND seconds or the run had not exited BOUND seconds later.

    stalled_terminal.py BOUND GATE LOG SCRIPT ACTIVITY
"""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time

from pty_reading import read_until_exit

bound, gate, log, script, activity = float(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]

# Opened before the fork, so the script's open of the other end never waits for this one.
gate_fd = os.open(gate, os.O_RDONLY | os.O_NONBLOCK)
pid, master = pty.fork()
if pid == 0:
    try:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        os.execv(activity, [activity, "run", "--mode", "tty", "-v", "--log-file", log, "--log-format", "jsonl",
                            "--", script])
    finally:
        os._exit(127)


def give_up(why):
    print(why)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    sys.exit(1)


deadline = time.monotonic() + bound
while True:
    if select.select([gate_fd], [], [], 0.1)[0]:
        if os.read(gate_fd, 64):
            break
        time.sleep(0.01)  # end of file: no writer yet
    if time.monotonic() > deadline:
        give_up(f"the script did not reach its end within {bound} s while the terminal took nothing")
output, status, _ = read_until_exit(pid, master, time.monotonic() + bound)
if status is None:
    give_up(f"activity had not exited {bound} s after the terminal was read again")
print(output.decode(errors="replace"))
print("status", os.waitstatus_to_exitcode(status))
