#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof against a hostile S3 endpoint: the faults a server or a proxy can inflict.

A small ListObjectsV2/GetObject server (standard library only, 127.0.0.1,
path-style, signatures not checked) serves a real job from
tests/data/real-smdebug and misbehaves on purpose:

* a listing that never ends: the pages of one node's listing come back with
  continuation tokens in a cycle (A, B, A, ...), and with IsTruncated but no
  token;
* a server that sends an endless body for one python_stats (no length, closed
  only when smprof hangs up), and one that announces 1 TiB and keeps sending;
* a 200 reply holding an XML <Error> document, for the listing and for one
  object.

Each run has a deadline and a memory ceiling (smprof's resident size is
watched; 1.5 GiB fails the case). A listing fault must end smprof with a clear
message; an object fault must name that file in a warning while every other
interval loads with the numbers of the local copy.
"""

import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import REAL, smprof_path  # noqa: E402

BUCKET = "hostile-bucket"
JOB = "tf-cprofile"
PREFIX = "jobs/%s/" % JOB
DEADLINE = 90           # seconds per smprof run
RSS_CEILING = 1536 << 20
ACCESS_KEY = "AKIAHOSTILEEXAMPLE"
SECRET_KEY = "hostile/secret/key/EXAMPLE"
ERROR_XML = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>'
             b'<Message>Access Denied</Message><RequestId>hostile</RequestId></Error>')


# Faults smprof does not survive yet. A case listed here that fails prints
# "not ok ... # TODO <why>" (a known bug, not a regression: the test passes);
# once it passes it prints a plain "ok". Remove the entry with the fix.
KNOWN_BUGS = {
    # none: the token cycle and the endless bodies were fixed in the S3 source
    # and client (a token seen before ends the listing; bodies are read up to a
    # limit).
}


class Tap(taplib.Tap):
    def known(self, cond, name, diag, why):
        """ok(), except that a failure of a known bug is a TAP TODO."""
        if cond or not why:
            return self.ok(cond, name, diag)
        self.n += 1
        self.lines.append("not ok %d - %s # TODO known bug: %s" % (self.n, name.replace("#", "\\#"), why))
        self.diag(diag)
        return False


class State:
    def __init__(self, root):
        self.files = {}
        for d, dirs, files in os.walk(root):
            dirs.sort()
            for f in files:
                path = os.path.join(d, f)
                key = PREFIX + os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, "rb") as fh:
                    self.files[key] = fh.read()
        self.keys = sorted(self.files)
        self.mode = None
        self.target = None        # a key or a key prefix the fault applies to
        self.lock = threading.Lock()
        self.requests = []


def list_page(state, query):
    prefix = query.get("prefix", [""])[0]
    delimiter = query.get("delimiter", [""])[0]
    token = query.get("continuation-token", [None])[0]
    encoded = query.get("encoding-type", [""])[0] == "url"
    entries = []            # (name, is_prefix)
    seen = set()
    for key in state.keys:
        if not key.startswith(prefix):
            continue
        rest = key[len(prefix):]
        if delimiter and delimiter in rest:
            p = prefix + rest[: rest.index(delimiter) + len(delimiter)]
            if p not in seen:
                seen.add(p)
                entries.append((p, True))
        else:
            entries.append((key, False))
    start = int(token) if token and token.isdigit() else 0
    page = entries[start:start + 1000]
    next_token = str(start + 1000) if start + 1000 < len(entries) else None

    if state.mode == "list-cycle" and prefix == state.target:
        page = entries[:1000]
        next_token = {None: "A", "A": "B", "B": "A"}.get(token, "A")
    if state.mode == "list-no-token" and prefix == state.target:
        next_token = ""

    def enc(s):
        return urllib.parse.quote(s, safe="/") if encoded else s.replace("&", "&amp;").replace("<", "&lt;")

    x = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
         "<Name>%s</Name><Prefix>%s</Prefix><KeyCount>%d</KeyCount><MaxKeys>1000</MaxKeys>"
         % (BUCKET, enc(prefix), len(page))]
    if encoded:
        x.append("<EncodingType>url</EncodingType>")
    x.append("<IsTruncated>%s</IsTruncated>" % ("true" if next_token is not None else "false"))
    if next_token:
        x.append("<NextContinuationToken>%s</NextContinuationToken>" % next_token)
    for name, is_prefix in page:
        if is_prefix:
            x.append("<CommonPrefixes><Prefix>%s</Prefix></CommonPrefixes>" % enc(name))
        else:
            x.append('<Contents><Key>%s</Key><LastModified>2026-11-29T22:18:00.000Z</LastModified>'
                     '<ETag>"%08x"</ETag><Size>%d</Size><StorageClass>STANDARD</StorageClass></Contents>'
                     % (enc(name), hash(name) & 0xffffffff, len(state.files[name])))
    x.append("</ListBucketResult>")
    return "\n".join(x).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, status, body, ctype="application/xml"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def endless(self, announce):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if announce:
            self.send_header("Content-Length", str(1 << 40))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        chunk = b"\0" * 65536
        try:
            while True:
                self.wfile.write(chunk)
        except OSError:
            pass

    def do_HEAD(self):
        self.do_GET(head=True)

    def do_GET(self, head=False):
        state = self.server.state
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        parts = url.path.lstrip("/").split("/", 1)
        with state.lock:
            state.requests.append(self.path)
        if parts[0] != BUCKET:
            return self.send_body(404, b"<Error><Code>NoSuchBucket</Code><Message>no</Message></Error>")
        if len(parts) == 1 or parts[1] == "":
            if "list-type" not in query:
                return self.send_body(200, b"<LocationConstraint/>")
            if state.mode == "list-error-200":
                return self.send_body(200, ERROR_XML)
            return self.send_body(200, list_page(state, query))
        key = urllib.parse.unquote(parts[1])
        if key not in state.files:
            return self.send_body(404, b"<Error><Code>NoSuchKey</Code><Message>no</Message></Error>")
        if key == state.target and state.mode in ("endless", "endless-announced"):
            return self.endless(state.mode == "endless-announced")
        if key == state.target and state.mode == "get-error-200":
            return self.send_body(200, ERROR_XML)
        body = state.files[key]
        if head:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return
        self.send_body(200, body, "application/octet-stream")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def clean_env(tmp, port, n):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("AWS_") and k.lower() not in ("http_proxy", "https_proxy", "all_proxy", "no_proxy")}
    env.update(HOME=os.path.join(tmp, "home"), XDG_CACHE_HOME=os.path.join(tmp, "cache-%d" % n),
               AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_REGION="us-east-1",
               AWS_ENDPOINT_URL="http://127.0.0.1:%d" % port, AWS_EC2_METADATA_DISABLED="true",
               AWS_MAX_ATTEMPTS="2", GSETTINGS_BACKEND="memory", LC_ALL="C.UTF-8")
    os.makedirs(env["HOME"], exist_ok=True)
    return env


def rss_of(pid):
    try:
        with open("/proc/%d/status" % pid) as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_watched(args, env, deadline):
    """(rc, stdout, stderr, seconds, peak rss, why killed or None)."""
    t = time.monotonic()
    p = subprocess.Popen([smprof_path()] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err, peak, killed = [], [], 0, None

    def drain(stream, into):
        into.append(stream.read())
    readers = [threading.Thread(target=drain, args=(p.stdout, out)), threading.Thread(target=drain, args=(p.stderr, err))]
    for r in readers:
        r.start()
    while p.poll() is None:
        peak = max(peak, rss_of(p.pid))
        if peak > RSS_CEILING:
            killed = "resident memory passed %d MiB" % (RSS_CEILING >> 20)
        elif time.monotonic() - t > deadline:
            killed = "still running after %d s" % deadline
        if killed:
            p.kill()
            break
        time.sleep(0.05)
    p.wait()
    for r in readers:
        r.join()
    return (p.returncode, out[0].decode("utf-8", "replace"), err[0].decode("utf-8", "replace"),
            time.monotonic() - t, peak, killed)


def main(tap):
    root = os.path.join(REAL, JOB)
    tmp = tempfile.mkdtemp(prefix="smprof-s3-hostile-")
    local = os.path.join(tmp, "local")
    shutil.copytree(root, local, ignore=shutil.ignore_patterns("expected"))
    state = State(local)
    server = Server(("127.0.0.1", 0), Handler)
    server.state = state
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    uri = "s3://%s/%s" % (BUCKET, PREFIX.rstrip("/"))
    query = ["stats", uri, "--all", "--node", "all", "--json"]
    counter = [0]

    def run(mode, target=None, deadline=DEADLINE):
        counter[0] += 1
        state.mode, state.target = mode, target
        with state.lock:
            state.requests = []
        try:
            return run_watched(query, clean_env(tmp, port, counter[0]), deadline)
        finally:
            state.mode = state.target = None

    base = os.path.join(local, "framework", "tensorflow", "cprofile")
    node = sorted(os.listdir(base))[0]
    interval = sorted(os.listdir(os.path.join(base, node)))[5]
    victim = "%sframework/tensorflow/cprofile/%s/%s/python_stats" % (PREFIX, node, interval)
    try:
        rc, out, err, secs, peak, killed = run(None)
        lrc, lout, lerr = taplib.smprof("stats", local, "--all", "--node", "all", "--json")
        if not tap.ok(rc == 0 and lrc == 0 and out == lout and not killed,
                      "the fake S3 serves %s, and smprof reads it as the local copy" % JOB,
                      ["exit %d (%s), %.1f s; stderr %s" % (rc, killed, secs, err[-800:])]):
            return

        # Listings that never end. smprof may give up on the job (exit 3) or
        # on that node (a warning naming it, the other node as the local copy).
        node_prefix = "%sframework/tensorflow/cprofile/%s/" % (PREFIX, node)
        no_node = os.path.join(tmp, "no-node")
        shutil.copytree(local, no_node)
        shutil.rmtree(os.path.join(no_node, "framework", "tensorflow", "cprofile", node))
        nrc, nout, nerr = taplib.smprof("stats", no_node, "--all", "--node", "all", "--json")
        for mode, label in (("list-cycle", "continuation tokens in a cycle (A, B, A, ...)"),
                            ("list-no-token", "IsTruncated without a continuation token")):
            rc, out, err, secs, peak, killed = run(mode, node_prefix, deadline=30)
            lists = sum(1 for r in state.requests if "list-type" in r)
            named = any(node in line and "list" in line for line in err.splitlines())
            ok = not killed and ((rc == 3 and "list" in err) or (rc == 0 and named and out == nout))
            tap.known(ok, "a listing that never ends (%s): smprof stops (%.1f s, %d list requests) and "
                      "names it" % (label, secs, lists),
                      ["exit %d, %s; stderr: %s" % (rc, killed or "not killed", err[-600:])],
                      KNOWN_BUGS.get(mode))

        # A 200 answer holding an S3 <Error> document, for the listing: the
        # message names the listing and gives S3's code and message, not
        # just "not a listing".
        rc, out, err, secs, peak, killed = run("list-error-200")
        tap.ok(not killed and rc == 3 and "s3://%s/%s" % (BUCKET, PREFIX) in err
               and "AccessDenied" in err and "Access Denied" in err,
               "a listing answered 200 with an XML <Error> document: exit 3 and a message naming the "
               "listing and S3's error (%.1f s)" % secs,
               ["exit %d, %s; stderr: %s" % (rc, killed or "not killed", err[-600:])])

        # Object faults: that file is named, the rest loads as the local copy
        # without that interval.
        ref = os.path.join(tmp, "ref")
        shutil.copytree(local, ref)
        shutil.rmtree(os.path.join(ref, "framework", "tensorflow", "cprofile", node, interval))
        rrc, rout, rerr = taplib.smprof("stats", ref, "--all", "--node", "all", "--json")
        for mode, label in (("endless", "an endless body (no length, never closed)"),
                            ("endless-announced", "a body announced as 1 TiB, sent without end"),
                            ("get-error-200", "a 200 answer holding an XML <Error> document")):
            rc, out, err, secs, peak, killed = run(mode, victim)
            named = any(interval in line for line in err.splitlines() if "warning" in line)
            # The error document is reported as what it is: S3's code and
            # message, with the object's s3:// key, not as a damaged profile.
            said = (mode != "get-error-200"
                    or any("s3://%s/%s" % (BUCKET, victim) in line and "S3 error document" in line
                           and "AccessDenied" in line and "Access Denied" in line
                           for line in err.splitlines() if "warning" in line))
            p = []
            if killed or rc != 0:
                p.append("exit %d, %s after %.1f s, peak %d MiB; stderr: %s"
                         % (rc, killed or "not killed", secs, peak >> 20, err[-600:]))
            else:
                if not named:
                    p.append("no warning names %s: %s" % (interval, err[-600:]))
                elif not said:
                    p.append("no warning names s3://%s/%s as answered with S3's AccessDenied error "
                             "document: %s" % (BUCKET, victim, err[-600:]))
                if out != rout:
                    p.append("the other intervals differ from the local copy without %s" % interval)
            tap.known(not p, "one object with %s: named in a warning, every other interval unchanged "
                      "(%.1f s, peak %d MiB)" % (label, secs, peak >> 20), p, KNOWN_BUGS.get(mode))
    finally:
        server.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    Tap().run_main(main)
