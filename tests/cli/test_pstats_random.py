#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Seeded random selections on the real cProfile jobs, checked against CPython's pstats.

For each selection (step ranges with random modes/phases, time ranges,
between-modes, pre-step-zero/post-hook-close/all; node any, one, several, all):
  * the selected intervals are checked against the §3.5 rules evaluated here
    on the folder names (record order = start time, then node id);
  * smprof's aggregation is checked against pstats.Stats() + .add(path) done
    in smprof's `intervals` order: function order (pstats' merged dict order),
    every function, every caller edge, the totals (floats within 1e-9 relative).
"""

import math
import os
import pstats
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import (REAL, check_node_ids, close, cmdline, compare_functions, expect_no_selection, fkey,  # noqa: E402
                    parse_interval, pstats_to_expf, smprof_json)

SEED = 20261129
PER_JOB_NONEMPTY = 32
PER_JOB_EMPTY = 4
JOBS = [("pt-cprofile", "pytorch"), ("tf-cprofile", "tensorflow")]
PHASES = ["start", "stepstart", "forwardpassend", "stepend", "end"]
PHASE_ENUM = {"start": "START", "stepstart": "STEP_START", "forwardpassend": "FORWARD_PASS_END",
              "stepend": "STEP_END", "end": "END"}
MODES = ["train", "eval", "predict", "global", "prestepzero", "posthookclose"]
MODE_ENUM = {"train": "TRAIN", "eval": "EVAL", "predict": "PREDICT", "global": "GLOBAL",
             "prestepzero": "PRE_STEP_ZERO", "posthookclose": "POST_HOOK_CLOSE"}


def load_records(job, fw):
    base = os.path.join(REAL, job, "framework", fw, "cprofile")
    recs = []
    for node in sorted(os.listdir(base)):
        for iv in sorted(os.listdir(os.path.join(base, node))):
            r = parse_interval(iv)
            r["node_id"] = node
            r["iv"] = node + "/" + iv
            r["path"] = os.path.join(base, node, iv, "python_stats")
            recs.append(r)
    recs.sort(key=lambda r: (r["start_time_since_epoch_in_micros"], r["node_id"]))
    return base, recs


def in_step_interval(r, qs, qe, qsp, qep):
    """§3.5.2."""
    rs, re_ = r["start_step"], r["end_step"]
    if qs < rs and qe > re_:
        return True
    if qs > rs or qe < re_:
        return False
    if rs == qs and qsp in ("stepend", "forwardpassend") and r["start_phase"] != qsp:
        return False
    if re_ == qe and qep == "stepstart" and r["end_phase"] != qep:
        return False
    return True


def gen_query(rng, recs, nodes_all):
    """Returns (args after SOURCE, predicate(record) -> bool, node list)."""
    args = []
    roll = rng.random()
    if roll < 0.35:
        nodes = [recs[0]["node_id"]]  # "any": node of the earliest-starting interval
        if rng.random() < 0.3:
            args += ["--node", "any"]
    elif roll < 0.55:
        nodes = [rng.choice(nodes_all)]
        args += ["--node", nodes[0]]
    elif roll < 0.85:
        nodes = list(nodes_all)
        args += ["--node", "all"]
    else:
        nodes = list(nodes_all)
        args += ["--node", ",".join(reversed(nodes_all))]
    mine = [r for r in recs if r["node_id"] in nodes]

    kind = rng.random()
    if kind < 0.5:
        modes = sorted({r["start_mode"] for r in mine if r["start_mode"] == r["end_mode"]})
        mode = rng.choice(modes) if rng.random() < 0.9 else rng.choice(MODES)
        steps = [r["start_step"] for r in mine if r["start_mode"] == mode] or [0]
        qs = rng.randint(min(steps) - 1, max(steps) + 1)
        e = rng.random()
        if e < 0.3:
            qe = qs
            end_arg = []
        elif e < 0.85:
            qe = qs + rng.randint(0, 8)
            end_arg = ["--end-step", str(qe)] if rng.random() < 0.5 else ["--end-step=%d" % qe]
        else:
            qe = math.inf
            end_arg = ["--end-step", "inf"]
        qsp = rng.choice(PHASES) if rng.random() < 0.7 else "stepstart"
        qep = rng.choice(PHASES) if rng.random() < 0.7 else "stepend"
        if rng.random() < 0.4:
            args.append("--step=%d" % qs)
        else:
            args += ["--step", str(qs)]
        args += end_arg
        if mode != "train" or rng.random() < 0.5:
            args += ["--mode", MODE_ENUM[mode] if rng.random() < 0.4 else mode]
        if qsp != "stepstart" or rng.random() < 0.3:
            args += ["--start-phase", PHASE_ENUM[qsp] if rng.random() < 0.4 else qsp]
        if qep != "stepend" or rng.random() < 0.3:
            args += ["--end-phase", PHASE_ENUM[qep] if rng.random() < 0.4 else qep]

        def pred(r):
            return r["start_mode"] == mode and r["end_mode"] == mode and in_step_interval(r, qs, qe, qsp, qep)
    elif kind < 0.75:
        a, b = sorted(rng.sample(range(len(mine)), 2))
        ts = mine[a]["start_time_since_epoch_in_micros"] + rng.choice([0.0, -1500.0, 2500.0, 0.0])
        te = mine[min(b, a + rng.randint(0, 6))]["end_time_since_epoch_in_micros"] + rng.choice([0.0, 1500.0, -2500.0])
        if te < ts:
            ts, te = te, ts
        s1, s2 = repr(ts / 1e6), repr(te / 1e6)
        qs, qe = float(s1) * 1000000.0, float(s2) * 1000000.0  # smdebug: seconds * 1e6
        args += ["--time", s1, s2]

        def pred(r):
            return qs <= r["start_time_since_epoch_in_micros"] <= qe or qs <= r["end_time_since_epoch_in_micros"] <= qe
    elif kind < 0.9:
        pairs = sorted({(r["start_mode"], r["end_mode"]) for r in mine})
        sm, em = rng.choice(pairs) if rng.random() < 0.85 else (rng.choice(MODES), rng.choice(MODES))
        args += ["--between-modes", MODE_ENUM[sm] if rng.random() < 0.3 else sm,
                 MODE_ENUM[em] if rng.random() < 0.3 else em]

        def pred(r):
            return r["start_mode"] == sm and r["end_mode"] == em
    else:
        which = rng.choice(["--pre-step-zero", "--post-hook-close", "--all"])
        args.append(which)

        def pred(r):
            if which == "--pre-step-zero":
                return r["start_phase"] == "start"
            if which == "--post-hook-close":
                return r["end_phase"] == "end"
            return True
    return args, pred, nodes


def check_against_pstats(got, want_recs, base, nodes):
    p = []
    want_iv = [r["iv"] for r in want_recs]
    if got.get("intervals") != want_iv:
        if sorted(got.get("intervals") or []) == sorted(want_iv):
            p.append("same intervals but not in record order (start time, then node id):\n  got      %r\n  expected %r"
                     % (got.get("intervals"), want_iv))
        else:
            p.append("intervals differ:\n  got      %r\n  expected %r" % (got.get("intervals"), want_iv))
    p += check_node_ids(got.get("node_ids"), {r["node_id"] for r in want_recs}, nodes)
    # aggregate with CPython's pstats, in smprof's own order
    paths = []
    for iv in got.get("intervals") or []:
        path = os.path.join(base, iv, "python_stats")
        if not os.path.isfile(path):
            p.append("interval %r names no file" % iv)
            return p
        paths.append(path)
    ps = pstats.Stats()
    for path in paths:
        ps.add(path)
    if got.get("total_calls") != ps.total_calls or got.get("primitive_calls") != ps.prim_calls:
        p.append("total/primitive calls %r/%r, pstats %r/%r" % (got.get("total_calls"), got.get("primitive_calls"),
                                                                ps.total_calls, ps.prim_calls))
    if not close(got.get("total_time"), ps.total_tt):
        p.append("total_time %r, pstats %r" % (got.get("total_time"), ps.total_tt))
    funcs = got.get("functions") or []
    order = [fkey(f) for f in funcs]
    if order != list(ps.stats):
        first = next((i for i, (a, b) in enumerate(zip(order, ps.stats)) if a != b), min(len(order), len(ps.stats)))
        p.append("function order differs from pstats' merged dict order at index %d (%d vs %d functions): %r vs %r"
                 % (first, len(order), len(ps.stats), order[first] if first < len(order) else None,
                    list(ps.stats)[first] if first < len(ps.stats) else None))
    p += compare_functions(funcs, pstats_to_expf(ps.stats), "pstats")
    return p


def main(tap):
    rng = random.Random(SEED)
    total_nonempty = 0
    node_all = 0
    for job, fw in JOBS:
        job_dir = os.path.join(REAL, job)
        base, recs = load_records(job, fw)
        nodes_all = sorted({r["node_id"] for r in recs})
        nonempty = empty = 0
        tries = 0
        while (nonempty < PER_JOB_NONEMPTY or empty < PER_JOB_EMPTY) and tries < 5000:
            tries += 1
            args, pred, nodes = gen_query(rng, recs, nodes_all)
            want = [r for r in recs if r["node_id"] in nodes and pred(r)]
            if (want and nonempty >= PER_JOB_NONEMPTY) or (not want and empty >= PER_JOB_EMPTY):
                continue
            full = ["stats", job_dir] + args + ["--json"]
            name = "%s: %s" % (job, cmdline(full[2:]))
            if not want:
                empty += 1
                tap.check(expect_no_selection(full), name + " selects nothing")
                continue
            nonempty += 1
            if len(nodes) > 1:
                node_all += 1
            rc, got, out, err, p = smprof_json(*full)
            if not p:
                p = check_against_pstats(got, want, base, nodes) if isinstance(got, dict) else ["output is not an object"]
            tap.check(p, "%s (%d intervals) == pstats" % (name, len(want)))
        total_nonempty += nonempty
    tap.ok(total_nonempty >= 60 and node_all >= 10,
           "coverage: %d non-empty selections, %d over several nodes" % (total_nonempty, node_all))


if __name__ == "__main__":
    taplib.Tap().run_main(main)
