#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""One estimated call tree per selection, the same in every export, that adds up (issue 17 §1).

1. Hard cases, profiled here by CPython's own cProfile with a clock that only moves
   when the profiled code says so (`C[0] += n` runs inside the function, so it is
   that function's self time, exactly): a function that is both a root and a
   callee, direct recursion, a module-call dispatcher in mutual recursion with the
   modules' forward methods (PyTorch's `_call_impl`), even/odd mutual recursion,
   and two intervals whose caller edges disagree. The folded export is checked
   stack by stack against what the test works out for each case.
2. Random selections of every real job in tests/data: the folded, speedscope, SVG
   and syscap exports draw the same frames with the same times; the roots sum to
   `stats --json`'s total_time; each function's frames hold no more than its
   cumtime and, for cProfile, exactly its tottime.

Environment: SMPROF, SMPROF_TEST_DATA, SYSCAP_DUMP, SMPROF_EXPORT_TMP (as test_export).
"""

import collections
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import taplib  # noqa: E402
from taplib import DATA, cmdline, smprof  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"
UNATTRIBUTED = "(unattributed)"
US = 1e-6

# The profiled program: each interval calls its functions straight from the
# unprofiled frame that enabled the profiler, as smdebug's hooks do.
WORKLOAD = r'''
import cProfile, os, sys

C = [0]
def clock():
    return C[0]

def leaf(n):
    C[0] += n

# a root and a callee
def work(n):
    C[0] += n

def helper():
    C[0] += 5
    work(20)

# direct recursion
def f(k):
    C[0] += 1
    if k:
        f(k - 1)
    else:
        leaf(5)

# a dispatcher and the forwards it calls, as torch's Module._call_impl
def dispatch(forward):
    C[0] += 1
    forward()

def forward_top():
    C[0] += 2
    dispatch(forward_sub)
    dispatch(forward_sub)

def forward_sub():
    C[0] += 3
    leaf(4)

# even/odd
def even(n):
    C[0] += 1
    if n:
        odd(n - 1)
    else:
        leaf(2)

def odd(n):
    C[0] += 2
    if n:
        even(n - 1)
    else:
        leaf(2)

# callers that disagree from interval to interval
def c(n, deep):
    C[0] += n
    if deep:
        d(40)

def d(n):
    C[0] += n

def a():
    C[0] += 1
    c(10, False)
    c(10, False)

def b():
    C[0] += 1
    c(30, True)

JOBS = {
    "root-and-callee": [[(work, (30,)), (helper, ())]],
    "recursion": [[(f, (3,))]],
    "dispatch": [[(dispatch, (forward_top,))]],
    "even-odd": [[(even, (4,))]],
    "disagree": [[(a, ())], [(b, ())]],
}

def interval(out, job, step, calls):
    start = C[0] + 1000000 * (step + 1)
    prof = cProfile.Profile(clock, 1e-6)
    prof.enable()
    for fn, args in calls:
        fn(*args)
    prof.disable()
    end = start + 1000
    folder = os.path.join(out, job, "framework", "pytorch", "cprofile", "0-algo-1",
                          "train-%d-stepstart-%d.0_train-%d-forwardpassend-%d.0" % (step, start, step, end))
    os.makedirs(folder)
    prof.dump_stats(os.path.join(folder, "python_stats"))

for job, intervals in JOBS.items():
    for step, calls in enumerate(intervals):
        interval(sys.argv[1], job, step, calls)
'''

# What the folded export must say, in microseconds, for the cases the estimate
# gets exactly: the test's own reading of each program above.
EXACT = {
    "root-and-callee": {"work": 30, "helper": 5, "helper;work": 20},
    "recursion": {"f": 4, "f;leaf": 5},
    "dispatch": {"dispatch": 3, "dispatch;forward_top": 2, "dispatch;forward_sub": 6,
                 "dispatch;forward_sub;leaf": 8},
}


def export(tmp, source, sel, fmt, *extra):
    out = os.path.join(tmp, "out-%d.%s" % (random.getrandbits(48), fmt))
    args = ["export", source] + sel + ["--format", fmt, "-o", out] + list(extra)
    rc, _, err = smprof(*args)
    if rc != 0:
        return None, ["%s: exit %d: %s" % (cmdline(args), rc, err.strip()[:400])]
    return out, []


def stats_of(source, sel):
    rc, obj, _, _, p = taplib.smprof_json("stats", source, *sel, "--json")
    return obj, p


def folded_stacks(path):
    """{stack (tuple of labels): weight in µs}"""
    stacks = collections.Counter()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            frames, weight = line.rstrip("\n").rsplit(" ", 1)
            stacks[tuple(frames.split(";"))] += int(weight)
    return stacks


def short(stack):
    """'work (/tmp/x/workload.py:12)' -> 'work', for the hard cases."""
    return ";".join(re.sub(r" \(.*\)$", "", frame) for frame in stack)


def label(fn):
    if fn["file"] == "~" and fn["line"] == 0:
        name = fn["function"]
        return "{" + name[1:-1] + "}" if name.startswith("<") and name.endswith(">") else name
    return "%s (%s:%d)" % (fn["function"], fn["file"], fn["line"])


def inclusive_and_self(stacks):
    """Per frame label: the time of stacks it is on (once per stack), its own time."""
    inclusive, own = collections.Counter(), collections.Counter()
    for stack, weight in stacks.items():
        for frame in set(stack):
            inclusive[frame] += weight
        own[stack[-1]] += weight
    return inclusive, own


def rounding(stats, n_frames):
    """How far sums may stray: Pyinstrument writes each frame's time to the
    microsecond and a frame's self time is its time less its children's, so
    each frame may be off by one; cProfile's tree holds the stats' own floats."""
    return n_frames if stats["profiler"] == "pyinstrument" else 1e-3


def check_adds_up(stats, stacks, what):
    """The properties of section 1 on one export's stacks (exact weights, in µs)
    and the selection's stats."""
    p = []
    total_us = sum(stacks.values())
    if abs(total_us - stats["total_time"] / US) > 1 + rounding(stats, len(stacks)):
        p.append("%s: roots sum to %.3f µs, total_time is %r s" % (what, total_us, stats["total_time"]))
    inclusive, own = inclusive_and_self(stacks)
    for fn in stats.get("functions", []):     # cProfile's function table
        name = label(fn).replace(";", ",")
        if inclusive.get(name, 0) > fn["cumtime"] / US + 1e-3:
            p.append("%s: %s holds %.3f µs, cumtime %r s" % (what, name, inclusive[name], fn["cumtime"]))
        if abs(own.get(name, 0) - fn["tottime"] / US) > 1:
            p.append("%s: %s's frames hold %.3f µs of self time, tottime %r s" % (what, name, own.get(name, 0),
                                                                                 fn["tottime"]))
        if len(p) > 6:
            break
    return p


