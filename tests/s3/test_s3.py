#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Integration test of smprof's S3 source (TAP), against a real S3-compatible
server started here on 127.0.0.1 (OpenStack Swift with s3api, which checks
SigV4 signatures), behind a loopback proxy that counts requests and injects
faults. Real smdebug jobs from tests/data/real-smdebug are uploaded, opened
with `smprof ... s3://...`, and every answer must equal the local copy's.

Skips (TAP "1..0 # SKIP") only when the Swift programs are not installed;
.ci/run installs them. All traffic stays on 127.0.0.1.

Environment: SMPROF (the built cli/smprof), SMPROF_TEST_DATA (tests/data),
SMPROF_TEST_TMPDIR (where to put the server and caches).
"""

import http.server
import json
import marshal
import os
import shutil
import signal
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import faultproxy  # noqa: E402
import s3lib  # noqa: E402
import s3server  # noqa: E402

DATA = os.environ.get("SMPROF_TEST_DATA") or os.path.join(os.path.dirname(HERE), "data")
REAL = os.path.join(DATA, "real-smdebug")
BUCKET = "smprof-jobs"
JOBS = ("pt-cprofile", "tf-cprofile", "pt-pyinstrument", "tf-pyinstrument")
CALL_TIMEOUT = 120
N_PAGINATED = 1005      # intervals in one node: more than one page of 1000 keys


class Tap:
    def __init__(self):
        self.lines = []
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, diag=None):
        self.n += 1
        self.lines.append(("ok" if cond else "not ok") + " %d - %s" % (self.n, name.replace("#", "\\#")))
        if not cond:
            self.failed += 1
            for line in str(diag or "").splitlines()[:40]:
                self.lines.append("# " + line)
        return bool(cond)

    def finish(self):
        print("1..%d" % self.n)
        print("\n".join(self.lines))
        sys.stdout.flush()
        return 1 if self.failed else 0


def clean_environment():
    """The process environment without anything that could send requests
    elsewhere or pick up the developer's own AWS setup."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("AWS_") and k.lower() not in ("http_proxy", "https_proxy", "all_proxy", "no_proxy")}
    env["GSETTINGS_BACKEND"] = "memory"
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    env["LC_ALL"] = "C.UTF-8"
    return env


class Context:
    def __init__(self, tmp, swift, proxy):
        self.tmp = tmp
        self.swift = swift
        self.proxy = proxy
        self.smprof = os.environ["SMPROF"]
        self.home = os.path.join(tmp, "home")
        os.makedirs(self.home, exist_ok=True)
        self.cache_count = 0

    def new_cache(self):
        self.cache_count += 1
        return os.path.join(self.tmp, "cache-%d" % self.cache_count)

    def env(self, cache, **extra):
        env = clean_environment()
        env.update(HOME=self.home, XDG_CACHE_HOME=cache,
                   AWS_ACCESS_KEY_ID=s3server.ACCESS_KEY, AWS_SECRET_ACCESS_KEY=s3server.SECRET_KEY,
                   AWS_ENDPOINT_URL=self.proxy.endpoint)
        for k, v in extra.items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
        return env

    def run(self, args, env):
        p = subprocess.run([self.smprof] + args, env=env, capture_output=True, timeout=CALL_TIMEOUT)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def local(self, args):
        return self.run(args, clean_environment())


def s3_uri(prefix):
    return "s3://%s/%s" % (BUCKET, prefix)


def job_prefix(job):
    return "sagemaker/%s/profiler-output" % job


def normalize_list(text, root):
    """list --json with each stats_path made relative to its job root."""
    rows = json.loads(text)
    for row in rows:
        path = row["stats_path"]
        if path.startswith(root):
            row["stats_path"] = path[len(root):].lstrip("/")
    return rows


def queries(job):
    qs = [["nodes", "--json"], ["stats", "--all", "--node", "all", "--json"]]
    if "cprofile" in job:
        qs += [["stats", "--step", "3", "--end-step", "5", "--json"],
               ["stats", "--job-phase", "--node", "all", "--json"]]
    return qs


def interval_name(i):
    t = 1795000000000000 + i * 1000
    return "train-%d-stepstart-%d.0_train-%d-stepend-%d.0" % (i, t, i, t + 500)


