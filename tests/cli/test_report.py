#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof report: a folder or one HTML page, checked against the other commands (TAP).

On real jobs (tests/data/real-smdebug) and a corpus with planted outliers: the
folder holds every file; its CSV and SVGs are byte for byte what `smprof
export` and `smprof diff` write for the same selections; the diff table and
the per-step CSV hold the numbers of `smprof diff --format json` and `smprof
steps --json`; the SVGs render with rsvg-convert; the HTML page parses, holds
the SVGs inline and refers to no other file; the summary's command line,
re-run, writes the same report; a bad OUT is a clear error naming it.
"""

import base64
import csv
import html.parser
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "export"))

import taplib  # noqa: E402
from taplib import Tap, close, cmdline, smprof  # noqa: E402
from test_export import read_png  # noqa: E402  (the PNG reader of the export tests)

SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
FOLDER_FILES = ["README.md", "flame-graph.svg", "functions.csv", "steps.csv", "step-functions.csv"]
DIFF_FILES = ["diff-flame-graph.svg", "diff.csv"]

CORPUS = os.path.join(taplib.DATA, "corpus-outliers-cprofile")


def corpus_comparison():
    """The corpus's compare A and B: a normal step and the planted slow step
    (from the manifest)."""
    manifest = taplib.read_json(os.path.join(CORPUS, "corpus-manifest.json"))
    slow = next(p for p in manifest["planted_outliers"] if p["type"] == "slow-step")
    planted = {p["step"] for p in manifest["planted_outliers"]}
    normal = next(k for k in range(2, manifest["steps"]) if k not in planted)
    return "--step %d --mode %s" % (normal, slow["mode"]), "--step %d --mode %s" % (slow["step"], slow["mode"])


# job name: (folder, the selection, the report's --node, compare A, compare B)
JOBS = [
    ("pt-cprofile", os.path.join(taplib.REAL, "pt-cprofile"), ["--all"], None,
     "--step 1", "--step 2"),
    ("pt-pyinstrument", os.path.join(taplib.REAL, "pt-pyinstrument"), ["--all"], None,
     "--step 8 --mode eval", "--step 9 --mode eval"),
    ("corpus-outliers-cprofile", CORPUS, ["--all"], "all") + corpus_comparison(),
]


def project_version():
    with open(os.path.join(SOURCE_ROOT, "meson.build"), encoding="utf-8") as fh:
        return re.search(r"version:\s*'([^']+)'", fh.read()).group(1)


def read_bytes(path):
    with open(path, "rb") as fh:
        return fh.read()


def exported(tmp, args, fmt):
    """What `smprof export ARGS --format FMT` writes, or (None, problem)."""
    path = os.path.join(tmp, "export." + fmt)
    full = ["export"] + args + ["--format", fmt, "-o", path]
    rc, _, err = smprof(*full)
    if rc != 0:
        return None, "%s: exit %d: %s" % (cmdline(full), rc, err.strip()[:300])
    return read_bytes(path), None


def render_problems(svg_path, png_path):
    """The SVG is XML and rsvg-convert draws it, not blank."""
    p = []
    try:
        ET.parse(svg_path)
    except ET.ParseError as e:
        return ["%s is not well-formed XML: %s" % (svg_path, e)]
    r = subprocess.run(["rsvg-convert", svg_path, "-o", png_path], capture_output=True)
    if r.returncode != 0:
        return ["rsvg-convert %s: exit %d %s" % (svg_path, r.returncode, r.stderr[:300])]
    return p + png_problems(png_path)


def png_problems(png_path):
    width, height, rows = read_png(png_path)
    colours = set()
    for row in rows[::3]:
        colours.update(row[::3])
    if len(colours) < 8:
        return ["%s looks blank: %dx%d, %d distinct colours" % (png_path, width, height, len(colours))]
    return []


def csv_rows(data):
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))


def command_of(readme):
    """The command line of the summary's Reproduce section."""
    m = re.search(r"```sh\n(.*?)\n```", readme, re.S)
    return m.group(1) if m else None


class PageParser(html.parser.HTMLParser):
    """The parts of a page that matter for a self-contained report."""

    def __init__(self):
        super().__init__()
        self.tags = {}
        self.references = []    # (tag, attribute, value)
        self.handlers = []      # on* attributes
        self.downloads = {}     # name -> href
        self.ids = []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        attrs = dict(attrs)
        for name, value in attrs.items():
            if name in ("src", "href", "xlink:href", "srcset", "action", "data"):
                self.references.append((tag, name, value or ""))
            if name.startswith("on"):
                self.handlers.append((tag, name))
            if name == "id":
                self.ids.append(value)
        if tag == "a" and "download" in attrs:
            self.downloads[attrs["download"]] = attrs.get("href", "")

    handle_startendtag = handle_starttag


