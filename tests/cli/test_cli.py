#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof command line behaviour: exit codes, messages, output forms, options."""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import REAL, close, cmdline, expect_no_selection, smprof, smprof_json  # noqa: E402

PT = os.path.join(REAL, "pt-cprofile")
TF = os.path.join(REAL, "tf-cprofile")
PTI = os.path.join(REAL, "pt-pyinstrument")


def expect_exit(args, code, stderr_needle=None, stdout_empty=True):
    rc, out, err = smprof(*args)
    p = []
    codes = code if isinstance(code, tuple) else (code,)
    if rc not in codes:
        p.append("%s: exit status %d, expected %s" % (cmdline(args), rc, " or ".join(map(str, codes))))
    if not err.strip():
        p.append("stderr is empty, expected a message")
    if stderr_needle is not None and stderr_needle not in err:
        p.append("stderr does not mention %r: %r" % (stderr_needle, err[:400]))
    if stdout_empty and out.strip():
        p.append("stdout should be empty: %r" % out[:300])
    if p and err.strip():
        p.append("stderr: " + err.strip()[:400])
    return p


def check_usage(tap):
    usage = [
        ("no arguments", []),
        ("unknown command", ["frobnicate", PT]),
        ("command without SOURCE", ["list"]),
        ("unknown option", ["stats", PT, "--all", "--frobnicate"]),
        ("unknown option for list", ["list", PT, "--step", "3"]),
        ("missing value for --step", ["stats", PT, "--step"]),
        ("missing value for --mode", ["stats", PT, "--step", "0", "--mode"]),
        ("missing value for --node", ["stats", PT, "--all", "--node"]),
        ("--time with one value", ["stats", PT, "--time", "1795987297.0"]),
        ("--time with one value then an option", ["stats", PT, "--time", "1795987297.0", "--json"]),
        ("bad mode", ["stats", PT, "--step", "0", "--mode", "bogus"]),
        ("bad mode, wrong case", ["stats", PT, "--step", "0", "--mode", "Train"]),
        ("bad start phase", ["stats", PT, "--step", "0", "--start-phase", "middle"]),
        ("bad end phase", ["stats", PT, "--step", "0", "--end-phase", "STEPEND"]),
        ("bad --between-modes mode", ["stats", PT, "--between-modes", "train", "testing"]),
        ("--between-modes with one mode", ["stats", PT, "--between-modes", "train"]),
        ("non-numeric step", ["stats", PT, "--step", "three"]),
        ("step '1.0'", ["stats", PT, "--step", "1.0"]),
        ("non-numeric --end-step", ["stats", PT, "--step", "1", "--end-step", "x"]),
        ("non-numeric time", ["stats", PT, "--time", "soon", "later"]),
        ("bad --sort key", ["stats", PT, "--all", "--sort", "name"]),
        ("bad --limit", ["stats", PT, "--all", "--limit", "many"]),
        ("bad --profiler", ["list", PT, "--profiler", "perf"]),
        ("stats without a selection", ["stats", PT, "--json"]),
    ]
    for label, args in usage:
        tap.check(expect_exit(args, 2), "usage error exits 2: %s (%s)" % (label, cmdline(args)))


def check_source_errors(tap, tmp):
    missing = os.path.join(tmp, "no-such-job")
    for cmd in (["list", missing, "--json"], ["nodes", missing], ["stats", missing, "--all", "--json"]):
        tap.check(expect_exit(cmd, 3, "no-such-job"), "nonexistent source exits 3 and names it: %s" % cmd[0])
    empty = os.path.join(tmp, "not-a-job")
    os.makedirs(empty)
    tap.check(expect_exit(["list", empty, "--json"], 3, "not-a-job"),
              "a folder holding no framework/ exits 3 and names it")
    afile = os.path.join(tmp, "a-file")
    with open(afile, "w") as fh:
        fh.write("x\n")
    tap.check(expect_exit(["list", afile, "--json"], 3, "a-file"), "a regular file as SOURCE exits 3 and names it")


def check_no_selection(tap):
    for args in (["stats", PT, "--step", "500", "--json"], ["stats", PT, "--step", "500"],
                 ["stats", PT, "--between-modes", "predict", "predict"],
                 ["stats", PT, "--node", "nope", "--all", "--json"],
                 ["stats", PT, "--step", "-1", "--end-step", "0", "--mode", "prestepzero"]):
        tap.check(expect_no_selection(args), "no interval selected: exit 1, empty stdout (%s)" % cmdline(args[2:]))


