#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Pictures fit for a report (issue 17 §4): what the SVG, PNG and PDF say about
themselves, the diff flame graph's A/B legend, and a report's command that
writes the same report again.

- The header names the job, the nodes, the selection by its steps and modes (a
  --time selection too: no seconds since the epoch), the intervals and the total
  time, which must be the selection's total_time of `stats --json`.
- Built-ins are spelled as `stats` spells them ({built-in method time.sleep}).
- A legend says what the colours mean: its swatches are colours frames have, its
  first group the one whose frames take the most width; the PNG draws the same
  legend at the same place (pixels read back).
- The PDF page is the picture with a 36-point margin round it.
- The differential SVG names A and B by their steps, with their totals, and its
  legend has slower, faster, under the threshold, and the dashed only-in-A.
- A reshaped export says how it was reshaped.
- `report`'s Reproduce command, run from another folder, writes the same files.

Environment: SMPROF, SMPROF_TEST_DATA, SMPROF_EXPORT_TMP (as test_export).
"""

import collections
import filecmp
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
sys.path.insert(0, HERE)
import taplib  # noqa: E402
from taplib import DATA, cmdline, smprof, smprof_json  # noqa: E402
from test_export import read_png  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"
JOB = os.path.join(DATA, "real-smdebug", "pt-cprofile")
MARGIN = 36
EPOCH = re.compile(r"\b1[0-9]{9}(\.[0-9]+)?\b")


def export(tmp, sel, fmt, *extra, source=JOB):
    out = os.path.join(tmp, "picture.%s" % fmt)
    args = ["export", source] + sel + ["--format", fmt, "-o", out] + list(extra)
    rc, _, err = smprof(*args)
    return out, ([] if rc == 0 else ["%s: exit %d %s" % (cmdline(args), rc, err[:400])])


def texts_of(root):
    return {t.get("id"): "\n".join(s.text or "" for s in t.iter(SVG_NS + "tspan")) or "".join(t.itertext())
            for t in root.iter(SVG_NS + "text") if t.get("id")}


def time_selection(stats):
    """A --time range over the middle of the job: a third of its intervals."""
    starts = sorted(float(i.split("_")[0].split("-")[-1]) for i in stats["intervals"])
    ends = sorted(float(i.split("_")[1].split("-")[-1]) for i in stats["intervals"])
    a = starts[len(starts) // 3]
    b = ends[2 * len(ends) // 3]
    return ["--time", "%.6f" % (a / 1e6), "%.6f" % (b / 1e6)]


def steps_words(intervals):
    """The steps and modes the intervals' start labels name, as the pictures say them."""
    by_mode = collections.OrderedDict()
    for mode in ["train", "eval", "predict", "global", "prestepzero", "posthookclose"]:
        steps = sorted({int(i.split("/")[-1].split("-")[1]) for i in intervals
                        if i.split("/")[-1].split("-")[0] == mode and i.split("/")[-1].split("-")[1].isdigit()})
        if any(i.split("/")[-1].split("-")[0] == mode for i in intervals):
            by_mode[mode] = steps
    words = []
    for mode, steps in by_mode.items():
        if mode == "prestepzero":
            words.append("pre-step-zero")
        elif mode == "posthookclose":
            words.append("post-hook-close")
        else:
            ranges, i = [], 0
            while i < len(steps):
                j = i
                while j + 1 < len(steps) and steps[j + 1] == steps[j] + 1:
                    j += 1
                ranges.append(str(steps[i]) if i == j else "%d–%d" % (steps[i], steps[j]))
                i = j + 1
            words.append("%s step%s %s" % (mode, "" if len(steps) == 1 else "s", ", ".join(ranges)))
    return ", ".join(words)


def total_words(seconds):
    return "total %.3f s" % seconds if seconds >= 1 else "total %.1f ms" % (seconds * 1000)


def check_header(tap, tmp):
    rc, everything, _, _, p = smprof_json("stats", JOB, "--all", "--node", "all", "--json")
    sel = ["--node", "all"] + time_selection(everything)
    rc, stats, _, _, q = smprof_json("stats", JOB, *sel, "--json")
    p += q
    svg, q = export(tmp, sel, "svg")
    p += q
    if p:
        tap.check(p, "a --time selection: stats and svg")
        return None, None
    root = ET.parse(svg).getroot()
    texts = texts_of(root)
    subtitle = texts.get("subtitle", "")
    p = []
    for node in stats["node_ids"]:
        if node not in subtitle:
            p.append("subtitle %r does not name node %s" % (subtitle, node))
    want = [steps_words(stats["intervals"]), "%d intervals" % len(stats["intervals"]),
            total_words(stats["total_time"]), "real-smdebug/pt-cprofile"]
    for word in want:
        if word not in subtitle:
            p.append("subtitle %r does not say %r" % (subtitle, word))
    if EPOCH.search(subtitle):
        p.append("subtitle %r gives seconds since the epoch" % subtitle)
    tap.check(p, "%s: the header names the job, nodes, steps and modes, intervals and total" % " ".join(sel))

    # built-ins as stats spells them
    names = [g.get("data-n") for g in root.iter(SVG_NS + "g") if g.get("class") == "f"]
    builtins = [n for n in names if "built-in method" in n]
    tap.ok(builtins and all(n.startswith("{") and n.endswith("}") for n in builtins),
           "built-in frames are spelled {built-in method ...}, as stats and the app spell them",
           "built-in frames: %r" % builtins[:5])
    return sel, stats