def make_paginated_job(folder):
    """One node with N_PAGINATED intervals, each an empty (valid) pstats dict."""
    items = []
    empty = marshal.dumps({})
    for i in range(N_PAGINATED):
        rel = "framework/pytorch/cprofile/0-algo-1/%s/python_stats" % interval_name(i)
        path = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(empty)
        items.append((rel, empty))
    return items


def upload(ctx, client, tmp):
    client.create_bucket(BUCKET)
    items = []
    for job in JOBS:
        root = os.path.join(REAL, job)
        for dirpath, _dirs, files in os.walk(os.path.join(root, "framework")):
            for name in files:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, "rb") as f:
                    data = f.read()
                items.append((job_prefix(job) + "/" + rel, data))
                # smdebug writes an HTML page beside every Pyinstrument JSON;
                # the corpus leaves it out, S3 jobs have it: it must never be fetched.
                if name == "python_stats.json":
                    items.append((job_prefix(job) + "/" + rel[:-len(".json")] + ".html",
                                  b"<html>" + data[:2000] + b"</html>"))
    # The same small job under a prefix that climbs with "..": a cache that
    # joined keys to paths naively would write to the canary folder.
    canary = os.path.join(tmp, "canary-%d" % os.getpid())
    escape = "escape/" + "../" * 24 + canary.lstrip("/") + "/profiler-output"
    root = os.path.join(REAL, "pt-pyinstrument")
    for dirpath, _dirs, files in os.walk(os.path.join(root, "framework")):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            with open(os.path.join(dirpath, name), "rb") as f:
                items.append((escape + "/" + rel, f.read()))
    paginated_local = os.path.join(tmp, "paginated")
    for rel, data in make_paginated_job(paginated_local):
        items.append(("sagemaker/paginated/profiler-output/" + rel, data))
    client.put_many(BUCKET, items, workers=8)
    return escape, canary, paginated_local


def object_gets(requests):
    return [r for r in requests if r["method"] == "GET" and "list-type" not in r["query"]]


def list_requests(requests):
    return [r for r in requests if "list-type" in r["query"]]


def check_same_answers(tap, ctx, cache, job, label, extra_args=(), env_extra=None):
    env = ctx.env(cache, **(env_extra or {}))
    local_root = os.path.join(REAL, job)
    uri = s3_uri(job_prefix(job))
    all_ok = True

    rc, out, err = ctx.run(["list", uri, "--json"] + list(extra_args), env)
    lrc, lout, _ = ctx.local(["list", local_root, "--json"])
    same = rc == 0 and lrc == 0 and normalize_list(out, uri) == normalize_list(lout, local_root)
    all_ok &= tap.ok(same, "%s: %s list --json equals the local copy's" % (label, job),
                     "rc=%d\n%s" % (rc, err))

    for q in queries(job):
        rc, out, err = ctx.run([q[0], uri] + q[1:] + list(extra_args), env)
        lrc, lout, lerr = ctx.local([q[0], local_root] + q[1:])
        same = rc == lrc and out == lout
        all_ok &= tap.ok(same, "%s: %s %s equals the local copy's" % (label, job, " ".join(q)),
                         "rc=%d local rc=%d\n%s" % (rc, lrc, err))
        if "warning" in err and "warning" not in lerr:
            all_ok &= tap.ok(False, "%s: %s %s warns like the local copy" % (label, job, " ".join(q)), err)
    return all_ok