def check_negative_and_inf(tap):
    rc, a, out, err, p = smprof_json("stats", PT, "--step", "-1", "--end-step", "inf", "--json")
    rc, b, out, err, p2 = smprof_json("stats", PT, "--step=-1", "--end-step=inf", "--mode", "TRAIN", "--json")
    rc, c, out, err, p3 = smprof_json("stats", PT, "--between-modes", "train", "train", "--json")
    p += p2 + p3
    if not p:
        if a != b:
            p.append("'--step -1 --end-step inf' and '--step=-1 --end-step=inf --mode TRAIN' differ")
        if a.get("intervals") != c.get("intervals"):
            p.append("by_step(-1, inf) intervals %r != between-modes train train %r" % (a.get("intervals"), c.get("intervals")))
    tap.check(p, "--step -1 / --step=-1 / --end-step inf / enum mode names: by_step(-1, inf, train) == every train->train interval")


def check_human(tap):
    args = ["stats", PT, "--node", "all", "--all"]
    rc, out, err = smprof(*args)
    rc2, js, _, _, p = smprof_json(*(args + ["--json"]))
    if rc != 0:
        p.append("%s: exit %d; stderr %r" % (cmdline(args), rc, err[:300]))
    header = re.compile(r"^\s*ncalls\s+tottime\s+percall\s+cumtime\s+percall\s+filename:lineno\(function\)\s*$", re.M)
    if not header.search(out):
        p.append("no pstats header line 'ncalls  tottime  percall  cumtime  percall filename:lineno(function)' in:\n"
                 + out[:600])
    tap.check(p, "human stats output has the pstats header line")
    p = []
    fib = [f for f in (js or {}).get("functions", []) if f.get("function") == "fib"]
    if not fib:
        p.append("no fib function in the JSON output")
    else:
        f = fib[0]
        want = "%d/%d" % (f["ncalls"], f["primitive_calls"])
        lines = [ln for ln in out.splitlines() if ln.rstrip().endswith("(fib)")]
        if f["ncalls"] == f["primitive_calls"]:
            p.append("fib is expected to recurse (ncalls != primitive_calls), JSON says %r" % f)
        if not lines:
            p.append("no table line ending in '(fib)'")
        elif not lines[0].split()[0] == want:
            p.append("fib line %r: first column should be %s" % (lines[0], want))
    tap.check(p, "human stats output prints ncalls as nc/cc where they differ (fib recursion)")

    # the classic pstats printout (§3.6) starts with this title line
    p = []
    if js:
        want = "%d function calls (%d primitive calls) in %.3f seconds" % (
            js["total_calls"], js["primitive_calls"], js["total_time"])
        if want not in out:
            p.append("missing %r" % want)
    tap.check(p, "human stats output has pstats' title line '<nc> function calls (<cc> primitive calls) in <tt> seconds'")

    for cmd in (["list", PT], ["nodes", PT]):
        rc, out, err = smprof(*cmd)
        p = []
        if rc != 0 or not out.strip():
            p.append("exit %d, stdout %r, stderr %r" % (rc, out[:200], err[:200]))
        if cmd[0] == "nodes" and not ("0-algo-1" in out and "1-algo-2" in out):
            p.append("node ids missing from %r" % out[:200])
        tap.check(p, "human %s output (exit 0, not empty)" % cmd[0])


def stable_sorted(funcs, key):
    k = {"tottime": "tottime", "cumtime": "cumtime", "ncalls": "ncalls", "pcalls": "primitive_calls"}[key]
    return sorted(funcs, key=lambda f: -f[k])