# ---------------------------------------------------------------- 1. hard cases

def hard_cases(tap, tmp):
    jobs = os.path.join(tmp, "hard")
    os.makedirs(jobs)
    script = os.path.join(tmp, "workload.py")
    with open(script, "w", encoding="utf-8") as fh:
        fh.write(WORKLOAD)
    r = subprocess.run([sys.executable, script, jobs], capture_output=True, text=True)
    if not tap.ok(r.returncode == 0, "cProfile wrote the hard cases' jobs", r.stderr[-2000:]):
        return

    for job in ["root-and-callee", "recursion", "dispatch", "even-odd", "disagree"]:
        source = os.path.join(jobs, job)
        sel = ["--all", "--node", "all"]
        stats, p = stats_of(source, sel)
        path, q = export(tmp, source, sel, "folded")
        p += q
        if p:
            tap.check(p, "%s: stats and folded export" % job)
            continue
        stacks = folded_stacks(path)
        got = {short(s): w for s, w in stacks.items()}
        p = check_adds_up(stats, stacks, job)

        if job in EXACT:
            if got != EXACT[job]:
                p.append("folded %r, expected %r" % (got, EXACT[job]))
        elif job == "even-odd":
            # cProfile cannot tell which odd frame called which even: only
            # the sums hold, and the outermost even is the one root.
            if {s.split(";")[0] for s in got} - {"even", UNATTRIBUTED}:
                p.append("roots other than even: %r" % got)
        elif job == "disagree":
            # The two intervals' callers are exact; below c, the estimate
            # splits c's callees in proportion to each caller's share of c's
            # time (what it cannot know: all of d ran under b).
            fns = {fn["function"]: fn for fn in stats["functions"]}
            c = fns["c"]
            edge = {e["function"]: e["cumtime"] for e in c["callers"]}
            want = {
                "a": 1, "b": 1,
                "a;c": edge["a"] * c["tottime"] / c["cumtime"] / US,
                "b;c": edge["b"] * c["tottime"] / c["cumtime"] / US,
                "a;c;d": edge["a"] * fns["d"]["cumtime"] / c["cumtime"] / US,
                "b;c;d": edge["b"] * fns["d"]["cumtime"] / c["cumtime"] / US,
            }
            if set(got) != set(want) or any(abs(got[k] - want[k]) > 1 for k in want):
                p.append("folded %r, expected about %r" % (got, want))
            for root, exact in (("a", 21), ("b", 71)):
                under = sum(w for k, w in got.items() if k.split(";")[0] == root)
                if under != exact:
                    p.append("%s's stacks hold %d µs, it ran %d µs" % (root, under, exact))
        tap.check(p, "%s: the folded tree is the one worked out here, and adds up" % job)


