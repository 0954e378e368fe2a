#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""`smprof nodes` reads the node folders' names alone (issue 16, section 3).

* On the real jobs and the corpus jobs of tests/data, for each profiler,
  `nodes --json` is the sorted node ids of `list --json`'s records (smdebug's
  list_available_node_ids), and `nodes` the same ids one a line.
* A copy of pt-cprofile whose node folder holds what a full listing reports
  (a dangling link and a file named as interval folders, a malformed interval
  folder name, an interval folder without stats, one whose python_stats is a
  dangling link): `list` warns about each, `nodes` about none (it never looks
  inside a node folder) and gives the same nodes.
* Node and interval folders behind symbolic links (their folder then says
  DT_LNK, and smprof stat()s them): `nodes`, `list --json` and `stats --json`
  answer as they do for the folders themselves.
"""

import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import DATA, REAL, REAL_JOBS, smprof, smprof_json  # noqa: E402

CORPUS_JOBS = ["corpus-outliers-cprofile", "corpus-outliers-pyinstrument"]
PROFILERS = ["cprofile", "pyinstrument"]
INTERVAL = "train-%d-stepstart-%d.0_train-%d-stepend-%d.0"


def interval(step):
    t = 1795987298000000 + step * 1000
    return INTERVAL % (step, t, step, t + 500)


def check_same_as_records(tap, job, label):
    for profiler in PROFILERS:
        rc, rows, _, _, p = smprof_json("list", job, "--profiler", profiler, "--json")
        want = sorted({row["node_id"] for row in rows}) if not p else None
        rc, got, _, err, p2 = smprof_json("nodes", job, "--profiler", profiler, "--json")
        p += p2
        if not p and got != want:
            p.append("nodes --json %r, the records' node ids %r" % (got, want))
        if not p and err:
            p.append("a clean job, and stderr says %r" % err)
        rc, out, err = smprof("nodes", job, "--profiler", profiler)
        if not p and (rc != 0 or out.splitlines() != want):
            p.append("nodes: exit %d, lines %r" % (rc, out.splitlines()))
        tap.check(p, "%s, %s: nodes and nodes --json are the records' node ids" % (label, profiler))


def warnings(err):
    return [line for line in err.splitlines() if line.startswith("smprof: warning: ")]


def check_damage_unseen(tap, tmp):
    pristine = os.path.join(REAL, "pt-cprofile")
    job = os.path.join(tmp, "damaged")
    shutil.copytree(pristine, job, ignore=shutil.ignore_patterns("expected"))
    node = os.path.join(job, "framework", "pytorch", "cprofile", "0-algo-1")

    os.symlink("nowhere", os.path.join(node, interval(90)))
    with open(os.path.join(node, interval(91)), "w") as fh:
        fh.write("not a folder\n")
    os.mkdir(os.path.join(node, "not-an-interval"))
    os.mkdir(os.path.join(node, interval(92)))
    os.mkdir(os.path.join(node, interval(93)))
    os.symlink("nowhere", os.path.join(node, interval(93), "python_stats"))
    damage = [interval(90), interval(91), "not-an-interval", interval(92), interval(93)]

    rc, out, err = smprof("list", job)
    warned = warnings(err)
    missing = [d for d in damage if not any(d in w for w in warned)]
    tap.ok(rc == 0 and not missing, "the damage is real: list warns about each entry (%d warnings)" % len(warned),
           ["exit %d, no warning for %r" % (rc, missing)] + warned)

    for args in (["nodes", job], ["nodes", job, "--json"]):
        rc, out, err = smprof(*args)
        _, clean, _ = smprof(*(args[:1] + [pristine] + args[2:]))
        tap.ok(rc == 0 and out == clean and err == "",
               "%s: the same nodes, no warning about what the node folder holds" % " ".join(args[:1] + args[2:]),
               ["exit %d, stdout %r (want %r)" % (rc, out, clean)] + warnings(err))


def normalized(text, root):
    """@text with the job's root, as is or as JSON writes it, made JOB."""
    return text.replace(json.dumps(root)[1:-1], "JOB").replace(root, "JOB")


def check_links(tap, tmp):
    pristine = os.path.join(REAL, "pt-cprofile")
    job = os.path.join(tmp, "linked")
    cprofile = os.path.join("framework", "pytorch", "cprofile")
    os.makedirs(os.path.join(job, cprofile, "1-algo-2"))
    os.symlink(os.path.join(pristine, "framework", "pevents"), os.path.join(job, "framework", "pevents"))
    # a node folder behind a link, and a node folder of interval folders behind links
    os.symlink(os.path.join(pristine, cprofile, "0-algo-1"), os.path.join(job, cprofile, "0-algo-1"))
    for name in os.listdir(os.path.join(pristine, cprofile, "1-algo-2")):
        os.symlink(os.path.join(pristine, cprofile, "1-algo-2", name), os.path.join(job, cprofile, "1-algo-2", name))

    for args in (["nodes"], ["nodes", "--json"], ["list", "--json"], ["stats", "--all", "--node", "all", "--json"],
                 ["stats", "--step", "3", "--end-step", "5", "--json"]):
        rc, out, err = smprof(args[0], job, *args[1:])
        lrc, lout, lerr = smprof(args[0], pristine, *args[1:])
        tap.ok(rc == 0 and lrc == 0 and normalized(out, job) == normalized(lout, pristine) and err == lerr,
               "folders behind links: %s answers as for the folders" % " ".join(args),
               ["exit %d / %d" % (rc, lrc), err, lerr, out[:300], lout[:300]])


def main(tap):
    for job in sorted(REAL_JOBS):
        check_same_as_records(tap, os.path.join(REAL, job), job)
    for job in CORPUS_JOBS:
        check_same_as_records(tap, os.path.join(DATA, job), job)

    tmp = tempfile.mkdtemp(prefix="smprof-nodes-")
    try:
        check_damage_unseen(tap, tmp)
        check_links(tap, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
