#!/usr/bin/env python3
"""Runs `activity run --mode tty -- COMMAND...` in a shell on a pseudo-terminal of 100x30, then
`stty -a` in the same shell, reads the master to its end, and prints what the terminal got:

    pty_run_output.py ACTIVITY COMMAND...

Prints "carriage returns doubled: N" (line ends written as "\\r\\r\\n": the kernel's output
processing turning the display's own "\\r\\n" into two carriage returns), "rows: R" (the command's
rows found as "ROW\\r\\n", for the rows the command printed as "row N"), and "after: opost" or
"after: -opost" (the terminal's output processing once the run is over).
"""
import re
import sys
import time

from pty_reading import read_until_exit, start_on_pty

activity, command = sys.argv[1], sys.argv[2:]
quoted = " ".join("'" + part.replace("'", "'\\''") + "'" for part in [activity, "run", "--mode", "tty", "--"] + command)
pid, master = start_on_pty(["/bin/sh", "-c", quoted + "; stty -a"])
output, status, _ = read_until_exit(pid, master, time.monotonic() + 60)
if status is None:
    print("the run did not end within 60 s")
    sys.exit(1)
doubled = output.count(b"\r\r\n")
rows = len(re.findall(rb"row [0-9]+\r\n", bytes(output)))
print(f"carriage returns doubled: {doubled}")
print(f"rows: {rows}")
flags = re.findall(rb"(?<![\w-])(-?opost)\b", bytes(output))
print(f"after: {flags[-1].decode() if flags else 'unknown'}")
