#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof against smdebug 1.0.34's own answers (tests/data/real-smdebug/*/expected).

For every query recorded in expected/*.json, run the matching smprof command
with --json and compare with smdebug's result:
  * cProfile: same intervals in the same order, same function set, same
    ncalls/primitive_calls, tottime/cumtime within 1e-9 relative, same caller
    edges, same totals;
  * Pyinstrument: same intervals, and the merged tree equals the merge computed
    here (taplib.merge_pyinstrument_roots) from smdebug's per-interval json_stats;
  * a null result: exit status 1 and empty stdout.
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import (REAL, REAL_JOBS, close, cmdline, compare_cprofile_to_expected,  # noqa: E402
                    compare_functions, compare_pyinstrument_tree, expect_no_selection,
                    interval_of_path, is_int, merge_pyinstrument_roots, read_json, smprof_json)

LIST_KEYS = ["profiler_name", "framework", "node_id", "start_mode", "start_step", "start_phase",
             "start_time_since_epoch_in_micros", "end_mode", "end_step", "end_phase",
             "end_time_since_epoch_in_micros", "stats_path"]


def query_args(job_dir, q):
    """smdebug query (expected/*.json "query") -> smprof stats arguments."""
    call = q["call"]
    a = ["stats", job_dir]
    node = q.get("node_id", "any")
    if node != "any":  # "any" is the default: leave it out to test the default
        a += ["--node", node]
    if call == "fetch_profile_stats_by_step":
        a.append("--step=%d" % q["start_step"])
        if q["end_step"] is not None:
            a += ["--end-step", "inf" if q["end_step"] == "inf" else str(q["end_step"])]
        a += ["--mode", q["mode"], "--start-phase", q["start_phase"], "--end-phase", q["end_phase"]]
    elif call == "fetch_profile_stats_by_time":
        a += ["--time", repr(float(q["start_time_since_epoch_in_secs"])),
              repr(float(q["end_time_since_epoch_in_secs"]))]
    elif call == "fetch_profile_stats_between_modes":
        a += ["--between-modes", q["start_mode"], q["end_mode"]]
    elif call == "fetch_pre_step_zero_profile_stats":
        a.append("--pre-step-zero")
    elif call == "fetch_post_hook_close_profile_stats":
        a.append("--post-hook-close")
    elif call == "fetch_profile_stats_by_training_phase":
        a.append("--training-phase")
    elif call == "fetch_profile_stats_by_job_phase":
        a.append("--job-phase")
    else:
        raise ValueError("unknown call " + call)
    a.append("--json")
    return a


def describe(q):
    rest = ", ".join("%s=%s" % (k, v) for k, v in q.items() if k not in ("call", "what"))
    return "%s(%s)" % (q["call"], rest)


def compare_pyinstrument(got, exp_list):
    p = []
    if not isinstance(got, dict):
        return ["stats output is not an object"]
    exp_iv = [interval_of_path(e["html_file_path"]) for e in exp_list]
    if got.get("intervals") != exp_iv:
        p.append("intervals differ:\n  got      %s\n  expected %s" % (got.get("intervals"), exp_iv))
    if got.get("profiler") != "pyinstrument":
        p.append("profiler = %r, expected 'pyinstrument'" % (got.get("profiler"),))
    node = exp_iv[0].split("/")[0]
    if got.get("node_ids") != [node]:
        p.append("node_ids = %r, expected %r" % (got.get("node_ids"), [node]))
    merged = merge_pyinstrument_roots([e["json_stats"].get("root_frame") for e in exp_list])
    p += compare_pyinstrument_tree(got.get("tree"), merged)
    total = sum(n["time"] for n in merged.values())
    if not close(got.get("total_time"), total, 1e-9, 1e-9):
        p.append("total_time %r, expected %r (sum of merged roots)" % (got.get("total_time"), total))
    return p


def compare_stats_outputs(a, b, order_matters=True):
    """Compare two smprof cProfile stats outputs (b taken as the reference)."""
    p = []
    if not isinstance(a, dict) or not isinstance(b, dict):
        return ["not objects: %r / %r" % (type(a), type(b))]
    if order_matters and a.get("intervals") != b.get("intervals"):
        p.append("intervals %r != %r" % (a.get("intervals"), b.get("intervals")))
    if not order_matters and sorted(a.get("intervals") or []) != sorted(b.get("intervals") or []):
        p.append("interval sets %r != %r" % (a.get("intervals"), b.get("intervals")))
    for k in ("profiler", "node_ids", "total_calls", "primitive_calls"):
        if a.get(k) != b.get(k):
            p.append("%s: %r != %r" % (k, a.get(k), b.get(k)))
    if not close(a.get("total_time"), b.get("total_time")):
        p.append("total_time %r != %r" % (a.get("total_time"), b.get("total_time")))
    ref = {}
    for f in b.get("functions") or []:
        ref[taplib.fkey(f)] = (f["ncalls"], f["primitive_calls"], f["tottime"], f["cumtime"],
                               {taplib.fkey(c): (c["ncalls"], c["primitive_calls"], c["tottime"], c["cumtime"])
                                for c in f.get("callers") or []})
    p += compare_functions(a.get("functions"), ref, "reference")
    return p


def check_list(tap, job, job_dir, profiler, exp):
    rows_exp = exp["queries"][0]["result"]
    if profiler == "pyinstrument":
        # smdebug has one row per file; smprof one per interval, for python_stats.json
        rows_exp = [r for r in rows_exp if r["stats_path"].endswith("/python_stats.json")]
    args = ["list", job_dir, "--json"]
    rc, got, out, err, p = smprof_json(*args)
    if p:
        tap.check(p, "%s: list --json" % job)
        return None
    if not isinstance(got, list):
        tap.check(["list output is not an array"], "%s: list --json" % job)
        return None
    p = []
    if len(got) != len(rows_exp):
        p.append("%d rows, expected %d" % (len(got), len(rows_exp)))
    root = os.path.realpath(job_dir)
    for i, (g, e) in enumerate(zip(got, rows_exp)):
        if not isinstance(g, dict) or sorted(g) != sorted(LIST_KEYS):
            p.append("row %d: keys %r, expected exactly %r" % (i, sorted(g) if isinstance(g, dict) else g, LIST_KEYS))
            continue
        msgs = []
        for k in LIST_KEYS:
            gv, ev = g[k], e[k]
            if k == "stats_path":
                rel = os.path.relpath(os.path.realpath(gv), root) if isinstance(gv, str) else gv
                if rel != ev:
                    msgs.append("stats_path %r (relative %r), expected %r" % (gv, rel, ev))
            elif k == "end_step":
                ok_type = gv == "inf" or is_int(gv)
                gnum = math.inf if gv == "inf" else gv
                enum_ = math.inf if ev == "inf" else float(ev)
                if not ok_type or gnum != enum_:
                    msgs.append("end_step %r, expected %r (an int, or the string \"inf\" for *)" % (gv, ev))
            elif k == "start_step":
                if not is_int(gv) or gv != ev:
                    msgs.append("start_step %r, expected %r" % (gv, ev))
            elif k.endswith("_micros"):
                if not isinstance(gv, (int, float)) or float(gv) != float(ev):
                    msgs.append("%s %r, expected %r (exact)" % (k, gv, ev))
            elif gv != ev:
                msgs.append("%s %r, expected %r" % (k, gv, ev))
        if msgs:
            p.append("row %d (%s): %s" % (i, e["stats_path"], "; ".join(msgs)))
    tap.check(p, "%s: list --json matches smdebug's list_profile_stats (%d rows)" % (job, len(rows_exp)))
    return got


def check_job_phase(tap, job, job_dir, rows, exp):
    """by_job_phase with smprof's FIXED semantics.

    smdebug's expected by_job_phase is the buggy one (§3.4.3: with smdebug >= 1.0.11
    data the (prestepzero, posthookclose) pair overwrites "initialization" and
    "finalization" disappears -- see tf-cprofile). So the phase membership is
    recomputed here from `smprof list --json` with the fixed rule, and smdebug's
    numbers are compared only for phases whose interval sets agree (whatever
    the phase is called on each side)."""
    name = "%s: --job-phase" % job
    if rows is None:
        tap.ok(False, name + " (no list output to derive the phases from)")
        return
    any_node = rows[0]["node_id"]
    mine = [r for r in rows if r["node_id"] == any_node]
    iv = lambda r: interval_of_path(r["stats_path"])  # noqa: E731
    want = {
        "initialization": [iv(r) for r in mine if r["start_phase"] == "start"],
        "finalization": [iv(r) for r in mine if r["end_phase"] == "end" and r["start_phase"] != "start"],
        "training_loop": [iv(r) for r in mine if r["start_phase"] != "start" and r["end_phase"] != "end"],
    }
    args = ["stats", job_dir, "--job-phase", "--json"]
    rc, got, out, err, p = smprof_json(*args)
    if p or not isinstance(got, dict):
        tap.check(p or ["output is not an object"], name + " runs")
        return
    p = []
    if sorted(got) != sorted(want):
        p.append("keys %r, expected %r" % (sorted(got), sorted(want)))
    for phase, ivs in want.items():
        g = got.get(phase)
        if not ivs and phase != "training_loop":
            if g is not None:
                p.append("%s should be null (no interval), got intervals %r" % (phase, g.get("intervals") if isinstance(g, dict) else g))
            continue
        if not isinstance(g, dict):
            p.append("%s: %r, expected stats of %r" % (phase, g, ivs))
            continue
        if g.get("intervals") != ivs:
            p.append("%s: intervals %r\n  expected (fixed rule, record order) %r" % (phase, g.get("intervals"), ivs))
    tap.check(p, name + ": phase membership follows the fixed rule for node %s" % any_node)
    if p:
        return

    # initialization == --pre-step-zero (no interval ends at phase end in this data)
    rc, psz, _, _, p = smprof_json("stats", job_dir, "--pre-step-zero", "--json")
    if not p:
        p = compare_stats_outputs(got["initialization"], psz)
    tap.check(p, name + ": initialization equals --pre-step-zero")

    if got.get("finalization") is not None:
        ph_rows = [iv(r) for r in mine if r["end_phase"] == "end"]
        rc, phc, _, _, p = smprof_json("stats", job_dir, "--post-hook-close", "--json")
        if not p:
            if ph_rows == want["finalization"]:
                p = compare_stats_outputs(got["finalization"], phc)
            else:
                p = ["(test data changed: an interval both starts at start and ends at end)"]
        tap.check(p, name + ": finalization equals --post-hook-close (intervals ending at phase end)")

    # smdebug's numbers where the semantics agree
    for entry in exp["queries"][0]["result"]:
        ephase = entry["job_phase"]
        eset = sorted(interval_of_path(f) for f in entry["stats"]["files"])
        match = [ph for ph in want if got.get(ph) is not None and sorted(got[ph]["intervals"]) == eset]
        if not match:
            tap.ok(True, "%s: smdebug's %s (%d intervals) has no counterpart under the fixed semantics; not compared"
                   % (name, ephase, len(eset)))
            continue
        ph = match[0]
        note = "" if ph == ephase else " (smdebug bug: its %s is really the %s)" % (ephase, ph)
        # smdebug's training_loop adds per-(start, end mode) subtotals: order differs, numbers within 1e-9
        p = compare_cprofile_to_expected(got[ph], entry["stats"], order_matters=False)
        tap.check(p, "%s: smprof %s numbers equal smdebug's %s%s" % (name, ph, ephase, note))


def check_training_phase(tap, job, job_dir, q, result):
    args = query_args(job_dir, q)
    name = "%s: %s -> %s" % (job, describe(q), cmdline(args[2:]))
    rc, got, out, err, p = smprof_json(*args)
    if p:
        tap.check(p, name)
        return
    pairs = got.get("pairs") if isinstance(got, dict) else None
    if not isinstance(pairs, list):
        tap.check(["no 'pairs' array in %r" % (out[:200],)], name)
        return
    got_keys = [(x.get("start_mode"), x.get("end_mode")) for x in pairs]
    exp_keys = [(x["start_mode"], x["end_mode"]) for x in result]
    if got_keys != exp_keys:
        tap.check(["pairs %r\n  expected %r" % (got_keys, exp_keys)], name + ": pairs")
        return
    tap.ok(True, name + ": pairs in smdebug's order")
    for g, e in zip(pairs, result):
        tap.check(compare_cprofile_to_expected(g.get("stats"), e["stats"]),
                  "%s: training phase (%s, %s) stats" % (job, e["start_mode"], e["end_mode"]))


def main(tap):
    for job, (framework, profiler) in REAL_JOBS.items():
        job_dir = os.path.join(REAL, job)
        exp_dir = os.path.join(job_dir, "expected")
        if not os.path.isdir(exp_dir):
            tap.ok(False, "%s: expected/ folder present" % job)
            continue
        rows = None
        files = sorted(os.listdir(exp_dir))
        if "list_profile_stats.json" in files:
            rows = check_list(tap, job, job_dir, profiler, read_json(os.path.join(exp_dir, "list_profile_stats.json")))
        for fname in files:
            if not fname.endswith(".json") or fname == "list_profile_stats.json":
                continue
            exp = read_json(os.path.join(exp_dir, fname))
            for entry in exp["queries"]:
                q, result = entry["query"], entry["result"]
                call = q["call"]
                if call == "list_available_node_ids":
                    args = ["nodes", job_dir, "--json"]
                    rc, got, out, err, p = smprof_json(*args)
                    if not p and got != result:
                        p.append("got %r, expected %r" % (got, result))
                    tap.check(p, "%s: nodes --json == list_available_node_ids" % job)
                    continue
                if call == "fetch_profile_stats_by_job_phase":
                    check_job_phase(tap, job, job_dir, rows, exp)
                    continue
                if call == "fetch_profile_stats_by_training_phase":
                    check_training_phase(tap, job, job_dir, q, result)
                    continue
                args = query_args(job_dir, q)
                name = "%s: %s -> %s" % (job, describe(q), cmdline(args[2:]))
                if result is None:
                    tap.check(expect_no_selection(args), name + " selects nothing")
                    continue
                rc, got, out, err, p = smprof_json(*args)
                if not p:
                    if profiler == "cprofile":
                        p = compare_cprofile_to_expected(got, result)
                        node = interval_of_path(result["files"][0]).split("/")[0]
                        if isinstance(got, dict) and got.get("node_ids") != [node]:
                            p.append("node_ids %r, expected %r" % (got.get("node_ids"), [node]))
                    else:
                        p = compare_pyinstrument(got, result)
                tap.check(p, name)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
