#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""make-corpus.py - a synthetic smdebug job of any size, from real interval files.

Writes OUT/framework/<pytorch|tensorflow>/<cprofile|pyinstrument>/<node>/<interval>/
in smdebug 1.0.34's layout (docs/smdebug-format.md §1-§2), each interval's
content a real file of tests/data/real-smdebug/ with its times rescaled, and
OUT/corpus-manifest.json saying what was made and which outliers were planted.
Seeded: the same arguments give the same bytes, whatever --jobs. Python 3
standard library only. See tools/README.md.
"""

import argparse
import json
import multiprocessing
import os
import random
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smtools import cprofile_stats, pyinstrument_session, schedule, templates  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = "corpus-manifest.json"
FILES = {"cprofile": ["python_stats"], "pyinstrument": ["python_stats.json", "python_stats.html"]}

# The templates, per profiler, and per chunk the ones chosen (the same on
# every node): set before the workers fork, which inherit them instead of
# receiving them with each task.
TEMPLATES = {}
CHOSEN = []


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog="See tools/README.md.")
    p.add_argument("out", metavar="OUT", help="the job folder to write (it must not exist, or use --force)")
    p.add_argument("--framework", choices=("pytorch", "tensorflow"), default="pytorch")
    p.add_argument("--profiler", choices=("cprofile", "pyinstrument", "both"), default="cprofile")
    p.add_argument("--nodes", type=int, default=2, help="processes (node folders), default 2")
    p.add_argument("--ranks-per-host", type=int, default=1,
                   help="node folders per host: ids <rank>-algo-<host>, default 1")
    p.add_argument("--steps", type=int, default=20, help="profiled steps of all modes, default 20")
    p.add_argument("--eval-every", type=int, default=0, metavar="K",
                   help="after every K train steps, --eval-steps eval steps (default: no eval; "
                        "PyTorch steps are then 'global', Keras steps 'train')")
    p.add_argument("--eval-steps", type=int, default=2, metavar="E")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pid-node-ids", action="store_true",
                   help="node ids <pid>-algo-<host>, as smdebug writes without a distributed rank")
    p.add_argument("--no-close", action="store_true",
                   help="PyTorch: the script never calls hook.close(), so the last chunk runs from the last "
                        "forward pass to the process's exit")
    p.add_argument("--slow-steps", type=int, default=1, metavar="N",
                   help="planted slow steps: every node's step x3-6 plus time in a hotspot (default 1)")
    p.add_argument("--stragglers", type=int, default=1, metavar="N",
                   help="planted stragglers: one node x4-8 at a step, the others wait (default 1)")
    p.add_argument("--epoch", type=int, default=None, metavar="SECONDS",
                   help="the job's start, seconds since the epoch (default: seeded, 2020-2023)")
    p.add_argument("--template-dir", action="append", default=None, metavar="JOB",
                   help="a real smdebug job folder to take interval files from (repeatable; default "
                        "tests/data/real-smdebug/<pt|tf>-<profiler>, the framework's own first)")
    p.add_argument("--no-html", action="store_true",
                   help="leave out python_stats.html (smdebug writes it and its analysis needs it; smprof "
                        "reads only the JSON)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: the cores)")
    p.add_argument("--force", action="store_true", help="replace OUT if it holds a corpus")
    args = p.parse_args(argv)
    if args.nodes < 1 or args.steps < 1 or args.ranks_per_host < 1 or args.jobs < 1:
        p.error("--nodes, --steps, --ranks-per-host and --jobs must be at least 1")
    if args.eval_every < 0 or args.eval_steps < 1:
        p.error("--eval-every must be 0 or more and --eval-steps at least 1")
    if args.no_close and args.framework != "pytorch":
        p.error("--no-close: the Keras hook always closes, from an atexit handler")
    if args.stragglers and args.nodes < 2:
        p.error("--stragglers needs at least 2 nodes (use --stragglers 0)")
    if args.slow_steps + args.stragglers > max(0, args.steps - 3):
        p.error("%d planted steps need --steps %d or more (steps 0, 1 and the last are never planted)"
                % (args.slow_steps + args.stragglers, args.slow_steps + args.stragglers + 3))
    args.profilers = ["cprofile", "pyinstrument"] if args.profiler == "both" else [args.profiler]
    return args


def node_ids(rng, args):
    """(node id, rank, host) per node: ranks in order, --ranks-per-host to a
    host; with --pid-node-ids a distinct seeded pid instead of the rank."""
    pids = rng.sample(range(100, 65536), args.nodes) if args.pid_node_ids else None
    out = []
    for rank in range(args.nodes):
        host = rank // args.ranks_per_host + 1
        out.append(("%d-algo-%d" % (pids[rank] if pids else rank, host), rank, host))
    return out


def plant(rng, args, sequence, n_nodes):
    """Distinct steps for the planted outliers, never steps 0, 1 (warm-up) or
    the last; in step order."""
    indexes = rng.sample(range(2, args.steps - 1), args.slow_steps + args.stragglers)
    planted = []
    for k, i in enumerate(indexes):
        if k < args.slow_steps:
            planted.append({"type": "slow-step", "step_index": i, "factor": round(rng.uniform(3.0, 6.0), 3),
                            "extra_seconds": round(rng.uniform(0.3, 1.5), 6), "nodes": list(range(n_nodes))})
        else:
            planted.append({"type": "straggler", "step_index": i, "factor": round(rng.uniform(4.0, 8.0), 3),
                            "extra_seconds": round(rng.uniform(0.2, 1.0), 6), "nodes": [rng.randrange(n_nodes)]})
    for p in planted:
        p["mode"], p["step"] = sequence[p["step_index"]]
    planted.sort(key=lambda p: p["step_index"])
    return planted


def hotspot_chunk(chunks, outlier):
    """Where a planted outlier's extra time goes: a straggler's first chunk of
    the step (the forward pass, or the Keras batch); a slow step's PyTorch
    rest of the step (backward, optimizer, data loading), or its Keras batch."""
    mine = [c for c, chunk in enumerate(chunks) if chunk.step_index == outlier["step_index"]]
    if outlier["type"] == "slow-step":
        for c in mine:
            if chunks[c].kind in ("rest", "restswitch"):
                return c
    return mine[0]


def make_plan(args):
    rng = random.Random(args.seed)
    epoch_s = args.epoch if args.epoch is not None else rng.randint(1577836800, 1704067199)
    nodes = node_ids(rng, args)
    hosts = sorted({host for _, _, host in nodes})
    host_skew = {host: round(rng.uniform(-4000.0, 4000.0) * 4) / 4 for host in hosts}
    starts = [epoch_s * 1e6 + rng.uniform(0.0, 200000.0) for _ in nodes]

    sequence = schedule.step_sequence(args.framework, args.steps, args.eval_every, args.eval_steps)
    if args.framework == "pytorch":
        chunks = schedule.pytorch_chunks(sequence, args.steps, not args.no_close)
    else:
        chunks = schedule.keras_chunks(sequence, args.steps)
    planted = plant(rng, args, sequence, len(nodes))
    planted_at = {p["step_index"]: p for p in planted}

    catalogues = {name: templates.Catalogue(TEMPLATES[name], args.framework) for name in args.profilers}
    step_factor = [schedule.lognormal(rng, 0.25) * (1.8 if i == 0 else 1.25 if i == 1 else 1.0)
                   for i in range(args.steps)]
    # Data-parallel nodes run the same code at each step: one template per
    # chunk for all of them. Only their times differ.
    hot_chunks = {hotspot_chunk(chunks, outlier) for outlier in planted}
    chosen = [{name: catalogue.choose(rng, chunk.kind, chunk.mode, chunk.step_index, need_root=c in hot_chunks)
               for name, catalogue in catalogues.items()} for c, chunk in enumerate(chunks)]
    CHOSEN[:] = chosen
    plans = []
    for n, (node_id, rank, host) in enumerate(nodes):
        plan = schedule.NodePlan(n, node_id, rank)
        node_factor = schedule.lognormal(rng, 0.05)
        for chunk in chunks:
            factor = node_factor * schedule.lognormal(rng, 0.06)
            if chunk.step_index is not None:
                factor *= step_factor[chunk.step_index]
            plan.factors.append(factor)
            plan.extras.append(0.0)
        for outlier in planted:
            if n not in outlier["nodes"]:
                continue
            hot = hotspot_chunk(chunks, outlier)
            scaled = [c for c, chunk in enumerate(chunks) if chunk.step_index == outlier["step_index"]]
            for c in scaled if outlier["type"] == "slow-step" else [hot]:
                plan.factors[c] *= outlier["factor"]
            plan.extras[hot] = outlier["extra_seconds"]
            plan.hotspot_chunks.add(hot)
        plan.walls = [max(t.need_s for t in chosen[c].values()) * plan.factors[c] + plan.extras[c]
                      for c in range(len(chunks))]
        plans.append(plan)

    if "pyinstrument" in args.profilers:
        plant_empty_sessions(rng, args, plans, chunks, planted_at)
    schedule.plan_times(rng, plans, chunks, starts, [host_skew[host] for _, _, host in nodes],
                        args.framework == "pytorch" and not args.no_close)
    return {"epoch_s": epoch_s, "nodes": nodes, "host_skew": host_skew, "chunks": chunks, "plans": plans,
            "planted": planted, "catalogues": catalogues, "sequence": sequence}


def plant_empty_sessions(rng, args, plans, chunks, planted_at):
    """Pyinstrument intervals without data, as real jobs have them: ~1% of the
    step chunks with no sample (root_frame null) and ~0.2% where pyinstrument
    3 failed and smdebug wrote its stand-in pair; from 10 steps on, at least
    one of each. Never on a planted step."""
    candidates = [(n, c) for n in range(len(plans)) for c, chunk in enumerate(chunks)
                  if chunk.step_index is not None and chunk.step_index >= 2 and chunk.step_index not in planted_at
                  and chunk.kind in ("fwd", "rest", "step", "between")]
    if not candidates:
        return
    for n, c in candidates:
        draw = rng.random()
        if draw < 0.002:
            plans[n].special[c] = "failure"
        elif draw < 0.012:
            plans[n].special[c] = "empty"
    for kind in ("failure", "empty"):
        if args.steps >= 10 and not any(kind in p.special.values() for p in plans):
            free = [(n, c) for n, c in candidates if c not in plans[n].special]
            n, c = free[rng.randrange(len(free))]
            plans[n].special[c] = kind


# ---------------------------------------------------------------- writing

def write_node(task):
    """Writes one node's folders; returns what the manifest needs from them."""
    out, framework, profilers, seed, html, plan = task
    rename = cprofile_stats.function_address_renamer(
        0x7F0000000000 + (random.Random("%d/address/%s" % (seed, plan.node_id)).getrandbits(28) << 12))
    files = size = 0
    hotspots = {}
    for c, name in enumerate(plan.names):
        for profiler in profilers:
            template = CHOSEN[c][profiler]
            folder = os.path.join(out, "framework", framework, profiler, plan.node_id, name)
            os.makedirs(folder)
            extra = plan.extras[c]
            if profiler == "cprofile":
                data, hot, _ = cprofile_stats.emit(template.data, plan.factors[c], extra, rename,
                                                   template.address_names)
                written = {"python_stats": data}
                if hot is not None:
                    hotspots.setdefault(c, {})["cprofile"] = list(hot)
            else:
                written, hot = pyinstrument_files(template, plan, c, seed)
                if not html:
                    del written["python_stats.html"]
                if hot is not None:
                    hotspots.setdefault(c, {})["pyinstrument"] = hot
            for file_name, data in written.items():
                with open(os.path.join(folder, file_name), "wb") as fh:
                    fh.write(data)
                files += 1
                size += len(data)
    return {"files": files, "bytes": size, "hotspots": hotspots}


