#!/usr/bin/env python3
"""An HTTP server on 127.0.0.1 that lies in ways nginx cannot be made to (issue 52, for
Tests/EndToEndTests/HTTPInputCLITests+Lies.swift). Every path serves FILE's bytes; a range
request is answered by the first folder of the path:
  /shifted/NAME   206 with a Content-Range one byte later than the range asked (and that
                  many bytes from there): bytes the client did not ask for
  /longer/NAME    206 with the Content-Range asked, then 4 KiB more body than it says
                  (Content-Length counts them): more bytes than asked
  /NAME           206, honestly
A request without Range gets 200 and the whole file.
usage: lying_server.py FILE STATEFILE PARENT_PID  -- picks a free port, writes {"port": N} to
STATEFILE, serves, and exits when PARENT_PID (the test runner) is gone."""

import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Liar(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    body = b""

    def do_GET(self):
        data = self.body
        asked = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if not asked:
            return self.answer(200, data, [])
        first = int(asked.group(1))
        last = min(int(asked.group(2) or len(data) - 1), len(data) - 1)
        kind = self.path.strip("/").split("/")[0]
        if kind == "shifted":
            first, last = first + 1, min(last + 1, len(data) - 1)
        said = f"bytes {first}-{last}/{len(data)}"
        part = data[first:last + 1]
        if kind == "longer":
            part = data[first:last + 1 + 4096]
        self.answer(206, part, [("Content-Range", said)])

    def answer(self, status, part, headers):
        self.send_response(status)
        for name, value in headers + [("Content-Length", str(len(part))), ("ETag", '"liar-1"'),
                                      ("Accept-Ranges", "bytes"), ("Content-Type", "image/jpeg")]:
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(part)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: what a careful one does

    def log_message(self, *args):
        pass


def watch(parent):
    while True:
        try:
            os.kill(parent, 0)
        except OSError:
            os._exit(0)
        time.sleep(1)


def main():
    path, state, parent = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, "rb") as f:
        Liar.body = f.read()
    threading.Thread(target=watch, args=(parent,), daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Liar)
    with open(state + ".tmp", "w") as f:
        json.dump({"port": server.server_address[1]}, f)
    os.rename(state + ".tmp", state)
    server.serve_forever()


if __name__ == "__main__":
    main()
