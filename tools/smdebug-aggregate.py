#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""smdebug-aggregate.py - the reference: smdebug 1.0.34's Python-profile analysis, without smdebug.

Reads a job's profiler folder (<job>/framework/<framework>/<cprofile|pyinstrument>)
the way smdebug's cProfileAnalysis / PyinstrumentAnalysis do: parse every
interval folder name (a bad one aborts the load), sort the records by (start
time, node id), pick the node ("any" is the node of the earliest record),
select by smdebug's rules, then for cProfile add the files one by one with
pstats.Stats().add() in that order; Pyinstrument sessions are listed, never
merged. See tools/README.md; the rules are docs/smdebug-format.md §3.

Exit status: 0 with an answer, 1 when smdebug would return None (nothing
selected; --json prints null), 2 on an error (bad folder name, stray file,
unreadable stats), as smdebug raises there.
"""

import argparse
import io
import json
import math
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smtools import intervals, selection  # noqa: E402

COLUMNS = ["file", "line", "function", "ncalls", "primitive_calls", "tottime", "cumtime", "callers"]


class Job:
    """One profiler folder, its records loaded as smdebug's constructor does."""

    def __init__(self, profiler_dir):
        self.profiler_dir = profiler_dir
        self.profiler = os.path.basename(os.path.normpath(profiler_dir))
        if self.profiler not in ("cprofile", "pyinstrument"):
            raise ValueError("%s: not a cprofile or pyinstrument folder" % profiler_dir)
        # smdebug takes the framework from the parent folder's name, trailing
        # "/" included (so ".../cprofile/" gives "cprofile"): kept as it does.
        self.framework = os.path.basename(os.path.dirname(profiler_dir))
        self.root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.normpath(profiler_dir))))
        self.records = intervals.load_records(profiler_dir, self.profiler)

    def relative(self, path):
        return os.path.relpath(path, self.root)


# ---------------------------------------------------------------- aggregation

def aggregate_cprofile(records):
    """pstats.Stats() then add() of each file in record order, as smdebug's
    cProfileAnalysis._aggregate_stats; None for an empty selection."""
    if not records:
        return None
    stats = pstats.Stats(stream=io.StringIO())
    for record in records:
        stats.add(record.path)
    stats.selected = list(records)
    return stats


def aggregate_pyinstrument(records, allow_missing_html=False):
    """smdebug's PyinstrumentAnalysis._aggregate_stats: one entry per start
    time (per node and start time with node "all"), each group being exactly
    an html and a json file; returns [(html path, json path, session)]."""
    if not records:
        return None
    groups = {}
    for record in records:
        groups.setdefault((record.node_id, record.interval.start.time_us), []).append(record)
    result = []
    for group in groups.values():
        group.sort(key=lambda r: r.file_name)
        names = [r.file_name for r in group]
        if names == ["python_stats.json"] and allow_missing_html:
            json_path = group[0].path
            html_path = json_path[:-len(".json")] + ".html"
        elif names == ["python_stats.html", "python_stats.json"]:
            html_path, json_path = group[0].path, group[1].path
        else:
            raise ValueError("%s: %d stats files share this start time (%s); smdebug needs exactly "
                             "python_stats.html and python_stats.json"
                             % (os.path.dirname(group[0].path), len(group), ", ".join(names)))
        with open(json_path, encoding="utf-8") as fh:
            result.append((html_path, json_path, json.load(fh)))
    return result


def join_stats(parts):
    """fetch_profile_stats_by_job_phase's training loop: subtotals added in
    turn (pstats adds a Stats object's totals and functions at once)."""
    total = pstats.Stats(stream=io.StringIO())
    total.selected = []
    for part in parts:
        total.add(part)
        total.selected += part.selected
    return total


# ---------------------------------------------------------------- JSON