# ---------------------------------------------------------------- 2. real jobs

def svg_frames(path, total):
    """{stack of 'name (file)': inclusive time in µs} from the SVG's frame geometry."""
    root = ET.parse(path).getroot()
    frames = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "f"]
    stacks = {}
    out = collections.Counter()
    for i, g in enumerate(frames):
        parent = int(g.get("data-p"))
        name = "%s (%s)" % (g.get("data-n"), g.get("data-f"))
        stacks[i] = (stacks[parent] if parent >= 0 else ()) + (name,)
        out[stacks[i]] += float(g.get("data-w")) * total
    return out


FRAME_LABEL = re.compile(r"^(.*) \((.*):-?[0-9]+\)$")


def svg_name(frame):
    """A folded frame label as the SVG names the frame: 'name (file)', without
    the line; built-ins keep their label ('{built-in x} (~)')."""
    m = FRAME_LABEL.match(frame)
    if m:
        return "%s (%s)" % (m.group(1), m.group(2))
    return "%s (~)" % frame


def by_name_and_file(stacks):
    """Stacks as the SVG names frames, with every frame's inclusive time and
    the number of stacks under it."""
    out, under = collections.Counter(), collections.Counter()
    for stack, weight in stacks.items():
        names = tuple(svg_name(frame) for frame in stack)
        for depth in range(1, len(names) + 1):
            out[names[:depth]] += weight
            under[names[:depth]] += 1
    return out, under


def speedscope_stacks(path):
    doc = json.load(open(path, encoding="utf-8"))
    frames = doc["shared"]["frames"]
    first = doc["profiles"][0]
    out = collections.Counter()
    for sample, weight in zip(first["samples"], first["weights"]):
        names = []
        for i in sample:
            fr = frames[i]
            names.append(label({"function": fr["name"], "file": fr.get("file", "~"), "line": fr.get("line", 0)})
                         if fr.get("file") else fr["name"])
        out[tuple(n.replace(";", ",") for n in names)] += weight / US
    return out


def syscap_stacks(path):
    r = subprocess.run([os.environ["SYSCAP_DUMP"], path], capture_output=True, text=True)
    if r.returncode:
        return None, None
    lines = [line.split("\t") for line in r.stdout.splitlines()]
    jitmap = {line[1]: line[2] for line in lines if line[0] == "jitmap"}
    meta = dict(kv.split("=", 1) for line in lines if line[0] == "metadata" and line[1] == "smprof"
                for kv in line[2].split("\\n") if kv)
    out = collections.Counter()
    for line in lines:
        if line[0] == "sample":
            out[tuple(jitmap[a].replace(";", ",") for a in reversed(line[3].split(",")) if a)] += 1
    return out, int(meta.get("sample-period-us", 0))


