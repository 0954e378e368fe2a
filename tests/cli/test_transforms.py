#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof stats/export/report --merge, --focus, --focus-subtree, --collapse-recursion,
--collapse, --hide-libraries, --invert (issue 17 §2), on the real jobs.

The test reshapes the call tree of `smprof stats --json` (with --tree for cProfile)
itself, by the rules the manual states, and checks smprof's answer against it:
the reshaped tree frame by frame, the function table (self time summed over a
function's frames, cumulative time over its outermost ones, call counts kept but
after a focus), the total, and the folded export of the same options. Transforms
apply in order, so chains are checked too (their order changes the answer).
"""

import collections
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import DATA, cmdline, smprof, smprof_json  # noqa: E402

JOBS = ["real-smdebug/pt-cprofile", "real-smdebug/tf-cprofile", "real-smdebug/pt-pyinstrument",
        "real-smdebug/tf-pyinstrument", "corpus-outliers-pyinstrument"]
SEL = ["--all", "--node", "all"]
UNATTRIBUTED = ("(unattributed)", "~", 0)


# ---------------------------------------------------------------- the rules, done here

class Frame:
    __slots__ = ("key", "self", "children")

    def __init__(self, key):
        self.key = key          # (function, file, line)
        self.self = 0.0
        self.children = {}      # key -> Frame, in insertion order

    def child(self, key):
        if key not in self.children:
            self.children[key] = Frame(key)
        return self.children[key]

    def total(self):
        return self.self + sum(c.total() for c in self.children.values())


def from_json(frames):
    root = Frame(None)

    def add(into, fr):
        node = into.child((fr["function"], fr["file"], fr["line"]))
        node.self += fr["self_time"]
        for c in fr["children"]:
            add(node, c)
    for fr in frames:
        add(root, fr)
    return root


def walk(root):
    """(frame, parent, path of keys above it) for every frame, parents first."""
    stack = [(c, root, ()) for c in reversed(list(root.children.values()))]
    while stack:
        frame, parent, above = stack.pop()
        yield frame, parent, above
        stack.extend((c, frame, above + (frame.key,)) for c in reversed(list(frame.children.values())))


def remap(root, rule, focus=False):
    """A new tree: `rule(frame, above, into)` gives (where its children go,
    where its own time goes) in the new tree, `into` being where its parent's
    children went (None: left out)."""
    out = Frame(None)
    into_of = {id(root): None if focus else out}

    def visit(frame, above):
        into = into_of[id(frame_parent[id(frame)])]
        children, own = rule(frame, above, into, out)
        into_of[id(frame)] = children
        if own is not None:
            own.self += frame.self

    frame_parent = {}
    for frame, parent, above in walk(root):
        frame_parent[id(frame)] = parent
        visit(frame, above)
    return out


def out_path(out, node):
    """Keys from the new root down to node (searching: trees are small)."""
    def find(frame, path):
        if frame is node:
            return path
        for c in frame.children.values():
            p = find(c, path + (c.key,))
            if p is not None:
                return p
        return None
    return find(out, ())


def merge(root, key):
    def rule(frame, above, into, out):
        if into is None:
            return None, None
        if frame.key != key:
            node = into.child(frame.key)
            return node, node
        if into is out:        # a root keeps its own time
            return out, (out.child(key) if frame.self != 0 else None)
        return into, into
    return remap(root, rule)


def focus_function(root, key):
    def rule(frame, above, into, out):
        if into is not None:
            node = into.child(frame.key)
            return node, node
        if frame.key == key:
            node = out.child(key)
            return node, node
        return None, None
    return remap(root, rule, focus=True)


def focus_subtree(root, path):
    def rule(frame, above, into, out):
        if into is not None:
            node = into.child(frame.key)
            return node, node
        if above + (frame.key,) == tuple(path):
            node = out.child(frame.key)
            return node, node
        return None, None
    return remap(root, rule, focus=True)


def collapse_recursion(root, key=None):
    parent_of = {}

    def rule(frame, above, into, out):
        if into is None:
            return None, None
        if key is None or frame.key == key:
            up = into
            while up is not None and up is not out:
                if up.key == frame.key:
                    return up, up
                up = parent_of.get(id(up))
        node = into.child(frame.key)
        parent_of[id(node)] = into
        return node, node
    return remap(root, rule)


def package_of(file):
    if file.startswith("<frozen "):
        return re.split(r"[.>]", file[len("<frozen "):])[0] or None
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in file:
            rest = file.split(marker, 1)[1]
            break
    else:
        m = re.search(r"/lib/python[0-9.]+/(.*)$", file)
        if not m:
            return None
        rest = m.group(1)
    first = rest.split("/")[0]
    if "/" not in rest and first.endswith(".py"):
        first = first[:-3]
    return first or None


def is_library(key):
    function, file, line = key
    if key == UNATTRIBUTED or (file == "~" and function.startswith("[")):
        return False
    if file == "~" or file.startswith("<built-in") or file.startswith("<frozen "):
        return True
    return ("/site-packages/" in file or "/dist-packages/" in file or
            re.search(r"/lib/python[0-9.]+/", file) is not None)


def collapse_group(root, group, package):
    gkey = ("[%s]" % group, "~", 0)

    def member(key):
        if key == gkey:
            return True
        if key[1] == "~" and key[0].startswith("["):
            return False
        return package_of(key[1]) == group if package else key[1] == group

    def rule(frame, above, into, out):
        if into is None:
            return None, None
        if member(frame.key):
            node = into if (into is not out and into.key == gkey) else into.child(gkey)
            return node, node
        node = into.child(frame.key)
        return node, node
    return remap(root, rule)


def hide_libraries(root):
    def rule(frame, above, into, out):
        if into is None:
            return None, None
        if into is not out and is_library(frame.key):
            return into, into
        node = into.child(frame.key)
        return node, node
    return remap(root, rule)


def invert(root):
    out = Frame(None)
    for frame, parent, above in walk(root):
        if frame.self == 0:
            continue
        at = out
        for key in (frame.key,) + tuple(reversed(above)):
            at = at.child(key)
        at.self += frame.self
    return out


def frames_of(root):
    """{path of keys: total time} for every frame."""
    out = {}
    for frame, parent, above in walk(root):
        out[above + (frame.key,)] = frame.total()
    return out


def table_of(root):
    """{key: (self time, time of the outermost frames)}"""
    own, outer = collections.Counter(), collections.Counter()
    for frame, parent, above in walk(root):
        if frame.key == UNATTRIBUTED:
            continue
        own[frame.key] += frame.self
        if frame.key not in above:
            outer[frame.key] += frame.total()
    return own, outer


# ---------------------------------------------------------------- checks

def label(key):
    function, file, line = key
    if file == "~" and line == 0:
        return "{" + function[1:-1] + "}" if function.startswith("<") and function.endswith(">") else function
    return "%s:%d(%s)" % (file, line, function)


def folded_label(key):
    function, file, line = key
    if file == "~" and line == 0:
        return label(key)
    return "%s (%s:%d)" % (function, file, line)


def compare(tap, what, source, options, expected, base_stats, counts_kept, inverted=False):
    args = ["stats", source] + SEL + options + ["--json"]
    rc, got, _, err, p = smprof_json(*args)
    if p:
        tap.check(p, "%s: %s" % (what, cmdline(args)))
        return
    total = expected.total()
    scale = max(total, 1e-9)
    slack = 1e-9 * scale + (2e-6 if got["profiler"] == "pyinstrument" else 1e-12)

    # the tree, frame by frame
    want_frames = frames_of(expected)
    got_frames = frames_of(from_json(got["tree"]))
    for path in set(want_frames) | set(got_frames):
        w, g = want_frames.get(path, 0.0), got_frames.get(path, 0.0)
        if abs(w - g) > slack * max(1, len(path)):
            p.append("frame %s: smprof %.9f s, expected %.9f s" % (" > ".join(k[0] for k in path[-3:]), g, w))
            if len(p) > 4:
                break
    if abs(got["total_time"] - total) > slack * 10:
        p.append("total_time %r, expected %r" % (got["total_time"], total))
    if got["inverted"] != inverted:
        p.append("inverted %r" % got["inverted"])

    # the function table
    if not inverted:
        own, outer = table_of(expected)
        base_calls = {(f["function"], f["file"], f["line"]): (f.get("ncalls"), f.get("primitive_calls"))
                      for f in base_stats.get("functions", [])}
        rows = {(f["function"], f["file"], f["line"]): f for f in got["functions"]}
        if set(rows) != set(own):
            p.append("functions differ: %d extra, %d missing" % (len(set(rows) - set(own)), len(set(own) - set(rows))))
        for key, row in rows.items():
            if abs(row["tottime"] - own.get(key, 0)) > slack * 50 or abs(row["cumtime"] - outer.get(key, 0)) > slack * 50:
                p.append("%s: tottime %r cumtime %r, expected %r %r" % (label(key), row["tottime"], row["cumtime"],
                                                                         own.get(key), outer.get(key)))
                break
            calls = (row["ncalls"], row["primitive_calls"])
            want = base_calls.get(key, (None, None)) if counts_kept else (None, None)
            if calls != want:
                p.append("%s: calls %r, expected %r" % (label(key), calls, want))
                break
    tap.check(p, "%s: stats --json %s is the tree and table worked out here" % (what, " ".join(options)))

    # the folded export of the same options: the same stacks
    out = os.path.join(TMP, "t.folded")
    args = ["export", source] + SEL + options + ["--format", "folded", "-o", out]
    rc, _, err = smprof(*args)
    q = []
    if rc != 0:
        q.append("%s: exit %d %s" % (cmdline(args), rc, err[:300]))
    else:
        got_stacks = collections.Counter()
        for line in open(out, encoding="utf-8"):
            frames, weight = line.rstrip("\n").rsplit(" ", 1)
            got_stacks[frames] += int(weight)
        want_stacks = collections.Counter()
        for frame, parent, above in walk(expected):
            us = round(frame.self * 1e6)
            if us > 0:
                want_stacks[";".join(folded_label(k).replace(";", ",") for k in above + (frame.key,))] += us
        for stack in set(got_stacks) | set(want_stacks):
            if abs(got_stacks.get(stack, 0) - want_stacks.get(stack, 0)) > 1 + (2 if got["profiler"] == "pyinstrument" else 0):
                q.append("stack %r: %d µs, expected %d µs" % (stack[-120:], got_stacks.get(stack, 0),
                                                               want_stacks.get(stack, 0)))
                break
    tap.check(q, "%s: export --format folded %s draws that tree" % (what, " ".join(options)))


def most_framed(root, allow):
    """The function with the most frames among those `allow` lets through."""
    count = collections.Counter(frame.key for frame, _, _ in walk(root) if allow(frame.key))
    return count.most_common(1)[0][0] if count else None


def heaviest_path(root, depth):
    path, at = [], root
    while len(path) < depth and at.children:
        at = max(at.children.values(), key=lambda f: f.total())
        path.append(at.key)
    return path


def check_job(tap, job):
    source = os.path.join(DATA, job)
    base_args = ["stats", source] + SEL + ["--json", "--tree"]
    rc, base, _, err, p = smprof_json(*base_args)
    if p:
        tap.check(p, "%s: stats --json --tree" % job)
        return
    tree = from_json(base["tree"])
    cprofile = base["profiler"] == "cprofile"
    tap.ok(abs(tree.total() - base["total_time"]) <= 1e-6 * max(1, base["total_time"]) + 1e-5,
           "%s: --tree's roots sum to total_time" % job)

    def fn(key):
        return label(key)

    # merge: the function with the most frames (not a root-only one)
    merged = most_framed(tree, lambda k: k != UNATTRIBUTED)
    compare(tap, job, source, ["--merge", fn(merged)], merge(tree, merged), base, True)

    # focus on a function a few frames down the heaviest path
    path = heaviest_path(tree, 4)
    compare(tap, job, source, ["--focus", fn(path[-1])], focus_function(tree, path[-1]), base, False)
    compare(tap, job, source, ["--focus-subtree", ";".join(fn(k) for k in path[:3])],
            focus_subtree(tree, path[:3]), base, False)

    # recursion: every function's, and _call_impl's (the module dispatcher)
    compare(tap, job, source, ["--collapse-recursion"], collapse_recursion(tree), base, True)
    recursive = [k for k in {f.key for f, _, _ in walk(tree)} if k[0] == "_call_impl"]
    if recursive:
        compare(tap, job, source, ["--collapse-recursion-of", fn(recursive[0])],
                collapse_recursion(tree, recursive[0]), base, True)

    # a package, and a file
    packages = collections.Counter(package_of(k[1]) for f, _, _ in walk(tree) for k in [f.key]
                                   if package_of(k[1]) and not k[1].startswith("~"))
    if packages:
        package = packages.most_common(1)[0][0]
        compare(tap, job, source, ["--collapse", package], collapse_group(tree, package, True), base, True)
    user_files = collections.Counter(f.key[1] for f, _, _ in walk(tree) if not is_library(f.key) and f.key[1] != "~")
    if user_files:
        file = user_files.most_common(1)[0][0]
        compare(tap, job, source, ["--collapse", file], collapse_group(tree, file, False), base, True)

    compare(tap, job, source, ["--hide-libraries"], hide_libraries(tree), base, True)
    compare(tap, job, source, ["--invert"], invert(tree), base, True, inverted=True)

    # chains: order matters
    hidden = hide_libraries(tree)
    top = heaviest_path(hidden, 2)[-1]
    compare(tap, job, source, ["--hide-libraries", "--focus", fn(top)], focus_function(hidden, top), base, False)
    compare(tap, job, source, ["--merge", fn(merged), "--collapse-recursion", "--invert"],
            invert(collapse_recursion(merge(tree, merged))), base, True, inverted=True)


def check_usage(tap):
    source = os.path.join(DATA, "real-smdebug", "pt-cprofile")
    cases = [
        (["stats", source, "--all", "--merge", "forward"], "names 7 functions", "an ambiguous name lists the functions"),
        (["stats", source, "--all", "--focus", "no_such_function"], "no function", "an unknown function says so"),
        (["stats", source, "--all", "--collapse", "no_such_package"], "no file or package", "an unknown package says so"),
        (["stats", source, "--all", "--focus-subtree", "main;no_such_function"], "no function",
         "a path through an unknown function says so"),
        (["export", source, "--all", "--invert", "--format", "pstats", "-o", "-"], "--invert goes with",
         "--invert with a format that has no tree is refused"),
        (["steps", source, "--merge", "main"], "goes with stats, export or report", "steps takes no transforms"),
    ]
    for args, text, name in cases:
        rc, out, err = smprof(*args)
        tap.ok(rc == 2 and text in err and out == "", name, "exit %d, stderr %r" % (rc, err[:400]))


def check_report(tap):
    """A report of a reshaped selection: its function table is the reshaped one."""
    source = os.path.join(DATA, "real-smdebug", "pt-cprofile")
    out = os.path.join(TMP, "report")
    args = ["report", source, "--all", "--hide-libraries", "-o", out]
    rc, _, err = smprof(*args)
    p = [] if rc == 0 else ["%s: exit %d %s" % (cmdline(args), rc, err[:300])]
    if not p:
        rc, stats, _, _, q = smprof_json("stats", source, "--all", "--hide-libraries", "--json")
        p += q
        csv_path = os.path.join(out, "functions.csv")
        if not os.path.exists(csv_path):
            p.append("no functions.csv: %r" % os.listdir(out))
        elif not q:
            import csv
            with open(csv_path, encoding="utf-8", newline="") as fh:
                rows = {(r["function"], r["file"], int(r["line"])): r for r in csv.DictReader(fh)}
            want = {(f["function"], f["file"], f["line"]): f for f in stats["functions"]}
            if set(rows) != set(want):
                p.append("functions.csv has %d functions, stats --hide-libraries %d" % (len(rows), len(want)))
            elif any(not taplib.close(float(rows[k]["tottime"]), want[k]["tottime"]) for k in want):
                p.append("functions.csv's tottime differs from stats --hide-libraries")
            if len(want) >= len(stats_plain(source)):
                p.append("--hide-libraries left as many functions as there were")
        readme = open(os.path.join(out, "README.md"), encoding="utf-8").read()
        if "--hide-libraries" not in readme:
            p.append("README.md does not record --hide-libraries in its command")
    tap.check(p, "report --hide-libraries: the table and the command are the reshaped selection's")


TMP = None


def stats_plain(source):
    rc, stats, _, _, q = smprof_json("stats", source, "--all", "--json")
    return stats["functions"] if stats else []


def main(tap):
    global TMP
    TMP = tempfile.mkdtemp(prefix="smprof-transforms-")
    try:
        for job in JOBS:
            check_job(tap, job)
        check_usage(tap)
        check_report(tap)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
