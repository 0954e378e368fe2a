#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/make-corpus.py: its files are smdebug's, smprof and the reference read
them alike, its planted outliers are in the manifest and found.

1. The rewriting is faithful: every real cProfile file re-emitted with factor 1
   gives its bytes back (the marshal back-references of CPython's dump), every
   real Pyinstrument JSON rendered again gives its text back.
2. Small corpora of each shape (PyTorch and Keras, both profilers, eval blocks,
   pid node ids, no hook.close()), made twice with 1 and 2 worker processes
   and different PYTHONHASHSEEDs:
   - the same bytes both times;
   - every folder name parses as smdebug parses it, the chunk shapes follow
     smdebug-format.md §2.6, files and bytes are the manifest's;
   - cProfile files: re-emitted with factor 1 they stay the same (the sharing is
     CPython's), the call graph is consistent; Pyinstrument files: the 3.4.2
     renderer's form, parents cover their children, times inside the folder's;
   - `smprof list` sees every interval; `smprof stats --all` and the reference
     (tools/smdebug-aggregate.py) give the same totals on every node and on
     smdebug's "any" node, which is the manifest's node_any; a step range and a
     time range too;
   - each planted outlier: its hotspot holds the planted seconds, and
     `smprof outliers --json` flags every planted node and step, and names the
     straggler.
3. The committed corpora (tests/data/corpus-outliers-*) are what their
   manifests' commands make: regenerated and compared file by file.
"""

import glob
import json
import marshal
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cli"))
import taplib  # noqa: E402
from taplib import Tap, smprof_json  # noqa: E402

SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(SOURCE_ROOT, "tools")
sys.path.insert(0, TOOLS)
from smtools import cprofile_stats, intervals, pyinstrument_session  # noqa: E402

MAKE_CORPUS = os.path.join(TOOLS, "make-corpus.py")
AGGREGATE = os.path.join(TOOLS, "smdebug-aggregate.py")

# name: make-corpus.py arguments
SHAPES = {
    "pt-cprofile": ["--nodes", "4", "--steps", "40", "--seed", "3"],
    "pt-both-eval-noclose": ["--nodes", "3", "--steps", "24", "--profiler", "both", "--eval-every", "6",
                             "--eval-steps", "3", "--no-close", "--seed", "4", "--ranks-per-host", "2"],
    "tf-both-eval-pid": ["--framework", "tensorflow", "--nodes", "3", "--steps", "30", "--profiler", "both",
                         "--eval-every", "9", "--pid-node-ids", "--seed", "5"],
    "tf-pyinstrument": ["--framework", "tensorflow", "--nodes", "2", "--steps", "20", "--profiler", "pyinstrument",
                        "--seed", "6", "--slow-steps", "2"],
}


def run(argv, timeout=600, env=None):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def make(out, args, jobs):
    """Each run with its own string hashing, which must not matter either."""
    started = time.perf_counter()
    env = dict(os.environ, PYTHONHASHSEED=str(jobs * 7))
    rc, out_text, err = run([sys.executable, MAKE_CORPUS, out, "--jobs", str(jobs)] + args, env=env)
    return rc, err, time.perf_counter() - started


def tree_files(root):
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = path
    return found


def same_trees(a, b, skip=("corpus-manifest.json",)):
    fa, fb = tree_files(a), tree_files(b)
    problems = []
    if set(fa) != set(fb):
        problems.append("files differ: %r" % sorted(set(fa) ^ set(fb))[:5])
    for rel in sorted(set(fa) & set(fb)):
        if rel in skip:
            continue
        with open(fa[rel], "rb") as x, open(fb[rel], "rb") as y:
            if x.read() != y.read():
                problems.append("%s differs" % rel)
                if len(problems) > 5:
                    break
    return problems


def manifest_without_out(path):
    manifest = taplib.read_json(os.path.join(path, "corpus-manifest.json"))
    manifest["command"] = manifest["command"][:1] + manifest["command"][2:]
    return manifest


# ---------------------------------------------------------------- 1. templates

def check_templates(tap):
    problems, n = [], 0
    for path in sorted(glob.glob(os.path.join(taplib.REAL, "*-cprofile", "framework", "*", "cprofile", "*", "*",
                                              "python_stats"))):
        with open(path, "rb") as fh:
            data = fh.read()
        n += 1
        if cprofile_stats.emit(data, 1.0)[0] != data:
            problems.append("%s: re-emitted with factor 1, the bytes differ" % os.path.relpath(path, taplib.REAL))
    tap.ok(not problems and n >= 150, "every real cProfile file re-emitted with factor 1 gives its bytes (%d)" % n,
           problems)
    problems, n = [], 0
    for path in sorted(glob.glob(os.path.join(taplib.REAL, "*-pyinstrument", "framework", "*", "pyinstrument", "*",
                                              "*", "python_stats.json"))):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        n += 1
        if pyinstrument_session.render(json.loads(text)) != text:
            problems.append("%s: rendered again, the text differs" % os.path.relpath(path, taplib.REAL))
    tap.ok(not problems and n >= 20, "every real Pyinstrument JSON rendered again gives its text (%d)" % n, problems)


# ---------------------------------------------------------------- 2. corpora

PT_PHASES = {("stepstart", "forwardpassend"), ("forwardpassend", "stepstart"), ("start", "stepstart"),
             ("end", "end"), ("forwardpassend", "end")}
TF_PHASES = {("stepstart", "stepend"), ("stepend", "stepstart"), ("stepend", "stepend"), ("start", "stepstart"),
             ("end", "end")}


def check_layout(manifest, root):
    """Folder names, shapes, counts, file names and bytes against the manifest."""
    problems = []
    framework = manifest["framework"]
    phases = PT_PHASES if framework == "pytorch" else TF_PHASES
    files = size = 0
    firsts = []  # (earliest start, node) per node and profiler: smdebug's record order
    for profiler in manifest["profilers"]:
        base = os.path.join(root, "framework", framework, profiler)
        if sorted(os.listdir(base)) != sorted(manifest["nodes"]):
            problems.append("%s: node folders %r, manifest %r" % (profiler, sorted(os.listdir(base)),
                                                                    manifest["nodes"]))
        for node in manifest["nodes"]:
            if not re.fullmatch(r"\d+-algo-\d+", node):
                problems.append("node id %r is not <rank or pid>-algo-<host>" % node)
            names = os.listdir(os.path.join(base, node))
            if len(names) != manifest["intervals_per_node"]:
                problems.append("%s/%s: %d intervals, manifest %d" % (profiler, node, len(names),
                                                                      manifest["intervals_per_node"]))
            parsed = []
            for name in names:
                try:
                    iv = intervals.parse(name)
                except ValueError as e:
                    problems.append("%s: %s" % (name, e))
                    continue
                parsed.append(iv)
                if (iv.start.phase, iv.end.phase) not in phases:
                    problems.append("%s: a %s→%s chunk is not a %s shape" % (name, iv.start.phase, iv.end.phase,
                                                                             framework))
                if iv.end.time_us < iv.start.time_us or not name.count(".") == 2:
                    problems.append("%s: times" % name)
                for file_name in os.listdir(os.path.join(base, node, name)):
                    files += 1
                    size += os.path.getsize(os.path.join(base, node, name, file_name))
            parsed.sort(key=lambda iv: iv.start.time_us)
            if parsed:
                firsts.append((parsed[0].start.time_us, node))
            for a, b in zip(parsed, parsed[1:]):
                if b.start.time_us <= a.end.time_us:
                    problems.append("%s: %s overlaps the next chunk" % (node, a))
                    break
            starts = [iv for iv in parsed if iv.start.phase == "start"]
            finals = [iv for iv in parsed if iv.end.phase == "end"]
            if len(starts) != 1 or parsed[0] is not starts[0] or len(finals) != 1 or parsed[-1] is not finals[0]:
                problems.append("%s: not one pre-step-zero chunk first and one finalisation chunk last" % node)
            elif manifest["hook_close"] != (finals[0].start.mode == "prestepzero"):
                problems.append("%s: finalisation chunk %r, hook_close %r" % (node, finals[0],
                                                                            manifest["hook_close"]))
    if firsts and (min(firsts) != (manifest["first_interval_start_us"], manifest["node_any"])):
        problems.append("the first record is %r; the manifest says %r on %s" % (
            min(firsts), manifest["first_interval_start_us"], manifest["node_any"]))
    if files != manifest["files"] or size != manifest["bytes"]:
        problems.append("%d files, %d bytes; the manifest says %d, %d" % (files, size, manifest["files"],
                                                                           manifest["bytes"]))
    return problems


def check_cprofile_files(manifest, root):
    problems = []
    for path in sorted(glob.glob(os.path.join(root, "framework", "*", "cprofile", "*", "*", "python_stats"))):
        with open(path, "rb") as fh:
            data = fh.read()
        if cprofile_stats.emit(data, 1.0)[0] != data:
            problems.append("%s: not in the layout of CPython's dump" % os.path.relpath(path, root))
        for key, (cc, nc, tt, ct, callers) in marshal.loads(data).items():
            if tt < 0 or ct < tt * (1 - 1e-12) - 1e-15 or cc > nc:
                problems.append("%s %r: cc %r nc %r tt %r ct %r" % (os.path.basename(os.path.dirname(path)), key,
                                                                   cc, nc, tt, ct))
            for caller, (c_nc, c_cc, c_tt, c_ct) in callers.items():
                if c_tt > tt * (1 + 1e-12) + 1e-15 or c_ct > ct * (1 + 1e-12) + 1e-15:
                    problems.append("%r called by %r: edge %r beyond the function's %r" % (key, caller,
                                                                                         (c_tt, c_ct), (tt, ct)))
        if len(problems) > 10:
            break
    return problems


def frame_problems(frame, path):
    children = frame["children"]
    own = round(frame["time"] * 1e6) - sum(round(c["time"] * 1e6) for c in children)
    p = [] if own >= 0 else ["%s/%s: children exceed the frame by %d µs" % (path, frame["function"], -own)]
    for child in children:
        p += frame_problems(child, path + "/" + frame["function"])
    return p


def check_pyinstrument_files(manifest, root):
    problems = []
    failures = set(manifest["pyinstrument_failure_pairs"])
    empties = set(manifest["pyinstrument_empty_sessions"])
    for path in sorted(glob.glob(os.path.join(root, "framework", "*", "pyinstrument", "*", "*",
                                              "python_stats.json"))):
        folder = os.path.dirname(path)
        rel = os.path.relpath(folder, root)
        iv = intervals.parse(os.path.basename(folder))
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        html = os.path.exists(os.path.join(folder, "python_stats.html"))
        if html != manifest["html"]:
            problems.append("%s: python_stats.html %s" % (rel, "present" if html else "missing"))
        if rel in failures:
            if text != pyinstrument_session.FAILURE_JSON:
                problems.append("%s: a failure pair is not smdebug's stand-in" % rel)
            continue
        session = json.loads(text)
        if pyinstrument_session.render(session) != text:
            problems.append("%s: not in pyinstrument 3.4.2's JSON form" % rel)
        if not iv.start.time_us / 1e6 <= session["start_time"] <= iv.end.time_us / 1e6:
            problems.append("%s: start_time %r outside the interval" % (rel, session["start_time"]))
        if session["duration"] > (iv.end.time_us - iv.start.time_us) / 1e6 + 1e-6:
            problems.append("%s: duration %r longer than the interval" % (rel, session["duration"]))
        if (session["root_frame"] is None) != (rel in empties):
            problems.append("%s: root_frame %s, the manifest's empty sessions %s it" % (
                rel, "null" if session["root_frame"] is None else "set",
                "list" if rel in empties else "do not list"))
        if session["root_frame"] is not None:
            problems += frame_problems(session["root_frame"], rel)
        if len(problems) > 10:
            break
    return problems


def aggregate_json(*args):
    rc, out, err = run([sys.executable, AGGREGATE] + [str(a) for a in args] + ["--json"])
    if rc not in (0, 1):
        return None, ["reference: exit %d %s" % (rc, err.strip()[:300])]
    return json.loads(out), []


def same_totals(ours, theirs, what):
    if theirs is None or ours is None:
        return [] if theirs is None and ours is None else ["%s: smprof %r, reference %r" % (
            what, ours and ours.get("total_time"), theirs and theirs.get("total_tt"))]
    p = []
    if ours["total_time"] != theirs["total_tt"] or ours["total_calls"] != theirs["total_calls"] or \
            ours["primitive_calls"] != theirs["prim_calls"] or len(ours["functions"]) != len(theirs["functions"]):
        p.append("%s: smprof %r s / %r calls / %d functions, reference %r s / %r calls / %d functions" % (
            what, ours["total_time"], ours["total_calls"], len(ours["functions"]), theirs["total_tt"],
            theirs["total_calls"], len(theirs["functions"])))
    if [taplib.interval_of_path(f) for f in theirs["files"]] != ours["intervals"]:
        p.append("%s: intervals differ (or their order)" % what)
    return p


def check_readers(tap, name, manifest, root):
    listings = {}
    for profiler in manifest["profilers"]:
        rc, listing, _, _, p = smprof_json("list", root, "--profiler", profiler, "--json")
        if not p and len(listing) != manifest["intervals"][profiler]:
            p.append("smprof lists %d intervals, the manifest %d" % (len(listing), manifest["intervals"][profiler]))
        listings[profiler] = listing or []
        tap.check(p, "%s: smprof list sees every %s interval (%d)" % (name, profiler, manifest["intervals"][profiler]))
    if "cprofile" not in manifest["profilers"]:
        return
    profiler_dir = os.path.join(root, "framework", manifest["framework"], "cprofile")
    mode = manifest["planted_outliers"][0]["mode"]
    # a window from an interval's start a third into the last node's job to
    # the end of one halfway
    node = manifest["nodes"][-1]
    mine = sorted((r for r in listings["cprofile"] if r["node_id"] == node),
                  key=lambda r: r["start_time_since_epoch_in_micros"])
    window = [repr(mine[len(mine) // 3]["start_time_since_epoch_in_micros"] / 1e6),
              repr(mine[len(mine) // 2]["end_time_since_epoch_in_micros"] / 1e6)] if mine else ["0", "0"]
    for node, selection, ref_selection in (
            ("all", ["--all"], ["--all"]),
            ("any", ["--all"], ["--all"]),
            ("any", ["--step", "3", "--end-step", "9", "--mode", mode], ["--step", "3", "9", "--mode", mode]),
            (node, ["--time"] + window, ["--time"] + window)):
        rc, ours, _, _, p = smprof_json("stats", root, "--profiler", "cprofile", "--node", node, *selection, "--json")
        theirs, p2 = aggregate_json(profiler_dir, "--node", node, *ref_selection)
        p += p2
        if not p:
            p = same_totals(ours, theirs, "stats")
            if node == "any" and ours["node_ids"] != [manifest["node_any"]]:
                p.append("smprof's any node %r, the manifest's %r" % (ours["node_ids"], manifest["node_any"]))
            if node == "any" and {f.split("/")[3] for f in theirs["files"]} != {manifest["node_any"]}:
                p.append("the reference's any node is not the manifest's %r" % manifest["node_any"])
        tap.check(p, "%s: smprof stats and the reference agree, --node %s %s" % (name, node, " ".join(selection)))


def check_planted(tap, name, manifest, root):
    planted = manifest["planted_outliers"]
    tap.ok(len(planted) >= 2 and {p["type"] for p in planted} == {"slow-step", "straggler"},
           "%s: the manifest plants slow steps and a straggler" % name, planted)
    for profiler in manifest["profilers"]:
        rc, got, _, _, p = smprof_json("outliers", root, "--profiler", profiler, "--json")
        if p:
            tap.check(p, "%s: smprof outliers --profiler %s" % (name, profiler))
            continue
        flagged = {(o["node_id"], o["mode"], o["step"]) for o in got["outliers"]}
        stragglers = {(o["node_id"], o["mode"], o["step"]) for o in got["stragglers"]}
        for outlier in planted:
            what = "%s %s: planted %s at %s step %d (x%.3f, +%.3f s)" % (
                name, profiler, outlier["type"], outlier["mode"], outlier["step"], outlier["factor"],
                outlier["extra_seconds"])
            p = []
            for node in outlier["nodes"]:
                p += hotspot_problems(root, profiler, outlier, node)
                if (node, outlier["mode"], outlier["step"]) not in flagged:
                    p.append("%s: not flagged by smprof outliers" % node)
                if outlier["type"] == "straggler" and (node, outlier["mode"], outlier["step"]) not in stragglers:
                    p += straggler_not_found(root, profiler, outlier, node)
            tap.check(p, what)


def straggler_not_found(root, profiler, outlier, node):
    """smprof compares a node's step with the other nodes' only when none is
    partial (an interval without data): Keras between-batch chunks usually
    have no Pyinstrument sample, as in the real job."""
    rc, steps, _, _, p = smprof_json("steps", root, "--profiler", profiler, "--node", "all", "--json")
    if p:
        return p
    same = [s for s in steps["steps"] if s["mode"] == outlier["mode"] and s["step"] == outlier["step"]]
    if any(s["partial"] for s in same):
        return []
    return ["%s: not named a straggler, although no node's step is partial" % node]


def hotspot_problems(root, profiler, outlier, node):
    spot = outlier["hotspots"][node]
    if profiler == "cprofile":
        with open(os.path.join(root, spot["cprofile_interval"], "python_stats"), "rb") as fh:
            stats = marshal.loads(fh.read())
        key = tuple(spot["cprofile_key"])
        if key not in stats:
            return ["%s: hotspot %r not in %s" % (node, key, spot["cprofile_interval"])]
        if cprofile_stats.display_name(key) != spot["cprofile_function"]:
            return ["%s: cprofile_function %r is not pstats' name of %r" % (node, spot["cprofile_function"], key)]
        if stats[key][2] < outlier["extra_seconds"]:
            return ["%s: hotspot self time %r below the %r s planted" % (node, stats[key][2],
                                                                         outlier["extra_seconds"])]
        return []
    with open(os.path.join(root, spot["pyinstrument_interval"], "python_stats.json"), encoding="utf-8") as fh:
        root_frame = json.load(fh)["root_frame"]
    stack, best = [root_frame], 0.0
    while stack:
        frame = stack.pop()
        if pyinstrument_session.frame_identity(frame) == spot["pyinstrument_frame"]:
            best = max(best, frame["time"] - sum(c["time"] for c in frame["children"]))
        stack.extend(frame["children"])
    if best < outlier["extra_seconds"] - 1e-6:
        return ["%s: hotspot frame %r has %r s of self time, below the %r s planted" % (
            node, spot["pyinstrument_frame"], best, outlier["extra_seconds"])]
    return []


def check_shapes(tap, tmp):
    for name, args in SHAPES.items():
        one, two = os.path.join(tmp, name + "-1"), os.path.join(tmp, name + "-2")
        rc1, err1, seconds = make(one, args, 1)
        rc2, err2, _ = make(two, args, 2)
        if not tap.ok(rc1 == 0 and rc2 == 0, "%s: make-corpus.py %s" % (name, " ".join(args)), [err1, err2]):
            continue
        tap.diag("%s: %.2f s with one process" % (name, seconds))
        p = same_trees(one, two)
        if manifest_without_out(one) != manifest_without_out(two):
            p.append("the manifests differ (beyond OUT)")
        tap.check(p, "%s: the same bytes with 1 and 2 worker processes (and other string hashes)" % name)
        manifest = taplib.read_json(os.path.join(one, "corpus-manifest.json"))
        tap.check(check_layout(manifest, one), "%s: names, shapes, counts and bytes as smdebug and the manifest"
                  % name)
        if "cprofile" in manifest["profilers"]:
            tap.check(check_cprofile_files(manifest, one),
                      "%s: cProfile files in CPython's dump layout, call graph consistent" % name)
        if "pyinstrument" in manifest["profilers"]:
            tap.check(check_pyinstrument_files(manifest, one),
                      "%s: Pyinstrument files in 3.4.2's form, trees and times consistent" % name)
        if name == "tf-both-eval-pid":
            tap.ok(not any(re.match(r"[0-2]-", n) for n in manifest["nodes"]), "%s: pid node ids" % name,
                   manifest["nodes"])
        check_readers(tap, name, manifest, one)
        check_planted(tap, name, manifest, one)
        shutil.rmtree(two)


def check_usage(tap, tmp):
    keep = os.path.join(tmp, "not-a-corpus")
    os.makedirs(keep)
    open(os.path.join(keep, "precious"), "w").close()
    rc, _, err = run([sys.executable, MAKE_CORPUS, keep, "--steps", "5", "--stragglers", "0", "--slow-steps", "0"])
    tap.ok(rc != 0 and "exists" in err and os.path.exists(os.path.join(keep, "precious")),
           "an existing OUT is left alone without --force", err)
    rc, _, err = run([sys.executable, MAKE_CORPUS, keep, "--force", "--steps", "5", "--stragglers", "0",
                      "--slow-steps", "0"])
    tap.ok(rc != 0 and "not a corpus" in err and os.path.exists(os.path.join(keep, "precious")),
           "--force does not replace a folder that holds no corpus", err)
    rc, _, err = run([sys.executable, MAKE_CORPUS, os.path.join(tmp, "few"), "--steps", "4"])
    tap.ok(rc == 2 and "--steps" in err, "too few steps for the planted outliers: a usage error", err)


# ---------------------------------------------------------------- 3. committed corpora

def check_committed(tap, tmp):
    for name in ("corpus-outliers-cprofile", "corpus-outliers-pyinstrument"):
        committed = os.path.join(taplib.DATA, name)
        command = taplib.read_json(os.path.join(committed, "corpus-manifest.json"))["command"]
        again = os.path.join(tmp, "again-" + name)
        rc, _, err = run([sys.executable, MAKE_CORPUS, again] + command[2:])
        p = [] if rc == 0 else ["exit %d: %s" % (rc, err)]
        if not p:
            p = same_trees(committed, again)
            if manifest_without_out(committed) != manifest_without_out(again):
                p.append("the manifests differ (beyond OUT)")
        tap.check(p, "%s: its manifest's command makes it again, byte for byte" % name)


def main(tap):
    check_templates(tap)
    with tempfile.TemporaryDirectory(prefix="smprof-make-corpus-") as tmp:
        check_shapes(tap, tmp)
        check_usage(tap, tmp)
        check_committed(tap, tmp)


if __name__ == "__main__":
    Tap().run_main(main)
