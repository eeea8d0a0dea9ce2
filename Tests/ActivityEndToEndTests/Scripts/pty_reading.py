"""Reading a program on a pseudo-terminal to its end, and what it waits in when it does not end,
for the test scripts beside this one."""
import fcntl
import os
import pty
import select
import shutil
import struct
import subprocess
import termios
import time


def start_on_pty(argv, rows=30, columns=100):
    """Starts `argv` on a new pseudo-terminal of `columns` x `rows`, as the leader of its own
    session (a `pty.fork()` child, as under a terminal emulator). Returns (pid, master)."""
    pid, master = pty.fork()
    if pid == 0:
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return pid, master


def read_until_exit(pid, master, deadline, wait=0.05, between_reads=None):
    """Reads the master side until every holder of the slave has closed it (EIO) and the child
    `pid` has exited. Returns (output, status, reading): status is the raw wait status, or None
    when `deadline` (a time.monotonic() value) came first; reading says whether the output was
    still open then. `between_reads(output)`, if given, is called before each read while the
    child runs (to resize the pty or signal the child between reads); each read waits at most
    `wait` seconds."""
    output, status, reading = bytearray(), None, True
    while status is None or reading:
        if time.monotonic() > deadline:
            return output, None, reading
        if status is None and between_reads:
            between_reads(output)
        if reading and select.select([master], [], [], wait)[0]:
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # EIO: every holder of the slave has closed it
                data = b""
            output += data
            reading = bool(data)
        elif not reading:
            time.sleep(0.01)
        if status is None:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
    return output, status, reading


def describe(session):
    """What every process of the run's session, and each of its threads, waits in."""
    report = subprocess.run(
        ["ps", "-o", "pid,ppid,pgid,sid,tpgid,stat,wchan:32,args", "-s", str(session)],
        capture_output=True, text=True).stdout
    for pid in [line.split()[0] for line in report.splitlines()[1:]]:
        for task in sorted(os.listdir(f"/proc/{pid}/task")) if os.path.isdir(f"/proc/{pid}/task") else []:
            try:
                with open(f"/proc/{pid}/task/{task}/wchan") as wchan, open(f"/proc/{pid}/task/{task}/stat") as stat:
                    report += f"  {pid}/{task}: state {stat.read().split(') ')[1].split()[0]} wchan {wchan.read()}\n"
            except OSError:
                pass
        if shutil.which("gdb"):
            report += subprocess.run(
                ["gdb", "-p", pid, "-batch", "-ex", "thread apply all bt"],
                capture_output=True, text=True, timeout=60).stdout
    return report