def check_sort_limit(tap):
    base = ["stats", PT, "--node", "all", "--all", "--json"]
    rc, full, out, err, p = smprof_json(*base)
    if not tap.check(p, "unsorted --node all --all --json"):
        return
    funcs = full["functions"]
    key3 = lambda f: (f["file"], f["line"], f["function"])  # noqa: E731
    for key, limit in (("tottime", 5), ("cumtime", 12), ("ncalls", 7), ("pcalls", 9)):
        args = base + ["--sort", key, "--limit", str(limit)]
        rc, got, out, err, p = smprof_json(*args)
        if not p:
            g = got.get("functions") or []
            want = stable_sorted(funcs, key)[:limit]
            if len(g) != limit:
                p.append("%d functions, expected %d" % (len(g), limit))
            field = {"pcalls": "primitive_calls"}.get(key, key)
            vals = [f.get(field) for f in g]
            if any(vals[i] < vals[i + 1] for i in range(len(vals) - 1)):
                p.append("not sorted by %s descending: %r" % (field, vals))
            if [key3(f) for f in g] != [key3(f) for f in want]:
                p.append("functions %r\n  expected (stable sort of the unsorted list) %r"
                         % ([key3(f) for f in g][:limit], [key3(f) for f in want]))
            for k in ("intervals", "total_calls", "primitive_calls", "total_time", "node_ids"):
                if got.get(k) != full.get(k):
                    p.append("%s changed by --sort/--limit: %r vs %r" % (k, got.get(k), full.get(k)))
        tap.check(p, "%s: %d functions sorted by %s descending, ties in dict order" % (cmdline(args[2:]), limit, key))
    args = base + ["--limit", "3"]
    rc, got, out, err, p = smprof_json(*args)
    if not p and got.get("functions") != funcs[:3]:
        p.append("--limit 3 without --sort should keep the first 3 in dict order")
    tap.check(p, "--limit 3 without --sort keeps the first 3 functions")
    args = base + ["--sort", "cumtime"]
    rc, got, out, err, p = smprof_json(*args)
    if not p:
        if len(got.get("functions") or []) != len(funcs):
            p.append("--sort alone changed the number of functions")
        elif [key3(f) for f in got["functions"]] != [key3(f) for f in stable_sorted(funcs, "cumtime")]:
            p.append("not the stable cumtime-descending order")
    tap.check(p, "--sort cumtime without --limit keeps all functions")


def check_node_all(tap):
    for job, nodes in ((PT, ["0-algo-1", "1-algo-2"]), (TF, ["25641-algo-2", "25644-algo-1"])):
        rc, allj, out, err, p = smprof_json("stats", job, "--node", "all", "--all", "--json")
        per = []
        for n in nodes:
            rc, one, out, err, p2 = smprof_json("stats", job, "--node", n, "--all", "--json")
            p += p2
            per.append(one)
        if not p:
            if allj.get("node_ids") != nodes:
                p.append("node_ids %r, expected %r" % (allj.get("node_ids"), nodes))
            for k in ("total_calls", "primitive_calls"):
                s = sum(x[k] for x in per)
                if allj.get(k) != s:
                    p.append("%s %r, expected the sum of the nodes' %r" % (k, allj.get(k), s))
            s = sum(x["total_time"] for x in per)
            if not close(allj.get("total_time"), s):
                p.append("total_time %r, expected ~%r" % (allj.get("total_time"), s))
            if sorted(allj.get("intervals") or []) != sorted(sum((x["intervals"] for x in per), [])):
                p.append("intervals are not the union of the nodes' intervals")
            for x, n in zip(per, nodes):
                if x.get("node_ids") != [n]:
                    p.append("--node %s: node_ids %r" % (n, x.get("node_ids")))
        tap.check(p, "%s: --node all sums both nodes (node_ids, totals, intervals)" % os.path.basename(job))
        rc, lst, out, err, p = smprof_json("stats", job, "--node", ",".join(reversed(nodes)), "--all", "--json")
        if not p:
            a, b = dict(lst), dict(allj)
            if sorted(a.pop("node_ids", [])) != sorted(b.pop("node_ids", [])) or a != b:
                p.append("--node %s differs from --node all" % ",".join(reversed(nodes)))
        tap.check(p, "%s: --node ID,ID with every node equals --node all" % os.path.basename(job))


def check_profiler_mismatch(tap):
    for job, prof in ((PT, "pyinstrument"), (PTI, "cprofile")):
        args = ["stats", job, "--profiler", prof, "--all", "--json"]
        tap.check(expect_exit(args, (1, 3)), "%s: --profiler %s on a job without it exits 1 or 3 with a message"
                  % (os.path.basename(job), prof))
        args = ["list", job, "--profiler", prof, "--json"]
        rc, out, err = smprof(*args)
        ok = (rc in (1, 3) and err.strip() and not out.strip()) or (rc == 0 and out.strip() == "[]")
        tap.ok(ok, "%s: list --profiler %s on a job without it: [] or exit 1/3 with a message"
               % (os.path.basename(job), prof), ["exit %d stdout %r stderr %r" % (rc, out[:200], err[:200])])


def norm_rows(rows):
    out = []
    for r in rows:
        r = dict(r)
        r["stats_path"] = os.path.realpath(r["stats_path"])
        out.append(r)
    return out


