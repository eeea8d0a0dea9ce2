"""Reading a program on a pseudo-terminal to its end, for the test scripts beside this one."""
import os
import select
import time


def read_until_exit(pid, master, deadline):
    """Reads the master side until every holder of the slave has closed it (EIO) and the child
    `pid` has exited. Returns (output, status, reading): status is the raw wait status, or None
    when `deadline` (a time.monotonic() value) came first; reading says whether the output was
    still open then."""
    output, status, reading = bytearray(), None, True
    while status is None or reading:
        if time.monotonic() > deadline:
            return output, None, reading
        if reading and select.select([master], [], [], 0.05)[0]:
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
