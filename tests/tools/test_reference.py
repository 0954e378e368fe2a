#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/smdebug-aggregate.py against smdebug 1.0.34's own answers.

1. Every query recorded from smdebug on the real jobs
   (tests/data/real-smdebug/*/expected/*.json) is run through the command line
   and its answer compared with smdebug's: the same files in the same order,
   totals and every function row and caller equal (floats bit for bit: both
   sides add with pstats in the same order), null where smdebug returned None.
2. The conformance vectors of docs/smdebug-format.md §3.5.3 on a marker tree
   built in a temporary folder: which intervals each call selects, in which
   order; and its edge vectors (what makes smdebug's load fail).
"""

import json
import marshal
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cli"))
import taplib  # noqa: E402
from taplib import Tap  # noqa: E402

SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
AGGREGATE = os.path.join(SOURCE_ROOT, "tools", "smdebug-aggregate.py")


def aggregate(*args):
    """Runs the reference; returns (exit status, stdout, stderr)."""
    p = subprocess.run([sys.executable, AGGREGATE] + [str(a) for a in args], capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def aggregate_json(*args):
    rc, out, err = aggregate(*args, "--json")
    if rc not in (0, 1):
        return None, ["exit status %d: %s" % (rc, err.strip()[:500])]
    try:
        answer = json.loads(out)
    except ValueError as e:
        return None, ["not JSON (%s): %r" % (e, out[:200])]
    if (answer is None) != (rc == 1):
        return answer, ["exit status %d with answer %r" % (rc, out[:80])]
    return answer, []


# ---------------------------------------------------------------- 1. recorded queries

def query_args(q):
    """The command line for one recorded smdebug call."""
    call = q["call"]
    node = ["--node", q["node_id"]] if "node_id" in q else []
    if call == "fetch_profile_stats_by_step":
        steps = [q["start_step"]] + ([q["end_step"]] if q["end_step"] is not None else [])
        return node + ["--step"] + steps + ["--mode", q["mode"], "--start-phase", q["start_phase"],
                                            "--end-phase", q["end_phase"]]
    if call == "fetch_profile_stats_by_time":
        return node + ["--time", repr(q["start_time_since_epoch_in_secs"]), repr(q["end_time_since_epoch_in_secs"])]
    if call == "fetch_profile_stats_between_modes":
        return node + ["--between-modes", q["start_mode"], q["end_mode"]]
    simple = {
        "fetch_pre_step_zero_profile_stats": "--pre-step-zero",
        "fetch_post_hook_close_profile_stats": "--post-hook-close",
        "fetch_profile_stats_by_training_phase": "--training-phase",
        "fetch_profile_stats_by_job_phase": "--job-phase",
        "list_profile_stats": "--list",
        "list_available_node_ids": "--list-nodes",
    }
    return node + [simple[call]]


def same(got, want, path="answer"):
    """Exact structural equality (floats as Python reads them); problems."""
    if isinstance(want, dict):
        if not isinstance(got, dict) or list(got) != list(want):
            return ["%s: keys %r, smdebug %r" % (path, list(got) if isinstance(got, dict) else got, list(want))]
        problems = []
        for k in want:
            problems += same(got[k], want[k], "%s.%s" % (path, k))
            if len(problems) > 10:
                break
        return problems
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return ["%s: %s items, smdebug %d" % (path, len(got) if isinstance(got, list) else repr(got)[:60],
                                                   len(want))]
        problems = []
        for i, (g, w) in enumerate(zip(got, want)):
            problems += same(g, w, "%s[%d]" % (path, i))
            if len(problems) > 10:
                break
        return problems
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return [] if got == want else ["%s: %r, smdebug %r" % (path, got, want)]
    if got != want or type(got) is not type(want):
        return ["%s: %r, smdebug %r" % (path, got, want)]
    return []


def without_missing_html(job_dir, rows):
    """The repository's copies of the real Pyinstrument jobs keep the JSON of
    each interval, not its 85 KB html page: smdebug listed both."""
    return [r for r in rows if not (r["stats_path"].endswith(".html")
                                    and not os.path.exists(os.path.join(job_dir, r["stats_path"])))]


def check_recorded(tap):
    total = 0
    for job in sorted(taplib.REAL_JOBS):
        framework, profiler = taplib.REAL_JOBS[job]
        job_dir = os.path.join(taplib.REAL, job)
        profiler_dir = os.path.join(job_dir, "framework", framework, profiler)
        expected_dir = os.path.join(job_dir, "expected")
        for name in sorted(os.listdir(expected_dir)):
            recorded = taplib.read_json(os.path.join(expected_dir, name))
            for i, entry in enumerate(recorded["queries"]):
                q, want = entry["query"], entry["result"]
                args = [profiler_dir] + query_args(q)
                if profiler == "pyinstrument":
                    args.append("--allow-missing-html")
                got, problems = aggregate_json(*args)
                if q["call"] == "list_profile_stats" and profiler == "pyinstrument":
                    html = [r for r in want if r["stats_path"].endswith(".html")]
                    want = without_missing_html(job_dir, want)
                    if len(want) + len(html) != len(recorded["queries"][i]["result"]) or not html:
                        problems.append("the recorded listing has no html rows to leave out")
                if not problems:
                    problems = same(got, want)
                total += 1
                tap.check(problems, "%s %s #%d: %s" % (job, name, i, " ".join(str(a) for a in args[1:])))
    tap.ok(total >= 90, "every recorded query replayed (%d)" % total)


# ---------------------------------------------------------------- 2. conformance vectors

T = 1600000000000000.0
# ID, node, start (mode, step, phase, µs after T), end (...): smdebug-format.md §3.5.3
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
N1 = ["--node", "151-algo-1"]


def secs(offset):
    return repr((T + offset) / 1e6)


VECTORS = [
    (["--step", 5], "N"),
    (N1 + ["--step", 5], "B"),
    (N1 + ["--step", 5, 6], "BCD"),
    (N1 + ["--step", 5, 7], "BCDE"),
    (N1 + ["--step", 4, 7], "BCDE"),
    (N1 + ["--step", 0, 100], "BCDE"),
    (N1 + ["--step", 0, "inf"], "BCDE"),
    (N1 + ["--step", 5, 6, "--start-phase", "STEP_END", "--end-phase", "STEP_START"], "C"),
    (N1 + ["--step", 5, 7, "--start-phase", "stepend", "--end-phase", "stepstart"], "CDE"),
    (N1 + ["--step", 6, 6, "--end-phase", "STEP_START"], None),
    (N1 + ["--step", 6, 6, "--end-phase", "FORWARD_PASS_END"], "D"),
    (N1 + ["--step", 0, "--mode", "EVAL"], "G"),
    (N1 + ["--step", 5, "--mode", "GLOBAL"], "I"),
    (N1 + ["--step", 5, 6, "--mode", "global"], "IJ"),
    (N1 + ["--step", 5, 5, "--mode", "global", "--start-phase", "forwardpassend"], None),
    (N1 + ["--step", 5, 6, "--mode", "global", "--start-phase", "forwardpassend", "--end-phase", "stepstart"], "J"),
    (N1 + ["--step", -1, 0], None),
    (N1 + ["--step", -2, 0], None),
    (N1 + ["--time", secs(550), secs(650)], "BCD"),
    (N1 + ["--time", secs(520), secs(580)], None),
    (N1 + ["--time", secs(600), secs(600)], "BC"),
    (["--time", secs(0), secs(2000)], "MN"),
    (N1 + ["--between-modes", "TRAIN", "TRAIN"], "BCDE"),
    (N1 + ["--between-modes", "train", "eval"], "F"),
    (N1 + ["--between-modes", "PRE_STEP_ZERO", "POST_HOOK_CLOSE"], "H"),
    (N1 + ["--pre-step-zero"], "A"),
    (["--pre-step-zero"], "M"),
    (N1 + ["--post-hook-close"], "HK"),
    (["--node", "nope", "--step", 5], None),
    (["--node", "nope", "--post-hook-close"], None),
    # extensions: every interval of a node, and of every node in record order
    (N1 + ["--all"], "ABCDEFGHIJK"),
    (["--node", "all", "--all"], "MABNCDEFGHIJK"),
]


def half(mode, step, phase, offset):
    return "%s-%s-%s-%r" % (mode, step, phase, T + offset)


def build_marker_tree(root):
    base = os.path.join(root, "framework", "tensorflow", "cprofile")
    ids = {}
    for ident, node, start, end in TABLE:
        folder = half(*start) + "_" + half(*end)
        path = os.path.join(base, node, folder)
        os.makedirs(path)
        with open(os.path.join(path, "python_stats"), "wb") as fh:
            marshal.dump({("marker.py", 1, "marker_" + ident): (1, 1, 0.001, 0.001, {})}, fh)
        ids["framework/tensorflow/cprofile/%s/%s/python_stats" % (node, folder)] = ident
    return base, ids


def selected_ids(answer, ids):
    return None if answer is None else "".join(ids.get(f, "?") for f in answer["files"])


def check_vectors(tap, tmp):
    base, ids = build_marker_tree(os.path.join(tmp, "vectors"))
    for args, want in VECTORS:
        answer, problems = aggregate_json(base, *args)
        got = selected_ids(answer, ids)
        if not problems and got != want:
            problems.append("selected %s, smdebug selects %s" % (got, want))
        if not problems and answer is not None:
            markers = sorted(row[2][len("marker_"):] for row in answer["functions"])
            if markers != sorted(want) or answer["total_calls"] != len(want):
                problems.append("functions %s, total_calls %r" % (markers, answer["total_calls"]))
        tap.check(problems, "§3.5.3 %s -> %s" % (" ".join(str(a) for a in args), want))

    rc, out, _ = aggregate(base, "--list-nodes")
    tap.ok(rc == 0 and json.loads(out) == ["151-algo-1", "152-algo-2"], "§3.5.3 list_available_node_ids", out)
    answer, problems = aggregate_json(base, "--list")
    order = "".join(ids[row["stats_path"]] for row in answer) if answer else None
    tap.ok(not problems and order == "MABNCDEFGHIJK" and len(answer[0]) == 12,
           "§3.5.3 list_profile_stats: 13 rows of 12 columns in record order", problems or order)

    phases, problems = aggregate_json(base, "--node", "151-algo-1", "--training-phase")
    got = [(p["start_mode"], p["end_mode"], selected_ids(p["stats"], ids)) for p in phases or []]
    want = [("train", "train", "BCDE"), ("train", "eval", "F"), ("eval", "eval", "G"),
            ("eval", "posthookclose", "K"), ("global", "global", "IJ"), ("prestepzero", "train", "A"),
            ("prestepzero", "posthookclose", "H")]
    tap.ok(not problems and got == want, "§3.5.3 by_training_phase: pairs in enum order", problems or got)
    phases, problems = aggregate_json(base, "--node", "151-algo-1", "--job-phase")
    got = [(p["job_phase"], selected_ids(p["stats"], ids)) for p in phases or []]
    want = [("finalization", "K"), ("initialization", "H"), ("training_loop", "BCDEFGIJ")]
    tap.ok(not problems and got == want, "§3.5.3 by_job_phase: initialization overwritten by H, as smdebug does",
           problems or got)


def check_edges(tap, tmp):
    """What makes smdebug's whole load fail makes the reference fail (exit 2)."""
    cases = [
        ("mode Train", "Train-1-stepstart-1.0_train-1-stepend-2.0", None),
        ("step 1.0", "train-1.0-stepstart-1.0_train-1-stepend-2.0", None),
        ("an extra '_'", "train-1-stepstart-1.0_train-1-stepend-2.0_x", None),
        ("an extra '-'", "train-1-stepstart-x-1.0_train-1-stepend-2.0", None),
        ("phase Stepstart", "train-1-Stepstart-1.0_train-1-stepend-2.0", None),
        ("a stray file beside the node folders", None, "stray"),
    ]
    good = "train-1-stepstart-1.0_train-1-stepend-2.0"
    for what, folder, stray in cases:
        base = os.path.join(tmp, "edge-%d" % len(os.listdir(tmp)), "framework", "pytorch", "cprofile")
        for name in (good, folder) if folder else (good,):
            os.makedirs(os.path.join(base, "0-algo-1", name))
            with open(os.path.join(base, "0-algo-1", name, "python_stats"), "wb") as fh:
                marshal.dump({("m.py", 1, "m"): (1, 1, 0.5, 0.5, {})}, fh)
        if stray:
            open(os.path.join(base, stray), "w").close()
        rc, out, err = aggregate(base, "--all", "--quiet")
        tap.ok(rc == 2 and "smdebug-aggregate.py" in err, "edge: %s aborts the load (exit 2)" % what,
               "exit %d, stderr %r" % (rc, err))

    # an unknown file inside an interval folder is skipped; an empty pstats dict fails at aggregation
    base = os.path.join(tmp, "edge-files", "framework", "pytorch", "cprofile", "0-algo-1")
    os.makedirs(os.path.join(base, good))
    with open(os.path.join(base, good, "python_stats"), "wb") as fh:
        marshal.dump({("m.py", 1, "m"): (1, 1, 0.5, 0.5, {})}, fh)
    open(os.path.join(base, good, "notes.txt"), "w").close()
    answer, problems = aggregate_json(os.path.dirname(base), "--all")
    tap.ok(not problems and answer["total_tt"] == 0.5, "edge: an unknown file in an interval folder is skipped",
           problems)
    with open(os.path.join(base, good, "python_stats"), "wb") as fh:
        marshal.dump({}, fh)
    rc, out, err = aggregate(os.path.dirname(base), "--all", "--quiet")
    tap.ok(rc == 2 and "TypeError" in err, "edge: an empty pstats dict fails as pstats does (TypeError)", err)


def main(tap):
    check_recorded(tap)
    with tempfile.TemporaryDirectory(prefix="smprof-reference-") as tmp:
        check_vectors(tap, tmp)
        check_edges(tap, tmp)


if __name__ == "__main__":
    Tap().run_main(main)