def check_source_levels(tap):
    for job, fw, prof in ((PT, "pytorch", "cprofile"), (PTI, "pytorch", "pyinstrument")):
        rc, ref, out, err, p = smprof_json("list", job, "--json")
        rc, sref, out, err, p2 = smprof_json("stats", job, "--all", "--json")
        if not tap.check(p + p2, "%s: list/stats from the job root" % os.path.basename(job)):
            continue
        for sub in ("framework", os.path.join("framework", fw), os.path.join("framework", fw, prof),
                    os.path.join("framework", fw, prof) + os.sep):
            src = os.path.join(job, sub)
            rc, got, out, err, p = smprof_json("list", src, "--json")
            if not p:
                if norm_rows(got) != norm_rows(ref):
                    p.append("list differs from the job root's")
                    for a, b in zip(got, ref):
                        if a != b:
                            p.append("first difference: %r vs %r" % (a, b))
                            break
            rc, sg, out, err, p2 = smprof_json("stats", src, "--all", "--json")
            p += p2
            if not p2 and sg != sref:
                p.append("stats --all differs from the job root's")
            tap.check(p, "%s: SOURCE %s gives the same list and stats as the job root" % (os.path.basename(job), sub))


def check_default_profiler(tap):
    rc, rows, out, err, p = smprof_json("list", PTI, "--json")
    if not p and (not rows or any(r.get("profiler_name") != "pyinstrument" for r in rows)):
        p.append("rows are not all pyinstrument")
    tap.check(p, "--profiler defaults to pyinstrument on a pyinstrument-only job")
    rc, a, out, err, p = smprof_json("stats", PT, "--all", "--json")
    rc, b, out, err, p2 = smprof_json("stats", PT, "--all", "--profiler", "cprofile", "--node", "any", "--json")
    p += p2
    if not p and a != b:
        p.append("defaults differ from --profiler cprofile --node any")
    tap.check(p, "defaults --profiler cprofile --node any")
    rc, a, out, err, p = smprof_json("stats", TF, "--step", "3", "--json")
    rc, b, out, err, p2 = smprof_json("stats", TF, "--step", "3", "--end-step", "3", "--mode", "train",
                                      "--start-phase", "stepstart", "--end-phase", "stepend", "--json")
    p += p2
    if not p and a != b:
        p.append("--step 3 differs from the spelled-out defaults")
    tap.check(p, "by-step defaults: --end-step = --step, --mode train, --start-phase stepstart, --end-phase stepend")


CPROFILE_KEYS = ["profiler", "node_ids", "intervals", "total_calls", "primitive_calls", "total_time", "functions"]
FUNCTION_KEYS = ["file", "line", "function", "ncalls", "primitive_calls", "tottime", "cumtime", "callers"]
CALLER_KEYS = FUNCTION_KEYS[:-1]
PYINSTRUMENT_KEYS = ["profiler", "node_ids", "intervals", "total_time", "tree"]
FRAME_KEYS = ["function", "file", "line", "time", "self_time", "children"]


def keys_problems(obj, want, what):
    if not isinstance(obj, dict):
        return ["%s is not an object: %r" % (what, obj)]
    if sorted(obj) != sorted(want):
        return ["%s keys %r, expected exactly %r" % (what, sorted(obj), sorted(want))]
    return []


def cprofile_keys_problems(stats, what):
    p = keys_problems(stats, CPROFILE_KEYS, what)
    if p:
        return p
    for f in stats["functions"]:
        p += keys_problems(f, FUNCTION_KEYS, what + " function")
        for c in f.get("callers") or []:
            p += keys_problems(c, CALLER_KEYS, what + " caller")
        if p:
            return p[:3]
    if not stats["functions"] or not any(f["callers"] for f in stats["functions"]):
        p.append("%s: no function with callers to check" % what)
    return p


def frame_keys_problems(frames, what):
    p = []
    for f in frames:
        p += keys_problems(f, FRAME_KEYS, what)
        if p:
            return p
        p += frame_keys_problems(f["children"], what)
    return p


