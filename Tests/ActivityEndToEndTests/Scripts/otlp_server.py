#!/usr/bin/env python3
"""A local OTLP/HTTP receiver for the live export tests.

    otlp_server.py record PORT_FILE OUT_DIR   answers 200 to POST /v1/traces, keeps each body
                                              as OUT_DIR/NNNN.json (written, then renamed)
    otlp_server.py record PORT_FILE OUT_DIR CERT KEY
                                              the same over https, with that certificate
    otlp_server.py slow PORT_FILE             accepts connections and never answers

It listens on 127.0.0.1 on a free port and writes the port to PORT_FILE once it is ready.
"""
import http.server
import os
import socket
import ssl
import sys
import threading
import time


def write_port(path, port):
    with open(path + ".tmp", "w") as f:
        f.write(str(port))
    os.rename(path + ".tmp", path)


def record(port_file, out_dir, certificate=None, key=None):
    counter = [0]
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                counter[0] += 1
                name = os.path.join(out_dir, "%04d" % counter[0])
            with open(name + ".tmp", "wb") as f:
                f.write(body)
            with open(name + ".headers", "w") as f:
                f.write("%s\n%s" % (self.path, self.headers))
            os.rename(name + ".tmp", name + ".json")
            reply = b"{}"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if certificate:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    write_port(port_file, server.server_address[1])
    server.serve_forever()


def slow(port_file):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    write_port(port_file, listener.getsockname()[1])
    held = []
    while True:
        connection, _ = listener.accept()
        held.append(connection)  # never read from, never answered


if __name__ == "__main__":
    if sys.argv[1] == "record":
        record(*sys.argv[2:])
    else:
        slow(sys.argv[2])