def data_uri_bytes(uri):
    head, _, body = uri.partition(",")
    return base64.b64decode(body) if head.endswith(";base64") else None


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def check_folder(tap, tmp, name, job, selection, node, a, b):
    node_args = ["--node", node] if node else []
    out = "report-" + name
    args = ["report", job] + selection + node_args + ["--compare-a", a, "--compare-b", b, "-o", out]
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        rc, _, err = smprof(*args)
    finally:
        os.chdir(cwd)
    folder = os.path.join(tmp, out)
    if not tap.ok(rc == 0, "%s: report writes a folder" % name, "%s: exit %d: %s" % (cmdline(args), rc, err)):
        return

    missing = [f for f in FOLDER_FILES + DIFF_FILES if not os.path.isfile(os.path.join(folder, f))]
    tap.check(["missing: %s" % ", ".join(missing)] if missing else [], "%s: the folder has every file" % name)

    # The Functions table and the flame graph are the exports' own.
    for fmt, file in (("csv", "functions.csv"), ("svg", "flame-graph.svg")):
        expected, problem = exported(tmp, [job] + selection + node_args, fmt)
        got = read_bytes(os.path.join(folder, file))
        tap.check([problem] if problem else
                  [] if got == expected else ["%s differs from smprof export --format %s (%d vs %d bytes)"
                                              % (file, fmt, len(got), len(expected))],
                  "%s: %s equals smprof export --format %s of the same selection" % (name, file, fmt))

    # The comparison: the same SVG as smprof diff, the same numbers as its JSON.
    diff_args = ["diff", job, "--a", a, "--b", b] + node_args
    svg_path = os.path.join(tmp, "diff.svg")
    rc, _, err = smprof(*(diff_args + ["--format", "svg", "-o", svg_path]))
    p = ["smprof diff: exit %d %s" % (rc, err)] if rc else []
    if not p and read_bytes(svg_path) != read_bytes(os.path.join(folder, "diff-flame-graph.svg")):
        p.append("diff-flame-graph.svg differs from smprof diff --format svg")
    tap.check(p, "%s: diff-flame-graph.svg equals smprof diff --format svg" % name)

    rc, obj, _, _, p = taplib.smprof_json(*(diff_args + ["--format", "json", "-o", "-"]))
    if obj is not None:
        rows = {(r["function"], r["file"], int(r["line"])): r
                for r in csv_rows(read_bytes(os.path.join(folder, "diff.csv")))}
        if len(rows) != len(obj["functions"]):
            p.append("diff.csv has %d functions, smprof diff --format json %d" % (len(rows), len(obj["functions"])))
        for f in obj["functions"]:
            r = rows.get((f["function"], f["file"], f["line"]))
            if r is None:
                p.append("diff.csv lacks %r" % ((f["function"], f["file"], f["line"]),))
            elif not (close(float(r["a_tottime"]), f["a"]["tottime"]) and close(float(r["b_tottime"]), f["b"]["tottime"])
                      and r["in"] == f["in"]):
                p.append("%r: diff.csv %s/%s/%s, json %r/%r/%r" % (f["function"], r["in"], r["a_tottime"], r["b_tottime"],
                                                                   f["in"], f["a"]["tottime"], f["b"]["tottime"]))
            if len(p) > 10:
                break
    tap.check(p, "%s: diff.csv holds the numbers of smprof diff --format json" % name)

    # The per-step statistics are smprof steps' own.
    steps_args = ["steps", job] + selection + (node_args or ["--node", "any"]) + ["--json"]
    rc, obj, _, _, p = taplib.smprof_json(*steps_args)
    if obj is not None:
        rows = csv_rows(read_bytes(os.path.join(folder, "steps.csv")))
        got = [(r["node"], r["mode"], int(r["step"]), float(r["total_time"]), r["outlier"] == "true") for r in rows]
        want = [(s["node_id"], s["mode"], s["step"], s["total_time"], s["outlier"]) for s in obj["steps"]]
        if len(got) != len(want) or any(g[:3] != w[:3] or not close(g[3], w[3]) or g[4] != w[4]
                                        for g, w in zip(got, want)):
            p.append("steps.csv %r... differs from smprof steps --json %r..." % (got[:3], want[:3]))
        if not any(w[4] for w in want) and name.startswith("corpus"):
            p.append("the corpus should have outlier steps")
    tap.check(p, "%s: steps.csv holds smprof steps' totals and outlier marks" % name)

    # The summary names what a colleague needs.
    readme = read_bytes(os.path.join(folder, "README.md")).decode("utf-8")
    profiler = "pyinstrument" if "pyinstrument" in name else "cprofile"
    p = []
    for what, text in (("the job", os.path.abspath(job)), ("the version", project_version()),
                       ("the profiler", profiler), ("the selection", "all intervals"),
                       ("the outlier rule", "1.4826 × the median absolute deviation")):
        if text not in readme:
            p.append("README.md does not name %s (%r)" % (what, text))
    rc, obj, _, _, q = taplib.smprof_json("stats", job, *(selection + node_args + ["--json"]))
    p += q
    for node_id in (obj or {}).get("node_ids", []):
        if node_id not in readme:
            p.append("README.md does not name node %s" % node_id)
    if profiler == "cprofile" and ("cProfileTimer" not in readme or "estimated from cProfile" not in readme):
        p.append("README.md lacks the cProfile timer note or the estimated call tree note")
    if profiler == "pyinstrument" and "cProfileTimer" in readme:
        p.append("a Pyinstrument report has the cProfile timer note")
    tap.ok(not p, "%s: README.md names the job, nodes, selection, profiler, timer and version" % name,
           p + [readme[:600]])

    # The summary's command line, run again from the same folder, writes the same report.
    command = command_of(readme)
    p = [] if command else ["README.md has no ```sh command block"]
    if command:
        words = shlex.split(command)
        before = {f: read_bytes(os.path.join(folder, f)) for f in ("functions.csv", "README.md")}
        shutil.rmtree(folder)
        r = subprocess.run([taplib.smprof_path()] + words[1:], cwd=tmp, capture_output=True)
        if words[0] != "smprof" or r.returncode != 0:
            p.append("%s: exit %d %s" % (command, r.returncode, r.stderr[:300]))
        else:
            for f, data in before.items():
                if read_bytes(os.path.join(folder, f)) != data:
                    p.append("%s differs after re-running %s" % (f, command))
    tap.check(p, "%s: the summary's command line writes the same CSV and summary again" % name)

    for svg in ("flame-graph.svg", "diff-flame-graph.svg"):
        tap.check(render_problems(os.path.join(folder, svg), os.path.join(tmp, svg + ".png")),
                  "%s: %s is well-formed and renders with rsvg-convert, not blank" % (name, svg))

    return folder