def check_json_keys(tap):
    """The JSON objects carry exactly the keys the contract lists, no more."""
    rc, got, out, err, p = smprof_json("stats", PT, "--step", "5", "--json")
    if not p:
        p = cprofile_keys_problems(got, "stats")
        for f in got["functions"]:
            if f["file"] == "~" and (f["line"] != 0 or not f["function"].startswith("<")):
                p.append("built-in %r: expected file '~', line 0 and cProfile's '<...>' label" % (f,))
    tap.check(p, "cProfile stats --json: exactly the contract's keys (top level, functions, callers)")

    rc, got, out, err, p = smprof_json("stats", PTI, "--all", "--node", "all", "--json")
    if not p:
        p = keys_problems(got, PYINSTRUMENT_KEYS, "stats")
        if not p:
            if not got["tree"]:
                p.append("empty tree")
            p += frame_keys_problems(got["tree"], "frame")
    tap.check(p, "Pyinstrument stats --json: exactly the contract's keys (top level, every frame)")

    rc, got, out, err, p = smprof_json("stats", PT, "--training-phase", "--json")
    if not p:
        p = keys_problems(got, ["pairs"], "--training-phase")
        for pair in (got.get("pairs") or [] if not p else []):
            p += keys_problems(pair, ["start_mode", "end_mode", "stats"], "pair")
            if not p:
                p += cprofile_keys_problems(pair["stats"], "pair stats")
            if p:
                break
    tap.check(p, "--training-phase --json: {pairs: [{start_mode, end_mode, stats}]} and nothing else")

    rc, got, out, err, p = smprof_json("stats", TF, "--job-phase", "--json")
    if not p:
        p = keys_problems(got, ["initialization", "training_loop", "finalization"], "--job-phase")
        for phase, stats in (got.items() if not p else []):
            if stats is not None:
                p += cprofile_keys_problems(stats, phase)
    tap.check(p, "--job-phase --json: {initialization, training_loop, finalization}, each stats or null")

    rc, got, out, err, p = smprof_json("nodes", TF, "--json")
    if not p and (not isinstance(got, list) or not got or got != sorted(got)
                  or not all(isinstance(n, str) for n in got)):
        p.append("nodes --json %r: expected a sorted array of node ids" % (got,))
    tap.check(p, "nodes --json: a sorted JSON array of strings")


def pstats_label(f):
    """pstats.func_std_string: what the human table's last column shows."""
    if f["file"] == "~" and f["function"].startswith("<") and f["function"].endswith(">"):
        return "{%s}" % f["function"][1:-1]
    return "%s:%d(%s)" % (f["file"], f["line"], f["function"])


def table_rows(out):
    """The rows of the human table: (first column, label)."""
    lines = out.splitlines()
    rows = []
    for i, ln in enumerate(lines):
        if ln.strip().startswith("ncalls") and ln.rstrip().endswith("filename:lineno(function)"):
            for row in lines[i + 1:]:
                if not row.strip():
                    break
                cols = row.split(None, 5)
                rows.append((cols[0], cols[5] if len(cols) > 5 else ""))
            break
    return rows


def check_human_sort_limit(tap):
    """The human table is sorted and limited like the JSON: cumtime and 30 rows by default."""
    base = ["stats", PT, "--node", "all", "--all"]
    for extra, key, limit in (([], "cumtime", 30), (["--sort", "tottime", "--limit", "7"], "tottime", 7),
                              (["--sort", "ncalls", "--limit", "4"], "ncalls", 4),
                              (["--limit", "5"], "cumtime", 5)):
        rc, out, err = smprof(*(base + extra))
        rc2, js, _, _, p = smprof_json(*(base + ["--json", "--sort", key, "--limit", str(limit)]))
        if rc != 0:
            p.append("exit %d; stderr %r" % (rc, err[:300]))
        if not p:
            got = [label for calls, label in table_rows(out)]
            want = [pstats_label(f) for f in js["functions"]]
            if len(want) != limit:
                p.append("the JSON has %d functions, expected %d" % (len(want), limit))
            if got != want:
                p.append("table rows %r\n  expected (--json --sort %s --limit %d) %r" % (got, key, limit, want))
            total = len(smprof_json(*(base + ["--json"]))[1]["functions"])
            if "List reduced from %d to %d" % (total, limit) not in out:
                p.append("no 'List reduced from %d to %d' line" % (total, limit))
        tap.check(p, "human %s: the %d first rows by %s, as --json --sort %s --limit %d gives them"
                  % (" ".join(extra) or "(no --sort/--limit)", limit, key, key, limit))


def main(tap):
    with tempfile.TemporaryDirectory(prefix="smprof-cli-") as tmp:
        check_usage(tap)
        check_source_errors(tap, tmp)
        check_no_selection(tap)
        check_negative_and_inf(tap)
        check_human(tap)
        check_sort_limit(tap)
        check_node_all(tap)
        check_profiler_mismatch(tap)
        check_source_levels(tap)
        check_default_profiler(tap)
        check_json_keys(tap)
        check_human_sort_limit(tap)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
