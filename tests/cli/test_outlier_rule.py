#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The default outlier rule on corpora made here by tools/make-corpus.py.

Each corpus is generated in a temporary folder (several seeds and sizes, both
frameworks, both profilers, with eval steps, with several ranks per host, and
one whose hook never closes) with planted slow steps and stragglers, which its
manifest lists. With the default rule, `smprof outliers`:

* flags every planted slow step as an outlier on every node it was planted on,
  and every planted straggler as a straggler;
* flags at most 0.2 % of the other node-steps (outlier or straggler);
* lists each table from the largest score down;
* follows --threshold (a lower one flags a superset, an unreachable one none)
  and says so in its JSON;
* leaves the interval that runs into post-hook-close (no hook.close()) out of
  its step, as unassigned time equal to `smprof stats --between-modes global
  posthookclose`, unless --count-teardown; the rule's text says which.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import close, smprof, smprof_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_CORPUS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "make-corpus.py")
MAX_OTHER_SHARE = 0.002

# name: make-corpus.py arguments (small enough for CI: a few seconds each)
CORPORA = {
    "pt-both-s41": ["--framework", "pytorch", "--profiler", "both", "--nodes", "6", "--steps", "150",
                    "--seed", "41", "--slow-steps", "2", "--stragglers", "1"],
    "tf-both-eval-s42": ["--framework", "tensorflow", "--profiler", "both", "--nodes", "5", "--steps", "120",
                         "--eval-every", "9", "--seed", "42", "--slow-steps", "2", "--stragglers", "1"],
    "pt-pyinstrument-hosts-s43": ["--framework", "pytorch", "--profiler", "pyinstrument", "--nodes", "12",
                                  "--ranks-per-host", "4", "--steps", "60", "--seed", "43", "--slow-steps", "1",
                                  "--stragglers", "2"],
    "pt-cprofile-noclose-s44": ["--framework", "pytorch", "--profiler", "cprofile", "--nodes", "4", "--steps", "100",
                                "--seed", "44", "--slow-steps", "2", "--stragglers", "1", "--no-close"],
    "tf-cprofile-s45": ["--framework", "tensorflow", "--profiler", "cprofile", "--nodes", "8", "--steps", "80",
                        "--seed", "45", "--slow-steps", "1", "--stragglers", "1"],
}


def make(out, args):
    cmd = [sys.executable, MAKE_CORPUS, out, "--no-html", "--jobs", "2"] + args
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stderr, time.monotonic() - start


def manifest_of(job):
    with open(os.path.join(job, "corpus-manifest.json"), encoding="utf-8") as fh:
        return json.load(fh)


def key(entry):
    return (entry["node_id"], entry["mode"], entry["step"])


def planted_sets(manifest):
    slow, stragglers = set(), set()
    for planted in manifest["planted_outliers"]:
        for node in planted["nodes"]:
            (stragglers if planted["type"] == "straggler" else slow).add((node, planted["mode"], planted["step"]))
    return slow, stragglers


def check_default(tap, name, job, profiler, manifest, totals):
    what = "%s (%s)" % (name, profiler)
    rc, got, out, err, p = smprof_json("outliers", job, "--profiler", profiler, "--json")
    if not tap.check(p, "%s: outliers --json runs" % what):
        return None
    slow, stragglers = planted_sets(manifest)
    outliers = {key(o) for o in got["outliers"]}
    flagged_stragglers = {key(o) for o in got["stragglers"]}

    p = ["planted slow step %s not an outlier" % (k,) for k in sorted(slow - outliers)]
    p += ["planted straggler %s not a straggler" % (k,) for k in sorted(stragglers - flagged_stragglers)]
    tap.check(p, "%s: every planted slow step (%d) and straggler (%d) is flagged" % (what, len(slow), len(stragglers)))

    others = got["steps"] - len(slow | stragglers)
    extra = sorted((outliers | flagged_stragglers) - slow - stragglers)
    totals["others"] += others
    totals["extra"] += len(extra)
    tap.ok(len(extra) <= MAX_OTHER_SHARE * others,
           "%s: %d of %d other node-steps flagged, at most %.1f %%" % (what, len(extra), others,
                                                                      100 * MAX_OTHER_SHARE),
           ["flagged, not planted: %r" % extra[:10]])

    p = []
    scores = [o["score"] for o in got["outliers"]]
    if scores != sorted(scores, reverse=True):
        p.append("outliers not by decreasing score: %r" % scores[:10])
    scores = [o["score"] for o in got["stragglers"]]
    if scores != sorted(scores, reverse=True):
        p.append("stragglers not by decreasing score: %r" % scores[:10])
    if got["threshold"] != 5 or "> 5" not in got["rule"] or "post-hook-close" not in got["rule"]:
        p.append("threshold %r, rule %r" % (got["threshold"], got["rule"]))
    tap.check(p, "%s: ranked by score, threshold 5 stated" % what)
    return got


def check_threshold(tap, name, job, profiler, default):
    what = "%s (%s)" % (name, profiler)
    rc, low, out, err, p = smprof_json("outliers", job, "--profiler", profiler, "--threshold", "3", "--json")
    rc, none, out, err, p2 = smprof_json("outliers", job, "--profiler", profiler, "--threshold=1e6", "--json")
    p += p2
    if not p:
        if low["threshold"] != 3 or "> 3" not in low["rule"]:
            p.append("--threshold 3: threshold %r, rule %r" % (low["threshold"], low["rule"]))
        for table in ("outliers", "stragglers"):
            lower = {key(o) for o in low[table]}
            if not {key(o) for o in default[table]} <= lower:
                p.append("--threshold 3 drops %s of the default" % table)
            if any(o["score"] <= 3 for o in low[table]):
                p.append("--threshold 3 flags a score of 3 or less")
        if none["outliers"] or none["stragglers"]:
            p.append("--threshold 1e6 flags %d steps" % (len(none["outliers"]) + len(none["stragglers"])))
    tap.check(p, "%s: --threshold 3 flags a superset, --threshold 1e6 nothing" % what)


