"""Runs a command on a pseudo-terminal of 100x30 and writes all it draws to a file.

python3 capture-pty.py FILE COMMAND... (exits with the command's status). A terminal of 0 columns
makes tqdm and rich print nothing, so the size is set before the command starts.
"""

import fcntl
import os
import pty
import struct
import sys
import termios

pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    os.execvp(sys.argv[2], sys.argv[2:])
with open(sys.argv[1], "wb") as out:
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out.write(data)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