def test_open_and_cache(tap, ctx):
    cache = ctx.new_cache()
    ctx.proxy.clear_log()
    for job in JOBS:
        check_same_answers(tap, ctx, cache, job, "first open")

    reqs = ctx.proxy.requests()
    html = [r for r in reqs if r["path"].endswith(".html")]
    tap.ok(len(object_gets(reqs)) > 0 and not html,
           "the stats files were downloaded and no python_stats.html ever was",
           "%d GETs, html: %s" % (len(object_gets(reqs)), html[:3]))
    tap.ok(all(r["authorization"] for r in reqs), "every request was signed")
    tap.ok(all(r["status"] == 200 for r in reqs), "the server accepted every signature",
           [r for r in reqs if r["status"] != 200][:5])

    objects = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(cache, "smprof", "s3", "objects")) for f in fs]
    tap.ok(len(objects) > 0 and all(f.endswith("@") for f in objects),
           "the objects are cached under $XDG_CACHE_HOME/smprof/s3/objects", objects[:5])

    ctx.proxy.clear_log()
    for job in JOBS:
        check_same_answers(tap, ctx, cache, job, "second open")
    reqs = ctx.proxy.requests()
    tap.ok(reqs == [], "a second open of an unchanged job sends no request at all (listing and objects cached)",
           reqs[:5])

    ctx.proxy.clear_log()
    check_same_answers(tap, ctx, cache, "pt-cprofile", "--refresh", extra_args=["--refresh"])
    reqs = ctx.proxy.requests()
    tap.ok(len(list_requests(reqs)) > 0 and not object_gets(reqs),
           "--refresh lists again and still downloads no object (ETag and size match)",
           "%d lists, %d GETs" % (len(list_requests(reqs)), len(object_gets(reqs))))

    # smdebug's reader lists everything below framework/ and downloads it: one
    # delimiter listing per level, one listing per node and one of the
    # framework timelines (framework/pevents/) is all we need.
    ctx.proxy.clear_log()
    rc, out, err = ctx.run(["list", s3_uri(job_prefix("pt-cprofile")), "--refresh"], ctx.env(cache))
    lists = list_requests(ctx.proxy.requests())
    whole = [r for r in lists if "delimiter" not in r["query"]]
    timelines = [r for r in whole if "framework%2Fpevents%2F" in r["query"]]
    nodes = [r for r in whole if r not in timelines]
    tap.ok(rc == 0 and len(nodes) == 2 and len(timelines) == 1 and len(lists) <= 6,
           "a listing costs one request per folder level, one per node and one for the timelines "
           "(%d in all)" % len(lists),
           [r["query"] for r in lists])

    # smprof nodes needs the node folders' names alone: the delimiter listing
    # of each level gives them, with no request per node nor for the timelines.
    ctx.proxy.clear_log()
    rc, out, err = ctx.run(["nodes", s3_uri(job_prefix("pt-cprofile")), "--refresh", "--json"], ctx.env(cache))
    lists = list_requests(ctx.proxy.requests())
    lrc, lout, _ = ctx.local(["nodes", os.path.join(REAL, "pt-cprofile"), "--json"])
    tap.ok(rc == 0 and out == lout and lists and all("delimiter" in r["query"] for r in lists)
           and len(lists) <= 3 and not object_gets(ctx.proxy.requests()),
           "nodes lists the node folders by name: delimiter listings alone, %d in all, the local copy's answer"
           % len(lists), "%r / %r\n%r" % (out, lout, [r["query"] for r in lists]))


def test_deeper_prefix(tap, ctx):
    cache = ctx.new_cache()
    job = "tf-cprofile"
    deeper = "framework/tensorflow/cprofile"
    uri = s3_uri(job_prefix(job) + "/" + deeper)
    local = os.path.join(REAL, job, deeper)
    env = ctx.env(cache)
    rc, out, err = ctx.run(["stats", uri, "--all", "--node", "all", "--json"], env)
    lrc, lout, _ = ctx.local(["stats", local, "--all", "--node", "all", "--json"])
    tap.ok(rc == 0 and out == lout, "a prefix down to framework/<fw>/<profiler> opens like the local folder", err)
    rc, out, err = ctx.run(["list", uri, "--json"], env)
    lrc, lout, _ = ctx.local(["list", local, "--json"])
    tap.ok(rc == 0 and normalize_list(out, s3_uri(job_prefix(job))) == normalize_list(lout, os.path.join(REAL, job)),
           "its listing names the same intervals", err)


def test_pagination(tap, ctx, paginated_local):
    cache = ctx.new_cache()
    uri = s3_uri("sagemaker/paginated/profiler-output")
    ctx.proxy.clear_log()
    env = ctx.env(cache)
    rc, out, err = ctx.run(["list", uri, "--json"], env)
    lrc, lout, _ = ctx.local(["list", paginated_local, "--json"])
    rows = json.loads(out) if rc == 0 else []
    tap.ok(rc == 0 and len(rows) == N_PAGINATED and normalize_list(out, uri) == normalize_list(lout, paginated_local),
           "a node of %d keys lists whole, as the local copy" % N_PAGINATED, "rc=%d rows=%d\n%s" % (rc, len(rows), err))
    pages = [r for r in list_requests(ctx.proxy.requests()) if "delimiter" not in r["query"]]
    tap.ok(len(pages) == 2 and "continuation-token" in pages[1]["query"],
           "it took two ListObjectsV2 pages, the second with the continuation token",
           [p["query"] for p in pages])
    rc, out, err = ctx.run(["stats", uri, "--step", "990", "--end-step", "1004", "--json"], env)
    lrc, lout, _ = ctx.local(["stats", paginated_local, "--step", "990", "--end-step", "1004", "--json"])
    tap.ok(rc == 0 and out == lout and '"intervals"' in out,
           "stats of intervals on the second page equal the local copy's", err)