def check_legend(tap, tmp, sel):
    svg, p = export(tmp, sel, "svg")
    png, q = export(tmp, sel, "png")
    p += q
    if p:
        tap.check(p, "svg and png")
        return
    root = ET.parse(svg).getroot()
    legend = root.find(SVG_NS + "g[@id='legend']")
    frames = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "f"]
    fills = {g.find(SVG_NS + "rect").get("fill") for g in frames}
    p = []
    if legend is None:
        tap.check(["no legend"], "the svg has a legend of its colours")
        return
    swatches = legend.findall(SVG_NS + "rect")
    labels = [t.text for t in legend.findall(SVG_NS + "text") if t.get("class") == "legend-item"]
    title = [t.text for t in legend.findall(SVG_NS + "text") if t.get("class") != "legend-item"]
    if not swatches or not title or "package" not in title[0]:
        p.append("legend %r without a title saying what the colours stand for" % title)
    for s in swatches:
        if s.get("fill") not in fills:
            p.append("swatch %s is no frame's colour" % s.get("fill"))
    # the widest group first: torch's frames (dist-packages/torch) take the most width here
    width = collections.Counter()
    for g in frames:
        f = g.get("data-f")
        m = re.search(r"/(?:site|dist)-packages/([^/]+)", f)
        group = m.group(1) if m else ("built-ins" if f == "~" else os.path.basename(f))
        width[group] += float(g.get("data-w"))
    if labels[:1] != [width.most_common(1)[0][0]]:
        p.append("legend %r does not start with the widest group %r" % (labels, width.most_common(3)))
    tap.check(p, "the svg's legend: its title, the frames' colours, the widest group first")

    # the PNG draws the same legend where the SVG has it
    w, h, rows = read_png(png)
    q = []
    if h != int(float(root.get("height"))):
        q.append("png height %d, svg %s" % (h, root.get("height")))
    for s in swatches:
        x = int(float(s.get("x")) + 5)
        y = int(float(s.get("y")) + 5)
        want = tuple(int(v) for v in re.findall(r"[0-9]+", s.get("fill")))
        got = rows[y][x] if y < h and x < w else None
        if got is None or max(abs(a - b) for a, b in zip(got, want)) > 3:
            q.append("png pixel at %d,%d is %r, the svg's swatch %r" % (x, y, got, want))
            break
    tap.check(q, "the png draws the legend's swatches where the svg has them")


def check_pdf(tap, tmp, sel):
    svg, p = export(tmp, sel, "svg", "--width", "900")
    pdf, q = export(tmp, sel, "pdf", "--width", "900")
    p += q
    if not p:
        r = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True)
        m = re.search(r"Page size:\s+([0-9.]+) x ([0-9.]+) pts", r.stdout)
        root = ET.parse(svg).getroot()
        want = (900 + 2 * MARGIN, float(root.get("height")) + 2 * MARGIN)
        if not m:
            p.append("pdfinfo: %r" % r.stdout[:300])
        elif abs(float(m.group(1)) - want[0]) > 1 or abs(float(m.group(2)) - want[1]) > 1:
            p.append("page %s x %s pt, expected %.0f x %.0f (the picture and 36 pt round it)" % (
                m.group(1), m.group(2), want[0], want[1]))
        else:
            prefix = os.path.join(tmp, "page")
            subprocess.run(["pdftoppm", "-png", "-r", "72", "-singlefile", pdf, prefix], check=True)
            w, h, rows = read_png(prefix + ".png")
            # the margin is the picture's background, nothing drawn in it;
            # the title is drawn below it
            background = rows[0][0]
            margin = [(x, y) for y in range(h) for x in range(w)
                      if (x < MARGIN - 1 or x > w - MARGIN or y < MARGIN - 1 or y > h - MARGIN)
                      and rows[y][x] != background]
            drawn = [y for y in range(h) if any(px != background for px in rows[y])]
            if margin:
                p.append("%d pixels drawn in the margin, e.g. %r" % (len(margin), margin[:3]))
            elif not drawn or drawn[0] < MARGIN:
                p.append("nothing drawn inside the margin")
    tap.check(p, "the pdf page is the picture with a 36-point margin")


def check_reshaped(tap, tmp):
    svg, p = export(tmp, ["--all"], "svg", "--hide-libraries", "--invert")
    if not p:
        note = texts_of(ET.parse(svg).getroot()).get("note", "")
        if "Hide library frames" not in note or "Inverted" not in note or "estimated" not in note:
            p.append("note %r does not say how the tree was reshaped" % note)
    tap.check(p, "a reshaped export says how, under the estimated-tree note")


