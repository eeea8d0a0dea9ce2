#!/usr/bin/env python3
"""A local HTTP server for the adapter fixtures and live tests (Python standard library only).

Prints its port on the first line of standard output, then serves until killed or until its
standard input closes:
  /bytes/N        N bytes of zeros, with Content-Length, as fast as possible
  /slow/N/MS      N bytes in 64 KiB pieces, one every MS milliseconds (so tools print progress)
  /chunked/N/MS   the same without Content-Length (total unknown)
  /file/MS/NAME   the file NAME of the current directory, in the same pieces (a wheel for pip)
  anything else   404
"""
import http.server
import sys
import threading
import time


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if parts[0] == "file" and len(parts) == 3 and parts[1].isdigit() and "/" not in parts[2]:
            self.send_file(parts[2], int(parts[1]) / 1000)
            return
        try:
            size = int(parts[1])
            delay = int(parts[2]) / 1000 if len(parts) > 2 else 0
        except (IndexError, ValueError):
            parts = ["missing"]
        if parts[0] not in ("bytes", "slow", "chunked"):
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if parts[0] != "chunked":
            self.send_header("Content-Length", str(size))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        piece = b"\0" * 65536
        sent = 0
        try:
            while sent < size:
                count = min(len(piece), size - sent)
                self.wfile.write(piece[:count])
                self.wfile.flush()
                sent += count
                if delay and sent < size:
                    time.sleep(delay)
        except (BrokenPipeError, ConnectionResetError):
            pass


    def send_file(self, name, delay):
        try:
            with open(name, "rb") as file:
                data = file.read()
        except OSError:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            for start in range(0, len(data), 65536):
                self.wfile.write(data[start : start + 65536])
                self.wfile.flush()
                if start + 65536 < len(data):
                    time.sleep(delay)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # The test that started the server closes its standard input when it is done.
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