def test_faults(tap, ctx):
    cache = ctx.new_cache()
    kinds = ["500", "503", "cut", "stall", "reset"]
    ctx.proxy.set_plan(faultproxy.Plan(object_faults=kinds, list_faults=["503", "reset"], stall=4.0))
    ctx.proxy.clear_log()
    start = time.monotonic()
    # 2 s without progress: a stall, not a busy server
    extra = {"SMPROF_S3_TIMEOUT": "2"}
    ok = check_same_answers(tap, ctx, cache, "pt-cprofile", "faults", env_extra=extra)
    elapsed = time.monotonic() - start
    reqs = ctx.proxy.requests()
    ctx.proxy.set_plan(faultproxy.Plan())
    injected = {r["fault"] for r in reqs if r["fault"]}
    gets = object_gets(reqs)
    keys = {r["path"] for r in gets}
    tap.ok(ok and injected >= set(kinds), "500, 503 SlowDown, cut bodies, stalls and resets were retried into "
           "complete, correct answers (%.1f s)" % elapsed, "injected: %s" % sorted(injected))
    tap.ok(len(gets) > len(keys), "objects were requested again after a fault (%d GETs for %d keys)"
           % (len(gets), len(keys)))
    tap.ok(len(list_requests(reqs)) > 0 and list_requests(reqs)[0]["fault"] == "503",
           "a failed listing request is retried too")

    # One key that never succeeds: named in a warning, the rest still loads.
    job = "pt-cprofile"
    node = "0-algo-1"
    local_root = os.path.join(REAL, job)
    node_dir = os.path.join(local_root, "framework/pytorch/cprofile", node)
    interval = sorted(os.listdir(node_dir))[5]
    rel = "framework/pytorch/cprofile/%s/%s/python_stats" % (node, interval)
    cache = ctx.new_cache()
    ctx.proxy.set_plan(faultproxy.Plan(always_fail=[rel]))
    ctx.proxy.clear_log()
    rc, out, err = ctx.run(["stats", s3_uri(job_prefix(job)), "--all", "--node", "all", "--json"],
                           ctx.env(cache, **extra))
    attempts = [r for r in object_gets(ctx.proxy.requests()) if r["path"].endswith(rel)]
    ctx.proxy.set_plan(faultproxy.Plan())
    damaged = os.path.join(ctx.tmp, "damaged-" + job)
    shutil.copytree(local_root, damaged)
    os.unlink(os.path.join(damaged, rel))
    lrc, lout, _ = ctx.local(["stats", damaged, "--all", "--node", "all", "--json"])
    warned = [line for line in err.splitlines() if "warning" in line and rel in line]
    tap.ok(rc == 0 and len(warned) == 1, "a key that always fails is named in one warning and the job still loads",
           "rc=%d\n%s" % (rc, err))
    tap.ok(len(attempts) == 5, "it was tried 5 times (AWS_MAX_ATTEMPTS' default), not more",
           "%d attempts" % len(attempts))
    tap.ok(rc == 0 and out == lout, "the other intervals give the local answer without that file", err)


