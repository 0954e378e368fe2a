#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof steps / outliers on corpora made by make-corpus.py with planted outlier steps.

tests/data/corpus-outliers-*/corpus-manifest.json says which steps were made slow
(`planted_outliers`: a slow step on every node, a straggler node at one step). Checked:
(a) the detector flags every planted slow step as an outlier and every planted straggler
    as a straggler, and at most MAX_EXTRA others per node;
(b) per-step totals add up to `smprof stats` of the same selection;
(c) per-function count/min/median/p95/max and series, against `smprof stats --json` run
    step by step; (d) the node x function matrix against per-node `smprof stats`;
plus the rule itself recomputed here, MAD = 0, and usage errors.
"""

import json
import math
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import DATA, close, cmdline, smprof, smprof_json  # noqa: E402

CORPORA = {
    "corpus-outliers-cprofile": "cprofile",
    "corpus-outliers-pyinstrument": "pyinstrument",
}
MAX_EXTRA = 3          # flagged steps that were not planted, per node
THRESHOLD = 5.0        # the default of --threshold
RESOLUTION = 1e-6      # deviations below this count as none (the stated rule)


def quantile(sorted_values, q):
    """numpy's default (linear) quantile."""
    n = len(sorted_values)
    pos = q * (n - 1)
    lo = int(pos)
    if lo + 1 >= n:
        return sorted_values[-1]
    return sorted_values[lo] + (sorted_values[lo + 1] - sorted_values[lo]) * (pos - lo)


MIN_SCALE = 0.05       # the least scale, on logarithms (the stated rule)
MIN_GROUP = 3          # values a node needs at a mode for a median
MIN_POOL = 10          # deviations the job needs for a scale
REWEIGHT_CUT = 3.5     # deviations scoring above it leave the scale's second estimate


def scale_of(devs):
    """1.4826 x the median of devs (1.2533 x their mean when that is 0), at
    least MIN_SCALE; None with fewer than MIN_POOL of them."""
    if len(devs) < MIN_POOL:
        return None
    mad = quantile(sorted(devs), 0.5)
    return max(1.4826 * mad if mad > 0 else 1.2533 * sum(devs) / len(devs), MIN_SCALE)


def pooled_scores(groups, value):
    """The stated rule: per (node, mode) group the median m of value(step) (None
    where a step has none); one scale s for the job, over every node and mode,
    from every |value - m|, then again from those at most REWEIGHT_CUT x the
    first s (if MIN_POOL remain); a step's score (value - m) / s, 0 without a
    value, a median or a scale."""
    centers, raw = {}, []
    for (node, mode), members in groups.items():
        values = sorted(v for v in (value(s) for s in members) if v is not None)
        centers[(node, mode)] = quantile(values, 0.5) if len(values) >= MIN_GROUP else None
        if centers[(node, mode)] is not None:
            raw += [abs(v - centers[(node, mode)]) for v in values]
    scale = scale_of([d if d >= RESOLUTION else 0.0 for d in raw])
    if scale is not None:
        kept = [d if d >= RESOLUTION else 0.0 for d in raw if d <= REWEIGHT_CUT * scale]
        if len(kept) >= MIN_POOL:
            scale = scale_of(kept)
    scores = {}
    for (node, mode), members in groups.items():
        for s in members:
            v, m = value(s), centers[(node, mode)]
            scores[(node, mode, s["step"])] = 0.0 if v is None or m is None or scale is None else (v - m) / scale
    return scores


def self_times(stats, profiler):
    """{(file, line, function): self time} from `smprof stats --json`."""
    out = {}
    if profiler == "cprofile":
        for f in stats["functions"]:
            key = (f["file"], f["line"], f["function"])
            out[key] = out.get(key, 0.0) + f["tottime"]
        return out
    stack = list(stats["tree"])
    while stack:
        node = stack.pop()
        key = (node["file"], node["line"], node["function"])
        out[key] = out.get(key, 0.0) + node["self_time"]
        stack.extend(node.get("children", []))
    return out


def step_selection(step):
    """The intervals whose start label is `step` (global mode, PyTorch layout)."""
    return ["--step", str(step), "--end-step", str(step + 1), "--end-phase", "stepstart", "--mode", "global"]