def cprofile_json(job, stats):
    """The convention of tests/data/real-smdebug/*/expected/*.json."""
    if stats is None:
        return None
    keys = sorted(stats.stats)
    index = {key: i for i, key in enumerate(keys)}
    rows = []
    for key in keys:
        cc, nc, tt, ct, callers = stats.stats[key]
        row_callers = []
        for caller, value in callers.items():
            if isinstance(value, tuple):
                row_callers.append([index[caller], value[0], value[1], value[2], value[3]])
            else:  # the legacy profile module's plain call count
                row_callers.append([index[caller], value, value, 0.0, 0.0])
        row_callers.sort(key=lambda c: c[0])
        rows.append([key[0], key[1], key[2], nc, cc, tt, ct, row_callers])
    return {
        "files": [job.relative(r.path) for r in stats.selected],
        "total_calls": stats.total_calls,
        "prim_calls": stats.prim_calls,
        "total_tt": stats.total_tt,
        "columns": COLUMNS,
        "functions": rows,
    }


def pyinstrument_json(job, sessions):
    if sessions is None:
        return None
    return [{"html_file_path": job.relative(html), "json_stats": session} for html, _, session in sessions]


def listing_json(job):
    """list_profile_stats: every record of this profiler, all nodes."""
    rows = []
    for r in job.records:
        start, end = r.interval
        rows.append({
            "profiler_name": job.profiler, "framework": job.framework, "node_id": r.node_id,
            "start_mode": start.mode, "start_step": start.step, "start_phase": start.phase,
            "start_time_since_epoch_in_micros": start.time_us,
            "end_mode": end.mode, "end_step": "inf" if math.isinf(end.step) else end.step, "end_phase": end.phase,
            "end_time_since_epoch_in_micros": end.time_us,
            "stats_path": job.relative(r.path),
        })
    return rows


# ---------------------------------------------------------------- queries

def select(job, args):
    records = selection.on_node(job.records, args.node)
    if args.step is not None:
        end = args.step[1] if len(args.step) > 1 else None
        return selection.by_step(records, args.step[0], end, args.mode, args.start_phase, args.end_phase)
    if args.time is not None:
        return selection.by_time(records, args.time[0], args.time[1])
    if args.between_modes is not None:
        return selection.between_modes(records, *args.between_modes)
    if args.pre_step_zero:
        return selection.pre_step_zero(records)
    if args.post_hook_close:
        return selection.post_hook_close(records)
    return records  # --all


def by_training_phase(job, node):
    """{(start mode, end mode): stats} for every non-empty pair, in enum order."""
    records = selection.on_node(job.records, node)
    result = []
    for start_mode in selection.MODE_ORDER:
        for end_mode in selection.MODE_ORDER:
            stats = aggregate_cprofile(selection.between_modes(records, start_mode, end_mode))
            if stats is not None:
                result.append((start_mode, end_mode, stats))
    return result


def by_job_phase(job, node):
    """As smdebug 1.0.34 does it, overwrite included: a prestepzero→posthookclose
    interval (smdebug >= 1.0.11's finalisation) replaces "initialization"."""
    phases = {}
    loop = []
    for start_mode, end_mode, stats in by_training_phase(job, node):
        if start_mode == "prestepzero":
            phases["initialization"] = stats
        elif end_mode == "posthookclose":
            phases["finalization"] = stats
        else:
            loop.append(stats)
    phases["training_loop"] = join_stats(loop)
    return list(phases.items())