def check_planted(tap, folder):
    """The corpus's planted slow steps are marked in steps.csv."""
    manifest = taplib.read_json(os.path.join(CORPUS, "corpus-manifest.json"))
    rows = csv_rows(read_bytes(os.path.join(folder, "steps.csv")))
    marked = {(r["node"], r["mode"], int(r["step"])) for r in rows if r["outlier"] == "true"}
    planted = {(n, o["mode"], o["step"]) for o in manifest["planted_outliers"] if o["type"] == "slow-step"
               for n in o["nodes"]}
    p = [] if planted else ["the manifest plants no slow step"]
    p += ["planted slow step %r is not marked" % (k,) for k in sorted(planted - marked)]
    tap.check(p, "corpus: steps.csv marks every planted slow step as an outlier")


def check_page(tap, tmp, name, job, selection, a, b, suffix):
    """One page: parses, SVGs inline, nothing outside it, and a browser draws it."""
    out = os.path.join(tmp, "page-" + name + (".html" if suffix else ""))
    args = ["report", job] + selection + ["--compare-a", a, "--compare-b", b, "-o", out]
    if not suffix:
        args.append("--html")
    rc, _, err = smprof(*args)
    how = "an OUT ending in .html" if suffix else "--html"
    if not tap.ok(rc == 0 and os.path.isfile(out), "%s: %s writes one page" % (name, how),
                  "%s: exit %d %s" % (cmdline(args), rc, err)):
        return
    text = read_bytes(out).decode("utf-8")
    parser = PageParser()
    p = []
    try:
        parser.feed(text)
        parser.close()
    except Exception as e:  # noqa: BLE001 - any parser failure is the finding
        p.append("html.parser: %s" % e)
    if not text.startswith("<!DOCTYPE html>"):
        p.append("no <!DOCTYPE html>")
    if parser.tags.get("svg") != 2:
        p.append("%r inline <svg> elements, expected 2 (flame graph and differential)" % parser.tags.get("svg"))
    if "<?xml" in text:
        p.append("an XML declaration is left inside the page")
    tap.check(p, "%s: the page parses and holds both SVGs inline" % name)

    p = []
    for tag in ("script", "link", "img", "iframe", "object", "embed"):
        if parser.tags.get(tag):
            p.append("%d <%s> elements" % (parser.tags[tag], tag))
    for tag, attr, value in parser.references:
        if not (value.startswith("data:") or value.startswith("#")):
            p.append("<%s %s=%r> refers outside the page" % (tag, attr, value[:80]))
    if parser.handlers:
        p.append("event handlers: %r" % parser.handlers[:5])
    duplicates = sorted({i for i in parser.ids if parser.ids.count(i) > 1})
    if duplicates:
        p.append("ids used twice: %r" % duplicates[:5])
    tap.check(p, "%s: no script, no external reference (src/href), unique ids" % name)

    expected, problem = exported(tmp, [job] + selection, "csv")
    got = data_uri_bytes(parser.downloads.get("functions.csv", ""))
    tap.check([problem] if problem else [] if got == expected else ["the page's functions.csv differs from export"],
              "%s: the page's functions.csv link holds smprof export --format csv" % name)

    chrome = browser()
    if chrome is None:
        tap.skip("%s: the page renders in a headless browser" % name, "no headless browser installed")
        return
    png = os.path.join(tmp, "page-" + name + ".png")
    r = subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600",
                        "--screenshot=" + png, "file://" + out], capture_output=True, timeout=120)
    p = [] if os.path.isfile(png) else ["%s wrote no screenshot: %s" % (chrome, r.stderr[-300:])]
    tap.check(p or png_problems(png), "%s: the page renders in a headless browser, not blank" % name)