def random_selection(rng, stats_all):
    """A selection smprof's options can say: a run of steps of one mode on one
    node or all, or a time window."""
    intervals = stats_all["intervals"]
    node = rng.choice(stats_all["node_ids"] + ["all"])
    if rng.random() < 0.5:
        starts = sorted(float(i.split("_")[0].split("-")[-1]) for i in intervals)
        ends = sorted(float(i.split("_")[1].split("-")[-1]) for i in intervals)
        a = rng.uniform(starts[0], ends[-1])
        b = rng.uniform(a, min(ends[-1], a + (ends[-1] - starts[0]) / 3))
        return ["--node", node, "--time", "%.6f" % (a / 1e6), "%.6f" % (b / 1e6)]
    steps = sorted({int(i.split("/")[-1].split("-")[1]) for i in intervals
                    if i.split("/")[-1].split("-")[1].isdigit()})
    modes = sorted({i.split("/")[-1].split("-")[0] for i in intervals} - {"prestepzero", "posthookclose"})
    first = rng.choice(steps)
    return ["--node", node, "--step", str(first), "--end-step", str(first + rng.randint(0, 4)),
            "--mode", rng.choice(modes)]


def real_jobs(tap, tmp, rng):
    jobs = ["real-smdebug/pt-cprofile", "real-smdebug/tf-cprofile", "corpus-outliers-cprofile",
            "real-smdebug/pt-pyinstrument", "real-smdebug/tf-pyinstrument", "corpus-outliers-pyinstrument"]
    for job in jobs:
        source = os.path.join(DATA, job)
        everything, p = stats_of(source, ["--all", "--node", "all"])
        if p:
            tap.check(p, "%s: stats" % job)
            continue
        tried = 0
        for attempt in range(40):
            if tried == 4:
                break
            sel = random_selection(rng, everything)
            if attempt == 0:
                sel = ["--all", "--node", "all"]
            rc, _, _ = smprof("stats", source, *sel)
            if rc == 1:          # nothing selected
                continue
            tried += 1
            compare_exports(tap, tmp, job, source, sel)


def compare_exports(tap, tmp, job, source, sel):
    what = "%s %s" % (job, " ".join(sel))
    stats, p = stats_of(source, sel)
    speedscope, q = export(tmp, source, sel, "speedscope")
    p += q
    if p:
        tap.check(p, "%s: stats and speedscope" % what)
        return
    # speedscope's weights are the frames' self times in seconds, unrounded
    stacks = speedscope_stacks(speedscope)
    p = check_adds_up(stats, stacks, what)
    tap.check(p, "%s: the tree's roots sum to the total, frames within cumtime, self = tottime" % what)

    # folded: the same stacks, rounded to the microsecond (under half of one: left out)
    path, p = export(tmp, source, sel, "folded")
    if not p:
        folded = folded_stacks(path)
        for stack in set(folded) | set(stacks):
            exact = stacks.get(stack, 0)
            if folded.get(stack, 0) != round(exact) and abs(folded.get(stack, 0) - exact) > 0.5 + 1e-6:
                p.append("stack %r: folded %d µs, speedscope %.3f µs" % (stack[-2:], folded.get(stack, 0), exact))
                break
    tap.check(p, "%s: the folded export has speedscope's stacks, weight for weight" % what)

    # SVG: every frame drawn, at its time
    path, p = export(tmp, source, sel, "svg", "--min-width", "0")
    if not p and stats["total_time"] > 0:
        want, under = by_name_and_file(stacks)
        got = svg_frames(path, stats["total_time"] / US)
        for stack in set(got) | set(want):
            g, w = got.get(stack, 0), want.get(stack, 0)
            if abs(g - w) > 1e-7 * sum(stacks.values()) + rounding(stats, under.get(stack, 1)):
                p.append("frame %r: svg %.3f µs, speedscope %.3f µs" % (stack[-2:], g, w))
                break
    tap.check(p, "%s: the svg draws every frame at its time" % what)

    # syscap: each stack as many samples as its weight over the period
    if len(stats["node_ids"]) == 1:
        path, p = export(tmp, source, sel, "syscap")
        if not p:
            got, period = syscap_stacks(path)
            if got is None or period <= 0:
                p.append("syscap-dump could not read it")
            else:
                folded = folded_stacks(export(tmp, source, sel, "folded")[0])
                want = collections.Counter({s: (w + period // 2) // period for s, w in folded.items()})
                if +got != +want:
                    p.append("sample stacks differ: %r" % (sorted((+got - +want).items())[:2] +
                                                           sorted((+want - +got).items())[:2],))
        tap.check(p, "%s: the syscap's samples are the folded stacks" % what)


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-tree-", dir=os.environ.get("SMPROF_EXPORT_TMP"))
    try:
        hard_cases(tap, tmp)
        real_jobs(tap, tmp, random.Random(17))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
