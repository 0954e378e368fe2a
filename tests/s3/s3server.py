# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A real S3-compatible server on 127.0.0.1 for the tests: OpenStack Swift
with its s3api middleware, from Debian's packages (swift-proxy, swift-account,
swift-container, swift-object). It checks SigV4 signatures as AWS does.

Everything lives in one folder; the servers run as the current user, listen on
free loopback ports only, and are stopped by stop(). Access key "test:tester",
SECRET_KEY, region us-east-1.
"""

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

ACCESS_KEY = "test:tester"
# Not a word, so a test can tell it never shows up in any output.
SECRET_KEY = "Zq7-smprof-s3cr3t-9Kx"
REGION = "us-east-1"
BINARIES = ("swift-proxy-server", "swift-account-server", "swift-container-server",
            "swift-object-server", "swift-ring-builder")


def installed():
    """The names of the Swift programs that are missing (empty when all are there)."""
    return [b for b in BINARIES if shutil.which(b) is None]


def _die_with_parent():
    """In the child, before exec: a SIGKILLed test must not leave servers behind."""
    try:
        import ctypes
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SwiftS3:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.procs = []
        self.port = None

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d" % self.port

    def _write(self, name, text):
        with open(os.path.join(self.root, "etc", name), "w", encoding="utf-8") as f:
            f.write(text)

    def start(self, timeout=60):
        etc = os.path.join(self.root, "etc")
        for d in (etc, os.path.join(self.root, "node", "d1"), os.path.join(self.root, "log")):
            os.makedirs(d, exist_ok=True)
        ports = {"object": free_port(), "container": free_port(), "account": free_port()}
        self.port = free_port()
        # memcache is optional: point it at a port nobody listens on rather than
        # at whatever may run on 11211 on this machine.
        memcache_port = free_port()
        user = os.environ.get("USER") or subprocess.run(
            ["id", "-un"], capture_output=True, text=True, check=True).stdout.strip()
        self._write("swift.conf", "[swift-hash]\nswift_hash_path_suffix = smprof-test\n"
                    "swift_hash_path_prefix = smprof-test\n"
                    "[storage-policy:0]\nname = Policy-0\ndefault = yes\n")
        common = ("[DEFAULT]\nbind_ip = 127.0.0.1\ndevices = %s\nmount_check = false\n"
                  "swift_dir = %s\nuser = %s\nworkers = 0\nlog_level = WARNING\n"
                  % (os.path.join(self.root, "node"), etc, user))
        for kind in ("account", "container", "object"):
            self._write("%s-server.conf" % kind,
                        common + "bind_port = %d\n[pipeline:main]\npipeline = %s-server\n"
                        "[app:%s-server]\nuse = egg:swift#%s\n"
                        % (ports[kind], kind, kind, kind))
        self._write("proxy-server.conf", """[DEFAULT]
bind_ip = 127.0.0.1
bind_port = %d
swift_dir = %s
user = %s
workers = 0
log_level = WARNING
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
[filter:s3api]
use = egg:swift#s3api
location = %s
[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = %s .admin
[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:%d
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
""" % (self.port, etc, user, REGION, SECRET_KEY, memcache_port))
        for kind in ("account", "container", "object"):
            builder = os.path.join(etc, kind + ".builder")
            for args in (["create", "10", "1", "1"],
                         ["add", "r1z1-127.0.0.1:%d/d1" % ports[kind], "100"],
                         ["rebalance"]):
                subprocess.run(["swift-ring-builder", builder] + args, cwd=etc,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        for kind in ("account", "container", "object", "proxy"):
            log = open(os.path.join(self.root, "log", kind + ".log"), "wb")
            self.procs.append(subprocess.Popen(
                ["swift-%s-server" % kind, os.path.join(etc, "%s-server.conf" % kind), "-v"],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, preexec_fn=_die_with_parent))
            log.close()
        # The proxy answers /healthcheck before the backends listen: wait for all four.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(p.poll() is None for p in self.procs) and self._up(ports.values()):
                return
            if any(p.poll() is not None for p in self.procs):
                break
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("Swift did not come up; see %s" % os.path.join(self.root, "log"))

    def _up(self, backend_ports):
        try:
            with urllib.request.urlopen(self.endpoint + "/healthcheck", timeout=2) as r:
                if r.status != 200:
                    return False
        except OSError:
            return False
        for port in backend_ports:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    pass
            except OSError:
                return False
        return True

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        self.procs = []

    def log_text(self):
        out = []
        for kind in ("proxy", "account", "container", "object"):
            path = os.path.join(self.root, "log", kind + ".log")
            if os.path.exists(path):
                with open(path, encoding="utf-8", errors="replace") as f:
                    out.append("== %s ==\n%s" % (kind, f.read()[-4000:]))
        return "\n".join(out)
