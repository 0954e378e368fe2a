#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`smprof diff` on the real jobs in tests/data, checked against `smprof stats`.

* json: every function's A and B equal `smprof stats --json` of each selection
  (cProfile rows; Pyinstrument rows derived here from the stats tree), delta is
  B - A, functions of one side only are there with 0 on the other side;
* --normalize step / interval divide by counts made here from `smprof list
  --json` and the intervals `smprof stats` names; the default (auto) is step
  when the two sides cover different numbers of steps, none otherwise;
* folded (difffolded: `stack A B`) matches `smprof export --format folded` of
  each side, stack by stack;
* svg: well-formed XML, frames red where B is slower, blue where faster, grey
  under --min-delta; rsvg-convert renders it with those colours where the
  frames are;
* on the make-corpus.py corpora, each planted outlier step or straggler node
  compared with a normal one shows the planted hotspot as the top growth;
* usage errors name the option and exit 2.
"""

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import taplib  # noqa: E402
from taplib import Tap, close, cmdline, smprof  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"

# (job, A selection, B selection, extra diff options, A's --node, B's --node)
PAIRS = [
    ("pt-cprofile", "--step 3 --end-step 5", "--step 12 --end-step 14", [], None, None),
    ("pt-cprofile", "--step 2", "--step 2", ["--a-node", "0-algo-1", "--b-node", "1-algo-2"],
     "0-algo-1", "1-algo-2"),
    ("pt-cprofile", "--step 0 --end-step 7", "--step 8 --end-step 9 --mode eval --node all", [], None, "all"),
    # One interval that ends as step 5 starts: it covers step 4 only.
    ("pt-cprofile", "--time 1795987296.8212 1795987296.8213 --node 0-algo-1", "--step 4 --node 0-algo-1", [],
     None, None),
    ("tf-cprofile", "--step 0 --end-step 3", "--step 0 --end-step 3 --mode eval", [], None, None),
    ("tf-cprofile", "--pre-step-zero", "--step 10 --end-step 13", ["--node", "all"], "all", "all"),
    ("pt-pyinstrument", "--step 7", "--step 8 --end-step 9 --mode eval", [], None, None),
    ("pt-pyinstrument", "--pre-step-zero", "--step 7", ["--node", "all"], "all", "all"),
    ("tf-pyinstrument", "--step 3", "--step 3 --mode eval", [], None, None),
    ("tf-pyinstrument", "--step 3", "--step 3", ["--a-node", "25724-algo-1", "--b-node", "25730-algo-2"],
     "25724-algo-1", "25730-algo-2"),
]
CORPORA = ["corpus-outliers-cprofile", "corpus-outliers-pyinstrument"]


def job(name):
    if name.startswith("corpus-"):
        return os.path.join(taplib.DATA, name)
    return os.path.join(taplib.REAL, name)


def manifest_of(name):
    with open(os.path.join(job(name), "corpus-manifest.json")) as fh:
        return json.load(fh)


def normal_step(manifest, near):
    """A step near @near that is neither planted nor a warm-up or the last."""
    planted = {p["step"] for p in manifest["planted_outliers"]}
    return next(k for k in (near + 5, near - 5, near + 7, near - 7)
                if 2 <= k < manifest["steps"] - 1 and k not in planted)


def corpus_pairs():
    """make-corpus.py corpora: a normal step against the planted slow step,
    whole steps (both intervals) of every node; the steps from the manifest."""
    pairs = []
    for name in CORPORA:
        manifest = manifest_of(name)
        slow = next(p for p in manifest["planted_outliers"] if p["type"] == "slow-step")
        pairs.append((name, whole_step(normal_step(manifest, slow["step"]), slow["mode"]),
                      whole_step(slow["step"], slow["mode"]), ["--node", "all"], "all", "all"))
    return pairs


def run_json(args):
    rc, out, err = smprof(*args)
    if rc != 0:
        return None, ["%s: exit %d: %s" % (cmdline(args), rc, err.strip()[:500])]
    try:
        return json.loads(out), []
    except ValueError as e:
        return None, ["%s: not JSON (%s)" % (cmdline(args), e)]


def stats_of(name, selection, node):
    args = ["stats", job(name)] + selection.split() + ["--json"]
    if node is not None and "--node" not in selection:
        args += ["--node", node]
    return run_json(args)


def rows_from_stats(stats):
    """(file, line, function) -> (tottime, cumtime, ncalls or None)."""
    rows = {}
    if "functions" in stats:
        for f in stats["functions"]:
            rows[(f["file"], f["line"], f["function"])] = (f["tottime"], f["cumtime"], f["ncalls"])
        return rows
    # Pyinstrument: self time summed; time counted once per stack (a frame
    # whose function is already above it is inside that frame's time).
    tot, cum = {}, {}
    stack = [(frame, ()) for frame in stats["tree"]]
    while stack:
        frame, above = stack.pop()
        key = (frame["file"], frame["line"], frame["function"])
        tot[key] = tot.get(key, 0.0) + frame["self_time"]
        cum.setdefault(key, 0.0)
        if key not in above:
            cum[key] += frame["time"]
        for child in frame["children"]:
            stack.append((child, above + (key,)))
    for key in tot:
        rows[key] = (tot[key], cum[key], None)
    return rows


def count_steps(records):
    """The per-step divisor, as smprof_diff_count_steps() documents it."""
    steps = set()
    for r in records:
        s, e = r["start_step"], r["end_step"]
        if s < 0:
            continue
        steps.add((r["node_id"], r["start_mode"], s))
        if r["end_mode"] != r["start_mode"] or e == "inf" or e <= s:
            continue
        last = e - 1 if r["end_phase"] == "stepstart" else e
        for k in range(s + 1, last + 1):
            steps.add((r["node_id"], r["start_mode"], k))
    return len(steps)


def records_of(listing, stats):
    """The `smprof list --json` records of the intervals `stats` aggregated."""
    by_name = {}
    for r in listing:
        folder = os.path.basename(os.path.dirname(r["stats_path"]))
        by_name[r["node_id"] + "/" + folder] = r
    return [by_name[i] for i in stats["intervals"]]


def check_side_values(diff, side, rows, divisor, what):
    problems = []
    by_key = {(f["file"], f["line"], f["function"]): f for f in diff["functions"]}
    for key, (tt, ct, nc) in rows.items():
        f = by_key.get(key)
        if f is None:
            problems.append("%s: %s missing from the diff" % (what, key))
            continue
        got = f[side]
        if not close(got["tottime"], tt / divisor) or not close(got["cumtime"], ct / divisor):
            problems.append("%s: %s %s: tottime %r cumtime %r, stats gives %r %r / %r"
                            % (what, key, side, got["tottime"], got["cumtime"], tt, ct, divisor))
        if nc is None:
            if got["ncalls"] is not None:
                problems.append("%s: %s ncalls %r for Pyinstrument, expected null" % (what, key, got["ncalls"]))
        elif not close(got["ncalls"], nc / divisor):
            problems.append("%s: %s %s ncalls %r, stats gives %r / %r" % (what, key, side, got["ncalls"], nc, divisor))
    for key, f in by_key.items():
        if key not in rows and (f[side]["tottime"] != 0 or f[side]["cumtime"] != 0):
            problems.append("%s: %s is not in %s's stats but has %r" % (what, key, side, f[side]))
    return problems


def check_pair(tap, tmp, listings, pair):
    name, sel_a, sel_b, extra, node_a, node_b = pair
    what = "%s: A %r vs B %r %s" % (name, sel_a, sel_b, " ".join(extra))
    stats_a, pa = stats_of(name, sel_a, node_a)
    stats_b, pb = stats_of(name, sel_b, node_b)
    if pa or pb:
        tap.check(pa + pb, what + ": stats of both sides")
        return

    rows_a, rows_b = rows_from_stats(stats_a), rows_from_stats(stats_b)
    records_a = records_of(listings[name], stats_a)
    records_b = records_of(listings[name], stats_b)
    base = ["diff", job(name), "--a", sel_a, "--b", sel_b] + extra

    # The default, auto: per step when the sides cover different numbers of steps.
    auto, problems = run_json(base + ["--format", "json", "-o", "-"])
    if auto is not None:
        n_a, n_b = count_steps(records_a), count_steps(records_b)
        want = "step" if n_a and n_b and n_a != n_b else "none"
        if auto["normalize"] != want or auto["normalize_requested"] != "auto":
            problems.append("normalize %r (asked %r), expected %r for %d and %d steps"
                            % (auto["normalize"], auto["normalize_requested"], want, n_a, n_b))
        explicit, p = run_json(base + ["--normalize", want, "--format", "json", "-o", "-"])
        problems += p
        if explicit is not None and explicit["functions"] != auto["functions"]:
            problems.append("the default differs from --normalize %s" % want)
    tap.check(problems, what + ": by default, per step when A and B cover different numbers of steps")

    base += ["--normalize", "none"]
    diff, problems = run_json(base + ["--format", "json", "-o", "-"])
    if diff is None:
        tap.check(problems, what + ": diff --format json")
        return

    # Raw totals: A and B are the stats, delta and ratio follow.
    problems += check_side_values(diff, "a", rows_a, 1.0, what)
    problems += check_side_values(diff, "b", rows_b, 1.0, what)
    union = set(rows_a) | set(rows_b)
    if len(diff["functions"]) != len(union):
        problems.append("%d functions in the diff, %d in the union of the stats" % (len(diff["functions"]), len(union)))
    for f in diff["functions"]:
        key = (f["file"], f["line"], f["function"])
        expect_in = "both" if key in rows_a and key in rows_b else "a" if key in rows_a else "b"
        if f["in"] != expect_in:
            problems.append("%s: in %r, expected %r" % (key, f["in"], expect_in))
        ta = rows_a.get(key, (0.0, 0.0, 0))[0]
        tb = rows_b.get(key, (0.0, 0.0, 0))[0]
        if abs(f["delta"]["tottime"] - (tb - ta)) > 1e-9:
            problems.append("%s: delta %r, stats give %r" % (key, f["delta"]["tottime"], tb - ta))
        ratio = f["ratio"]["tottime"]
        if ta != 0 and not close(ratio, tb / ta):
            problems.append("%s: ratio %r, expected %r" % (key, ratio, tb / ta))
        if ta == 0 and ratio is not None:
            problems.append("%s: ratio %r with A = 0, expected null" % (key, ratio))
    for side, stats in (("a", stats_a), ("b", stats_b)):
        if diff[side]["node_ids"] != stats["node_ids"] or diff[side]["intervals"] != stats["intervals"]:
            problems.append("%s: nodes/intervals differ from stats: %r" % (side, diff[side]["node_ids"]))
        if not close(diff[side]["total_time"], stats["total_time"]):
            problems.append("%s: total_time %r, stats %r" % (side, diff[side]["total_time"], stats["total_time"]))
    tap.check(problems, what + ": json A, B, delta and ratio equal the two stats runs")

    # Normalised: divided by the counts made from smprof list.
    for mode, count in (("interval", len), ("step", count_steps)):
        n_a, n_b = count(records_a), count(records_b)
        if mode == "step" and (n_a == 0 or n_b == 0):
            rc, out, err = smprof(*(base + ["--normalize", "step"]))
            tap.ok(rc == 2 and "no training step" in err,
                   what + ": --normalize step of a side with no step is a usage error", [rc, err])
            continue
        norm, problems = run_json(base + ["--normalize", mode, "--format", "json", "-o", "-"])
        if norm is None:
            tap.check(problems, what + ": --normalize " + mode)
            continue
        problems += check_side_values(norm, "a", rows_a, n_a, what)
        problems += check_side_values(norm, "b", rows_b, n_b, what)
        if norm["a"]["divisor"] != n_a or norm["b"]["divisor"] != n_b:
            problems.append("divisors %r %r, counted %d %d" % (norm["a"]["divisor"], norm["b"]["divisor"], n_a, n_b))
        tap.check(problems, "%s: --normalize %s divides by %d and %d" % (what, mode, n_a, n_b))

    check_folded(tap, name, sel_a, sel_b, node_a, node_b, base, stats_a, stats_b, what)


def parse_difffolded(text):
    stacks, problems = {}, []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.rsplit(" ", 2)
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit() or not parts[0]:
            problems.append("line %d is not `stack A B`: %r" % (n, line[:200]))
            continue
        stacks[parts[0]] = (int(parts[1]), int(parts[2]))
    return stacks, problems


def export_folded(name, selection, node):
    args = ["export", job(name)] + selection.split() + ["--format", "folded", "-o", "-"]
    if node is not None and "--node" not in selection:
        args += ["--node", node]
    rc, out, err = smprof(*args)
    weights = {}
    for line in out.splitlines():
        stack, weight = line.rsplit(" ", 1)
        weights[stack] = weights.get(stack, 0) + int(weight)
    return weights, ([] if rc == 0 else ["%s: exit %d %s" % (cmdline(args), rc, err)])


def check_folded(tap, name, sel_a, sel_b, node_a, node_b, base, stats_a, stats_b, what):
    rc, out, err = smprof(*(base + ["--format", "folded", "-o", "-"]))
    if rc != 0:
        tap.check(["exit %d: %s" % (rc, err)], what + ": folded")
        return
    stacks, problems = parse_difffolded(out)
    for col, sel, node, stats in ((0, sel_a, node_a, stats_a), (1, sel_b, node_b, stats_b)):
        single, p = export_folded(name, sel, node)
        problems += p
        for stack, weight in single.items():
            got = stacks.get(stack, (0, 0))[col]
            if abs(got - weight) > 1:
                problems.append("%s: %s µs in column %d, export folded says %d" % (stack[:120], got, col + 1, weight))
        extra = [s for s, w in stacks.items() if w[col] and s not in single]
        if extra:
            problems.append("column %d has stacks export does not: %r" % (col + 1, extra[:3]))
        total = sum(w[col] for w in stacks.values())
        if abs(total - stats["total_time"] * 1e6) > 0.5 * len(stacks) + 1:
            problems.append("column %d sums to %d µs, total time is %r s" % (col + 1, total, stats["total_time"]))
    tap.check(problems, what + ": difffolded columns are each side's folded stacks")


# ---------------------------------------------------------------- planted outliers

def whole_step(step, mode):
    return "--step %d --end-step %d --mode %s --end-phase stepstart" % (step, step + 1, mode)


def check_planted(tap):
    """Each outlier make-corpus.py planted, against a normal step or node: the
    function with the largest growth is the planted hotspot, grown by at least
    the seconds planted."""
    for name in CORPORA:
        with open(os.path.join(job(name), "corpus-manifest.json")) as fh:
            manifest = json.load(fh)
        for planted in manifest["planted_outliers"]:
            step, mode = planted["step"], planted["mode"]
            if planted["type"] == "slow-step":
                normal = normal_step(manifest, step)
                args = ["--a", whole_step(normal, mode), "--b", whole_step(step, mode), "--node", "all",
                        "--normalize", "step"]
                node = planted["nodes"][0]
            else:
                node = planted["nodes"][0]
                other = next(n for n in manifest["nodes"] if n not in planted["nodes"])
                args = ["--a", whole_step(step, mode), "--b", whole_step(step, mode),
                        "--a-node", other, "--b-node", node]
            hotspot = planted["hotspots"][node]
            if "cprofile_key" in hotspot:
                want = tuple(hotspot["cprofile_key"])
            else:
                frame = hotspot["pyinstrument_frame"]
                want = (frame["file_path"], frame["line_no"], frame["function"])
            diff, problems = run_json(["diff", job(name)] + args + ["--sort", "delta", "--format", "json",
                                                                    "-o", "-"])
            what = "%s: planted %s at step %d: the top growth is the hotspot %r" % (name, planted["type"], step,
                                                                                  want)
            if diff is None:
                tap.check(problems, what)
                continue
            top = diff["functions"][0]
            got = (top["file"], top["line"], top["function"])
            if got != want:
                problems.append("top growth %r (+%r s), not the hotspot" % (got, top["delta"]["tottime"]))
            elif top["delta"]["tottime"] < planted["extra_seconds"]:
                problems.append("hotspot grew by %r s, less than the %r s planted"
                                % (top["delta"]["tottime"], planted["extra_seconds"]))
            tap.check(problems, what)


# ---------------------------------------------------------------- pictures

def read_png(path):
    """8-bit RGB/RGBA, non-interlaced (what rsvg-convert writes): rows of (r, g, b)."""
    with open(path, "rb") as fh:
        data = fh.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    n = {2: 3, 6: 4}[colour]
    assert depth == 8 and not interlace
    raw, stride, rows, prev = zlib.decompress(idat), width * n, [], bytearray(width * n)
    for y in range(height):
        off = y * (stride + 1)
        kind, line = raw[off], bytearray(raw[off + 1:off + 1 + stride])
        for i in range(stride):
            a = line[i - n] if i >= n else 0
            b, c = prev[i], (prev[i - n] if i >= n else 0)
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, n)])
    return width, height, rows


def hue(rgb):
    r, g, b = rgb
    if r > g + 20 and r > b + 20:
        return "red"
    if b > r + 20 and b > g + 20:
        return "blue"
    if abs(r - g) < 4 and abs(g - b) < 4:
        return "grey"
    return "other"


def check_svg(tap, tmp):
    name, sel_a, sel_b = "pt-cprofile", "--step 3 --end-step 5", "--step 12 --end-step 14"
    svg = os.path.join(tmp, "diff.svg")
    min_delta = 0.005
    rc, out, err = smprof("diff", job(name), "--a", sel_a, "--b", sel_b, "--format", "svg", "-o", svg,
                          "--min-delta", str(min_delta))
    if not tap.ok(rc == 0 and os.path.exists(svg), "svg: written", [rc, err]):
        return
    try:
        root = ET.parse(svg).getroot()
    except ET.ParseError as e:
        tap.ok(False, "svg: well-formed XML", str(e))
        return
    tap.ok(root.tag == SVG_NS + "svg", "svg: well-formed XML with an <svg> root")

    texts = {t.get("id"): "".join(t.itertext()) for t in root.iter(SVG_NS + "text") if t.get("id")}
    tap.ok(texts.get("subtitle", "").startswith("A: ") and " · B: " in texts.get("subtitle", ""),
           "svg: the subtitle names A and B", texts.get("subtitle"))

    # Each frame's colour against the sign and size of its change (the tooltip's B − A).
    problems, frames, n_dashed = [], [], 0
    for g in root.iter(SVG_NS + "g"):
        if g.get("class") != "f":
            continue
        rect = g.find(SVG_NS + "rect")
        info = g.find(SVG_NS + "title").text
        delta_text = info.split("B − A ")[1].split(" ms")[0]
        delta = float(delta_text) / 1000
        rgb = tuple(int(v) for v in rect.get("fill")[4:-1].split(","))
        expect = "grey" if abs(delta) < min_delta or delta == 0 else "red" if delta > 0 else "blue"
        if hue(rgb) != expect:
            problems.append("%s: fill %r for B − A %r, expected %s" % (g.get("data-n"), rgb, delta, expect))
        frames.append((float(rect.get("width")), float(rect.get("x")), float(rect.get("y")), expect))
        if (rect.get("stroke-dasharray") is not None) != ("only in A" in info):
            problems.append("%s: dashed %r but its tooltip says %r" % (g.get("data-n"), rect.get("stroke-dasharray"),
                                                                        info))
        n_dashed += rect.get("stroke-dasharray") is not None
    kinds = {f[3] for f in frames}
    if not {"red", "blue", "grey"} <= kinds:
        problems.append("frames of kinds %r, expected red, blue and grey ones" % sorted(kinds))
    if n_dashed == 0:
        problems.append("no frame is dashed, though A has stacks B lacks")
    tap.check(problems, "svg: %d frames red where B is slower, blue where faster, grey under --min-delta; "
              "%d frames only in A dashed" % (len(frames), n_dashed))

    if shutil.which("rsvg-convert") is None:
        tap.skip("svg: rsvg-convert renders red and blue where the frames are", "rsvg-convert is not installed")
        return
    png = os.path.join(tmp, "diff.png")
    r = subprocess.run(["rsvg-convert", svg, "-o", png], capture_output=True)
    if not tap.ok(r.returncode == 0, "svg: rsvg-convert renders it", r.stderr.decode()[:300]):
        return
    width, height, rows = read_png(png)
    problems = []
    for kind in ("red", "blue"):
        w, x, y, _ = max(f for f in frames if f[3] == kind)
        # Sample inside the frame, clear of its label.
        px, py = int(x + w - 2), int(y + 2)
        got = hue(rows[py][px])
        if got != kind:
            problems.append("the widest %s frame renders %r (%s) at %d,%d" % (kind, rows[py][px], got, px, py))
    tap.check(problems, "svg: the rendered PNG (%dx%d) is red and blue where those frames are" % (width, height))


# ---------------------------------------------------------------- usage

def check_usage(tap):
    source = job("pt-cprofile")
    cases = [
        (["--a", "--step", "--b", "--step 3"], "--a", "needs a value"),
        (["--a", "--step x", "--b", "--step 3"], "--a", "whole number"),
        (["--a", "--step 3 'open", "--b", "--step 3"], "--a", "is not a selection"),
        (["--a", "--step 3", "--b", "--training-phase"], "--b", "one selection"),
        (["--a", "--step 3", "--b", "--step 3 --json"], "--b", "only selection options"),
        (["--a", "--step 3", "--b", "step 3"], "--b", "options only"),
        (["--a", "--step 3"], "--b", "needs --b"),
        (["--a", "--step 3", "--b", "--step 4", "--normalize", "weekly"], "--normalize", "weekly"),
        (["--a", "--step 3", "--b", "--step 4", "--format", "svg"], "-o FILE", "need"),
        (["--a", "--step 3", "--b", "--step 4", "--min-delta", "-1"], "--min-delta", "-1"),
        (["--a", "--step 3", "--b", "--step 4", "--step", "5"], "--step", "unknown option"),
    ]
    for extra, option, words in cases:
        rc, out, err = smprof("diff", source, *extra)
        first = err.splitlines()[0] if err else ""
        tap.ok(rc == 2 and option in first and words in first and not out,
               "usage error %r: exit 2 naming %s" % (" ".join(extra), option), [rc, first])

    rc, out, err = smprof("diff", source, "--a", "--pre-step-zero", "--b", "--step 3", "--normalize", "step")
    tap.ok(rc == 2 and "selection A" in err and "per step" in err,
           "--normalize step of a pre-step-zero side: exit 2 naming A", [rc, err])
    rc, out, err = smprof("diff", source, "--a", "--step 3", "--b", "--step 3", "--b-node", "9-nowhere")
    tap.ok(rc == 1 and "9-nowhere" in err, "an unknown --b-node: exit 1 naming it", [rc, err])
    rc, out, err = smprof("diff", source, "--a", "--step 3", "--b", "--step 99")
    tap.ok(rc == 1 and "selection B" in err and not out, "B selects nothing: exit 1 naming B", [rc, err])
    rc, out, err = smprof("diff", "--help")
    tap.ok(rc == 0 and "--a SELECTION" in out and "difffolded" in out, "diff --help", out[:200])


def check_table(tap):
    args = ["diff", job("tf-cprofile"), "--a", "--step 0 --end-step 3", "--b", "--step 10 --end-step 13",
            "--normalize", "step", "--sort", "delta", "--limit", "5"]
    rc, out, err = smprof(*args)
    lines = out.splitlines()
    header = [i for i, line in enumerate(lines) if "B / A" in line]
    rows = lines[header[0] + 1:] if header else []
    problems = [] if rc == 0 else ["exit %d %s" % (rc, err)]
    if len(rows) != 5:
        problems.append("%d rows, expected --limit 5: %r" % (len(rows), rows))
    deltas = [float(r.split()[2]) for r in rows]
    if deltas != sorted(deltas, reverse=True):
        problems.append("--sort delta: deltas %r not descending" % deltas)
    if "Normalised per step: A ÷ 4, B ÷ 4" not in out:
        problems.append("no per-step line naming the divisors: %r" % out[:400])
    tap.check(problems, "table: %s" % cmdline(args))


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-diff-")
    try:
        listings = {}
        pairs = PAIRS + corpus_pairs()
        for name in sorted({p[0] for p in pairs}):
            listings[name], problems = run_json(["list", job(name), "--json"])
            tap.check(problems, "%s: list --json" % name)
        for pair in pairs:
            check_pair(tap, tmp, listings, pair)
        check_planted(tap)
        check_svg(tap, tmp)
        check_table(tap)
        check_usage(tap)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    Tap().run_main(main)