def check_bad_out(tap, tmp):
    job = os.path.join(taplib.REAL, "pt-cprofile")

    a_file = os.path.join(tmp, "a-file")
    with open(a_file, "w") as fh:
        fh.write("not a folder\n")
    rc, _, err = smprof("report", job, "--all", "-o", a_file)
    tap.check([] if rc == 4 and a_file in err and "Traceback" not in err
              else ["exit %d (expected 4), stderr %r" % (rc, err)],
              "an existing file where the folder goes: exit 4, the path named")
    tap.ok(read_bytes(a_file) == b"not a folder\n", "the existing file is left as it was")

    a_dir = os.path.join(tmp, "a-dir.html")
    os.mkdir(a_dir)
    rc, _, err = smprof("report", job, "--all", "-o", a_dir)
    tap.check([] if rc == 4 and a_dir in err else ["exit %d (expected 4), stderr %r" % (rc, err)],
              "a page where a folder is: exit 4, the path named")

    # Root writes anywhere: the unwritable folder is tried as nobody.
    base = tempfile.mkdtemp(prefix="smprof-report-ro-")
    try:
        os.chmod(base, 0o755)
        read_only = os.path.join(base, "read-only")
        os.mkdir(read_only, 0o555)
        os.chmod(read_only, 0o555)
        taplib.RUN_PREFIX[:] = taplib.unprivileged_prefix()
        for out in (os.path.join(read_only, "report"), os.path.join(read_only, "page.html")):
            rc, _, err = smprof("report", job, "--all", "-o", out)
            tap.check([] if rc == 4 and out in err and not os.path.exists(out)
                      else ["exit %d (expected 4), stderr %r" % (rc, err)],
                      "an unwritable folder (%s): exit 4, the path named" % os.path.basename(out))
    finally:
        taplib.RUN_PREFIX[:] = []
        shutil.rmtree(base, ignore_errors=True)

    rc, _, err = smprof("report", job, "--all", "--compare-a", "--step 1", "-o", os.path.join(tmp, "x"))
    tap.check([] if rc == 2 and "--compare-b" in err else ["exit %d (expected 2), stderr %r" % (rc, err)],
              "--compare-a without --compare-b is a usage error")
    rc, _, err = smprof("report", job, "--all", "--compare-a", "--step 1", "--compare-b", "--nope",
                        "-o", os.path.join(tmp, "x"))
    tap.check([] if rc == 2 and "--nope" in err else ["exit %d (expected 2), stderr %r" % (rc, err)],
              "a bad comparison selection is a usage error naming it")


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-report-")
    os.chmod(tmp, 0o755)
    try:
        for name, job, selection, node, a, b in JOBS:
            folder = check_folder(tap, tmp, name, job, selection, node, a, b)
            if folder and name.startswith("corpus"):
                check_planted(tap, folder)
        check_page(tap, tmp, "pt-cprofile", JOBS[0][1], ["--all"], JOBS[0][4], JOBS[0][5], suffix=True)
        check_page(tap, tmp, "pt-pyinstrument", JOBS[1][1], ["--all"], JOBS[1][4], JOBS[1][5], suffix=False)
        check_bad_out(tap, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    Tap().run_main(main)
