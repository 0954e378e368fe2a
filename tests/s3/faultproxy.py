# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A loopback HTTP proxy in front of the test's S3 server (standard library
only). It forwards requests byte for byte, Host header included, so the
client's SigV4 signatures still hold, and logs every request. On demand it
injects faults:

* ``500``: an S3 InternalError answer
* ``503``: an S3 SlowDown answer
* ``cut``: the real status and headers, then half the body, then a closed connection
* ``stall``: nothing at all for ``stall`` seconds, then a closed connection
* ``reset``: the connection closed at once, without an answer

Use: ``FaultProxy(upstream_port, log_path).start()``; ``set_plan(...)``
chooses the faults; ``requests()`` reads the log back.
"""

import http.client
import http.server
import json
import socket
import socketserver
import struct
import threading
import time
import urllib.parse

S3_ERROR = ('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>%s</Code>'
            '<Message>%s</Message><RequestId>faultproxy</RequestId></Error>')


class Plan:
    """Which request gets which fault.

    object_faults: the kinds given to the first attempts of object GETs, in
      turn: the n-th key seen gets object_faults[n % len] on its first attempt,
      and every third key a second fault on its second attempt.
    list_faults: the kinds given to the first ListObjectsV2 requests, in order.
    always_fail: keys (suffixes) whose GET always answers 500.
    """

    def __init__(self, object_faults=(), list_faults=(), always_fail=(), stall=3.0):
        self.object_faults = list(object_faults)
        self.list_faults = list(list_faults)
        self.always_fail = list(always_fail)
        self.stall = stall


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class FaultProxy:
    def __init__(self, upstream_port, log_path):
        self.upstream_port = upstream_port
        self.log_path = log_path
        self.lock = threading.Lock()
        self.plan = Plan()
        self.seen_keys = {}      # key -> (index, attempts)
        self.list_count = 0
        self.server = None
        self.thread = None

    @property
    def port(self):
        return self.server.server_address[1]

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d" % self.port

    def set_plan(self, plan):
        with self.lock:
            self.plan = plan
            self.seen_keys = {}
            self.list_count = 0

    def clear_log(self):
        with self.lock:
            open(self.log_path, "w").close()

    def requests(self):
        with self.lock:
            with open(self.log_path, encoding="utf-8") as f:
                return [json.loads(line) for line in f if line.strip()]

    def _log(self, record):
        with self.lock:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")

    def _choose(self, method, path, query):
        """The fault for this request, or None."""
        with self.lock:
            plan = self.plan
            parts = path.lstrip("/").split("/", 1)
            is_object = len(parts) == 2 and parts[1] != ""
            if method != "GET":
                return None
            if not is_object:
                if "list-type" in query and self.list_count < len(plan.list_faults):
                    self.list_count += 1
                    return plan.list_faults[self.list_count - 1]
                return None
            key = urllib.parse.unquote(parts[1])
            if any(key.endswith(s) for s in plan.always_fail):
                return "500"
            if not plan.object_faults:
                return None
            index, attempts = self.seen_keys.get(key, (len(self.seen_keys), 0))
            self.seen_keys[key] = (index, attempts + 1)
            kinds = plan.object_faults
            if attempts == 0:
                return kinds[index % len(kinds)]
            if attempts == 1 and index % 3 == 0:
                return kinds[(index + 1) % len(kinds)]
            return None

    def start(self):
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                split = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
                fault = proxy._choose(self.command, split.path, query)
                record = {"method": self.command, "path": split.path, "query": split.query,
                          "fault": fault, "authorization": "Authorization" in self.headers}

                if fault == "reset":
                    proxy._log(dict(record, status=None))
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    return
                if fault == "stall":
                    proxy._log(dict(record, status=None))
                    time.sleep(proxy.plan.stall)
                    self.close_connection = True
                    return
                if fault in ("500", "503"):
                    code, message = (("InternalError", "We encountered an internal error.")
                                     if fault == "500" else ("SlowDown", "Please reduce your request rate."))
                    data = (S3_ERROR % (code, message)).encode()
                    self.send_response(int(fault))
                    self.send_header("Content-Type", "application/xml")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    proxy._log(dict(record, status=int(fault)))
                    return

                upstream = http.client.HTTPConnection("127.0.0.1", proxy.upstream_port, timeout=30)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection",)}
                upstream.request(self.command, self.path, body=body, headers=headers)
                resp = upstream.getresponse()
                data = resp.read()
                upstream.close()

                self.send_response(resp.status, resp.reason)
                for k, v in resp.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                if fault == "cut":
                    self.send_header("Connection", "close")
                self.end_headers()
                if fault == "cut" and len(data) > 1:
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                else:
                    self.wfile.write(data)
                proxy._log(dict(record, status=resp.status, bytes=len(data)))

            do_GET = do_PUT = do_HEAD = do_POST = do_DELETE = _forward

        open(self.log_path, "w").close()
        self.server = _Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