def check_diff(tap, tmp, stats_all):
    out = os.path.join(tmp, "diff.svg")
    b_sel = time_selection(stats_all)
    args = ["diff", JOB, "--node", "all", "--a", "--step 2 --end-step 4", "--b", " ".join(b_sel),
            "--format", "svg", "-o", out]
    rc, _, err = smprof(*args)
    p = [] if rc == 0 else ["%s: exit %d %s" % (cmdline(args), rc, err[:300])]
    if not p:
        root = ET.parse(out).getroot()
        subtitle = texts_of(root).get("subtitle", "").replace("\n", "")
        rc, b_stats, _, _, q = smprof_json("stats", JOB, "--node", "all", *b_sel, "--json")
        p += q
        b_part = subtitle.split(" · B: ", 1)[1] if " · B: " in subtitle else ""
        if not subtitle.startswith("A: train steps 2") or not b_part:
            p.append("subtitle %r does not name A, then B" % subtitle)
        elif b_stats and (steps_words(b_stats["intervals"]) not in b_part or
                          "%.3f s" % b_stats["total_time"] not in b_part or EPOCH.search(b_part)):
            p.append("B: %r does not name its steps and total, or gives epoch seconds" % b_part)
        legend = root.find(SVG_NS + "g[@id='legend']")
        items = [t.text for t in legend.findall(SVG_NS + "text") if t.get("class") == "legend-item"] if legend else []
        dashed = [r for r in legend.findall(SVG_NS + "rect") if r.get("stroke-dasharray")] if legend else []
        if [i.split(" ")[0] for i in items] != ["slower", "faster", "change", "only"] or len(dashed) != 1:
            p.append("legend items %r, %d dashed" % (items, len(dashed)))
    tap.check(p, "the differential svg names A and B by their steps and totals, with an A/B legend")


def check_report_reruns(tap, tmp):
    """The Reproduce command, run from elsewhere, writes the same files."""
    first = os.path.join(tmp, "work1")
    os.makedirs(first)
    rel_job = os.path.relpath(JOB, first)
    cmd = [taplib.smprof_path(), "report", rel_job, "--node", "all", "--step", "2", "--end-step", "6",
           "--hide-libraries", "--compare-a", "--step 2 --end-step 3", "--compare-b", "--step 5 --end-step 6",
           "-o", "out"]
    r = subprocess.run(cmd, cwd=first, capture_output=True, text=True)
    p = [] if r.returncode == 0 else ["report: exit %d %s" % (r.returncode, r.stderr[:300])]
    if not p:
        out = os.path.join(first, "out")
        readme = open(os.path.join(out, "README.md"), encoding="utf-8").read()
        m = re.search(r"## Reproduce\n\n```sh\n(.*)\n```", readme)
        if not m:
            p.append("README.md has no Reproduce command")
        else:
            words = shlex.split(m.group(1))
            kept = os.path.join(tmp, "kept")
            shutil.copytree(out, kept)
            shutil.rmtree(out)
            # another folder, at another depth: a relative path would not do
            elsewhere = os.path.join(tmp, "elsewhere", "deeper", "still")
            os.makedirs(elsewhere)
            if words[0] != "smprof":
                p.append("the command starts with %r" % words[0])
            r = subprocess.run([taplib.smprof_path()] + words[1:], cwd=elsewhere, capture_output=True, text=True)
            if r.returncode != 0:
                p.append("the Reproduce command %r failed: %s" % (m.group(1), r.stderr[:300]))
            elif not os.path.isdir(out):
                p.append("the Reproduce command did not write the report where it was: %r" % m.group(1))
            else:
                cmp = filecmp.dircmp(kept, out)
                if cmp.left_only or cmp.right_only or cmp.diff_files or cmp.funny_files:
                    p.append("the rerun differs: %r %r %r" % (cmp.left_only, cmp.right_only, cmp.diff_files))
                elif not filecmp.cmpfiles(kept, out, os.listdir(kept), shallow=False)[0]:
                    p.append("no file compared")
                else:
                    same, diff, errors = filecmp.cmpfiles(kept, out, os.listdir(kept), shallow=False)
                    if diff or errors:
                        p.append("files differ: %r %r" % (diff, errors))
    tap.check(p, "report's Reproduce command, run from another folder, writes the same report")


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-pictures-", dir=os.environ.get("SMPROF_EXPORT_TMP"))
    try:
        sel, stats = check_header(tap, tmp)
        if sel is not None:
            check_legend(tap, tmp, sel)
            check_pdf(tap, tmp, sel)
        check_reshaped(tap, tmp)
        rc, everything, _, _, p = smprof_json("stats", JOB, "--all", "--node", "all", "--json")
        if everything:
            check_diff(tap, tmp, everything)
        check_report_reruns(tap, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