def load(job):
    with open(os.path.join(job, "corpus-manifest.json"), encoding="utf-8") as fh:
        return json.load(fh)


def check_planted(tap, name, job, manifest):
    rc, got, out, err, p = smprof_json("outliers", job, "--json")
    if not tap.check(p, "%s: outliers --json runs" % name):
        return
    flagged = {(o["node_id"], o["mode"], o["step"]) for o in got["outliers"]}
    stragglers = {(o["node_id"], o["mode"], o["step"]) for o in got["stragglers"]}
    expected, expected_stragglers = set(), set()
    for planted in manifest["planted_outliers"]:
        for node in planted["nodes"]:
            expected.add((node, planted["mode"], planted["step"]))
            if planted["type"] == "straggler":
                expected_stragglers.add((node, planted["mode"], planted["step"]))
    tap.ok(len(manifest["planted_outliers"]) >= 2 and expected_stragglers,
           "%s: the manifest plants a slow step and a straggler" % name)

    missed = sorted((expected - expected_stragglers) - flagged)
    tap.check(["missed planted slow step %s" % (m,) for m in missed],
              "%s: every planted slow step is an outlier on its nodes (%d)" % (name, len(expected - expected_stragglers)))
    missed = sorted(expected_stragglers - stragglers)
    tap.check(["missed straggler %s" % (m,) for m in missed],
              "%s: every planted straggler is found (%d)" % (name, len(expected_stragglers)))

    extra = sorted(flagged - expected)
    extra_stragglers = sorted(stragglers - expected_stragglers)
    tap.diag(["%s: outliers not planted: %s" % (name, extra),
              "%s: stragglers not planted: %s" % (name, extra_stragglers)])
    for node in manifest["nodes"]:
        node_id = node if isinstance(node, str) else node.get("node_id", node.get("id"))
        n_extra = sum(1 for e in extra if e[0] == node_id)
        n_extra_stragglers = sum(1 for e in extra_stragglers if e[0] == node_id)
        tap.ok(n_extra <= MAX_EXTRA and n_extra_stragglers <= MAX_EXTRA,
               "%s: node %s: at most %d outliers and %d stragglers not planted" % (name, node_id, MAX_EXTRA, MAX_EXTRA),
               "%d outliers, %d stragglers not planted" % (n_extra, n_extra_stragglers))

    # The text form names the same steps and states the rule.
    rc, text, err = smprof("outliers", job)
    p = [] if rc == 0 else ["exit status %d: %s" % (rc, err)]
    if "1.4826" not in text or "ln t" not in text or "> 5," not in text:
        p.append("the rule is not stated: %r" % text[-400:])
    for node, mode, step in expected:
        if not any(line.split()[:3] == [node, mode, str(step)] for line in text.splitlines()):
            p.append("%s %s %s not listed" % (node, mode, step))
    tap.check(p, "%s: outliers (text) lists the planted steps and states the rule" % name)