def pyinstrument_files(template, plan, c, seed):
    special = plan.special.get(c)
    if special == "failure":
        return {"python_stats.json": pyinstrument_session.FAILURE_JSON.encode(),
                "python_stats.html": pyinstrument_session.FAILURE_HTML.encode()}, None
    rng = random.Random("%d/%s/%d" % (seed, plan.node_id, c))
    program = re.sub(r"--rank \d+", "--rank %d" % plan.rank, template.session["program"])
    start = plan.starts_us[c] / 1e6 + template.start_offset_s
    if special == "empty":
        session, hot = pyinstrument_session.empty_session(template.session, plan.factors[c], start,
                                                          plan.walls[c], program), None
    else:
        session, hot = pyinstrument_session.scaled_session(template.session, plan.factors[c], rng, start,
                                                           plan.walls[c], program, plan.extras[c])
    text = pyinstrument_session.render(session)
    return {"python_stats.json": text.encode("utf-8"),
            "python_stats.html": pyinstrument_session.html_page(text).encode("utf-8")}, hot


def write_all(args, plan):
    tasks = [(args.out, args.framework, args.profilers, args.seed, not args.no_html, p) for p in plan["plans"]]
    if args.jobs == 1 or len(tasks) == 1:
        return [write_node(t) for t in tasks]
    with multiprocessing.get_context("fork").Pool(min(args.jobs, len(tasks))) as pool:
        return pool.map(write_node, tasks, chunksize=1)


