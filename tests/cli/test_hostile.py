#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof on hostile copies of real jobs: the damage a training job can leave behind.

test_damaged.py covers one damage per copy (truncated, garbage and empty
python_stats, a bad folder name, a stray file, an empty folder, an unreadable
file, broken JSON). This script covers the rest, many damages per copy: each
damaged file sits in an interval folder of its own, added to a real job, so
one run checks hundreds of them. For every group:

* smprof exits 0 (never crashes, hangs or runs out of memory);
* stderr has a warning `smprof: warning: PATH: what is wrong` naming each
  damaged file or folder, with the expected kind of problem;
* `stats --all --node all --json` is exactly what the pristine job gives,
  so every other interval still loads, with unchanged numbers.

Groups: every byte-offset truncation of a small python_stats and of a small
python_stats.json; random bit flips (a flipped file either loads and reads
exactly as CPython's pstats reads it, or is named); hostile marshal (length
prefixes of 2^31, a 1 GiB string claim, nesting 100,000 deep, back-references
out of range, wrong types in the tuples); hostile JSON (wrong types, deep
nesting, huge numbers, invalid UTF-8, a 1 GiB string in a sparse file, a
3 GiB sparse file); malformed folder names of every kind in the spec's edge
vectors; names that are not UTF-8; stray files and empty folders at every
level; unreadable folders; symlink loops, a FIFO and /dev/zero as
python_stats; and a job folder that changes while smprof reads it.
"""

import json
import marshal
import os
import pstats
import random
import shutil
import stat
import struct
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import REAL, cmdline, smprof  # noqa: E402

QUERY = ["--all", "--node", "all", "--json"]
WARNING = "smprof: warning: "
T0 = 1900000000000000.0  # µs since the epoch, after every real interval

CPROFILE = ("tf-cprofile", "tensorflow", "cprofile")
PYINSTRUMENT = ("tf-pyinstrument", "tensorflow", "pyinstrument")


# ---------------------------------------------------------------- helpers

def base_of(job, spec):
    return os.path.join(job, "framework", spec[1], spec[2])


def fake_interval(k, mode="train"):
    """A valid interval folder name no real job uses (k-th of a group)."""
    step = 90000 + k
    start = T0 + 10.0 * k
    return "%s-%d-stepstart-%r_%s-%d-stepend-%r" % (mode, step, start + 0.5, mode, step, start + 5.25)


def copy_real(spec, dest):
    shutil.copytree(os.path.join(REAL, spec[0]), dest, ignore=shutil.ignore_patterns("expected"))
    return dest


def nodes_of(job, spec):
    return sorted(os.listdir(base_of(job, spec)))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def warnings_of(err):
    return [line[len(WARNING):] for line in err.splitlines() if line.startswith(WARNING)]


def find_warning(warnings, location, needle):
    """The warning about ``location`` (an absolute path), or None. A match
    needs the location followed by ': ' and ``needle`` somewhere after it."""
    prefix = location + ": "
    for w in warnings:
        if w.startswith(prefix) and needle in w[len(prefix):]:
            return w
    return None


def run_stats(job, timeout=taplib.CALL_TIMEOUT):
    rc, out, err = smprof("stats", job, *QUERY, timeout=timeout)
    try:
        got = json.loads(out) if rc == 0 else None
    except ValueError:
        got = None
    return rc, got, out, err


class Reference:
    """``stats --all --node all --json`` on pristine jobs, computed once."""

    def __init__(self):
        self.cache = {}

    def get(self, job):
        if job not in self.cache:
            rc, got, out, err = run_stats(job)
            if rc != 0 or got is None:
                raise RuntimeError("the pristine job fails: %s exit %d\n%s" % (job, rc, err[:500]))
            if warnings_of(err):
                raise RuntimeError("the pristine job warns:\n%s" % err[:500])
            self.cache[job] = got
        return self.cache[job]


def compare_outputs(got, want):
    if got is None:
        return ["no JSON on stdout"]
    if got == want:
        return []
    p = ["differs from the pristine job"]
    gi, wi = got.get("intervals") or [], want.get("intervals") or []
    if gi != wi:
        p.append("intervals: extra %r missing %r" % (sorted(set(gi) - set(wi))[:3], sorted(set(wi) - set(gi))[:3]))
    for k in sorted(set(got) | set(want)):
        if k != "intervals" and got.get(k) != want.get(k):
            p.append("%s differs" % k)
    return p


def check_group(tap, label, job, pristine_out, expected, timeout=taplib.CALL_TIMEOUT):
    """Run smprof on ``job``; ``expected``: [(absolute location, needle)].
    Three TAP results: exit 0, every damage named, numbers unchanged."""
    t = time.monotonic()
    rc, got, out, err = run_stats(job, timeout=timeout)
    took = time.monotonic() - t
    p = []
    if rc != 0:
        p.append("%s: exit %d, expected 0 (after %.1f s); stderr %r" % (cmdline(["stats", job] + QUERY), rc, took, err[-600:]))
    tap.check(p, "%s: smprof exits 0" % label)
    warnings = warnings_of(err)
    missing = [(loc, needle) for loc, needle in expected if find_warning(warnings, loc, needle) is None]
    p = ["%d of %d damages not named as expected" % (len(missing), len(expected))] if missing else []
    for loc, needle in missing[:6]:
        near = [w for w in warnings if w.startswith(loc)]
        p.append("no warning '%s: ...%s...'; got %r" % (loc, needle, near[:1] or "(none for this path)"))
    tap.check(p, "%s: a warning names each of the %d damaged files or folders with its problem" % (label, len(expected)))
    tap.check(compare_outputs(got, pristine_out) if rc == 0 else ["no output"],
              "%s: every other interval loads, numbers unchanged" % label)
    return rc, got, warnings


def interval_file(job, spec, node, interval, name=None):
    return os.path.join(base_of(job, spec), node, interval, name or stats_name(spec))


def stats_name(spec):
    return "python_stats" if spec[2] == "cprofile" else "python_stats.json"


def smallest_stats(job, spec, min_size=0):
    files = []
    for node in nodes_of(job, spec):
        for iv in sorted(os.listdir(os.path.join(base_of(job, spec), node))):
            f = os.path.join(base_of(job, spec), node, iv, stats_name(spec))
            if os.path.isfile(f) and os.path.getsize(f) > min_size:
                files.append((os.path.getsize(f), f))
    files.sort()
    return files[0][1]


def add_damaged(job, spec, items, node=None):
    """items: [(name, bytes)] -> each into a fake interval folder of its own.
    Returns [(absolute file path, name)]."""
    node = node or nodes_of(job, spec)[0]
    placed = []
    for k, (name, data) in enumerate(items):
        f = interval_file(job, spec, node, fake_interval(k))
        write(f, data)
        placed.append((f, name))
    return placed


# ---------------------------------------------------------------- cProfile

def group_truncations(tap, tmp, ref):
    for spec, needle, min_size in ((CPROFILE, "file ends", 0), (PYINSTRUMENT, "damaged Pyinstrument session", 1000)):
        pristine = copy_real(spec, os.path.join(tmp, "pristine-" + spec[0]))
        src = smallest_stats(pristine, spec, min_size)
        with open(src, "rb") as fh:
            data = fh.read()
        # A JSON document ending in a newline still parses without it.
        end = len(data.rstrip()) if spec is PYINSTRUMENT else len(data)
        job = shutil.copytree(pristine, os.path.join(tmp, "truncated-" + spec[0]))
        placed = add_damaged(job, spec, [("%d bytes" % n, data[:n]) for n in range(end)])
        kind = "damaged cProfile stats" if spec is CPROFILE else needle
        expected = [(f, kind) for f, _ in placed]
        if spec is CPROFILE:
            # every cut reads as truncated, never as some other damage
            expected += [(f, needle) for f, _ in placed]
        check_group(tap, "every truncation of a %d-byte %s (%d cuts)" % (len(data), stats_name(spec), end),
                    job, ref.get(pristine), expected)


def flipped_copies(data, n, rng):
    out = []
    for _ in range(n):
        bit = rng.randrange(len(data) * 8)
        b = bytearray(data)
        b[bit // 8] ^= 1 << (bit % 8)
        out.append((bit, bytes(b)))
    return out


def cpython_reads(path):
    try:
        return pstats.Stats(path).stats
    except Exception:  # noqa: BLE001 - any refusal
        return None


def group_bit_flips(tap, tmp, ref):
    spec = CPROFILE
    pristine = os.path.join(tmp, "pristine-" + spec[0])
    src = smallest_stats(pristine, spec, 2000)
    interval = os.path.basename(os.path.dirname(src))
    with open(src, "rb") as fh:
        data = fh.read()
    flips = flipped_copies(data, 150, random.Random(20260707))
    job = shutil.copytree(pristine, os.path.join(tmp, "flipped"))
    paths = []
    for k, (bit, b) in enumerate(flips):
        f = interval_file(job, spec, "flip-%03d" % k, interval)
        write(f, b)
        paths.append(f)
    rc, got, out, err = run_stats(job)
    tap.check([] if rc == 0 and got is not None else ["exit %d; %r" % (rc, err[-400:])],
              "%d random bit flips of a %d-byte python_stats: smprof exits 0" % (len(flips), len(data)))
    if rc != 0 or got is None:
        return
    listed = set(got.get("intervals") or [])
    warnings = warnings_of(err)
    loaded, p = [], []
    for k, f in enumerate(paths):
        is_listed = ("flip-%03d/%s" % (k, interval)) in listed
        named = find_warning(warnings, f, "damaged cProfile stats")
        if is_listed == bool(named):
            p.append("flip %d (bit %d): %s" % (k, flips[k][0], "both loaded and named" if named else "neither loaded nor named"))
        if is_listed:
            loaded.append(k)
    tap.check(p, "bit flips: each flipped file either loads or is named (%d load, %d named)"
              % (len(loaded), len(paths) - len(loaded)))

    # What loaded is read exactly as CPython reads it.
    p = []
    for k in loaded:
        stats = cpython_reads(paths[k])
        if stats is None:
            p.append("flip %d (bit %d) loads in smprof but CPython's pstats refuses it" % (k, flips[k][0]))
            continue
        rc1, one, _, err1 = run_stats_node(job, "flip-%03d" % k)
        if one is None:
            p.append("flip %d: stats --node flip-%03d fails: %r" % (k, k, err1[-300:]))
            continue
        p += ["flip %d: %s" % (k, x) for x in taplib.compare_functions(
            ascii_names(one.get("functions")), taplib.pstats_to_expf(ascii_keys(stats)), "CPython")]
    tap.check(p, "bit flips: each of the %d flipped files that loads reads as CPython's pstats reads it" % len(loaded))

    # The same job without the rejected flips gives exactly the same answer.
    ref_job = shutil.copytree(pristine, os.path.join(tmp, "flipped-ref"))
    for k in loaded:
        write(interval_file(ref_job, spec, "flip-%03d" % k, interval), flips[k][1])
    rc2, want, _, err2 = run_stats(ref_job)
    p = ["reference job fails: %r" % err2[-300:]] if want is None else []
    if want is not None:
        # A node whose every interval was refused may be listed or not: the
        # contract leaves open whether a requested node that contributes
        # nothing is named (taplib.check_node_ids).
        flipped_nodes = {"flip-%03d" % k for k in range(len(paths))}
        got_nodes = [n for n in got.get("node_ids") or [] if n not in flipped_nodes or int(n[5:]) in loaded]
        p = compare_outputs(dict(got, node_ids=got_nodes), want)
    tap.check(p, "bit flips: every other interval loads, numbers unchanged")


def ascii_text(text):
    """CPython reads the bytes >= 0x80 of an ASCII-typed marshal string as
    Latin-1, smprof as U+FFFD (its function table holds valid UTF-8 only). No
    writer makes such a string; a flipped bit can. Compare names modulo that."""
    return "".join(c if ord(c) < 128 else "?" for c in text) if isinstance(text, str) else text


def ascii_key(key):
    return tuple(ascii_text(x) for x in key)


def ascii_keys(stats):
    return {ascii_key(k): (cc, nc, tt, ct, {ascii_key(ck): cv for ck, cv in callers.items()})
            for k, (cc, nc, tt, ct, callers) in stats.items()}


def ascii_names(functions):
    out = []
    for f in functions or []:
        f = dict(f, file=ascii_text(f.get("file")), function=ascii_text(f.get("function")))
        f["callers"] = [dict(c, file=ascii_text(c.get("file")), function=ascii_text(c.get("function")))
                        for c in f.get("callers") or []]
        out.append(f)
    return out


def run_stats_node(job, node):
    rc, out, err = smprof("stats", job, "--all", "--node", node, "--json")
    try:
        return rc, (json.loads(out) if rc == 0 else None), out, err
    except ValueError:
        return rc, None, out, err


def u32(n):
    return struct.pack("<I", n & 0xffffffff)


def hostile_marshal():
    key = marshal.dumps(("f.py", 1, "g"), 2)
    stat = marshal.dumps((1, 1, 0.5, 0.5, {}), 2)
    good = {("f.py", 1, "g"): (1, 1, 0.5, 0.5, {("h.py", 2, "h"): (1, 1, 0.25, 0.5)})}

    def one(k, v):
        return marshal.dumps({k: v})

    items = [
        ("a string length prefix of 2^31", b"{" + b")\x03" + b"u" + u32(2 ** 31) + b"x" * 16 + b"0"),
        ("a tuple length prefix of 2^31", b"(" + u32(2 ** 31) + b"N" * 8),
        ("a tuple length prefix of 2^31 - 1", b"(" + u32(2 ** 31 - 1) + b"N" * 8),
        ("a dict key tuple of 2^31 - 1 items", b"{(" + u32(2 ** 31 - 1) + b"N" * 8 + b"0"),
        ("a string claiming 1 GiB", b"{" + b")\x03a" + u32(2 ** 30) + b"f.py" + b"0"),
        ("a string length of 2^32 - 1", b"{" + b")\x03u" + u32(2 ** 32 - 1) + b"f.py" + b"0"),
        ("an integer of 2^31 digits", b"{" + b")\x03" + b"z\x04f.py" + b"l" + u32(2 ** 31) + b"\x01\x00" + b"z\x01g" + stat + b"0"),
        ("tuples nested 100,000 deep", b")\x01" * 100000 + b"N"),
        ("dicts nested 100,000 deep", b"\xfb" * 100000),
        ("a dict nested 100,000 deep in a caller", b"{" + key + b")\x05" + b"i\x01\x00\x00\x00" * 2 + b"g" + b"\x00" * 8 * 2 + b"{" * 100000),
        ("a back-reference to object 2^31 - 1", b"{" + b")\x03" + b"r" + u32(2 ** 31 - 1) + b"i\x01\x00\x00\x00z\x01g" + stat + b"0"),
        ("a back-reference one past the last object", b"{" + b")\x03" + b"\xfaz\x04f.py" + b"i\x01\x00\x00\x00" + b"r" + u32(1) + stat + b"0"),
        ("a back-reference to a dict still being read", b"\xfb" + b")\x03" + b"r" + u32(0) + b"i\x01\x00\x00\x00z\x01g" + stat + b"0"),
        ("a function stat with a string call count", one(("f.py", 1, "g"), ("x", 1, 0.5, 0.5, {}))),
        ("a function stat with a string time", one(("f.py", 1, "g"), (1, 1, "0.5", 0.5, {}))),
        ("a function stat with callers as a list", one(("f.py", 1, "g"), (1, 1, 0.5, 0.5, []))),
        ("a function stat of 4 items", one(("f.py", 1, "g"), (1, 1, 0.5, 0.5))),
        ("a function stat of 6 items", one(("f.py", 1, "g"), (1, 1, 0.5, 0.5, {}, 9))),
        ("a function stat that is a float", one(("f.py", 1, "g"), 0.5)),
        ("a key with a string line", one(("f.py", "1", "g"), (1, 1, 0.5, 0.5, {}))),
        ("a key with an int file", one((1, 1, "g"), (1, 1, 0.5, 0.5, {}))),
        ("a key with a None name", one(("f.py", 1, None), (1, 1, 0.5, 0.5, {}))),
        ("a key of 2 items", one(("f.py", 1), (1, 1, 0.5, 0.5, {}))),
        ("a string key", one("f.py:1(g)", (1, 1, 0.5, 0.5, {}))),
        ("a caller stat of 3 items", one(("f.py", 1, "g"), (1, 1, 0.5, 0.5, {("h.py", 2, "h"): (1, 1, 0.5)}))),
        ("a caller stat that is a float", one(("f.py", 1, "g"), (1, 1, 0.5, 0.5, {("h.py", 2, "h"): 0.5}))),
        ("a caller stat with None", one(("f.py", 1, "g"), (1, 1, 0.5, 0.5, {("h.py", 2, "h"): (1, None, 0.5, 0.5)}))),
        ("a caller key that is an int", one(("f.py", 1, "g"), (1, 1, 0.5, 0.5, {7: (1, 1, 0.5, 0.5)}))),
        ("a call count of 2^64", one(("f.py", 1, "g"), (2 ** 64, 1, 0.5, 0.5, {}))),
        ("call counts adding up past 2^63", marshal.dumps({("f.py", i, "g"): (2 ** 62, 2 ** 62, 0.5, 0.5, {}) for i in range(3)})),
        ("a list instead of a dict", marshal.dumps([1, 2, 3])),
        ("a tuple instead of a dict", marshal.dumps((1, 2))),
        ("None instead of a dict", marshal.dumps(None)),
        ("bytes after the dict", marshal.dumps(good) + b"junk"),
        ("an unknown type byte", b"{" + key + b"\x7f" + b"0"),
    ]
    return items


def group_hostile_marshal(tap, tmp, ref):
    spec = CPROFILE
    pristine = os.path.join(tmp, "pristine-" + spec[0])
    job = shutil.copytree(pristine, os.path.join(tmp, "hostile-marshal"))
    placed = add_damaged(job, spec, hostile_marshal())
    check_group(tap, "hostile marshal (%s)" % ", ".join(name for _, name in placed[:3]) + ", ...",
                job, ref.get(pristine), [(f, "damaged cProfile stats") for f, _ in placed])


# ---------------------------------------------------------------- Pyinstrument

def frame(**over):
    f = {"function": "f", "file_path": "f.py", "line_no": 1, "time": 0.5, "is_application_code": True, "children": []}
    f.update(over)
    return f


def session(root):
    return {"start_time": 1.0, "duration": 0.5, "sample_count": 5, "program": "train.py",
            "cpu_time": 0.5, "root_frame": root}


def chain(depth):
    """A root frame with ``depth`` nested children, built as text: Python's
    json module would recurse."""
    head = '{"function": "f", "file_path": "f.py", "line_no": 1, "time": 1.0, "children": ['
    return ('{"root_frame": ' + head * (depth + 1) + "]}" * (depth + 1) + "}").encode()


def hostile_json():
    j = lambda obj: json.dumps(obj).encode()  # noqa: E731
    return [
        ("root_frame is a list", j(session([frame()]))),
        ("a string time", j(session(frame(time="0.5")))),
        ("a float line number", j(session(frame(line_no=1.5)))),
        ("a null function", j(session(frame(function=None)))),
        ("children as an object", j(session(frame(children={})))),
        ("a child that is a number", j(session(frame(children=[1])))),
        ("a boolean time", j(session(frame(time=True)))),
        ("a negative time", j(session(frame(time=-1)))),
        ("the document is a list", b"[]"),
        ("the document is a string", b'"root_frame"'),
        ("arrays nested 100,000 deep", b"[" * 100000 + b"]" * 100000),
        ("objects nested 100,000 deep", b'{"a":' * 100000 + b"1" + b"}" * 100000),
        ("an unclosed array 100,000 deep", b'{"root_frame": ' + b"[" * 100000),
        ("frames nested 3,000 deep", chain(3000)),
        ("a time of 1e400", j(session(frame())).replace(b'"time": 0.5', b'"time": 1e400')),
        ("a time of 1e300", j(session(frame(time=1e300)))),
        ("a time of 10^30 (an integer)", j(session(frame())).replace(b'"time": 0.5', b'"time": 1000000000000000000000000000000')),
        ("a function name that is not UTF-8", j(session(frame(function="f-XX"))).replace(b"f-XX", b"f-\xff\xfe")),
        ("an overlong UTF-8 sequence", j(session(frame(function="f-XX"))).replace(b"f-XX", b"f-\xc0\xaf")),
        ("a lone surrogate escape", j(session(frame(function="f-XX"))).replace(b"f-XX", b"f-\\ud800")),
        ("a Latin-1 document", j(session(frame(function="caf\u00e9"))).replace(b"caf\\u00e9", b"caf\xe9")),
        ("a UTF-16 document", json.dumps(session(frame())).encode("utf-16")),
        ("an unterminated string", b'{"root_frame": {"function": "' + b"x" * 100000),
        ("a NUL byte before the end", j(session(frame())) + b"\0"),
    ]


def group_hostile_json(tap, tmp, ref):
    spec = PYINSTRUMENT
    pristine = os.path.join(tmp, "pristine-" + spec[0])
    if not os.path.isdir(pristine):
        copy_real(spec, pristine)
    job = shutil.copytree(pristine, os.path.join(tmp, "hostile-json"))
    items = hostile_json()
    placed = add_damaged(job, spec, items)
    expected = [(f, "damaged Pyinstrument session") for f, _ in placed]

    # A 1 GiB string: the file says it holds one (it is sparse), smprof must
    # read it, refuse it and go on. And a 3 GiB file, refused unread.
    node = nodes_of(job, spec)[0]
    big = interval_file(job, spec, node, fake_interval(len(items)))
    write(big, b'{"root_frame": {"function": "')
    os.truncate(big, 1 << 30)
    expected.append((big, "damaged Pyinstrument session"))
    huge = interval_file(job, spec, node, fake_interval(len(items) + 1))
    write(huge, b'{"root_frame": {"function": "')
    os.truncate(huge, 3 << 30)
    expected.append((huge, "too large"))
    check_group(tap, "hostile JSON (wrong types, nesting 100,000 deep, huge numbers, invalid UTF-8, "
                "a 1 GiB string, a 3 GiB file)", job, ref.get(pristine), expected, timeout=300)

    # Deep but legal: 2,000 nested frames load (the limit is 2,048).
    job = shutil.copytree(pristine, os.path.join(tmp, "deep-json"))
    write(interval_file(job, spec, "deep-algo-9", fake_interval(0)), chain(2000))
    rc, got, out, err = run_stats(job)
    p = [] if rc == 0 and got is not None and not warnings_of(err) else ["exit %d: %r" % (rc, err[-400:])]
    if not p:
        deep = [f for f in got.get("tree") or [] if f.get("file") == "f.py"]
        depth = 0
        while deep:
            depth += 1
            deep = deep[0].get("children") or []
        if depth != 2001:
            p.append("the chain of f.py frames in the merged tree is %d deep, expected 2001" % depth)
    tap.check(p, "a Pyinstrument session 2,000 frames deep loads whole")


# ---------------------------------------------------------------- names and layout

MALFORMED = [
    # the spec's edge vectors
    "Train-5-stepstart-1.0_train-5-stepend-2.0",
    "train-1.0-stepstart-1.0_train-5-stepend-2.0",
    "train-5-stepstart-1.0_train-5-stepend-2.0_x",
    "train-5-stepstart-1.0-x_train-5-stepend-2.0",
    "train-5-Stepstart-1.0_train-5-stepend-2.0",
    # and every other way a name can be wrong
    "train-5-stepstart-1.0",
    "train-5-stepstart_train-5-stepend-2.0",
    "train--stepstart-1.0_train-5-stepend-2.0",
    "train-+5-stepstart-1.0_train-5-stepend-2.0",
    "train--5-stepstart-1.0_train-5-stepend-2.0",
    "train-0x10-stepstart-1.0_train-5-stepend-2.0",
    "train-\u0665-stepstart-1.0_train-5-stepend-2.0",
    "train-5-stepstart-abc_train-5-stepend-2.0",
    "train-5-stepstart-nan_train-5-stepend-2.0",
    "train-5-stepstart-1.0_train-5-stepend-inf",
    "train-5-stepstart-1.0_train-5-stepend-",
    "train-5-stepstart-1,0_train-5-stepend-2.0",
    "train-5-stepstart-1.0.0_train-5-stepend-2.0",
    "train-5-stepstart-1.0e_train-5-stepend-2.0",
    "training-5-stepstart-1.0_train-5-stepend-2.0",
    "TRAIN-5-STEP_START-1.0_train-5-stepend-2.0",
    "train-99999999999999999999-stepstart-1.0_train-5-stepend-2.0",
    "train-5-stepstart-1.0_train-5-stepend-2.0 ",
    " train-5-stepstart-1.0_train-5-stepend-2.0",
    "train-5-stepstart-1.0__train-5-stepend-2.0",
    "_",
    "-",
    "---_---",
    "train",
]


def group_names_and_layout(tap, tmp, ref):
    spec = CPROFILE
    pristine = os.path.join(tmp, "pristine-" + spec[0])
    job = shutil.copytree(pristine, os.path.join(tmp, "layout"))
    base = base_of(job, spec)
    node = nodes_of(job, spec)[0]
    stats_bytes = open(smallest_stats(pristine, spec), "rb").read()
    expected = []

    for name in MALFORMED:
        write(os.path.join(base, node, name, "python_stats"), stats_bytes)
        expected.append((os.path.join(base, node, name), "malformed interval folder name"))

    # names that are not UTF-8 (the warning shows them made valid)
    bad_iv = os.fsencode(os.path.join(base, node)) + b"/train-5-stepstart-1.0_train-5-stepend-2.0\xff"
    write(os.fsdecode(bad_iv + b"/python_stats"), stats_bytes)
    expected.append((os.path.join(base, node, "train-5-stepstart-1.0_train-5-stepend-2.0\ufffd"), "not valid UTF-8"))
    bad_node = os.fsencode(base) + b"/node-\xff"
    write(os.fsdecode(bad_node + b"/" + os.fsencode(fake_interval(0)) + b"/python_stats"), stats_bytes)
    expected.append((os.path.join(base, "node-\ufffd", fake_interval(0), "python_stats"), "not valid UTF-8"))
    write(os.fsdecode(os.fsencode(base) + b"/core-\xfe"), b"\0" * 16)
    expected.append((os.path.join(base, "core-\ufffd"), "where node folders belong"))
    write(os.fsdecode(os.fsencode(os.path.join(base, node, fake_interval(1))) + b"/python_stats\xff"), b"junk")
    write(os.path.join(base, node, fake_interval(1), "python_stats"), stats_bytes[:10])
    expected.append((os.path.join(base, node, fake_interval(1), "python_stats"), "damaged cProfile stats"))

    # stray files at every level, unknown files inside interval folders
    write(os.path.join(job, "framework", "README"), b"stray")
    write(os.path.join(job, "framework", spec[1], "stray.log"), b"stray")
    write(os.path.join(base, "core.4242"), b"\0" * 64)
    expected.append((os.path.join(base, "core.4242"), "where node folders belong"))
    write(os.path.join(base, node, "notes.txt"), b"stray")
    expected.append((os.path.join(base, node, "notes.txt"), "where interval folders belong"))
    real_iv = sorted(os.listdir(os.path.join(pristine, "framework", spec[1], spec[2], node)))[3]
    for extra in ("python_stats.tmp", "python_stats.json.partial", ".python_stats.swp"):
        write(os.path.join(base, node, real_iv, extra), b"\0garbage")

    # empty folders at every level
    os.makedirs(os.path.join(job, "framework", "pytorch", "cprofile"))
    os.makedirs(os.path.join(base, "empty-node"))
    os.makedirs(os.path.join(base, node, fake_interval(2)))
    expected.append((os.path.join(base, node, fake_interval(2)), "without python_stats"))
    os.makedirs(os.path.join(base, node, fake_interval(3), "sub", "sub"))
    expected.append((os.path.join(base, node, fake_interval(3)), "without python_stats"))

    # symlink loops, and files that are not regular files
    os.symlink(".", os.path.join(base, node, "loop-self"))
    expected.append((os.path.join(base, node, "loop-self"), "malformed interval folder name"))
    os.symlink("loop-b", os.path.join(base, node, "loop-a"))
    os.symlink("loop-a", os.path.join(base, node, "loop-b"))
    # strerror (ELOOP), English as "ermission denied" below
    expected.append((os.path.join(base, node, "loop-a"), "symbolic links"))
    expected.append((os.path.join(base, node, "loop-b"), "symbolic links"))
    os.symlink(".", os.path.join(base, "loop-node"))
    expected.append((os.path.join(base, "loop-node", node), "malformed interval folder name"))
    os.symlink(".", os.path.join(job, "framework", "loop-framework"))
    iv = os.path.join(base, node, fake_interval(4))
    os.makedirs(iv)
    os.symlink("python_stats", os.path.join(iv, "python_stats"))
    expected.append((os.path.join(iv, "python_stats"), "symbolic links"))
    iv = os.path.join(base, node, fake_interval(5))
    os.makedirs(iv)
    os.mkfifo(os.path.join(iv, "python_stats"))
    expected.append((os.path.join(iv, "python_stats"), "not a regular file"))
    iv = os.path.join(base, node, fake_interval(6))
    os.makedirs(iv)
    os.symlink("/dev/zero", os.path.join(iv, "python_stats"))
    expected.append((os.path.join(iv, "python_stats"), "not a regular file"))
    iv = os.path.join(base, node, fake_interval(7))
    write(os.path.join(iv, "python_stats"), stats_bytes[:100])
    os.truncate(os.path.join(iv, "python_stats"), 5 << 30)
    expected.append((os.path.join(iv, "python_stats"), "too large"))

    check_group(tap, "malformed names (%d kinds), names not UTF-8, stray files, empty folders, "
                "symlink loops, a FIFO, /dev/zero, a 5 GiB sparse file" % len(MALFORMED),
                job, ref.get(pristine), expected, timeout=60)
    shutil.rmtree(job, ignore_errors=True)  # never walk its links later


def group_unreadable_folders(tap, tmp, ref):
    """chmod 000 on a node folder and on interval folders. Root reads
    everything, so then smprof runs as nobody."""
    spec = CPROFILE
    pristine = os.path.join(tmp, "pristine-" + spec[0])
    job = shutil.copytree(pristine, os.path.join(tmp, "unreadable"))
    base = base_of(job, spec)
    node = nodes_of(job, spec)[0]
    stats_bytes = open(smallest_stats(pristine, spec), "rb").read()
    write(interval_file(job, spec, "locked-node", fake_interval(0)), stats_bytes)
    write(interval_file(job, spec, node, fake_interval(1)), stats_bytes)
    write(interval_file(job, spec, node, fake_interval(2)), stats_bytes)
    prefix = taplib.unprivileged_prefix()
    os.chmod(tmp, 0o755)
    for top in (job, pristine):
        for root, dirs, files in os.walk(top):
            os.chmod(root, 0o755)
            for f in files:
                if not os.path.islink(os.path.join(root, f)):
                    os.chmod(os.path.join(root, f), 0o644)
    locked = [os.path.join(base, "locked-node"), os.path.join(base, node, fake_interval(1))]
    os.chmod(locked[0], 0)
    os.chmod(locked[1], 0)
    os.chmod(interval_file(job, spec, node, fake_interval(2)), 0)
    expected = [(locked[0], "ermission denied"), (locked[1], "ermission denied"),
                (interval_file(job, spec, node, fake_interval(2)), "ermission denied")]
    pristine_out = ref.get(pristine)
    taplib.RUN_PREFIX = prefix
    try:
        check_group(tap, "unreadable node folder, interval folder and file (chmod 000%s)"
                    % (", as nobody" if prefix else ""), job, pristine_out, expected)
    finally:
        taplib.RUN_PREFIX = []
        for p in locked:
            os.chmod(p, 0o755)


# ---------------------------------------------------------------- a job that changes

def group_changing_job(tap, tmp, ref):
    """A thread adds and removes interval folders (and stray files) of two
    churn nodes while smprof lists and reads the job, run after run. Each run
    must exit 0, name only churned paths, list every pristine interval, and
    give exactly the answer of a still job holding the churned intervals it
    listed."""
    spec = CPROFILE
    pristine = os.path.join(tmp, "pristine-" + spec[0])
    job = shutil.copytree(pristine, os.path.join(tmp, "changing"))
    base = base_of(job, spec)
    stats_bytes = open(smallest_stats(pristine, spec, 2000), "rb").read()
    pristine_intervals = ref.get(pristine).get("intervals") or []
    churn_nodes = ["churn-a", "churn-b"]
    slots = [(n, fake_interval(k)) for n in churn_nodes for k in range(40)]
    stop = threading.Event()
    rng = random.Random(77)

    def churn():
        while not stop.is_set():
            node, iv = rng.choice(slots)
            folder = os.path.join(base, node, iv)
            try:
                if os.path.isdir(folder):
                    shutil.rmtree(folder, ignore_errors=True)
                else:
                    write(os.path.join(folder, "python_stats"), stats_bytes)
                stray = os.path.join(base, node, "stray-%d" % rng.randrange(4))
                if os.path.exists(stray):
                    os.unlink(stray)
                else:
                    write(stray, b"x")
            except OSError:
                pass

    for node, iv in slots[::2]:
        write(os.path.join(base, node, iv, "python_stats"), stats_bytes)
    worker = threading.Thread(target=churn, daemon=True)
    worker.start()
    runs, problems, vanished, loaded_total = 12, [], 0, 0
    results = []
    try:
        for r in range(runs):
            rc, got, out, err = run_stats(job)
            results.append((rc, got, err))
    finally:
        stop.set()
        worker.join()

    for r, (rc, got, err) in enumerate(results):
        if rc != 0 or got is None:
            problems.append("run %d: exit %d, %r" % (r, rc, err[-300:]))
            continue
        for w in warnings_of(err):
            if not any(("/%s/" % n) in w or w.startswith(os.path.join(base, n)) for n in churn_nodes):
                problems.append("run %d: a warning about an unchanged path: %s" % (r, w[:200]))
            if "No such file" in w or "o such file" in w:
                vanished += 1
        listed = got.get("intervals") or []
        missing = [iv for iv in pristine_intervals if iv not in listed]
        if missing:
            problems.append("run %d: %d pristine intervals missing, e.g. %s" % (r, len(missing), missing[0]))
        # the still job holding exactly the churned intervals this run loaded
        churned = [iv for iv in listed if iv.split("/")[0] in churn_nodes]
        loaded_total += len(churned)
        still = shutil.copytree(pristine, os.path.join(tmp, "still-%d" % r))
        for iv in churned:
            write(interval_file(still, spec, iv.split("/")[0], iv.split("/")[1]), stats_bytes)
        rc2, want, _, err2 = run_stats(still)
        if want is None:
            problems.append("run %d: the still job fails: %r" % (r, err2[-300:]))
        else:
            problems += ["run %d: %s" % (r, x) for x in compare_outputs(got, want)]
        shutil.rmtree(still, ignore_errors=True)
    tap.check(problems, "a job folder changing while read (%d runs, %d churned intervals loaded, "
              "%d read after they vanished): exit 0, only churned paths named, the rest unchanged"
              % (runs, loaded_total, vanished))


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-hostile-")
    ref = Reference()
    try:
        group_truncations(tap, tmp, ref)
        group_bit_flips(tap, tmp, ref)
        group_hostile_marshal(tap, tmp, ref)
        group_hostile_json(tap, tmp, ref)
        group_names_and_layout(tap, tmp, ref)
        group_unreadable_folders(tap, tmp, ref)
        group_changing_job(tap, tmp, ref)
    finally:
        for root, dirs, files in os.walk(tmp):
            for d in dirs:
                if not os.path.islink(os.path.join(root, d)):
                    try:
                        os.chmod(os.path.join(root, d), stat.S_IRWXU)
                    except OSError:
                        pass
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.setrecursionlimit(20000)
    taplib.Tap().run_main(main)
