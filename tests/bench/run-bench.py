#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""run-bench.py - smprof against smdebug's way of aggregating, on synthetic corpora.

Makes small, medium and large corpora with the repository's tools/make-corpus.py in a scratch
folder (reused when they already match), then measures, each against the reference run in the
same session (tools/smdebug-aggregate.py: smdebug's method, pstats.Stats().add in record order):

  1. cold: index the job and aggregate everything, on one node and on all nodes
     (the `smprof stats --all` command line, a fresh process each time);
  2. 100 random step ranges and time ranges on one node (the command line, one process each);
  3. interactive re-aggregation, the core call behind the timeline's drag selection
     (smprof_range_index_aggregate), median and worst of 1,000 random ranges on the loaded job;
  4. peak memory (RSS) with the large corpus loaded, against its bytes on disk;
  5. flame graph: the estimated tree, layout and first render of the largest merged tree, and
     of a synthetic 100,000-frame tree;
  6. first and second open of one node with the parsed index ($XDG_CACHE_HOME/smprof/index, in
     the scratch folder): the second read from the cache, checked to parse nothing and to answer
     byte for byte as --no-cache (figures 1 and 2 run with --no-cache: they are first opens);
  7. the viewer on an s3:// job of 100 nodes on a loopback S3 (bench-s3-open, under xvfb-run):
     the listing, then the timeline drawn, then the answer to one step chosen on every node as
     the timeline shows, against the issue's targets (3 s, then 2 s more). Only when asked
     (--figures s3-open): its corpus (100 nodes x 200 steps, 40,000 stats files) is made then.
  8. the viewer on a job of 256 nodes x 200 steps: re-aggregating 1,000 random ranges on all
     nodes (against the 20 ms target) and the main loop's worst stall while the page opens,
     scrolls, shows each view, takes drag selections and closes (bench-job-page, under xvfb-run,
     or with --display weston under a headless Wayland compositor, against the 50 ms target).
     Only when asked (--figures viewer-256).

As root (or wherever /proc/sys/vm/drop_caches can be written), figures 1 and 6 are measured a
second time with the page cache dropped before every run, on both sides (--no-drop-caches: not).

The reference runs are bounded: each is run once, and where smprof runs many queries the
reference runs a random sample of them (--ref-queries), the ratio comparing the same sample.

Prints a table (figure, smprof, reference, ratio) and writes it, with the raw numbers, to
--out; with --write-doc, also into docs/benchmarks.md between its <!-- bench:begin --> and
<!-- bench:end --> markers. Needs nothing beside the clone (--tools points elsewhere if you want
to compare other versions of the tools). Python standard library only. Not a test: nothing here
is part of `meson test`.
"""

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(SOURCE_ROOT, "tools")
DOC = os.path.join(SOURCE_ROOT, "docs", "benchmarks.md")
DOC_BEGIN, DOC_END = "<!-- bench:begin -->", "<!-- bench:end -->"

SIZES = {
    "tiny": ["--nodes", "2", "--steps", "20"],  # a smoke run of the script itself
    "small": ["--nodes", "2", "--steps", "100"],
    "medium": ["--nodes", "4", "--steps", "500"],
    "large": ["--nodes", "8", "--steps", "2000"],
}
# Figure 7's job, made only when that figure is asked for: 100 nodes of 400
# stats files each, the 40,000.
S3_CORPUS = ("s3-100", ["--nodes", "100", "--steps", "200"])
S3_TARGETS_S = {"timeline": 3.0, "answer": 2.0}
# Figure 8's job, made only when that figure is asked for: the issue's 256 nodes
# x 200 steps, with evaluation phases so the timeline has both modes.
VIEWER_CORPUS = ("job-256", ["--nodes", "256", "--steps", "200", "--seed", "7",
                             "--eval-every", "50", "--eval-steps", "5"])
VIEWER_TARGETS_MS = {"stall": 50.0, "reaggregate": 20.0}
# --viewer-open: how figure 8's page reads the job, as its rows name it
VIEWER_OPENINGS = {"kept": "the user's parsed index", "first": "first opens (no parsed index)",
                   "first-from-disk": "first opens, the job's files read from the disk"}
PER_SIZE_FIGURES = ("cold", "queries", "interactive", "memory", "flame", "second-open")


def log(message):
    print(message, file=sys.stderr, flush=True)


def load_average():
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def wait_until_quiet(limit, timeout):
    """Other work on the machine skews every figure; wait a while for it to end."""
    deadline = time.monotonic() + timeout
    while load_average() > limit and time.monotonic() < deadline:
        log(f"load average {load_average():.2f} > {limit}: waiting")
        time.sleep(15)


DROP_CACHES = "/proc/sys/vm/drop_caches"


def can_drop_page_cache():
    """Whether drop_page_cache() would work here, without dropping anything:
    finding out by dropping it emptied the whole page cache at the start of
    every invocation, so that the first run of every figure read GTK, its
    icon loaders and the fonts from the disk too."""
    return os.access(DROP_CACHES, os.W_OK)


def drop_page_cache():
    """Empties the kernel's page cache (root only), so the next run reads from
    disk; returns False where the machine does not allow it."""
    try:
        os.sync()
        with open(DROP_CACHES, "w") as f:
            f.write("3\n")
        return True
    except OSError:
        return False


def evict_from_page_cache(folder):
    """Asks the kernel to drop the cached pages of every file under folder
    (posix_fadvise, no root needed), so that the next run reads them from the
    disk while the programs and libraries that read them stay in memory, as
    when a user opens a job not read since the machine started."""
    for root, _, files in os.walk(folder):
        for name in files:
            fd = os.open(os.path.join(root, name), os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv, stdout=subprocess.DEVNULL, ok=(0,), cpu=None, env=None):
    """Runs argv; returns (wall seconds, stdout text or None). Appends its CPU
    seconds (user + system, every thread) to the list @cpu if given: unlike the
    wall time, that hardly moves when other work shares the machine."""
    start = time.perf_counter()
    cpu_start = children_cpu()
    result = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, text=True, env=env)
    seconds = time.perf_counter() - start
    if cpu is not None:
        cpu.append(children_cpu() - cpu_start)
    if result.returncode not in ok:
        raise RuntimeError(f"{' '.join(argv)} exited with {result.returncode}: {result.stderr.strip()}")
    return seconds, result.stdout if stdout == subprocess.PIPE else None


class HeadlessWeston:
    """A Wayland compositor with no screen (Weston's headless backend) for
    figure 8 with --display weston: the viewer's frames then go to a
    compositor, as on a GNOME desktop, instead of an X server that GDK asks
    for the monitor's work area at every resize and that draws the cairo
    renderer's images before it answers."""

    def __init__(self, width, height):
        self.runtime = tempfile.mkdtemp(prefix="smprof-bench-wayland-")
        os.chmod(self.runtime, 0o700)
        self.socket = "smprof-bench"
        self.process = subprocess.Popen(
            ["weston", "--backend=headless-backend.so", f"--width={width}", f"--height={height}",
             f"--socket={self.socket}", "--idle-time=0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=dict(os.environ, XDG_RUNTIME_DIR=self.runtime))
        deadline = time.time() + 20
        while not os.path.exists(os.path.join(self.runtime, self.socket)):
            if self.process.poll() is not None or time.time() > deadline:
                self.close()
                raise RuntimeError("weston --backend=headless-backend.so did not start")
            time.sleep(0.1)

    def env(self):
        return {"XDG_RUNTIME_DIR": self.runtime, "WAYLAND_DISPLAY": self.socket, "GDK_BACKEND": "wayland"}

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.runtime, ignore_errors=True)


def make_corpus(tools, scratch, size, fresh, args=None):
    path = os.path.join(scratch, size)
    manifest_path = os.path.join(path, "corpus-manifest.json")
    args = args or SIZES[size]
    if not fresh and os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
        if manifest.get("command", [])[2:] == args:
            return path, manifest
    log(f"making the {size} corpus in {path}")
    started = time.perf_counter()
    subprocess.run([sys.executable, os.path.join(tools, "make-corpus.py"), path, "--force"] + args,
                   check=True, stdout=subprocess.DEVNULL)
    log(f"  made in {time.perf_counter() - started:.1f} s")
    with open(manifest_path) as f:
        return path, json.load(f)


def disk_bytes(path):
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            total += os.path.getsize(os.path.join(folder, name))
    return total


class Bench:
    def __init__(self, args):
        self.args = args
        self.smprof = os.path.join(args.build_dir, "cli", "smprof")
        self.driver = os.path.join(args.build_dir, "tests", "bench", "bench-smprof")
        self.reference = os.path.join(args.tools, "smdebug-aggregate.py")
        for path, hint in ((self.smprof, "build smprof"),
                           (self.driver, "configure the build with -Dbenchmarks=true"),
                           (self.reference, "--tools names a folder without the reference")):
            if not os.path.exists(path):
                sys.exit(f"run-bench.py: {path} is missing ({hint})")
        self.rows = []
        self.raw = {}
        self.rand = random.Random(args.seed)

    def add(self, figure, smprof, reference, ratio, note=""):
        self.rows.append((figure, smprof, reference, ratio, note))
        log(f"  {figure}: {smprof} | {reference} | {ratio}")

    def ref(self, corpus, *selection, node="any", json_out=False, cpu=None):
        # Exit status 1 is an answer too: smdebug's None (nothing selected).
        argv = [sys.executable, self.reference, os.path.join(corpus, "framework", "pytorch", "cprofile"),
                "--node", node] + list(selection) + (["--json"] if json_out else ["--quiet"])
        return timed(argv, stdout=subprocess.PIPE if json_out else subprocess.DEVNULL, ok=(0, 1), cpu=cpu)

    def cli(self, corpus, *selection, node="any", capture=False, cpu=None):
        # Exit status 1 is an answer too: nothing selected. Figures 1 and 2
        # are first opens: the parsed index is figure 6's.
        argv = [self.smprof, "stats", corpus, "--node", node] + list(selection) + ["--json", "--no-cache"]
        return timed(argv, stdout=subprocess.PIPE if capture else subprocess.DEVNULL, ok=(0, 1), cpu=cpu)

    def node_span(self, corpus, node):
        """The first start and last end of a node's intervals, in seconds."""
        _, listing = timed([self.smprof, "list", corpus, "--json"], stdout=subprocess.PIPE)
        intervals = [r for r in json.loads(listing) if node == "all" or r["node_id"] == node]
        return (min(r["start_time_since_epoch_in_micros"] for r in intervals) / 1e6,
                max(r["end_time_since_epoch_in_micros"] for r in intervals) / 1e6)

    def driver_json(self, *argv):
        _, out = timed([self.driver] + list(argv), stdout=subprocess.PIPE)
        return json.loads(out)

    # 1. cold index + full aggregation
    def cold(self, size, corpus):
        for node in ("any", "all"):
            our_cpu, their_cpu = [], []
            times = [self.cli(corpus, "--all", node=node, cpu=our_cpu)[0] for _ in range(self.args.repeat)]
            ours = statistics.median(times)
            theirs, _ = self.ref(corpus, "--all", node=node, cpu=their_cpu)
            breakdown = self.driver_json("cold", corpus, "--node", node)
            self.raw[f"{size}/cold/{node}"] = {"smprof_s": times, "reference_s": theirs, "in_process": breakdown,
                                               "smprof_cpu_s": our_cpu, "reference_cpu_s": their_cpu}
            label = "one node" if node == "any" else "all nodes"
            self.add(f"{size}: (1) cold index + aggregate all, {label} ({breakdown['intervals']:,} intervals)",
                     f"{ours:.3f} s", f"{theirs:.2f} s", f"{theirs / ours:.0f}x faster",
                     f"CPU time {statistics.median(our_cpu):.2f} s vs {their_cpu[0]:.2f} s "
                     f"({their_cpu[0] / statistics.median(our_cpu):.0f}x less)")
            if self.args.drop_caches:
                self.cold_from_disk(size, corpus, node, label, breakdown["intervals"])

    def cold_from_disk(self, size, corpus, node, label, intervals):
        """Figure 1 again with the page cache dropped before every run: the
        stats files read from the disk, on both sides."""
        times = []
        for _ in range(self.args.repeat):
            drop_page_cache()
            times.append(self.cli(corpus, "--all", node=node)[0])
        drop_page_cache()
        theirs, _ = self.ref(corpus, "--all", node=node)
        ours = statistics.median(times)
        self.raw[f"{size}/cold-disk/{node}"] = {"smprof_s": times, "reference_s": theirs}
        self.add(f"{size}: (1) the same, page cache dropped before each run, {label} ({intervals:,} intervals)",
                 f"{ours:.3f} s", f"{theirs:.2f} s", f"{theirs / ours:.0f}x faster",
                 f"median of {len(times)}; load average {load_average():.2f}")

    # 2. random step and time ranges on one node, one process per query
    def queries(self, size, corpus, manifest):
        node = manifest["node_any"]
        steps = manifest["steps"]
        first, last = self.node_span(corpus, node)
        mode = "global" if not manifest.get("eval_every") else "train"

        queries = []
        for i in range(self.args.queries):
            if i % 2 == 0:
                a, b = sorted(self.rand.randrange(steps) for _ in range(2))
                queries.append(("--step", str(a), "--end-step", str(b), "--mode", mode))
            else:
                a, b = sorted(self.rand.uniform(first, last) for _ in range(2))
                queries.append(("--time", repr(a), repr(b)))

        ours = []
        for q in queries:
            seconds, out = self.cli(corpus, *q, node=node, capture=True)
            ours.append((seconds, json.loads(out) if out.strip() else None))

        sample = self.rand.sample(range(len(queries)), min(self.args.ref_queries, len(queries)))
        theirs, same = [], 0
        for i in sample:
            q = queries[i]
            ref_args = (q[0], q[1], q[3], "--mode", q[5]) if q[0] == "--step" else q
            seconds, out = self.ref(corpus, *ref_args, node=node, json_out=True)
            theirs.append(seconds)
            expected = json.loads(out)
            got = ours[i][1]
            if (expected is None and got is None) or (
                    expected is not None and got is not None
                    and expected["total_tt"] == got["total_time"]
                    and expected["total_calls"] == got["total_calls"]
                    and len(expected["functions"]) == len(got["functions"])):
                same += 1
        ours_mean = statistics.mean(s for s, _ in ours)
        ours_sample = statistics.mean(ours[i][0] for i in sample)
        theirs_mean = statistics.mean(theirs)
        self.raw[f"{size}/queries"] = {"smprof_s": [s for s, _ in ours], "reference_s": theirs, "sample": sample,
                                       "same_answers": same}
        self.add(f"{size}: (2) {len(queries)} random step/time ranges, one node, mean per query",
                 f"{ours_mean:.3f} s", f"{theirs_mean:.2f} s ({len(sample)} sampled)",
                 f"{theirs_mean / ours_sample:.0f}x faster",
                 f"same totals as the reference in {same}/{len(sample)}")

    # 3. interactive re-aggregation
    def interactive(self, size, corpus, manifest):
        for node in ("any", "all"):
            result = self.driver_json("interactive", corpus, "--node", node, "--ranges", str(self.args.ranges),
                                      "--verify", "20", "--seed", str(self.args.seed))
            # smdebug's way to answer a new range is to load and add its files again.
            samples = []
            rounds = self.args.ref_ranges if node == "any" else max(1, self.args.ref_ranges // 3)
            first, last = self.node_span(corpus, manifest["node_any"] if node == "any" else "all")
            for _ in range(rounds):
                a, b = sorted(self.rand.uniform(first, last) for _ in range(2))
                samples.append(self.ref(corpus, "--time", repr(a), repr(b), node=node)[0])
            theirs = statistics.median(samples)
            self.raw[f"{size}/interactive/{node}"] = {"smprof": result, "reference_s": samples}
            label = "one node" if node == "any" else "all nodes"
            self.add(f"{size}: (3) re-aggregate a range, {label}, function rows + callers: "
                     f"median / worst of {result['ranges']:,}",
                     f"{result['rows_median_ms']:.2f} / {result['rows_worst_ms']:.2f} ms",
                     f"{theirs:.2f} s (median of {len(samples)})",
                     f"{theirs * 1e3 / result['rows_median_ms']:.0f}x / "
                     f"{theirs * 1e3 / result['rows_worst_ms']:.0f}x faster",
                     f"CPU time {result['rows_median_cpu_ms']:.2f} / {result['rows_worst_cpu_ms']:.2f} ms; "
                     f"index built in {result['build_s']:.2f} s, {result['index_bytes'] / 1e6:.1f} MB; "
                     f"{result['verified']} ranges checked against the record-order merge: "
                     f"{result['mismatches']} mismatches, max error {result['max_relative_error']:.1g} of the total")
            self.add(f"{size}: (3) the same as a SmprofProfile, with its estimated call tree",
                     f"{result['median_ms']:.2f} / {result['worst_ms']:.2f} ms", "",
                     f"{theirs * 1e3 / result['median_ms']:.0f}x / {theirs * 1e3 / result['worst_ms']:.0f}x faster",
                     f"CPU time {result['median_cpu_ms']:.2f} / {result['worst_cpu_ms']:.2f} ms")

    # 4. memory
    def memory(self, size, corpus):
        result = self.driver_json("memory", corpus)
        on_disk = disk_bytes(corpus)
        self.raw[f"{size}/memory"] = dict(result, disk_bytes=on_disk)
        self.add(f"{size}: (4) peak RSS, every interval loaded + range index",
                 f"{result['peak_rss_bytes'] / 1e6:.0f} MB", f"{on_disk / 1e6:.0f} MB on disk",
                 f"{result['peak_rss_bytes'] / on_disk:.2f} of disk",
                 f"stats arrays {result['stats_bytes'] / 1e6:.0f} MB, range index {result['index_bytes'] / 1e6:.1f} MB")

    # 5. flame graph
    def flame(self, size, corpus):
        result = self.driver_json("flame", corpus, "--frames", "100000", "--seed", str(self.args.seed))
        self.raw[f"{size}/flame"] = result
        merged, synthetic = result["merged"], result["synthetic"]
        names = {"merged": f"largest merged tree ({merged['frames']:,} frames)",
                 "synthetic": f"synthetic {synthetic['frames']:,}-frame tree"}
        self.add(f"{size}: (5) estimated call tree of the whole job", f"{result['estimated_tree_ms']:.1f} ms", "", "",
                 f"{merged['frames']:,} frames")
        for key in ("merged", "synthetic"):
            tree = result[key]
            self.add(f"{size}: (5) flame layout, {names[key]}", f"{tree['layout_ms']:.1f} ms", "target 100 ms",
                     f"{100 / max(tree['layout_ms'], 1e-3):.0f}x under", f"{tree['rects']:,} rectangles")

        widget = self.flame_widget(corpus)
        if widget is None:
            self.add(f"{size}: (5) flame graph widget: first render, hover redraw", "pending", "", "",
                     "needs a display or xvfb-run")
            return
        self.raw[f"{size}/flame-widget"] = widget
        for key in ("merged", "synthetic"):
            w = widget[key]
            self.add(f"{size}: (5) widget first render, {names[key]}", f"{w['first_render_ms']:.1f} ms", "", "",
                     f"layout + cached render node; whole first frame {w['first_frame_ms']:.0f} ms "
                     f"({widget['renderer']}, {widget['width']}x{widget['height']})")
            self.add(f"{size}: (5) widget redraw while hovering, {names[key]}: median / worst",
                     f"{w['hover_median_ms']:.3f} / {w['hover_worst_ms']:.3f} ms", "target 8 ms",
                     f"{8 / max(w['hover_worst_ms'], 1e-3):.0f}x under (worst)",
                     f"snapshot() replaying the cached node; whole frame {w['hover_frame_median_ms']:.1f} / "
                     f"{w['hover_frame_worst_ms']:.1f} ms")

    def flame_widget(self, corpus):
        driver = os.path.join(self.args.build_dir, "tests", "bench", "bench-flame-widget")
        if not os.path.exists(driver):
            return None
        argv = [driver, corpus, "--frames", "100000", "--seed", str(self.args.seed)]
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            if not shutil.which("xvfb-run"):
                return None
            argv = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24"] + argv
        env = dict(os.environ, GTK_A11Y="none")
        result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        if result.returncode != 0:
            log(f"bench-flame-widget failed: {result.stderr.strip()}")
            return None
        return json.loads(result.stdout)

    # 6. first and second open of one node, the second read from the parsed index
    def second_open(self, size, corpus, manifest):
        node = manifest["node_any"]
        cache = os.path.join(self.args.scratch, f"index-cache-{size}")
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        env.pop("SMPROF_NO_CACHE", None)
        argv = [self.smprof, "stats", corpus, "--node", node, "--all", "--json"]
        shutil.rmtree(cache, ignore_errors=True)
        load = load_average()
        uncached, plain = timed(argv + ["--no-cache"], stdout=subprocess.PIPE)
        first_cpu, second_cpu, their_cpu = [], [], []
        first, written = timed(argv, stdout=subprocess.PIPE, env=env, cpu=first_cpu)
        # The second open must read every interval from the cache and answer
        # the same, byte for byte (GLib prints debug messages to stdout).
        _, debug = timed(argv, stdout=subprocess.PIPE, env=dict(env, G_MESSAGES_DEBUG="smprof"))
        hits = [line for line in debug.splitlines() if "parsed index:" in line]
        seconds = []
        for _ in range(self.args.repeat):
            t, again = timed(argv, stdout=subprocess.PIPE, env=env, cpu=second_cpu)
            seconds.append(t)
            if again != plain:
                raise RuntimeError("the second open's answer differs from --no-cache's")
        if written != plain:
            raise RuntimeError("the first open's answer differs from --no-cache's")
        if not hits or any(h.split("parsed index: ")[1].split(" of ")[0] != h.split(" of ")[1].split()[0]
                           for h in hits):
            raise RuntimeError(f"the second open parsed stats files: {hits}")
        theirs, _ = self.ref(corpus, "--all", node=node, cpu=their_cpu)
        second = statistics.median(seconds)
        self.raw[f"{size}/second-open/{node}"] = {"no_cache_s": uncached, "first_s": first, "second_s": seconds,
                                                  "reference_s": theirs, "first_cpu_s": first_cpu,
                                                  "second_cpu_s": second_cpu, "reference_cpu_s": their_cpu,
                                                  "cache_hits": hits, "load_average": [load, load_average()],
                                                  "cache_bytes": disk_bytes(cache)}
        self.add(f"{size}: (6) second open of one node ({node}, --all), from the parsed index",
                 f"{second:.3f} s (first {first:.3f} s)", f"{theirs:.2f} s",
                 f"{theirs / second:.0f}x faster (first open {theirs / first:.0f}x)",
                 f"CPU time {statistics.median(second_cpu):.3f} s vs {their_cpu[0]:.2f} s; "
                 f"cache {disk_bytes(cache) / 1e6:.0f} MB; load average {load:.2f} / {load_average():.2f}")
        if not self.args.drop_caches:
            return
        # Both read from the disk: the parsed index's file for smprof, the
        # stats files for the reference.
        cold = []
        for _ in range(self.args.repeat):
            drop_page_cache()
            t, again = timed(argv, stdout=subprocess.PIPE, env=env)
            cold.append(t)
            if again != plain:
                raise RuntimeError("the second open's answer from the disk differs from --no-cache's")
        drop_page_cache()
        theirs_cold, _ = self.ref(corpus, "--all", node=node)
        self.raw[f"{size}/second-open-disk/{node}"] = {"second_s": cold, "reference_s": theirs_cold}
        self.add(f"{size}: (6) the same, page cache dropped before each run",
                 f"{statistics.median(cold):.3f} s", f"{theirs_cold:.2f} s",
                 f"{theirs_cold / statistics.median(cold):.0f}x faster",
                 f"median of {len(cold)}; load average {load_average():.2f}")

    # 7. the viewer on an s3:// job of 100 nodes, from a loopback S3
    def s3_open(self):
        driver = os.path.join(self.args.build_dir, "tests", "bench", "bench-s3-open")
        if not os.path.exists(driver):
            self.add("(7) S3 job of 100 nodes: listing, timeline, one step's answer", "pending", "", "",
                     "bench-s3-open is built with -Dtests=true -Dbenchmarks=true")
            return
        size, corpus_args = S3_CORPUS
        corpus, manifest = make_corpus(self.args.tools, self.args.scratch, size, self.args.fresh, corpus_args)
        argv = [driver, corpus] + (["--all"] if self.args.s3_all else [])
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            if not shutil.which("xvfb-run"):
                self.add("(7) S3 job of 100 nodes: listing, timeline, one step's answer", "pending", "", "",
                         "needs a display or xvfb-run")
                return
            argv = ["xvfb-run", "-a", "-s", "-screen 0 1920x1200x24"] + argv
        env = dict(os.environ, GSETTINGS_SCHEMA_DIR=os.path.join(self.args.build_dir, "data"),
                   GSK_RENDERER="cairo", GTK_A11Y="none")
        runs = []
        for i in range(self.args.repeat):
            log(f"  s3-open run {i + 1} of {self.args.repeat} (load average {load_average():.2f})")
            result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            if result.returncode != 0:
                raise RuntimeError(f"bench-s3-open exited with {result.returncode}: {result.stderr.strip()}")
            runs.append(json.loads(result.stdout))
        self.raw["s3-open"] = runs
        first = runs[0]
        label = (f"{first['nodes']} nodes, {first['records']:,} stats files, "
                 f"{first['connections']} connections")
        loads = ", ".join(r["load_before"].split()[0] for r in runs)

        def median_of(key):
            return statistics.median(r[key] for r in runs)

        def worst_of(key):
            return max(r[key] for r in runs)

        self.add(f"(7) S3 job ({label}): the listing, open to open_finish(), median / worst of {len(runs)}",
                 f"{median_of('listing_ms') / 1e3:.2f} / {worst_of('listing_ms') / 1e3:.2f} s", "", "",
                 f"stats GETs by then {worst_of('stats_gets_at_listing')}; worst main-loop stall "
                 f"{worst_of('worst_stall_listing_ms'):.0f} ms; load average {loads}")
        for key, name, gets, stall, target in (
                ("to_timeline_ms", "open_finish() to the timeline drawn", "stats_gets_at_timeline",
                 "worst_stall_to_timeline_ms", S3_TARGETS_S["timeline"]),
                ("to_answer_ms", f"then one {first['step_mode']} step on every node ({first['step_records']} "
                 "files) to its answer", "stats_gets_at_answer", "worst_stall_to_answer_ms",
                 S3_TARGETS_S["answer"])):
            median, worst = median_of(key) / 1e3, worst_of(key) / 1e3
            self.add(f"(7) S3 job: {name}, median / worst of {len(runs)}",
                     f"{median:.2f} / {worst:.2f} s", f"target {target:.0f} s",
                     f"met: the worst {target / max(worst, 1e-3):.1f}x under" if worst <= target
                     else f"missed: the worst {worst - target:.2f} s over",
                     f"stats GETs by then {median_of(gets):,.0f} of {first['records']:,} (median); "
                     f"worst main-loop stall {worst_of(stall):.0f} ms")
        if self.args.s3_all:
            self.add("(7) S3 job: then every stats file read and the range index built, median / worst",
                     f"{median_of('to_range_index_ms') / 1e3:.1f} / {worst_of('to_range_index_ms') / 1e3:.1f} s",
                     "", "", f"worst main-loop stall {worst_of('worst_stall_to_range_index_ms'):.0f} ms")

    # 8. the viewer on a 256-node job: main-loop stalls and re-aggregation
    def viewer_256(self):
        size, corpus_args = VIEWER_CORPUS
        corpus, manifest = make_corpus(self.args.tools, self.args.scratch, size, self.args.fresh, corpus_args)
        label = f"256 nodes x 200 steps ({manifest['intervals']['cprofile']:,} intervals)"
        result = self.driver_json("interactive", corpus, "--node", "all", "--ranges", str(self.args.ranges),
                                  "--verify", "5", "--seed", str(self.args.seed))
        self.raw["viewer-256/interactive"] = result
        target = VIEWER_TARGETS_MS["reaggregate"]
        worst = result["rows_worst_ms"]
        self.add(f"(8) {label}: re-aggregate a range on all nodes, function rows + callers: median / worst "
                 f"of {result['ranges']:,}",
                 f"{result['rows_median_ms']:.1f} / {worst:.1f} ms", f"target {target:.0f} ms (worst)",
                 f"met: {target / worst:.1f}x under" if worst <= target else f"missed: {worst - target:.1f} ms over",
                 f"CPU time {result['rows_median_cpu_ms']:.1f} / {result['rows_worst_cpu_ms']:.1f} ms; as a "
                 f"SmprofProfile {result['median_ms']:.1f} / {result['worst_ms']:.1f} ms; index "
                 f"{result['index_bytes'] / 1e6:.0f} MB; load average {load_average():.2f}")

        driver = os.path.join(self.args.build_dir, "tests", "bench", "bench-job-page")
        if not os.path.exists(driver):
            self.add(f"(8) {label}: the viewer's worst main-loop stall", "pending", "", "",
                     "bench-job-page is built with -Dbenchmarks=true")
            return
        argv = [driver, corpus, "--drags", "5"]
        env = dict(os.environ, GSETTINGS_SCHEMA_DIR=os.path.join(self.args.build_dir, "data"),
                   GSETTINGS_BACKEND="memory", GSK_RENDERER="cairo", GTK_A11Y="none")
        weston = None
        if self.args.display == "weston":
            if not shutil.which("weston"):
                self.add(f"(8) {label}: the viewer's worst main-loop stall", "pending", "", "",
                         "--display weston needs Weston (apt-get install weston)")
                return
            weston = HeadlessWeston(1920, 1200)
            env.update(weston.env())
            display = "Weston, headless"
        elif self.args.display == "xvfb" or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            if not shutil.which("xvfb-run"):
                self.add(f"(8) {label}: the viewer's worst main-loop stall", "pending", "", "",
                         "needs a display or xvfb-run")
                return
            argv = ["xvfb-run", "-a", "-s", "-screen 0 1920x1200x24"] + argv
            display = "Xvfb"
        else:
            display = "this session's display"
        # The parsed index the page reads: the user's own (kept: after a first
        # run, reopens), or none, in a cache folder emptied before each run.
        opening = self.args.viewer_open
        cache = os.path.join(self.args.scratch, "viewer-256-cache")
        if opening != "kept":
            env["XDG_CACHE_HOME"] = cache
        runs = []
        try:
            for i in range(self.args.repeat):
                if opening != "kept":
                    shutil.rmtree(cache, ignore_errors=True)
                    os.makedirs(cache)
                if opening == "first-from-disk":
                    evict_from_page_cache(corpus)
                log(f"  bench-job-page run {i + 1} of {self.args.repeat} on {display}, {opening} "
                    f"(load average {load_average():.2f})")
                out = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                if out.returncode != 0:
                    raise RuntimeError(f"bench-job-page exited with {out.returncode}: {out.stderr.strip()}")
                runs.append(json.loads(out.stdout))
        finally:
            if weston is not None:
                weston.close()
        self.raw["viewer-256/job-page"] = {"display": display, "runs": runs}
        label = f"{label}, on {display}, {VIEWER_OPENINGS[opening]}"
        target = VIEWER_TARGETS_MS["stall"]
        loads = ", ".join(r["load_before"].split()[0] for r in runs)
        for key, name in (("worst_stall_open_ms", "opening the job"), ("worst_stall_settle_ms", "the 2 s after"),
                          ("worst_stall_scroll_ms", "scrolling every node row, a frame at a time"),
                          ("worst_stall_views_ms", "showing each view"),
                          ("worst_stall_drag_ms", "5 drag selections"),
                          ("worst_stall_refresh_ms", "a refresh that finds the job unchanged"),
                          ("worst_stall_close_ms", "closing the window")):
            stalls = [r[key] for r in runs if key in r]
            if not stalls:
                continue
            median, worst = statistics.median(stalls), max(stalls)
            self.add(f"(8) {label}: the viewer's worst main-loop stall while {name}, median / worst of {len(runs)}",
                     f"{median:.0f} / {worst:.0f} ms", f"target {target:.0f} ms",
                     f"met" if worst <= target else f"missed: the worst {worst - target:.0f} ms over",
                     f"load average {loads}")
        self.add(f"(8) {label}: the page open, then its first answer; a drag's release to the views updated",
                 f"{statistics.median(r['to_page_ms'] for r in runs) / 1e3:.2f} s, "
                 f"{statistics.median(r['to_first_answer_ms'] for r in runs) / 1e3:.2f} s; "
                 f"{statistics.median(r['drag_to_views_median_ms'] for r in runs):.0f} ms", "", "",
                 f"medians of {len(runs)}; slowest frame {max(r['slowest_frame_ms'] for r in runs):.0f} ms")

    def table(self):
        lines = ["| figure | smprof | reference | ratio | notes |", "| --- | --- | --- | --- | --- |"]
        for row in self.rows:
            lines.append("| " + " | ".join(row) + " |")
        return "\n".join(lines)


def doc_markers(path):
    """The document's text and the places of its two markers, or None."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    begin, end = text.find(DOC_BEGIN), text.find(DOC_END)
    return (text, begin, end) if 0 <= begin < end else None


def write_doc(path, header, table):
    """Replaces what lies between the document's two markers with this run's
    header and table; the rest of the document is left as it is."""
    text, begin, end = doc_markers(path)
    text = text[:begin + len(DOC_BEGIN)] + "\n" + header + "\n" + table + "\n" + text[end:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-dir", default=os.path.join(SOURCE_ROOT, "_build_perf"),
                   help="a build configured with -Dbuildtype=release -Dbenchmarks=true (default: _build_perf)")
    p.add_argument("--scratch", default="/tmp/smprof-bench", help="where the corpora go (default /tmp/smprof-bench)")
    p.add_argument("--sizes", default="small,medium,large",
                   help="comma-separated: tiny (2 x 20, a smoke run), small (2 x 100), medium (4 x 500), "
                        "large (8 x 2000); figures 4 and 5 use the last")
    p.add_argument("--fresh", action="store_true", help="remake the corpora even if they exist")
    p.add_argument("--repeat", type=int, default=3, help="smprof runs per cold figure; the median is shown")
    p.add_argument("--queries", type=int, default=100, help="random step/time queries for figure 2")
    p.add_argument("--ref-queries", type=int, default=10, help="how many of them the reference also runs")
    p.add_argument("--ranges", type=int, default=1000, help="random ranges for figure 3")
    p.add_argument("--ref-ranges", type=int, default=5, help="reference runs for figure 3 (one node)")
    p.add_argument("--figures", default="cold,queries,interactive,memory,flame,second-open",
                   help="comma-separated, of: cold (1), queries (2), interactive (3), memory (4), flame (5), "
                        "second-open (6), s3-open (7: only when named; makes its own 100-node corpus), "
                        "viewer-256 (8: only when named; makes its own 256-node corpus)")
    p.add_argument("--s3-all", action="store_true",
                   help="figure 7: also wait for every stats file and the range index (minutes)")
    p.add_argument("--drop-caches", action=argparse.BooleanOptionalAction, default=None,
                   help="figures 1 and 6 again with the page cache dropped before every run "
                        f"(default: when {DROP_CACHES} can be written, i.e. as root)")
    p.add_argument("--display", choices=("xvfb", "weston", "session"), default="xvfb",
                   help="where figure 8's window goes: xvfb (the default, as in CI), weston (a headless Wayland "
                        "compositor, as on a GNOME desktop; needs the weston package) or session (this "
                        "session's DISPLAY or WAYLAND_DISPLAY)")
    p.add_argument("--viewer-open", choices=tuple(VIEWER_OPENINGS), default="kept",
                   help="figure 8's opening: kept (the default: the parsed index this user's cache holds, so "
                        "runs after the first are reopens), first (every run a first open: an empty cache) or "
                        "first-from-disk (as first, with the job's files dropped from the page cache before "
                        "each run; the viewer's own files stay in memory)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                   help="first wait up to this long for the load average to drop below 1")
    p.add_argument("--out", default=None, help="the results file (default SCRATCH/bench-results.md)")
    p.add_argument("--write-doc", action="store_true",
                   help="also put the table into --doc, between its <!-- bench:begin --> and <!-- bench:end --> lines")
    p.add_argument("--doc", default=DOC, help="the document --write-doc updates (default docs/benchmarks.md)")
    p.add_argument("--tools", default=TOOLS,
                   help="the folder holding make-corpus.py and smdebug-aggregate.py (default: the clone's tools/)")
    args = p.parse_args()
    for size in args.sizes.split(","):
        if size not in SIZES:
            p.error(f"--sizes: unknown size {size!r}")
    if args.write_doc and (not os.path.exists(args.doc) or doc_markers(args.doc) is None):
        p.error(f"--write-doc: {args.doc} has no {DOC_BEGIN} line followed by a {DOC_END} line")

    args.build_dir = os.path.abspath(args.build_dir)
    if args.drop_caches is None:
        args.drop_caches = can_drop_page_cache()
    elif args.drop_caches and not can_drop_page_cache():
        p.error(f"--drop-caches: cannot write {DROP_CACHES} (it needs root)")
    os.makedirs(args.scratch, exist_ok=True)
    out = args.out or os.path.join(args.scratch, "bench-results.md")
    bench = Bench(args)

    if args.wait_quiet > 0:
        wait_until_quiet(1.0, args.wait_quiet)
    load_before = load_average()
    started = time.time()

    sizes = args.sizes.split(",")
    figures = args.figures.split(",")
    for figure in figures:
        if figure not in PER_SIZE_FIGURES + ("s3-open", "viewer-256"):
            p.error(f"--figures: unknown figure {figure!r}")
    # No corpus of --sizes is made unless a figure measures it.
    for size in sizes if any(f in PER_SIZE_FIGURES for f in figures) else []:
        corpus, manifest = make_corpus(args.tools, args.scratch, size, args.fresh)
        log(f"{size}: {manifest['intervals']['cprofile']:,} intervals, {manifest['bytes'] / 1e6:.0f} MB")
        if "cold" in figures:
            bench.cold(size, corpus)
        if "queries" in figures:
            bench.queries(size, corpus, manifest)
        if "interactive" in figures:
            bench.interactive(size, corpus, manifest)
        if size == sizes[-1] and "memory" in figures:
            bench.memory(size, corpus)
        if size == sizes[-1] and "flame" in figures:
            bench.flame(size, corpus)
        if "second-open" in figures:
            bench.second_open(size, corpus, manifest)
    if "s3-open" in figures:
        bench.s3_open()
    if "viewer-256" in figures:
        bench.viewer_256()

    load_after = load_average()
    header = (f"smprof benchmark, {time.strftime('%Y-%m-%d %H:%M', time.localtime(started))}, "
              f"{os.cpu_count()} cores, load average {load_before:.2f} before / {load_after:.2f} after, "
              f"{time.time() - started:.0f} s\n\n"
              f"    {' '.join([os.path.relpath(os.path.abspath(sys.argv[0]), SOURCE_ROOT)] + sys.argv[1:])}\n")
    table = bench.table()
    with open(out, "w") as f:
        f.write(header + "\n" + table + "\n\n<!-- raw results\n" + json.dumps(bench.raw, indent=1) + "\n-->\n")
    print(header)
    print(table)
    log(f"written to {out}")
    if args.write_doc:
        write_doc(args.doc, header, table)
        log(f"and into {args.doc}")


if __name__ == "__main__":
    main()