# ---------------------------------------------------------------- manifest

def interval_path(args, profiler, plan, c):
    return "framework/%s/%s/%s/%s" % (args.framework, profiler, plan.node_id, plan.names[c])


def manifest(args, argv, plan, results):
    plans, chunks = plan["plans"], plan["chunks"]
    first = min(plans, key=lambda p: (p.starts_us[0], p.node_id))
    outliers = []
    for p in plan["planted"]:
        entry = {"type": p["type"], "step_index": p["step_index"], "mode": p["mode"], "step": p["step"],
                 "factor": p["factor"], "extra_seconds": p["extra_seconds"],
                 "nodes": [plans[n].node_id for n in p["nodes"]],
                 "description": ("every node: every time of the step x factor, plus extra_seconds of self time "
                                 "in the hotspot function of one chunk" if p["type"] == "slow-step" else
                                 "one node: every time of its first chunk of the step x factor, plus "
                                 "extra_seconds in the hotspot; the other nodes wait at the next step start"),
                 "intervals": {}, "hotspots": {}}
        for n in p["nodes"]:
            node = plans[n]
            mine = [c for c, chunk in enumerate(chunks) if chunk.step_index == p["step_index"]]
            for profiler in args.profilers:
                entry["intervals"].setdefault(profiler, {})[node.node_id] = [
                    interval_path(args, profiler, node, c) for c in mine]
            hot = next(c for c in mine if c in node.hotspot_chunks)
            found = results[n]["hotspots"].get(hot, {})
            spot = {"interval_name": node.names[hot]}
            if "cprofile" in found:
                spot["cprofile_interval"] = interval_path(args, "cprofile", node, hot)
                spot["cprofile_key"] = found["cprofile"]
                spot["cprofile_function"] = cprofile_stats.display_name(tuple(found["cprofile"]))
            if "pyinstrument" in found:
                spot["pyinstrument_interval"] = interval_path(args, "pyinstrument", node, hot)
                spot["pyinstrument_frame"] = found["pyinstrument"]
            entry["hotspots"][node.node_id] = spot
        outliers.append(entry)

    kinds = {}
    for chunk in chunks:
        kinds[chunk.kind] = kinds.get(chunk.kind, 0) + 1
    specials = {"empty": [], "failure": []}
    if "pyinstrument" in args.profilers:
        for node in plans:
            for c in range(len(chunks)):
                what = node.special.get(c)
                if what is None and not CHOSEN[c]["pyinstrument"].has_root:
                    what = "empty"  # as in the real interval it comes from
                if what is not None:
                    specials[what].append(interval_path(args, "pyinstrument", node, c))
    kept = [a for a in argv if a != "--force"]
    if "--jobs" in kept:  # the output does not depend on it
        del kept[kept.index("--jobs"):kept.index("--jobs") + 2]
    kept = [a for a in kept if not a.startswith("--jobs=")]
    return {
        "generator": "tools/make-corpus.py",
        "command": ["make-corpus.py"] + kept,
        "seed": args.seed,
        "framework": args.framework,
        "profilers": args.profilers,
        "layout": "framework/%s/<profiler>/<node_id>/<interval>/<files>" % args.framework,
        "nodes": [p.node_id for p in plans],
        "node_any": first.node_id,
        "hosts": {p.node_id: "algo-%d" % host for p, (_, _, host) in zip(plans, plan["nodes"])},
        "clock_skew_us": {p.node_id: plan["host_skew"][host] for p, (_, _, host) in zip(plans, plan["nodes"])},
        "steps": args.steps,
        "step_modes": sorted({mode for mode, _ in plan["sequence"][:args.steps]}),
        "eval_every": args.eval_every or None,
        "eval_steps": args.eval_steps if args.eval_every else 0,
        "hook_close": not args.no_close,
        "html": "pyinstrument" in args.profilers and not args.no_html,
        "epoch_s": plan["epoch_s"],
        "first_interval_start_us": first.starts_us[0],
        "intervals_per_node": len(chunks),
        "intervals": {profiler: len(chunks) * len(plans) for profiler in args.profilers},
        "interval_kinds": dict(sorted(kinds.items())),
        "files": sum(r["files"] for r in results),
        "bytes": sum(r["bytes"] for r in results),
        "warm_up": "step 0 times x1.8, step 1 x1.25",
        "planted_outliers": outliers,
        "pyinstrument_empty_sessions": specials["empty"],
        "pyinstrument_failure_pairs": specials["failure"],
        "templates": {name: [t.manifest() for t in sorted(c.used, key=lambda t: t.label)]
                      for name, c in plan["catalogues"].items()},
    }


