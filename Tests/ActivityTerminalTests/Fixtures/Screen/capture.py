#!/usr/bin/env python3
"""Records what a program writes to its terminal: runs it on a pseudo-terminal of 100 x 30
(TERM=xterm-256color) and writes every byte read from the terminal's master side to OUTPUT.
With --type TEXT, TEXT is typed (a byte at a time) once the program has written something.

    capture.py OUTPUT [--type TEXT] -- PROGRAM [ARGUMENT...]
"""
import fcntl, os, pty, select, struct, sys, termios, time

def main():
    args = sys.argv[1:]
    output = args.pop(0)
    typed = None
    if args[0] == "--type":
        typed = args[1].encode().decode("unicode_escape").encode()
        args = args[2:]
    assert args.pop(0) == "--"
    pid, master = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "CI", "NO_COLOR")}
        env["TERM"] = "xterm-256color"
        os.execvpe(args[0], args, env)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    data = bytearray()
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            if typed and data:
                for byte in typed:
                    os.write(master, bytes([byte]))
                    time.sleep(0.05)
                typed = None
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    os.waitpid(pid, 0)
    with open(output, "wb") as file:
        file.write(data)

main()