def test_errors(tap, ctx):
    uri = s3_uri(job_prefix("pt-cprofile"))
    all_err = []

    def run(args, **extra):
        rc, out, err = ctx.run(args, ctx.env(ctx.new_cache(), **extra))
        all_err.append(err)
        return rc, out, err

    rc, out, err = run(["list", uri], AWS_SECRET_ACCESS_KEY="not-the-secret")
    tap.ok(rc == 3 and "access denied" in err and s3server.ACCESS_KEY in err and out == "",
           "a wrong secret: exit 3, access denied, naming the access key", "rc=%d\n%s" % (rc, err))
    tap.ok("not-the-secret" not in err, "the secret is not printed")

    rc, out, err = run(["list", "s3://no-such-bucket-here/job"])
    tap.ok(rc == 3 and "no bucket" in err and "no-such-bucket-here" in err, "no such bucket: exit 3 and says so", err)

    rc, out, err = run(["list", s3_uri("sagemaker/not-a-job")])
    tap.ok(rc == 3 and "not a SageMaker Debugger profiler output" in err, "an empty prefix: exit 3, not a job", err)

    rc, out, err = run(["list", uri], AWS_REGION="eu-west-1")
    tap.ok(rc == 0 and len(out.splitlines()) > 10, "a wrong region is corrected from S3's answer", err)

    rc, out, err = run(["list", uri], AWS_ENDPOINT_URL="http://127.0.0.1:9", SMPROF_S3_TIMEOUT="2")
    tap.ok(rc == 3 and "cannot reach" in err and "127.0.0.1:9" in err, "an unreachable endpoint: exit 3, named", err)

    rc, out, err = run(["list", uri], AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None)
    tap.ok(rc == 3 and "no AWS credentials" in err and os.path.join(ctx.home, ".aws", "credentials") in err
           and "AWS_EC2_METADATA_DISABLED" in err,
           "no credentials: exit 3, and the message says where it looked", err)

    rc, out, err = run(["list", uri], AWS_PROFILE="missing", AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None)
    tap.ok(rc == 3 and "missing" in err, "a missing AWS_PROFILE: exit 3, named", err)

    ctx.proxy.clear_log()
    rc, out, err = run(["list", uri, "--no-sign-request"], AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None)
    reqs = ctx.proxy.requests()
    tap.ok(reqs and not any(r["authorization"] for r in reqs),
           "--no-sign-request sends unsigned requests", reqs[:3])
    tap.ok(rc == 3 and "anonymous" in err, "a bucket that needs credentials says so to an anonymous request", err)

    rc, out, err = run(["list", "s3://"])
    tap.ok(rc == 3 and "s3://BUCKET" in err, "a URI without a bucket: exit 3", err)

    tap.ok(not any(s3server.SECRET_KEY in e for e in all_err), "no error message holds the secret key")


def test_credentials(tap, ctx):
    uri = s3_uri(job_prefix("tf-pyinstrument"))
    lrc, lout, _ = ctx.local(["nodes", os.path.join(REAL, "tf-pyinstrument"), "--json"])

    files = os.path.join(ctx.tmp, "aws-files")
    os.makedirs(files, exist_ok=True)
    with open(os.path.join(files, "credentials"), "w") as f:
        f.write("[default]\naws_access_key_id = wrong\naws_secret_access_key = wrong\n\n"
                "# the CI profile\n[ci]\naws_access_key_id = %s\naws_secret_access_key=%s\n"
                % (s3server.ACCESS_KEY, s3server.SECRET_KEY))
    with open(os.path.join(files, "config"), "w") as f:
        f.write("[profile ci]\nregion = us-east-1\ns3 =\n  addressing_style = path\n")
    rc, out, err = ctx.run(["nodes", uri, "--json"], ctx.env(
        ctx.new_cache(), AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None, AWS_PROFILE="ci",
        AWS_SHARED_CREDENTIALS_FILE=os.path.join(files, "credentials"),
        AWS_CONFIG_FILE=os.path.join(files, "config")))
    tap.ok(rc == 0 and out == lout, "credentials from the shared files' AWS_PROFILE profile", err)

    served = []

    class Metadata(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def creds(self):
            return json.dumps({"Code": "Success", "AccessKeyId": s3server.ACCESS_KEY,
                               "SecretAccessKey": s3server.SECRET_KEY, "Token": "",
                               "Expiration": "2099-01-01T00:00:00Z"})

        def do_PUT(self):
            served.append(("PUT", self.path, self.headers.get("X-aws-ec2-metadata-token-ttl-seconds")))
            if self.path == "/latest/api/token":
                return self.answer(200, "imds-token-123")
            self.answer(404, "")

        def do_GET(self):
            token = self.headers.get("X-aws-ec2-metadata-token")
            served.append(("GET", self.path, token or self.headers.get("Authorization")))
            if self.path == "/container/creds":
                if self.headers.get("Authorization") != "container-token":
                    return self.answer(401, "")
                return self.answer(200, self.creds())
            if token != "imds-token-123":
                return self.answer(401, "")
            if self.path == "/latest/meta-data/iam/security-credentials/":
                return self.answer(200, "smprof-role")
            if self.path == "/latest/meta-data/iam/security-credentials/smprof-role":
                return self.answer(200, self.creds())
            self.answer(404, "")

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Metadata)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    try:
        rc, out, err = ctx.run(["nodes", uri, "--json"], ctx.env(
            ctx.new_cache(), AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None,
            AWS_CONTAINER_CREDENTIALS_FULL_URI=base + "/container/creds",
            AWS_CONTAINER_AUTHORIZATION_TOKEN="container-token"))
        tap.ok(rc == 0 and out == lout and ("GET", "/container/creds", "container-token") in served,
               "credentials from the container endpoint, with its authorization token", "%s\n%s" % (err, served))

        served.clear()
        rc, out, err = ctx.run(["nodes", uri, "--json"], ctx.env(
            ctx.new_cache(), AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None, AWS_EC2_METADATA_DISABLED=None,
            AWS_EC2_METADATA_SERVICE_ENDPOINT=base))
        tap.ok(rc == 0 and out == lout and served and served[0] == ("PUT", "/latest/api/token", "21600")
               and all(s[2] == "imds-token-123" for s in served[1:]),
               "credentials from the instance metadata service, IMDSv2 (token first)", "%s\n%s" % (err, served))
    finally:
        server.shutdown()
        server.server_close()