def prepare_out(args):
    if os.path.lexists(args.out):
        if not args.force:
            sys.exit("make-corpus.py: %s exists (--force replaces a corpus)" % args.out)
        if os.listdir(args.out) and not os.path.exists(os.path.join(args.out, MANIFEST)):
            sys.exit("make-corpus.py: %s is not a corpus (no %s): not replacing it" % (args.out, MANIFEST))
        shutil.rmtree(args.out)
    os.makedirs(args.out)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    started = time.perf_counter()
    try:
        for profiler in args.profilers:
            dirs = args.template_dir or templates.default_dirs(REPO_ROOT, args.framework, profiler)
            TEMPLATES[profiler] = templates.load(dirs, profiler, REPO_ROOT)
        plan = make_plan(args)
    except (OSError, ValueError) as e:
        sys.exit("make-corpus.py: %s" % e)
    prepare_out(args)
    results = write_all(args, plan)
    info = manifest(args, argv, plan, results)
    with open(os.path.join(args.out, MANIFEST), "w", encoding="utf-8") as fh:
        json.dump(info, fh, indent=1)
        fh.write("\n")
    print("%s: %d nodes, %d intervals, %d files, %.1f MB in %.2f s"
          % (args.out, len(info["nodes"]), sum(info["intervals"].values()), info["files"], info["bytes"] / 1e6,
             time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
