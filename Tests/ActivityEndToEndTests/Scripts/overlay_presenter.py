#!/usr/bin/env python3
"""A presenter of `activity run --mode overlay-jsonl`, as an app would be: it starts activity
with a pipe for cancel requests, reads the overlay states, and once the overlay offers Cancel,
"taps" it by writing REQUEST to the pipe (several times: one cancel must come of it).

    overlay_presenter.py ACTIVITY 'REQUEST' -- COMMAND...

REQUEST may hold {id}, replaced by the id the command prints on a line "id: ID" on its
standard error (the command's output reaches activity's standard error under overlay-jsonl).
Prints activity's exit status ("status N"), then its standard error.
"""
import json
import os
import subprocess
import sys
import threading

activity, request = sys.argv[1], sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1:]
read_end, write_end = os.pipe()
child = subprocess.Popen(
    [activity, "run", "--mode", "overlay-jsonl", "--control", f"fd:{read_end}", "--", *command],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=[read_end])
os.close(read_end)

errors = []
named = threading.Event()
ids = []


def read_errors():
    for line in child.stderr:
        text = line.decode("utf-8", "replace")
        errors.append(text)
        if text.startswith("id: "):
            ids.append(text[4:].strip())
            named.set()


reader = threading.Thread(target=read_errors)
reader.start()
tapped = False
for line in child.stdout:
    state = json.loads(line)
    if not tapped and state.get("cancel") == "available":
        if "{id}" in request:
            named.wait(60)
            line = request.replace("{id}", ids[0] if ids else "missing")
        else:
            line = request
        for _ in range(3):
            os.write(write_end, (line + "\n").encode())
        tapped = True
os.close(write_end)
status = child.wait()
reader.join()
print(f"status {status}")
print("".join(errors), end="")