def check_teardown(tap, name, job, manifest):
    """No hook.close(): the last step's second interval runs to the exit."""
    rc, default, out, err, p = smprof_json("steps", job, "--json")
    rc, counted, out, err, p2 = smprof_json("steps", job, "--count-teardown", "--json")
    p += p2
    if not tap.check(p, "%s: steps with and without --count-teardown" % name):
        return
    n_nodes = len(manifest["nodes"])
    p = []
    if default["teardown_intervals"] != n_nodes or counted["teardown_intervals"] != 0:
        p.append("teardown intervals %r and %r, expected %d and 0" % (default["teardown_intervals"],
                                                                     counted["teardown_intervals"], n_nodes))
    if default["count_teardown"] or not counted["count_teardown"]:
        p.append("count_teardown %r / %r" % (default["count_teardown"], counted["count_teardown"]))
    if "run into post-hook-close" not in default["rule"] or "counts as its step" not in counted["rule"]:
        p.append("the rules' texts do not say what a step holds: %r / %r" % (default["rule"], counted["rule"]))
    # the teardown interval alone, per node
    teardown = 0.0
    for node in manifest["nodes"]:
        node_id = node if isinstance(node, str) else node.get("node_id", node.get("id"))
        rc, st, out, err, p2 = smprof_json("stats", job, "--node", node_id, "--between-modes", "global",
                                           "posthookclose", "--json")
        p += p2
        if p2:
            continue
        if len(st["intervals"]) != 1:
            p.append("%s: %d intervals run into post-hook-close" % (node_id, len(st["intervals"])))
        teardown += st["total_time"]
        last_default = max((s for s in default["steps"] if s["node_id"] == node_id), key=lambda s: s["step"])
        last_counted = max((s for s in counted["steps"] if s["node_id"] == node_id), key=lambda s: s["step"])
        if last_default["intervals"] != 1 or last_counted["intervals"] != 2:
            p.append("%s: last step of %d / %d intervals" % (node_id, last_default["intervals"],
                                                             last_counted["intervals"]))
        if not close(last_counted["total_time"] - last_default["total_time"], st["total_time"], 1e-9, 1e-9):
            p.append("%s: the last step grows by %r with --count-teardown, the interval holds %r"
                     % (node_id, last_counted["total_time"] - last_default["total_time"], st["total_time"]))
    if not close(default["teardown_time"], teardown, 1e-9, 1e-9):
        p.append("teardown_time %r, stats of the intervals %r" % (default["teardown_time"], teardown))
    if not close(default["unassigned_time"] - counted["unassigned_time"], teardown, 1e-9, 1e-9):
        p.append("unassigned %r vs %r" % (default["unassigned_time"], counted["unassigned_time"]))
    if not close(default["total_time"] + default["unassigned_time"],
                 counted["total_time"] + counted["unassigned_time"], 1e-9, 1e-9):
        p.append("steps + unassigned differ")
    tap.check(p, "%s: the interval into post-hook-close is unassigned by default, its step's with "
                 "--count-teardown" % name)

    rc, text, err = smprof("outliers", job)
    tap.ok(rc == 0 and "Left out:" in text and "--count-teardown" in text,
           "%s: outliers (text) says what it left out" % name, [text[-600:], err])


def check_usage(tap):
    job = os.path.join(taplib.DATA, "corpus-outliers-cprofile")
    for args, needle in ((["outliers", job, "--threshold", "-1"], "positive"),
                         (["outliers", job, "--threshold", "many"], "positive"),
                         (["stats", job, "--all", "--threshold", "4"], "--threshold"),
                         (["stats", job, "--all", "--count-teardown"], "--count-teardown")):
        rc, out, err = smprof(*args)
        tap.ok(rc == 2 and needle in err and not out.strip(), "usage error: %s" % taplib.cmdline(args),
               "exit %d, stderr %r" % (rc, err[:300]))
    rc, out, err = smprof("--help")
    tap.ok(rc == 0 and "--threshold Z" in out and "--count-teardown" in out, "--help lists --threshold and "
           "--count-teardown")


def main(tap):
    totals = {"others": 0, "extra": 0}
    with tempfile.TemporaryDirectory(prefix="smprof-outlier-rule-") as tmp:
        for name, args in CORPORA.items():
            job = os.path.join(tmp, name)
            rc, err, seconds = make(job, args)
            if not tap.ok(rc == 0, "%s: make-corpus.py %s" % (name, " ".join(args)), [err[-800:]]):
                continue
            tap.diag("%s: generated in %.1f s" % (name, seconds))
            manifest = manifest_of(job)
            profilers = ["cprofile", "pyinstrument"] if "both" in args else [args[args.index("--profiler") + 1]]
            for profiler in profilers:
                default = check_default(tap, name, job, profiler, manifest, totals)
                if default is not None:
                    check_threshold(tap, name, job, profiler, default)
            if "--no-close" in args:
                check_teardown(tap, name, job, manifest)
    tap.ok(totals["extra"] <= MAX_OTHER_SHARE * totals["others"],
           "all corpora: %d of %d other node-steps flagged" % (totals["extra"], totals["others"]))
    check_usage(tap)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