def test_escape(tap, ctx, escape, canary):
    cache = ctx.new_cache()
    before = set(os.listdir(ctx.tmp))
    rc, out, err = ctx.run(["stats", s3_uri(escape), "--all", "--node", "all", "--json"], ctx.env(cache))
    lrc, lout, _ = ctx.local(["stats", os.path.join(REAL, "pt-pyinstrument"), "--all", "--node", "all", "--json"])
    tap.ok(rc == 0 and out == lout, "a prefix with “..” segments opens and gives the right answer", err)
    cached = [f for d, _, fs in os.walk(cache) for f in fs if f.endswith("@")]
    tap.ok(not os.path.exists(canary) and len(cached) > 0 and set(os.listdir(ctx.tmp)) - before <= {os.path.basename(cache)},
           "its keys were cached inside the cache folder, nothing outside", "canary exists: %s, %d cached"
           % (os.path.exists(canary), len(cached)))


def _terminate(signum, frame):
    # meson sends SIGTERM on a timeout: stop the servers on the way out
    raise SystemExit(128 + signum)


def main():
    tap = Tap()
    signal.signal(signal.SIGTERM, _terminate)
    missing = s3server.installed()
    if missing:
        print("1..0 # SKIP OpenStack Swift is not installed (%s); .ci/run installs it" % ", ".join(missing))
        return 0

    base = os.environ.get("SMPROF_TEST_TMPDIR") or tempfile.gettempdir()
    os.makedirs(base, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="s3-test-", dir=base)
    swift = s3server.SwiftS3(os.path.join(tmp, "swift"))
    proxy = None
    try:
        start = time.monotonic()
        swift.start()
        started = time.monotonic()
        proxy = faultproxy.FaultProxy(swift.port, os.path.join(tmp, "proxy.log")).start()
        client = s3lib.S3(swift.endpoint, s3server.ACCESS_KEY, s3server.SECRET_KEY)
        escape, canary, paginated = upload(None, client, tmp)
        tap.ok(True, "Swift with s3api up on 127.0.0.1 (%.1f s) and the jobs uploaded (%.1f s)"
               % (started - start, time.monotonic() - started))
        ctx = Context(tmp, swift, proxy)
        for test in (lambda: test_open_and_cache(tap, ctx),
                     lambda: test_deeper_prefix(tap, ctx),
                     lambda: test_pagination(tap, ctx, paginated),
                     lambda: test_faults(tap, ctx),
                     lambda: test_errors(tap, ctx),
                     lambda: test_credentials(tap, ctx),
                     lambda: test_escape(tap, ctx, escape, canary)):
            started = time.monotonic()
            try:
                test()
                tap.lines.append("# %.1f s" % (time.monotonic() - started))
            except Exception:  # noqa: BLE001 - a crash is one failed case
                tap.ok(False, "test crashed", traceback.format_exc())
    except Exception:  # noqa: BLE001
        tap.ok(False, "setting up the S3 server", traceback.format_exc() + "\n" + swift.log_text())
    finally:
        if proxy is not None:
            proxy.stop()
        swift.stop()
        if os.environ.get("SMPROF_TEST_KEEP") is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