def check_rule(tap, name, job):
    """Scores, medians and flags recomputed from the per-step totals: ln(time)
    against the node's median at the mode, over the mode's scale pooled over the
    nodes (a step of no time has no score)."""
    rc, got, out, err, p = smprof_json("steps", job, "--json")
    if not tap.check(p, "%s: steps --json runs" % name):
        return None
    steps = got["steps"]
    groups = {}
    for s in steps:
        groups.setdefault((s["node_id"], s["mode"]), []).append(s)
    scores = pooled_scores(groups, lambda s: math.log(s["total_time"]) if s["total_time"] > 0 else None)
    for (node, mode), members in groups.items():
        med = quantile(sorted(s["total_time"] for s in members), 0.5)
        lower_median = sorted(s["total_time"] for s in members)[(len(members) - 1) // 2]
        for s in members:
            score = scores[(node, mode, s["step"])]
            if not close(s["score"], score, 1e-9, 1e-9) or s["outlier"] != (score > THRESHOLD):
                p.append("%s %s: score %r outlier %r, expected %r" % (node, s["step"], s["score"], s["outlier"], score))
            if not close(s["median_time"], med):
                p.append("%s %s: median %r, expected %r" % (node, s["step"], s["median_time"], med))
            ms = s["median_step"]
            twin = [t for t in members if t["step"] == ms["step"]]
            if ms["node_id"] != node or ms["mode"] != mode or not twin or twin[0]["total_time"] != lower_median:
                p.append("%s %s: median step %r is not the lower median step" % (node, s["step"], ms))
    # Stragglers: log of the time over the other nodes' median, by the same rule.
    by_step = {}
    for s in steps:
        by_step.setdefault((s["mode"], s["step"]), []).append(s)
    ratios = {}
    for (node, mode), members in groups.items():
        for s in members:
            others = sorted(t["total_time"] for t in by_step[(mode, s["step"])]
                            if t["node_id"] != node and not t["partial"])
            if s["partial"] or not others:
                continue
            om = quantile(others, 0.5)
            if not close(s["others_median"], om):
                p.append("%s %s: others' median %r, expected %r" % (node, s["step"], s["others_median"], om))
            if om > 0 and s["total_time"] > 0:
                ratios[(node, mode, s["step"])] = math.log(s["total_time"] / om)
    straggler_scores = pooled_scores(groups, lambda s: ratios.get((s["node_id"], s["mode"], s["step"])))
    for (node, mode), members in groups.items():
        for s in members:
            k = (node, mode, s["step"])
            if k not in ratios:
                if s["straggler"]:
                    p.append("%s %s: a straggler without a ratio" % (node, s["step"]))
                continue
            score = straggler_scores[k]
            if not close(s["straggler_score"], score, 1e-9, 1e-9) or s["straggler"] != (score > THRESHOLD):
                p.append("%s %s: straggler score %r, expected %r" % (node, s["step"], s["straggler_score"], score))
    tap.check(p, "%s: scores, medians, median steps and stragglers follow the stated rule" % name)
    return got


def check_totals(tap, name, job, manifest, steps_all):
    """(b) per-step totals add up to `smprof stats` of the same selection."""
    p = []
    nodes = sorted({s["node_id"] for s in steps_all["steps"]})
    for node in nodes:
        n = sum(1 for s in steps_all["steps"] if s["node_id"] == node)
        if n != manifest["steps"]:
            p.append("%s: %d steps, the manifest says %d" % (node, n, manifest["steps"]))
    tap.check(p, "%s: one step per profiled step and node (%d)" % (name, manifest["steps"]))

    for selection, label in ((["--all"], "--all"), (["--between-modes", "global", "global"], "--between-modes global global")):
        for node in ["all"] + nodes:
            args = ["--node", node] + selection
            rc, st, out, err, p = smprof_json("stats", job, *args, "--json")
            rc, sp, out, err, p2 = smprof_json("steps", job, *args, "--json")
            p += p2
            if not p:
                summed = sum(s["total_time"] for s in sp["steps"]) + sp["unassigned_time"]
                if not close(summed, st["total_time"]):
                    p.append("steps + unassigned = %r, stats total = %r" % (summed, st["total_time"]))
                if not close(sp["total_time"] + sp["unassigned_time"], st["total_time"]):
                    p.append("steps' total_time %r" % sp["total_time"])
                if label != "--all" and sp["unassigned_intervals"] != 0:
                    p.append("%d intervals outside steps" % sp["unassigned_intervals"])
                if label == "--all" and sp["unassigned_intervals"] == 0:
                    p.append("--all selects the pre-step-zero interval, none is unassigned")
            tap.check(p, "%s: steps %s --node %s add up to stats' total_time" % (name, label, node))


def check_functions(tap, name, job, profiler, steps_all):
    """(c) distributions against `smprof stats --json` step by step; (d) the matrix."""
    rc, got, out, err, p = smprof_json("steps", job, "--functions", "--limit", "25", "--json")
    if not tap.check(p, "%s: steps --functions --json runs" % name):
        return
    steps = got["steps"]
    per_step = []
    for s in steps:
        rc, st, out, err, p2 = smprof_json("stats", job, "--node", s["node_id"], *step_selection(s["step"]), "--json")
        if p2:
            p += p2
            per_step.append({})
            continue
        if len(st["intervals"]) != s["intervals"]:
            p.append("%s step %s: stats sums %d intervals, steps %d" % (s["node_id"], s["step"], len(st["intervals"]), s["intervals"]))
        if not close(st["total_time"], s["total_time"]):
            p.append("%s step %s: total %r vs stats %r" % (s["node_id"], s["step"], s["total_time"], st["total_time"]))
        per_step.append(self_times(st, profiler))
    tap.check(p, "%s: each step's total equals smprof stats of that step alone (%d steps)" % (name, len(steps)))

    p = []
    if len(got["functions"]) != 25:
        p.append("--limit 25 gave %d functions" % len(got["functions"]))
    for f in got["functions"]:
        key = (f["file"], f["line"], f["function"])
        series = [t.get(key, 0.0) for t in per_step]
        ordered = sorted(series)
        expected = {
            "count": sum(1 for t in per_step if key in t),
            "min": ordered[0], "median": quantile(ordered, 0.5), "p95": quantile(ordered, 0.95),
            "max": ordered[-1], "total": sum(series),
        }
        for field, value in expected.items():
            if not close(f[field], value, 1e-9, 1e-12):
                p.append("%s: %s %r, expected %r" % (key[2], field, f[field], value))
        if len(f["series"]) != len(series) or not all(close(a, b, 1e-9, 1e-12) for a, b in zip(f["series"], series)):
            p.append("%s: series differs" % key[2])
    totals = [f["total"] for f in got["functions"]]
    if totals != sorted(totals, reverse=True):
        p.append("functions are not by decreasing total")
    tap.check(p, "%s: count/min/median/p95/max/series of 25 functions match per-step smprof stats" % name)

    # (d) the node x function matrix: per-node stats of the step intervals over the node's steps.
    p = []
    matrix = got["matrix"]
    if len(matrix["functions"]) < matrix["top_n"]:
        p.append("%d matrix columns, fewer than top_n" % len(matrix["functions"]))
    rc, sel, out, err, p2 = smprof_json("steps", job, "--between-modes", "global", "global", "--functions", "--json")
    p += p2
    if not p2 and sel["matrix"] != matrix:
        p.append("the matrix of --between-modes global global differs from --all's")
    for row in matrix["nodes"]:
        rc, st, out, err, p2 = smprof_json("stats", job, "--node", row["node_id"], "--between-modes", "global", "global", "--json")
        p += p2
        if p2:
            continue
        times = self_times(st, profiler)
        n_steps = sum(1 for s in steps if s["node_id"] == row["node_id"])
        if row["steps"] != n_steps:
            p.append("%s: %d steps in the matrix, %d in steps" % (row["node_id"], row["steps"], n_steps))
        for column, value in zip(matrix["functions"], row["time_per_step"]):
            key = (column["file"], column["line"], column["function"])
            if not close(value, times.get(key, 0.0) / n_steps, 1e-9, 1e-12):
                p.append("%s %s: %r, stats/steps = %r" % (row["node_id"], key[2], value, times.get(key, 0.0) / n_steps))
    tap.check(p, "%s: node x function matrix = per-node stats / step count" % name)


def check_mad_zero(tap, tmp):
    """Steps made identical (MAD = 0): no outlier; then the planted slow step's
    files (from the manifest) put in one of them: that step alone is flagged."""
    job = os.path.join(tmp, "mad0")
    shutil.copytree(os.path.join(DATA, "corpus-outliers-cprofile"), job)
    manifest = load(job)
    node = manifest["nodes"][0]
    slow_step = next(p["step"] for p in manifest["planted_outliers"] if p["type"] == "slow-step")
    planted = {p["step"] for p in manifest["planted_outliers"]}
    normal = [k for k in range(2, manifest["steps"] - 1) if k not in planted]
    model, target_step = normal[0], normal[1]
    node_dir = os.path.join(job, "framework", "pytorch", "cprofile", node)
    names = sorted(os.listdir(node_dir))
    first = {n.split("_")[0].split("-")[2]: n for n in names if n.startswith("global-%d-" % model)}
    steps = [n for n in names if n.startswith("global-")]
    for n in steps:
        kind = n.split("_")[0].split("-")[2]          # stepstart or forwardpassend
        if n != first[kind]:
            shutil.copyfile(os.path.join(node_dir, first[kind], "python_stats"),
                            os.path.join(node_dir, n, "python_stats"))
    rc, got, out, err, p = smprof_json("outliers", job, "--node", node, "--json")
    if not p and got["outliers"]:
        p.append("identical steps flagged: %r" % got["outliers"])
    tap.check(p, "MAD = 0, every step alike: no outlier")

    # the slow step's files were overwritten above: take them from the corpus
    source_dir = os.path.join(DATA, "corpus-outliers-cprofile", "framework", "pytorch", "cprofile", node)
    slow = {n.split("_")[0].split("-")[2]: n for n in names if n.startswith("global-%d-" % slow_step)}
    target = [n for n in steps if n.startswith("global-%d-" % target_step) and "stepstart" in n.split("_")[0]][0]
    shutil.copyfile(os.path.join(source_dir, slow["forwardpassend"], "python_stats"),
                    os.path.join(node_dir, target, "python_stats"))
    rc, got, out, err, p = smprof_json("outliers", job, "--node", node, "--json")
    if not p:
        flagged = [(o["step"], o["score"]) for o in got["outliers"]]
        if [s for s, _ in flagged] != [target_step]:
            p.append("flagged %r, expected step %d alone" % (flagged, target_step))
        elif not (flagged[0][1] > THRESHOLD and flagged[0][1] < 1e300):
            p.append("score %r" % flagged[0][1])
    tap.check(p, "MAD = 0, one slow step: flagged with a finite score (mean absolute deviation)")


def check_coarse_timer(tap):
    """A real TensorFlow job whose cProfile timer ticks every 10 ms: its step
    times are 0.02, 0.029999999, 0.030000001, 0.04 s... Jitter of 1e-9 s is
    no deviation, so one tick's difference scores a few units, not millions."""
    job = os.path.join(DATA, "real-smdebug", "tf-cprofile")
    rc, got, out, err, p = smprof_json("steps", job, "--json")
    if not p:
        times = sorted({round(s["total_time"], 6) for s in got["steps"]})
        if not all(abs(t * 100 - round(t * 100)) < 1e-4 for t in times):
            p.append("the job's step times are not on a 10 ms grid: %r" % times)
        wild = [(s["node_id"], s["mode"], s["step"], s["score"]) for s in got["steps"] if abs(s["score"]) > 100]
        if wild:
            p.append("%d steps score beyond 100, e.g. %r" % (len(wild), wild[:3]))
        flagged = [(s["node_id"], s["mode"], s["step"]) for s in got["steps"] if s["outlier"]]
        if flagged:
            p.append("one 10 ms tick flagged as an outlier: %r" % flagged)
    tap.check(p, "tf-cprofile (10 ms timer): timer jitter is no deviation, no step flagged")
    check_rule(tap, "tf-cprofile", job)


def check_usage(tap):
    job = os.path.join(DATA, "corpus-outliers-cprofile")
    for args, needle in ((["stats", job, "--all", "--functions"], "--functions"),
                         (["outliers", job, "--training-phase"], "--training-phase"),
                         (["steps", job, "--sort", "tottime"], "--sort")):
        rc, out, err = smprof(*args)
        tap.ok(rc == 2 and needle in err and not out.strip(), "usage error: %s" % cmdline(args),
               "exit %d, stderr %r" % (rc, err[:300]))
    rc, out, err = smprof("outliers", job, "--node", "no-such-node")
    tap.ok(rc == 1 and "no-such-node" in err, "outliers on an unknown node: exit 1 naming it", "exit %d %r" % (rc, err))
    rc, out, err = smprof("steps", job, "--pre-step-zero")
    tap.ok(rc == 1 and err.strip() and not out.strip(), "steps of a selection with no step: exit 1 with a message",
           "exit %d %r" % (rc, err))
    rc, out, err = smprof("--help")
    tap.ok(rc == 0 and "smprof steps" in out and "smprof outliers" in out, "--help lists steps and outliers")


def main(tap):
    for name, profiler in CORPORA.items():
        job = os.path.join(DATA, name)
        manifest = load(job)
        check_planted(tap, name, job, manifest)
        steps_all = check_rule(tap, name, job)
        if steps_all is None:
            continue
        check_totals(tap, name, job, manifest, steps_all)
        check_functions(tap, name, job, profiler, steps_all)
    with tempfile.TemporaryDirectory(prefix="smprof-steps-") as tmp:
        check_mad_zero(tap, tmp)
    check_coarse_timer(tap)
    check_usage(tap)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