def step_bound(text):
    return math.inf if text in ("inf", "+inf") else int(text)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                epilog="See tools/README.md for the rules and the JSON format.")
    p.add_argument("profiler_dir", metavar="PROFILER_DIR",
                   help="<job>/framework/<framework>/<cprofile|pyinstrument>")
    p.add_argument("--node", default="any", help="a node id, 'any' (smdebug's default) or 'all' (an extension)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--all", action="store_true", help="every interval of the node(s) (an extension)")
    what.add_argument("--step", nargs="+", type=step_bound, metavar="STEP",
                      help="START [END]: fetch_profile_stats_by_step (END defaults to START; 'inf' allowed)")
    what.add_argument("--time", nargs=2, type=float, metavar=("START_S", "END_S"),
                      help="fetch_profile_stats_by_time, seconds since the epoch")
    what.add_argument("--between-modes", nargs=2, type=selection.mode_name, metavar=("START_MODE", "END_MODE"))
    what.add_argument("--pre-step-zero", action="store_true")
    what.add_argument("--post-hook-close", action="store_true")
    what.add_argument("--training-phase", action="store_true", help="fetch_profile_stats_by_training_phase")
    what.add_argument("--job-phase", action="store_true", help="fetch_profile_stats_by_job_phase")
    what.add_argument("--list", action="store_true", help="list_profile_stats (every node)")
    what.add_argument("--list-nodes", action="store_true", help="list_available_node_ids")
    p.add_argument("--mode", type=selection.mode_name, default="train", help="--step's mode (default train)")
    p.add_argument("--start-phase", type=selection.phase_name, default="stepstart")
    p.add_argument("--end-phase", type=selection.phase_name, default="stepend")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="the answer as JSON (the expected/*.json convention)")
    out.add_argument("--quiet", action="store_true", help="one line: files, functions, total_tt, seconds")
    p.add_argument("--top", type=int, default=15, help="rows of the text report (default 15)")
    p.add_argument("--allow-missing-html", action="store_true",
                   help="Pyinstrument: accept an interval without python_stats.html (smdebug raises "
                        "ValueError); the repository's copies of the real jobs have none")
    args = p.parse_args(argv)
    if (args.training_phase or args.job_phase) and not args.profiler_dir.rstrip("/").endswith("cprofile"):
        p.error("--training-phase and --job-phase exist for cProfile only, as in smdebug")
    return args


def report(stats, top):
    """pstats' own table, as cProfileStats.print_top_n_functions prints it."""
    stream = io.StringIO()
    stats.stream = stream
    stats.sort_stats("cumulative").print_stats(top)
    return stream.getvalue()


def run(args):
    started = time.perf_counter()
    job = Job(args.profiler_dir)

    if args.list or args.list_nodes:
        answer = sorted({r.node_id for r in job.records}) if args.list_nodes else listing_json(job)
        print(json.dumps(answer) if args.json or args.list_nodes else
              "\n".join("%s %s" % (row["node_id"], os.path.basename(os.path.dirname(row["stats_path"])))
                        for row in answer))
        return 0

    if args.training_phase or args.job_phase:
        parts = by_training_phase(job, args.node) if args.training_phase else by_job_phase(job, args.node)
        if args.json:
            if args.training_phase:
                print(json.dumps([{"start_mode": a, "end_mode": b, "stats": cprofile_json(job, s)}
                                  for a, b, s in parts]))
            else:
                print(json.dumps([{"job_phase": name, "stats": cprofile_json(job, s)} for name, s in parts]))
        else:
            for *name, stats in parts:
                print("%-28s %5d files %7d functions total_tt %r"
                      % ("/".join(name), len(stats.selected), len(stats.stats), stats.total_tt))
        return 0

    selected = select(job, args)
    if job.profiler == "cprofile":
        result = aggregate_cprofile(selected)
    else:
        result = aggregate_pyinstrument(selected, args.allow_missing_html)
    seconds = time.perf_counter() - started

    if result is None:
        if args.json:
            print("null")
        elif not args.quiet:
            print("No stats were found for the requested interval!")
        return 1
    if args.json:
        answer = cprofile_json(job, result) if job.profiler == "cprofile" else pyinstrument_json(job, result)
        json.dump(answer, sys.stdout)
        sys.stdout.write("\n")
    elif job.profiler == "cprofile":
        line = "%d files, %d functions, total_tt %r, %.3f s" % (len(selected), len(result.stats),
                                                                result.total_tt, seconds)
        print(line if args.quiet else line + "\n\n" + report(result, args.top))
    else:
        print("%d sessions from %d files, %.3f s" % (len(result), len(selected), seconds))
        if not args.quiet:
            for html, json_path, session in result:
                root = session.get("root_frame")
                what = "no samples" if root is None else "%.6f s in %s" % (root["time"], root["function"])
                print("  %s  %s" % (job.relative(json_path), what))
    return 0


def main(argv=None):
    args = parse_args(argv)
    try:
        return run(args)
    except (OSError, ValueError, TypeError, EOFError) as e:
        # What smdebug raises on: a bad folder name, a stray file, a
        # Pyinstrument interval that is not an html/json pair, a python_stats
        # pstats cannot load (an empty dict gives TypeError).
        print("smdebug-aggregate.py: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
