#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile names through every human output of smprof (issue 18, item 7).

A copy of pt-cprofile where a node folder, an interval folder and the
function keys of one stats file carry a newline, a carriage return, an ESC
and ANSI sequences (colour, clear screen, set title), a C1 control and a
right-to-left override, and where a malformed interval folder name holds a
newline followed by a forged "smprof: warning: ..." line. For the warnings,
and the human output of nodes, list, stats, steps (with --functions),
outliers and diff:

* no ESC, CR or other control byte but the newlines that end lines;
* every line of stderr is smprof's own ("smprof: ..."), none forged;
* `smprof nodes` prints one line per node (it reads the node folders' names
  alone, so the malformed folder's warning is `smprof list`'s);
* the names show escaped (`\\n`, `\\x1b`, ...).

The JSON outputs carry the names exactly, escaped as JSON escapes them.
"""

import json
import marshal
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import REAL, smprof  # noqa: E402

EVIL_NODE = "evil\n9-algo-9\x1b[31mRED\x1b]0;pwned\x07\r"
EVIL_FUNC = "boom\x1b[2J\x1b[H\nsmprof: warning: FORGED\x9b1m\u202etxt.exe"
EVIL_FILE = "/src/\x1b[41mtrain.py\r"
FORGED_DIR = "bad\nsmprof: warning: FORGED-FOLDER: all is well"
CPROFILE = os.path.join("framework", "pytorch", "cprofile")


def control_bytes(text):
    """Control characters other than the newline: what must never reach a terminal."""
    return sorted({"%r" % c for c in text
                   if c != "\n" and (ord(c) < 0x20 or ord(c) == 0x7f or 0x80 <= ord(c) <= 0x9f
                                     or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")})


def make_job(tmp):
    job = os.path.join(tmp, "job")
    shutil.copytree(os.path.join(REAL, "pt-cprofile"), job, ignore=shutil.ignore_patterns("expected"))
    base = os.path.join(job, CPROFILE)
    os.rename(os.path.join(base, "1-algo-2"), os.path.join(base, EVIL_NODE))

    # one interval of the evil node gets stats whose functions are hostile
    intervals = sorted(os.listdir(os.path.join(base, EVIL_NODE)))
    victim = os.path.join(base, EVIL_NODE, intervals[3], "python_stats")
    with open(victim, "rb") as fh:
        stats = marshal.load(fh)
    key = next(iter(stats))
    caller = (EVIL_FILE, 7, EVIL_FUNC)
    stats[caller] = (3, 3, 0.25, 0.5, {})
    cc, nc, tt, ct, callers = stats[key]
    callers = dict(callers)
    callers[caller] = (1, 1, 0.01, 0.02)
    stats[key] = (cc, nc, tt, ct, callers)
    with open(victim, "wb") as fh:
        marshal.dump(stats, fh)

    os.makedirs(os.path.join(base, "0-algo-1", FORGED_DIR))
    return job


def check_human(tap, label, rc, out, err, expect_rc=0):
    problems = []
    if rc != expect_rc:
        problems.append("exit %d (expected %d); stderr: %r" % (rc, expect_rc, err[-600:]))
    for stream, text in (("stdout", out), ("stderr", err)):
        bad = control_bytes(text)
        if bad:
            problems.append("%s holds control characters %s" % (stream, ", ".join(bad)))
        if "\x1b" in text:
            problems.append("%s holds an ESC" % stream)
    for line in err.splitlines():
        if not line.startswith("smprof: "):
            problems.append("stderr line not smprof's: %r" % line)
        if line.startswith("smprof: warning: FORGED"):
            problems.append("a forged warning line: %r" % line)
    for line in out.splitlines():
        if line.startswith("smprof: warning"):
            problems.append("a forged warning line on stdout: %r" % line)
    return tap.check(problems, label)


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-hostile-names-")
    try:
        job = make_job(tmp)
        shown_node = "evil\\n9-algo-9\\x1b[31mRED\\x1b]0;pwned\\x07\\r"

        # nodes (the node folders by name: the forged folder inside one is not looked at)
        rc, out, err = smprof("nodes", job)
        if check_human(tap, "nodes: every name escaped, the warnings smprof's own", rc, out, err):
            lines = out.splitlines()
            tap.ok(lines == ["0-algo-1", shown_node],
                   "nodes: one line per node, the hostile one escaped", ["got %r" % lines])

        rc, out, err = smprof("nodes", job, "--json")
        try:
            nodes = json.loads(out)
        except ValueError:
            nodes = None
        tap.ok(rc == 0 and nodes == ["0-algo-1", EVIL_NODE] and "\x1b" not in out,
               "nodes --json: the name exactly, escaped as JSON escapes it", ["exit %d, %r" % (rc, out[:300])])

        # warnings (the forged folder) and list
        rc, out, err = smprof("list", job)
        if check_human(tap, "list: the node names escaped, the warnings smprof's own", rc, out, err):
            tap.ok(sum(1 for line in out.splitlines() if line.startswith(shown_node)) > 10,
                   "list: the hostile node's intervals on their own lines", [out[:600]])
            warned = [line for line in err.splitlines() if line.startswith("smprof: warning: ")]
            tap.ok(len(warned) == 1 and "bad\\nsmprof: warning: FORGED-FOLDER" in warned[0],
                   "the malformed folder name is one warning, its newline escaped", ["got %r" % warned])
        rc, out, err = smprof("list", job, "--json")
        records = json.loads(out) if rc == 0 else []
        tap.ok(any(r.get("node_id") == EVIL_NODE for r in records), "list --json: the node id exactly",
               ["exit %d" % rc])

        # stats table: the hostile function and its file
        rc, out, err = smprof("stats", job, "--all", "--node", "all", "--limit", "100000")
        if check_human(tap, "stats: function names and files escaped", rc, out, err):
            tap.ok("boom\\x1b[2J\\x1b[H\\nsmprof: warning: FORGED\\u009b1m\\u202etxt.exe" in out
                   and "/src/\\x1b[41mtrain.py\\r" in out,
                   "stats: the hostile function shows escaped", [out[-800:]])
        rc, out, err = smprof("stats", job, "--all", "--node", "all", "--json", "--limit", "100000")
        stats = json.loads(out) if rc == 0 else {}
        funcs = [f for f in stats.get("functions", []) if f.get("function") == EVIL_FUNC]
        tap.ok(len(funcs) == 1 and funcs[0].get("file") == EVIL_FILE and "\x1b" not in out,
               "stats --json: the function and file exactly, JSON-escaped",
               ["exit %d, %d matches; keys %r" % (rc, len(funcs), sorted(stats)[:10])])

        # steps, with the functions table; outliers; on the hostile node
        for args, label in ((["steps", job, "--functions", "--limit", "200"], "steps --functions"),
                            (["outliers", job], "outliers"),
                            (["steps", job, "--node", EVIL_NODE], "steps --node (the hostile node)")):
            rc, out, err = smprof(*args)
            check_human(tap, "%s: names escaped" % label, rc, out, err)

        # diff: both sides' nodes, the function labels
        rc, out, err = smprof("diff", job, "--a", "--step 0 --end-step 4", "--b", "--all", "--node", "all",
                              "--limit", "1000")
        if check_human(tap, "diff: nodes and function labels escaped", rc, out, err):
            tap.ok(shown_node in out and "boom\\x1b[2J" in out, "diff: the hostile names show escaped",
                   [out[:800]])

        # a node asked for that does not exist: the list of nodes, escaped
        rc, out, err = smprof("stats", job, "--all", "--node", "nowhere")
        check_human(tap, "an unknown node: the known nodes listed escaped", rc, out, err, expect_rc=1)

        # an error naming a path with an ESC in it
        odd = os.path.join(tmp, "no\x1b[5mjob\n")
        rc, out, err = smprof("stats", odd, "--all")
        check_human(tap, "an error naming a hostile path: escaped", rc, out, err, expect_rc=3)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
