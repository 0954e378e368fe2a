# SPDX-License-Identifier: GPL-3.0-or-later
"""Small shared helpers for the smprof black-box tests (Python 3 stdlib only).

* ``Tap``: collects TAP results and prints them ("1..N", "ok K - name",
  "not ok K - name" with "# ..." diagnostics).
* ``smprof(...)``: runs the binary named by $SMPROF and returns (rc, stdout, stderr).
* comparison helpers shared by several scripts (float tolerance, cProfile
  stats comparison, Pyinstrument tree merge/comparison, interval naming).

Environment: SMPROF = path of the built cli/smprof (set by meson);
SMPROF_TEST_DATA = the tests/data folder (defaults to ../data next to this file).
"""

import json
import math
import os
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("SMPROF_TEST_DATA") or os.path.join(os.path.dirname(HERE), "data")
REAL = os.path.join(DATA, "real-smdebug")
REAL_JOBS = {
    # job folder: (framework, profiler)
    "pt-cprofile": ("pytorch", "cprofile"),
    "tf-cprofile": ("tensorflow", "cprofile"),
    "pt-pyinstrument": ("pytorch", "pyinstrument"),
    "tf-pyinstrument": ("tensorflow", "pyinstrument"),
}
CALL_TIMEOUT = 120


class Tap:
    """Buffer TAP results; ``finish()`` prints the plan then every line."""

    def __init__(self):
        self.lines = []
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, diag=None):
        self.n += 1
        name = name.replace("#", "\\#").replace("\n", " ")
        self.lines.append(("ok" if cond else "not ok") + " %d - %s" % (self.n, name))
        if not cond:
            self.failed += 1
        if diag and not cond:
            self.diag(diag)
        return bool(cond)

    def skip(self, name, reason):
        self.n += 1
        self.lines.append("ok %d - %s # SKIP %s" % (self.n, name, reason))

    def diag(self, diag):
        if isinstance(diag, str):
            diag = diag.splitlines()
        shown = 0
        for item in diag:
            for line in str(item).splitlines() or [""]:
                if shown >= 40:
                    self.lines.append("# ... (more diagnostics cut)")
                    return
                self.lines.append("# " + line)
                shown += 1

    def check(self, problems, name):
        """``problems``: a list of strings; the case passes when it is empty."""
        return self.ok(not problems, name, problems)

    def finish(self):
        print("1..%d" % self.n)
        for line in self.lines:
            print(line)
        sys.stdout.flush()
        sys.exit(1 if self.failed else 0)

    def run_main(self, fn):
        """Run ``fn(self)``; an unexpected exception becomes a failed case."""
        try:
            fn(self)
        except Exception:  # noqa: BLE001 - report any crash of the test itself
            self.ok(False, "test script crashed", traceback.format_exc())
        self.finish()


def smprof_path():
    path = os.environ.get("SMPROF")
    if not path:
        print("Bail out! SMPROF is not set (meson sets it to the built cli/smprof)")
        sys.exit(1)
    return path


# Set by a test that needs smprof to run as an unprivileged user (root reads
# files whatever their mode, so an unreadable-file test runs smprof as nobody).
RUN_PREFIX = []


