#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof on the synthetic conformance tree of smdebug-format.md §3.5.3.

Builds, in a temporary folder, the cProfile tree of the §3.5.3 table (each
python_stats a real marshal dump of a pstats dict holding one function
("marker.py", 1, "marker_<ID>")), runs every call of the conformance table
through smprof and checks which IDs are selected and in which order. Then the
Pyinstrument tree of §3.5.3 and the edge vectors (with smprof's fixes:
bad folders/files are reported and skipped, never fatal).
"""

import json
import marshal
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import (check_node_ids, cmdline, compare_pyinstrument_tree, expect_no_selection,  # noqa: E402
                    merge_pyinstrument_roots, smprof, smprof_json, close)

T = 1600000000000000.0  # µs

# ID, node, start (mode, step, phase, offset µs), end (mode, step, phase, offset µs)
TABLE = [
    ("A", "151-algo-1", ("prestepzero", "*", "start", 0), ("train", "0", "stepstart", 100)),
    ("B", "151-algo-1", ("train", "5", "stepstart", 500), ("train", "5", "stepend", 600)),
    ("C", "151-algo-1", ("train", "5", "stepend", 600), ("train", "6", "stepstart", 610)),
    ("D", "151-algo-1", ("train", "6", "stepstart", 610), ("train", "6", "stepend", 700)),
    ("E", "151-algo-1", ("train", "6", "stepend", 700), ("train", "7", "stepstart", 710)),
    ("F", "151-algo-1", ("train", "6", "stepend", 720), ("eval", "0", "stepstart", 730)),
    ("G", "151-algo-1", ("eval", "0", "stepstart", 730), ("eval", "0", "stepend", 740)),
    ("H", "151-algo-1", ("prestepzero", "*", "end", 900), ("posthookclose", "*", "end", 950)),
    ("I", "151-algo-1", ("global", "5", "stepstart", 1000), ("global", "5", "forwardpassend", 1010)),
    ("J", "151-algo-1", ("global", "5", "forwardpassend", 1010), ("global", "6", "stepstart", 1100)),
    ("K", "151-algo-1", ("eval", "1", "stepend", 1200), ("posthookclose", "*", "end", 1300)),
    ("M", "152-algo-2", ("prestepzero", "*", "start", -50), ("train", "0", "stepstart", 90)),
    ("N", "152-algo-2", ("train", "5", "stepstart", 505), ("train", "5", "stepend", 605)),
]
RECORD_ORDER = "MABNCDEFGHIJK"  # sorted by (start time, node id)
NODES = ["151-algo-1", "152-algo-2"]


def half(mode, step, phase, off):
    return "%s-%s-%s-%r" % (mode, step, phase, T + off)


def folder(start, end):
    return half(*start) + "_" + half(*end)


FOLDERS = {i: folder(s, e) for i, n, s, e in TABLE}
NODE_OF = {i: n for i, n, s, e in TABLE}
ID_OF = {"%s/%s" % (NODE_OF[i], f): i for i, f in FOLDERS.items()}


def secs(off):
    return repr((T + off) / 1e6)


def write_pstats(path, marker):
    with open(path, "wb") as fh:
        marshal.dump({("marker.py", 1, "marker_" + marker): (1, 1, 0.001, 0.001, {})}, fh)


def build_cprofile_job(root):
    base = os.path.join(root, "framework", "tensorflow", "cprofile")
    for i, n, s, e in TABLE:
        d = os.path.join(base, n, FOLDERS[i])
        os.makedirs(d)
        write_pstats(os.path.join(d, "python_stats"), i)
    return base


def ids_of(got):
    """Selected IDs from the intervals list, plus problems found on the way."""
    p = []
    ivs = got.get("intervals") if isinstance(got, dict) else None
    if not isinstance(ivs, list):
        return None, ["no intervals list in output"]
    ids = ""
    for iv in ivs:
        if iv not in ID_OF:
            p.append("unknown interval %r" % iv)
        else:
            ids += ID_OF[iv]
    return ids, p


def requested_nodes(args):
    """Nodes a stats argument list asks for ("any" resolves to 152-algo-2)."""
    node = args[args.index("--node") + 1] if "--node" in args else "any"
    if node == "any":
        return ["152-algo-2"]
    if node == "all":
        return list(NODES)
    return node.split(",")


def check_selected(got, want, ordered=True, requested=None):
    """Checks intervals (IDs, order), marker functions, totals and node_ids."""
    ids, p = ids_of(got)
    if ids is None:
        return p
    if ordered and ids != want:
        p.append("selected %s (intervals %r), expected %s" % (ids or "-", got["intervals"], want))
    if not ordered and sorted(ids) != sorted(want):
        p.append("selected set %s, expected %s" % (ids or "-", want))
    markers = sorted(f.get("function", "?")[len("marker_"):] for f in got.get("functions") or [])
    if markers != sorted(want):
        p.append("marker functions %s, expected %s" % (markers, sorted(want)))
    for f in got.get("functions") or []:
        if (f.get("file"), f.get("line")) != ("marker.py", 1) or f.get("ncalls") != 1 or \
                f.get("primitive_calls") != 1 or not close(f.get("tottime"), 0.001) or f.get("callers") != []:
            p.append("bad function entry %r" % (f,))
            break
    if got.get("total_calls") != len(want) or got.get("primitive_calls") != len(want):
        p.append("total_calls/primitive_calls %r/%r, expected %d" % (got.get("total_calls"), got.get("primitive_calls"), len(want)))
    if not close(got.get("total_time"), 0.001 * len(want)):
        p.append("total_time %r, expected %r" % (got.get("total_time"), 0.001 * len(want)))
    want_nodes = sorted({NODE_OF[i] for i in want})
    if requested is None or len(requested) == 1:
        if got.get("node_ids") != want_nodes:
            p.append("node_ids %r, expected %r" % (got.get("node_ids"), want_nodes))
    else:
        p += check_node_ids(got.get("node_ids"), want_nodes, requested)
    return p


N1 = ["--node", "151-algo-1"]

# (name, stats arguments after SOURCE, expected IDs in order, or None = nothing selected)
CALLS = [
    ("by_step(5) node any", ["--step", "5"], "N"),
    ("by_step(5) --node any", ["--node", "any", "--step", "5"], "N"),
    ("by_step(5)", N1 + ["--step", "5"], "B"),
    ("by_step(5, 6)", N1 + ["--step", "5", "--end-step", "6"], "BCD"),
    ("by_step(5, 7)", N1 + ["--step", "5", "--end-step", "7"], "BCDE"),
    ("by_step(4, 7)", N1 + ["--step", "4", "--end-step", "7"], "BCDE"),
    ("by_step(0, 100)", N1 + ["--step", "0", "--end-step", "100"], "BCDE"),
    ("by_step(0, inf)", N1 + ["--step", "0", "--end-step", "inf"], "BCDE"),
    ("by_step(5, 6, STEP_END, STEP_START)",
     N1 + ["--step", "5", "--end-step", "6", "--start-phase", "STEP_END", "--end-phase", "STEP_START"], "C"),
    ("by_step(5, 7, stepend, stepstart)",
     N1 + ["--step", "5", "--end-step", "7", "--start-phase", "stepend", "--end-phase", "stepstart"], "CDE"),
    ("by_step(6, 6, end_phase=STEP_START)", N1 + ["--step", "6", "--end-step", "6", "--end-phase", "STEP_START"], None),
    ("by_step(6, 6, end_phase=FORWARD_PASS_END)",
     N1 + ["--step", "6", "--end-step", "6", "--end-phase", "FORWARD_PASS_END"], "D"),
    ("by_step(0, mode=EVAL)", N1 + ["--step", "0", "--mode", "EVAL"], "G"),
    ("by_step(5, mode=global)", N1 + ["--step", "5", "--mode", "global"], "I"),
    ("by_step(5, 6, mode=GLOBAL)", N1 + ["--step", "5", "--end-step", "6", "--mode", "GLOBAL"], "IJ"),
    ("by_step(5, 5, GLOBAL, start_phase=FORWARD_PASS_END)",
     N1 + ["--step", "5", "--end-step", "5", "--mode", "GLOBAL", "--start-phase", "FORWARD_PASS_END"], None),
    ("by_step(5, 6, GLOBAL, FORWARD_PASS_END, STEP_START)",
     N1 + ["--step", "5", "--end-step", "6", "--mode", "GLOBAL", "--start-phase", "FORWARD_PASS_END",
           "--end-phase", "STEP_START"], "J"),
    ("by_step(5, 6, global, forwardpassend, stepstart)",
     N1 + ["--step", "5", "--end-step", "6", "--mode", "global", "--start-phase", "forwardpassend",
           "--end-phase", "stepstart"], "J"),
    ("by_step(-1, 0) (A excluded by mode)", N1 + ["--step", "-1", "--end-step", "0"], None),
    ("by_step(-2, 0) (A excluded by mode)", N1 + ["--step=-2", "--end-step", "0"], None),
    ("by_step(-1, 0, mode=PRE_STEP_ZERO): A ends in mode train", N1 + ["--step=-1", "--end-step=0", "--mode", "PRE_STEP_ZERO"], None),
    ("by_time(T+550us, T+650us)", N1 + ["--time", secs(550), secs(650)], "BCD"),
    ("by_time(T+520us, T+580us) inside B only", N1 + ["--time", secs(520), secs(580)], None),
    ("by_time(T+600us, T+600us)", N1 + ["--time", secs(600), secs(600)], "BC"),
    ("by_time(T, T+2000us) node any", ["--time", secs(0), secs(2000)], "MN"),
    ("between_modes(TRAIN, TRAIN)", N1 + ["--between-modes", "TRAIN", "TRAIN"], "BCDE"),
    ("between_modes(train, eval)", N1 + ["--between-modes", "train", "eval"], "F"),
    ("between_modes(PRE_STEP_ZERO, POST_HOOK_CLOSE)", N1 + ["--between-modes", "PRE_STEP_ZERO", "POST_HOOK_CLOSE"], "H"),
    ("between_modes(prestepzero, posthookclose)", N1 + ["--between-modes", "prestepzero", "posthookclose"], "H"),
    ("between_modes(EVAL, TRAIN)", N1 + ["--between-modes", "EVAL", "TRAIN"], None),
    ("pre_step_zero()", N1 + ["--pre-step-zero"], "A"),
    ("pre_step_zero() node any", ["--pre-step-zero"], "M"),
    ("post_hook_close()", N1 + ["--post-hook-close"], "HK"),
    ("by_step(5) node nope", ["--node", "nope", "--step", "5"], None),
    ("pre_step_zero() node nope", ["--node", "nope", "--pre-step-zero"], None),
    ("between_modes node nope", ["--node", "nope", "--between-modes", "train", "train"], None),
    ("--all node nope", ["--node", "nope", "--all"], None),
    ("--all node 151-algo-1", N1 + ["--all"], "ABCDEFGHIJK"),
    ("--all node any", ["--all"], "MN"),
    # several nodes: summed, aggregated in record order (start time, then node id)
    ("--all --node all (record order)", ["--node", "all", "--all"], RECORD_ORDER),
    ("--all --node 152-algo-2,151-algo-1 (record order)", ["--node", "152-algo-2,151-algo-1", "--all"], RECORD_ORDER),
    ("by_step(5) --node all (record order)", ["--node", "all", "--step", "5"], "BN"),
    ("by_time(T+550us, T+650us) --node all (record order)", ["--node", "all", "--time", secs(550), secs(650)], "BNCD"),
]


def run_calls(tap, job):
    for name, args, want in CALLS:
        full = ["stats", job] + args + ["--json"]
        label = "conformance %s -> %s" % (name, cmdline(full[2:]))
        if want is None:
            tap.check(expect_no_selection(full), label + ": nothing selected (exit 1)")
            continue
        rc, got, out, err, p = smprof_json(*full)
        if not p:
            p = check_selected(got, want, requested=requested_nodes(args))
        tap.check(p, label + ": " + want)


def check_nodes_list(tap, job):
    rc, got, out, err, p = smprof_json("nodes", job, "--json")
    if not p and got != NODES:
        p.append("got %r, expected %r" % (got, NODES))
    tap.check(p, "conformance: nodes --json")

    rc, rows, out, err, p = smprof_json("list", job, "--json")
    if not p:
        if not isinstance(rows, list) or len(rows) != 13:
            p.append("expected 13 rows, got %r" % (len(rows) if isinstance(rows, list) else rows))
        else:
            order = ""
            for r in rows:
                iv = "%s/%s" % (r.get("node_id"), os.path.basename(os.path.dirname(r.get("stats_path", "x/x"))))
                order += ID_OF.get(iv, "?")
            if order != RECORD_ORDER:
                p.append("row order %s, expected %s" % (order, RECORD_ORDER))
            for r in rows:
                if len(r) != 12:
                    p.append("row has %d keys, expected 12: %r" % (len(r), sorted(r)))
                    break
            by_id = {ID_OF.get("%s/%s" % (r.get("node_id"), os.path.basename(os.path.dirname(r.get("stats_path", "x/x"))))): r
                     for r in rows}
            h = by_id.get("H", {})
            want_h = {"profiler_name": "cprofile", "framework": "tensorflow", "node_id": "151-algo-1",
                      "start_mode": "prestepzero", "start_step": -1, "start_phase": "end",
                      "start_time_since_epoch_in_micros": T + 900, "end_mode": "posthookclose",
                      "end_step": "inf", "end_phase": "end", "end_time_since_epoch_in_micros": T + 950}
            for k, v in want_h.items():
                if h.get(k) != v:
                    p.append("row H: %s = %r, expected %r" % (k, h.get(k), v))
            j = by_id.get("J", {})
            want_j = {"start_mode": "global", "start_step": 5, "start_phase": "forwardpassend",
                      "end_mode": "global", "end_step": 6, "end_phase": "stepstart"}
            for k, v in want_j.items():
                if j.get(k) != v:
                    p.append("row J: %s = %r, expected %r" % (k, j.get(k), v))
            m = by_id.get("M", {})
            if m.get("start_time_since_epoch_in_micros") != T - 50:
                p.append("row M: start time %r, expected %r" % (m.get("start_time_since_epoch_in_micros"), T - 50))
    tap.check(p, "conformance: list --json has 13 rows in record order M A B N C D E F G H I J K")


def check_training_phase(tap, job):
    cases = [
        ("node 151-algo-1", N1, [("train", "train", "BCDE"), ("train", "eval", "F"), ("eval", "eval", "G"),
                                 ("eval", "posthookclose", "K"), ("global", "global", "IJ"),
                                 ("prestepzero", "train", "A"), ("prestepzero", "posthookclose", "H")]),
        ("node any (= 152-algo-2)", [], [("train", "train", "N"), ("prestepzero", "train", "M")]),
    ]
    for label, nargs, want in cases:
        args = ["stats", job] + nargs + ["--training-phase", "--json"]
        rc, got, out, err, p = smprof_json(*args)
        if not p:
            pairs = got.get("pairs") if isinstance(got, dict) else None
            if not isinstance(pairs, list):
                p.append("no pairs array: %r" % (out[:200],))
            else:
                keys = [(x.get("start_mode"), x.get("end_mode")) for x in pairs]
                if keys != [(a, b) for a, b, _ in want]:
                    p.append("pairs %r, expected %r" % (keys, [(a, b) for a, b, _ in want]))
                else:
                    for x, (a, b, ids) in zip(pairs, want):
                        for msg in check_selected(x.get("stats"), ids):
                            p.append("(%s, %s): %s" % (a, b, msg))
        tap.check(p, "conformance: --training-phase %s" % label)


def check_job_phase(tap, job):
    # smprof's FIXED rule: initialization = start phase `start`; finalization =
    # end phase `end` (and not initialization); training_loop = the rest, in
    # record order. (smdebug would give initialization = H for node 151-algo-1.)
    cases = [
        ("node 151-algo-1", N1, {"initialization": "A", "finalization": "HK", "training_loop": "BCDEFGIJ"}),
        ("node any (= 152-algo-2)", [], {"initialization": "M", "finalization": None, "training_loop": "N"}),
    ]
    for label, nargs, want in cases:
        args = ["stats", job] + nargs + ["--job-phase", "--json"]
        rc, got, out, err, p = smprof_json(*args)
        if not p:
            if not isinstance(got, dict) or sorted(got) != sorted(want):
                p.append("keys %r, expected %r" % (sorted(got) if isinstance(got, dict) else got, sorted(want)))
            else:
                for phase, ids in want.items():
                    if ids is None:
                        if got[phase] is not None:
                            p.append("%s should be null, got %r" % (phase, got[phase]))
                        continue
                    for msg in check_selected(got[phase], ids):
                        p.append("%s: %s" % (phase, msg))
        tap.check(p, "conformance: --job-phase %s (fixed semantics: %s)" % (
            label, ", ".join("%s=%s" % (k, v) for k, v in want.items())))


# ---------------------------------------------------------------- Pyinstrument

PY_NODE = "0-algo-1"


def frame(function, file_path, line_no, time, children=()):
    # group_id and class_name: keys pyinstrument 4.x adds, which must be ignored
    return {"function": function, "file_path_short": os.path.basename(file_path), "file_path": file_path,
            "line_no": line_no, "time": time, "is_application_code": file_path.startswith("/opt/ml/code"),
            "group_id": None, "class_name": "Model" if function == "forward" else None,
            "children": list(children)}


SLEEP = ("sleep", "<built-in>", 0)
PY_TABLE = [
    # ID, start, end, root frame
    ("P", ("prestepzero", "*", "start", 0), ("global", "0", "stepstart", 100),
     frame("<module>", "/opt/ml/code/train.py", 1, 0.5, [
         frame("import_torch", "/opt/ml/code/train.py", 3, 0.4),
         frame("main", "/opt/ml/code/train.py", 10, 0.1, [frame(*SLEEP, 0.1)])])),
    ("I", ("global", "5", "stepstart", 1000), ("global", "5", "forwardpassend", 1010),
     frame("main", "/opt/ml/code/train.py", 10, 0.010, [
         frame("forward", "/opt/ml/code/model.py", 20, 0.006, [
             frame(*SLEEP, 0.003), frame("[self]", "", 0, 0.002)]),
         # children summing to more than the parent (pyinstrument's %f rounding): self_time < 0, kept as is
         frame("load_batch", "/opt/ml/code/train.py", 30, 0.004, [
             frame("loads", "/usr/lib/python3.11/json/__init__.py", 299, 0.004001)])])),
    ("J", ("global", "5", "forwardpassend", 1010), ("global", "6", "stepstart", 1100),
     frame("main", "/opt/ml/code/train.py", 10, 0.090, [
         frame("backward", "/opt/ml/code/train.py", 40, 0.050, [frame(*SLEEP, 0.01)]),
         frame("forward", "/opt/ml/code/model.py", 20, 0.030, [frame(*SLEEP, 0.020)]),
         frame("load_batch", "/opt/ml/code/train.py", 30, 0.001)])),
    ("Q", ("global", "7", "stepstart", 1200), ("global", "7", "forwardpassend", 1210), None),
]
PY_FOLDERS = {i: folder(s, e) for i, s, e, r in PY_TABLE}
PY_ROOTS = {i: r for i, s, e, r in PY_TABLE}


def session_json(root_frame, off):
    if root_frame is None:
        return '{"root_frame": null}'  # smdebug's fallback, exactly as written
    return json.dumps({"start_time": (T + off) / 1e6, "duration": root_frame["time"], "sample_count": 7,
                       "program": "train.py", "cpu_time": root_frame["time"], "root_frame": root_frame}) + "\n"


def build_pyinstrument_job(root):
    base = os.path.join(root, "framework", "pytorch", "pyinstrument", PY_NODE)
    for i, s, e, r in PY_TABLE:
        d = os.path.join(base, PY_FOLDERS[i])
        os.makedirs(d)
        with open(os.path.join(d, "python_stats.json"), "w") as fh:
            fh.write(session_json(r, s[3]))
        with open(os.path.join(d, "python_stats.html"), "w") as fh:
            fh.write("<html><body>pyinstrument</body></html>\n")
    return base


def check_py_result(got, ids):
    p = []
    if not isinstance(got, dict):
        return ["output is not an object"]
    want_iv = ["%s/%s" % (PY_NODE, PY_FOLDERS[i]) for i in ids]
    if got.get("intervals") != want_iv:
        p.append("intervals %r, expected %r" % (got.get("intervals"), want_iv))
    if got.get("profiler") != "pyinstrument":
        p.append("profiler %r" % (got.get("profiler"),))
    if got.get("node_ids") != [PY_NODE]:
        p.append("node_ids %r" % (got.get("node_ids"),))
    merged = merge_pyinstrument_roots([PY_ROOTS[i] for i in ids])
    p += compare_pyinstrument_tree(got.get("tree"), merged)
    total = sum(n["time"] for n in merged.values())
    if not close(got.get("total_time"), total, 1e-9, 1e-9):
        p.append("total_time %r, expected %r" % (got.get("total_time"), total))
    return p


def check_pyinstrument(tap, tmp):
    job = os.path.join(tmp, "pyjob")
    build_pyinstrument_job(job)
    rc, rows, out, err, p = smprof_json("list", job, "--json")
    if not p:
        if not isinstance(rows, list) or len(rows) != 4:
            p.append("expected 4 rows (one per interval), got %r" % (rows,))
        else:
            got = [os.path.basename(os.path.dirname(r["stats_path"])) for r in rows]
            if got != [PY_FOLDERS[i] for i in "PIJQ"]:
                p.append("rows %r" % got)
            for r in rows:
                if not r["stats_path"].endswith("python_stats.json") or r["profiler_name"] != "pyinstrument" \
                        or r["framework"] != "pytorch":
                    p.append("bad row %r" % r)
    tap.check(p, "pyinstrument: list --json has 4 rows (python_stats.json only), in start order")

    q = ["stats", job, "--step", "5", "--end-step", "6", "--mode", "GLOBAL", "--json"]
    rc, first, out, err, p = smprof_json(*q)
    if not p:
        p = check_py_result(first, "IJ")
    tap.check(p, "pyinstrument: by_step(5, 6, mode=GLOBAL) -> I, J merged (%s)" % cmdline(q[2:]))

    q2 = ["stats", job, "--all", "--json"]
    rc, got, out, err, p = smprof_json(*q2)
    if not p:
        p = check_py_result(got, "PIJQ")
    tap.check(p, "pyinstrument: --all -> P, I, J, Q (two distinct roots merged; Q's null root_frame adds nothing)")

    q3 = ["stats", job, "--step", "7", "--mode", "global", "--end-phase", "forwardpassend", "--json"]
    rc, got, out, err, p = smprof_json(*q3)
    if not p:
        p = check_py_result(got, "Q")
        if isinstance(got, dict) and (got.get("tree") != [] or got.get("total_time") not in (0, 0.0)):
            p.append("an interval with root_frame null: tree must be [] and total_time 0, got %r / %r"
                     % (got.get("tree"), got.get("total_time")))
    tap.check(p, "pyinstrument: only a root_frame-null interval -> listed, empty tree, exit 0")

    rc, got, out, err, p = smprof_json("nodes", job, "--json")
    if not p and got != [PY_NODE]:
        p.append("got %r" % (got,))
    tap.check(p, "pyinstrument: nodes --json")

    os.unlink(os.path.join(job, "framework", "pytorch", "pyinstrument", PY_NODE, PY_FOLDERS["I"], "python_stats.html"))
    rc, again, out, err, p = smprof_json(*q)
    if not p and again != first:
        p.append("result changed after deleting I's python_stats.html:\n  before %r\n  after  %r" % (first, again))
    tap.check(p, "pyinstrument: a missing python_stats.html does not break the query (smdebug would raise)")


# ---------------------------------------------------------------- edge vectors

def baseline(job):
    """(list rows with paths made relative, --node all --all stats) of a job."""
    rc, rows, out, err, p1 = smprof_json("list", job, "--json")
    rc, stats, out, err, p2 = smprof_json("stats", job, "--node", "all", "--all", "--json")
    rel = None
    if isinstance(rows, list):
        rel = []
        for r in rows:
            r = dict(r)
            r["stats_path"] = os.path.relpath(os.path.realpath(r["stats_path"]), os.path.realpath(job))
            rel.append(r)
    return rel, stats, p1 + p2


def check_edge_warns(tap, tmp, pristine, base_rows, base_stats, label, damage, needle, ids_same=True):
    """Copy the pristine conformance job, apply damage(job), then: exit 0, a
    warning naming ``needle`` on stderr, and unchanged list/stats results."""
    job = os.path.join(tmp, "edge-%d" % len(os.listdir(tmp)))
    shutil.copytree(pristine, job)
    damage(job)
    p = []
    for args in (["list", job, "--json"], ["stats", job, "--node", "all", "--all", "--json"]):
        rc, out_, err = smprof(*args)
        if rc != 0:
            p.append("%s: exit %d, expected 0; stderr %r" % (cmdline(args[:1] + args[2:]), rc, err[:300]))
        elif needle is not None and needle not in err:
            p.append("%s: stderr does not name %r: %r" % (cmdline(args[:1] + args[2:]), needle, err[:400]))
        elif needle is None and err.strip():
            p.append("%s: expected a silent skip, stderr: %r" % (cmdline(args[:1] + args[2:]), err[:300]))
    tap.check(p, "edge %s: exit 0 and %s" % (label, "a warning naming it" if needle else "no warning"))
    rows, stats, p = baseline(job)
    if not p:
        if rows != base_rows:
            p.append("list changed: %d rows vs %d pristine" % (len(rows or []), len(base_rows or [])))
            for a, b in zip(rows or [], base_rows or []):
                if a != b:
                    p.append("first difference: %r vs pristine %r" % (a, b))
                    break
        if stats != base_stats:
            p.append("stats --node all --all changed: intervals %r" % (stats.get("intervals") if isinstance(stats, dict) else stats,))
    tap.check(p, "edge %s: the rest of the job loads with unchanged results" % label)
    return job


def add_folder(name, node="151-algo-1", marker="BAD"):
    def damage(job):
        d = os.path.join(job, "framework", "tensorflow", "cprofile", node, name)
        os.makedirs(d)
        write_pstats(os.path.join(d, "python_stats"), marker)
    return damage


def check_edges(tap, tmp, pristine):
    base_rows, base_stats, p = baseline(pristine)
    if not tap.check(p, "edge: baseline list/stats on the pristine conformance job"):
        return
    t1, t2 = "%r" % (T + 2000), "%r" % (T + 2100)
    bad_names = [
        ("mode 'Train'", "Train-8-stepstart-%s_train-8-stepend-%s" % (t1, t2)),
        ("step '1.0'", "train-1.0-stepstart-%s_train-1.0-stepend-%s" % (t1, t2)),
        ("extra '_'", "train-8-stepstart-%s_train-8-stepend-%s_x" % (t1, t2)),
        ("extra '-'", "train-8-stepstart-x-%s_train-8-stepend-%s" % (t1, t2)),
        ("negative step (extra '-')", "train--1-stepstart-%s_train-8-stepend-%s" % (t1, t2)),
        ("phase 'Stepstart'", "train-8-Stepstart-%s_train-8-stepend-%s" % (t1, t2)),
    ]
    sub = os.path.join(tmp, "edges")
    os.makedirs(sub)
    for label, name in bad_names:
        check_edge_warns(tap, sub, pristine, base_rows, base_stats, "malformed folder, %s" % label,
                         add_folder(name), name)

    def stray(job):
        with open(os.path.join(job, "framework", "tensorflow", "cprofile", "stray-notes.txt"), "w") as fh:
            fh.write("not a node\n")
    check_edge_warns(tap, sub, pristine, base_rows, base_stats, "stray file beside node folders", stray,
                     "stray-notes.txt")

    def unknown(job):
        with open(os.path.join(job, "framework", "tensorflow", "cprofile", "151-algo-1", FOLDERS["B"],
                               "notes.txt"), "w") as fh:
            fh.write("hello\n")
    check_edge_warns(tap, sub, pristine, base_rows, base_stats, "unknown file inside an interval folder",
                     unknown, None)

    # empty tree
    empty = os.path.join(tmp, "empty")
    os.makedirs(os.path.join(empty, "framework", "tensorflow", "cprofile"))
    rc, got, out, err, p = smprof_json("list", empty, "--json")
    if not p and got != []:
        p.append("got %r, expected []" % (got,))
    tap.check(p, "edge empty tree: list --json gives []")
    rc, got, out, err, p = smprof_json("nodes", empty, "--json")
    if not p and got != []:
        p.append("got %r, expected []" % (got,))
    tap.check(p, "edge empty tree: nodes --json gives []")
    tap.check(expect_no_selection(["stats", empty, "--all", "--json"]), "edge empty tree: stats --all exits 1")
    tap.check(expect_no_selection(["stats", empty, "--step", "0", "--json"]), "edge empty tree: stats --step 0 exits 1")

    # both python_stats and python_stats.json in one interval folder
    both = os.path.join(tmp, "both")
    shutil.copytree(pristine, both)
    bdir = os.path.join(both, "framework", "tensorflow", "cprofile", "151-algo-1", FOLDERS["B"])
    with open(os.path.join(bdir, "python_stats.json"), "w") as fh:
        fh.write(session_json(PY_ROOTS["I"], 500))
    rc, rows, out, err, p = smprof_json("list", both, "--json")
    if not p and (not isinstance(rows, list) or len(rows) != 13 or any(r["profiler_name"] != "cprofile" for r in rows)):
        p.append("cprofile list: %r rows" % (len(rows) if isinstance(rows, list) else rows))
    rc, prow, out, err, p2 = smprof_json("list", both, "--profiler", "pyinstrument", "--json")
    p += p2
    if not p2:
        if not isinstance(prow, list) or len(prow) != 1:
            p.append("pyinstrument list: expected 1 row (interval B), got %r" % (prow,))
        else:
            r = prow[0]
            if r.get("profiler_name") != "pyinstrument" or not r.get("stats_path", "").endswith(
                    os.path.join(FOLDERS["B"], "python_stats.json")):
                p.append("pyinstrument row %r" % (r,))
    tap.check(p, "edge interval folder with python_stats and python_stats.json: one record per profiler")
    q = ["stats", both, "--profiler", "pyinstrument", "--node", "151-algo-1", "--step", "5", "--json"]
    rc, got, out, err, p = smprof_json(*q)
    if not p:
        if got.get("intervals") != ["151-algo-1/" + FOLDERS["B"]] or got.get("profiler") != "pyinstrument":
            p.append("got intervals %r profiler %r" % (got.get("intervals"), got.get("profiler")))
        p += compare_pyinstrument_tree(got.get("tree"), merge_pyinstrument_roots([PY_ROOTS["I"]]))
    tap.check(p, "edge both files: " + cmdline(q[2:]) + " reads the JSON")
    q = ["stats", both, "--node", "151-algo-1", "--step", "5", "--json"]
    rc, got, out, err, p = smprof_json(*q)
    if not p:
        p = check_selected(got, "B")
    tap.check(p, "edge both files: " + cmdline(q[2:]) + " reads python_stats")

    # an empty marshalled dict
    emptyd = os.path.join(tmp, "emptydict")
    shutil.copytree(pristine, emptyd)
    with open(os.path.join(emptyd, "framework", "tensorflow", "cprofile", "151-algo-1", FOLDERS["B"],
                           "python_stats"), "wb") as fh:
        marshal.dump({}, fh)
    q = ["stats", emptyd, "--node", "151-algo-1", "--step", "5", "--json"]
    rc, got, out, err, p = smprof_json(*q)
    if not p:
        if got.get("functions") != [] or got.get("total_calls") != 0 or got.get("primitive_calls") != 0:
            p.append("expected an empty profile, got functions %r total_calls %r" % (got.get("functions"), got.get("total_calls")))
        if got.get("intervals") != ["151-algo-1/" + FOLDERS["B"]]:
            p.append("intervals %r, expected [B]" % (got.get("intervals"),))
        if not close(got.get("total_time"), 0.0):
            p.append("total_time %r" % (got.get("total_time"),))
    tap.check(p, "edge empty pstats dict: an empty profile, exit 0 (%s)" % cmdline(q[2:]))
    q = ["stats", emptyd, "--node", "151-algo-1", "--between-modes", "train", "train", "--json"]
    rc, got, out, err, p = smprof_json(*q)
    if not p:
        ids, p = ids_of(got)
        if ids != "BCDE":
            p.append("intervals %r, expected B C D E" % (got.get("intervals"),))
        markers = sorted(f.get("function") for f in got.get("functions") or [])
        if markers != ["marker_C", "marker_D", "marker_E"]:
            p.append("functions %r, expected marker_C/D/E" % markers)
        if got.get("total_calls") != 3:
            p.append("total_calls %r, expected 3" % (got.get("total_calls"),))
    tap.check(p, "edge empty pstats dict aggregated with others: %s" % cmdline(q[2:]))


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-conf-")
    try:
        job = os.path.join(tmp, "job")
        build_cprofile_job(job)
        check_nodes_list(tap, job)
        run_calls(tap, job)
        check_training_phase(tap, job)
        check_job_phase(tap, job)
        check_pyinstrument(tap, tmp)
        check_edges(tap, tmp, job)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