def unprivileged_prefix():
    """The command prefix that runs a program as nobody, or [] if not root."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def smprof(*args, timeout=CALL_TIMEOUT):
    """Run smprof; returns (returncode, stdout text, stderr text)."""
    cmd = RUN_PREFIX + [smprof_path()] + [str(a) for a in args]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return (-999, (e.stdout or b"").decode("utf-8", "replace"),
                "TIMEOUT after %ss: %s" % (timeout, " ".join(cmd)))
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def cmdline(args):
    return "smprof " + " ".join(_q(str(a)) for a in args)


def _q(s):
    if s and all(c.isalnum() or c in "-_./=,:*+" for c in s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def smprof_json(*args):
    """Run smprof expecting JSON on stdout.

    Returns (rc, obj or None, stdout, stderr, problems) where problems lists
    what went wrong (non-zero exit, unparsable JSON)."""
    rc, out, err = smprof(*args)
    problems = []
    obj = None
    if rc != 0:
        problems.append("%s: exit status %d (expected 0)" % (cmdline(args), rc))
        problems.append("stderr: " + err.strip()[:800])
        return rc, None, out, err, problems
    try:
        obj = json.loads(out)
    except ValueError as e:
        problems.append("%s: stdout is not JSON (%s): %r" % (cmdline(args), e, out[:300]))
    return rc, obj, out, err, problems


def expect_no_selection(args):
    """A query that selects nothing: exit 1, empty stdout, a message on stderr."""
    rc, out, err = smprof(*args)
    problems = []
    if rc != 1:
        problems.append("%s: exit status %d, expected 1 (no interval selected)" % (cmdline(args), rc))
    if out.strip():
        problems.append("stdout should be empty, got: %r" % out[:300])
    if not err.strip():
        problems.append("stderr should carry a message, it is empty")
    if rc != 1:
        problems.append("stderr: " + err.strip()[:500])
    return problems


# ---------------------------------------------------------------- numbers

def close(a, b, rel=1e-9, abs_=1e-12):
    if a is None or b is None:
        return a is b
    try:
        a = float(a)
        b = float(b)
    except (TypeError, ValueError):
        return False
    if math.isinf(a) or math.isinf(b) or math.isnan(a) or math.isnan(b):
        return a == b
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_)


def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


# ---------------------------------------------------------------- intervals

def interval_of_path(path):
    """'<...>/<node>/<interval>/<file>' -> '<node>/<interval>'."""
    parts = path.replace("\\", "/").rstrip("/").split("/")
    return parts[-3] + "/" + parts[-2]


def parse_interval(name):
    """Parse an interval folder name (§1.3): returns a dict like a list row."""
    start, end = name.split("_")
    sm, ss, sp, st = start.split("-")
    em, es, ep, et = end.split("-")
    return {
        "start_mode": sm, "start_step": -1 if ss == "*" else int(ss), "start_phase": sp,
        "start_time_since_epoch_in_micros": float(st),
        "end_mode": em, "end_step": math.inf if es == "*" else int(es), "end_phase": ep,
        "end_time_since_epoch_in_micros": float(et),
    }


# ---------------------------------------------------------------- cProfile

def fkey(d):
    return (d["file"], d["line"], d["function"])


def compare_cprofile_to_expected(got, exp, order_matters=True, name_map=None):
    """Compare smprof's cProfile stats JSON with smdebug's expected result
    (real-smdebug/*/expected format). Returns a list of problems."""
    p = []
    if not isinstance(got, dict):
        return ["stats output is not an object: %r" % (got,)]
    exp_iv = [interval_of_path(f) for f in exp["files"]]
    got_iv = got.get("intervals")
    if order_matters:
        if got_iv != exp_iv:
            p.append("intervals differ:\n  got      %s\n  expected %s" % (got_iv, exp_iv))
    else:
        if sorted(got_iv or []) != sorted(exp_iv):
            p.append("interval sets differ:\n  got      %s\n  expected %s" % (sorted(got_iv or []), sorted(exp_iv)))
    if got.get("profiler") != "cprofile":
        p.append("profiler = %r, expected 'cprofile'" % (got.get("profiler"),))
    if got.get("total_calls") != exp["total_calls"]:
        p.append("total_calls %r != expected %r" % (got.get("total_calls"), exp["total_calls"]))
    if got.get("primitive_calls") != exp["prim_calls"]:
        p.append("primitive_calls %r != expected %r" % (got.get("primitive_calls"), exp["prim_calls"]))
    if not close(got.get("total_time"), exp["total_tt"]):
        p.append("total_time %r != expected %r" % (got.get("total_time"), exp["total_tt"]))
    rows = exp["functions"]
    expf = {}
    for r in rows:
        callers = {}
        for c in r[7]:
            cr = rows[c[0]]
            callers[(cr[0], cr[1], cr[2])] = tuple(c[1:5])
        expf[(r[0], r[1], r[2])] = (r[3], r[4], r[5], r[6], callers)
    p += compare_functions(got.get("functions"), expf)
    return p


def compare_functions(got_functions, expf, what="expected"):
    """got_functions: smprof's "functions" list; expf: key -> (nc, cc, tt, ct,
    {caller key: (nc, cc, tt, ct)}). Returns problems."""
    p = []
    if not isinstance(got_functions, list):
        return ["functions is not a list: %r" % (type(got_functions),)]
    gotf = {}
    for f in got_functions:
        k = fkey(f)
        if k in gotf:
            p.append("function listed twice: %r" % (k,))
        gotf[k] = f
    missing = [k for k in expf if k not in gotf]
    extra = [k for k in gotf if k not in expf]
    if missing:
        p.append("%d functions missing (in %s, not in smprof), e.g. %r" % (len(missing), what, missing[:3]))
    if extra:
        p.append("%d extra functions (in smprof, not in %s), e.g. %r" % (len(extra), what, extra[:3]))
    bad = 0
    for k, (nc, cc, tt, ct, callers) in expf.items():
        f = gotf.get(k)
        if f is None:
            continue
        msgs = []
        if f.get("ncalls") != nc or f.get("primitive_calls") != cc:
            msgs.append("ncalls/primitive_calls %r/%r, %s %r/%r" % (f.get("ncalls"), f.get("primitive_calls"), what, nc, cc))
        if not close(f.get("tottime"), tt) or not close(f.get("cumtime"), ct):
            msgs.append("tottime/cumtime %r/%r, %s %r/%r" % (f.get("tottime"), f.get("cumtime"), what, tt, ct))
        gc = {}
        for c in f.get("callers") or []:
            ck = fkey(c)
            if ck in gc:
                msgs.append("caller listed twice: %r" % (ck,))
            gc[ck] = (c.get("ncalls"), c.get("primitive_calls"), c.get("tottime"), c.get("cumtime"))
        if set(gc) != set(callers):
            msgs.append("caller sets differ: missing %r extra %r" % (
                sorted(set(callers) - set(gc))[:3], sorted(set(gc) - set(callers))[:3]))
        for ck, ev in callers.items():
            gv = gc.get(ck)
            if gv is None:
                continue
            if gv[0] != ev[0] or gv[1] != ev[1] or not close(gv[2], ev[2]) or not close(gv[3], ev[3]):
                msgs.append("caller %r: got %r, %s %r" % (ck, gv, what, ev))
        if msgs:
            bad += 1
            if bad <= 5:
                p.append("function %r: %s" % (k, "; ".join(msgs[:4])))
    if bad > 5:
        p.append("... %d functions differ in total" % bad)
    return p


def pstats_to_expf(stats_dict):
    """CPython pstats dict -> the expf form used by compare_functions."""
    out = {}
    for k, (cc, nc, tt, ct, callers) in stats_dict.items():
        cl = {}
        for ck, cv in callers.items():
            if isinstance(cv, tuple):
                cl[ck] = tuple(cv)
            else:  # legacy int caller value
                cl[ck] = (cv, cv, 0.0, 0.0)
        out[k] = (nc, cc, tt, ct, cl)
    return out


# ---------------------------------------------------------------- Pyinstrument

def merge_pyinstrument_roots(root_frames):
    """Merge root frames (one per interval; None is skipped) by identity
    (function, file_path, line_no), summing time; self_time = time minus the
    sum of the children's time, per original frame, then summed.
    Returns {key: node} where node = {"time", "self_time", "children": {...}}."""
    merged = {}

    def add(into, frame):
        key = (frame.get("function"), frame.get("file_path"), frame.get("line_no"))
        node = into.get(key)
        if node is None:
            node = into[key] = {"time": 0.0, "self_time": 0.0, "children": {}}
        children = frame.get("children") or []
        node["time"] += frame["time"]
        node["self_time"] += frame["time"] - sum(c["time"] for c in children)
        for c in children:
            add(node["children"], c)

    for rf in root_frames:
        if rf is not None:
            add(merged, rf)
    return merged


def compare_pyinstrument_tree(got_frames, merged, path="tree", tol=1e-9):
    """Compare smprof's frames list with a merged map; also checks that the
    children are sorted by time, descending. Returns problems."""
    p = []
    if not isinstance(got_frames, list):
        return ["%s: not a list" % path]
    seen = {}
    for f in got_frames:
        k = (f.get("function"), f.get("file"), f.get("line"))
        if k in seen:
            p.append("%s: frame %r appears twice (not merged)" % (path, k))
        seen[k] = f
    if set(seen) != set(merged):
        p.append("%s: frame sets differ: missing %r extra %r" % (
            path, sorted(set(merged) - set(seen), key=repr)[:3], sorted(set(seen) - set(merged), key=repr)[:3]))
    if path != "tree":
        times = [f.get("time") for f in got_frames]
        if any(not isinstance(t, (int, float)) for t in times) or any(times[i] < times[i + 1] for i in range(len(times) - 1)):
            p.append("%s: children not sorted by time descending: %r" % (path, times[:10]))
    for k, node in merged.items():
        f = seen.get(k)
        if f is None:
            continue
        sub = "%s/%s" % (path, k[0])
        if not close(f.get("time"), node["time"], tol, tol):
            p.append("%s: time %r, expected %r" % (sub, f.get("time"), node["time"]))
        if not close(f.get("self_time"), node["self_time"], tol, tol):
            p.append("%s: self_time %r, expected %r" % (sub, f.get("self_time"), node["self_time"]))
        p += compare_pyinstrument_tree(f.get("children"), node["children"], sub, tol)
        if len(p) > 30:
            break
    return p


def check_node_ids(node_ids, contributing, requested):
    """node_ids: no duplicates, every node that contributed an interval, and
    only nodes that were asked for (the contract leaves open whether a
    requested node without a selected interval is listed, and in which order)."""
    if not isinstance(node_ids, list) or len(set(node_ids)) != len(node_ids):
        return ["node_ids %r is not a list of distinct ids" % (node_ids,)]
    p = []
    if not set(contributing) <= set(node_ids):
        p.append("node_ids %r lacks contributing node(s) %r" % (node_ids, sorted(set(contributing) - set(node_ids))))
    if not set(node_ids) <= set(requested):
        p.append("node_ids %r names node(s) not asked for (asked: %r)" % (node_ids, sorted(requested)))
    return p


def read_json(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
