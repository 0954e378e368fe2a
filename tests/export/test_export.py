# SPDX-License-Identifier: GPL-3.0-or-later
"""`smprof export`, each format checked by a real consumer (TAP).

pstats -> CPython's pstats.Stats; json -> byte-equal to `stats --json`;
csv -> Python's csv module against `stats --json`; folded -> line grammar and
weights against `stats --json`; speedscope -> speedscope's own JSON schema
(tests/data/speedscope/, from the npm package) with python3-jsonschema;
svg -> Python's XML parser and rsvg-convert; png -> its size and pixels;
pdf -> pdftoppm; syscap -> libsysprof-capture's reader (syscap-dump).

Environment: SMPROF, SMPROF_TEST_DATA (as for tests/cli), SYSCAP_DUMP (the
built tests/export/syscap-dump), SMPROF_EXPORT_TMP (a scratch folder).
"""

import collections
import csv
import json
import os
import pstats
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

# Debian's python3-jsonschema is installed for /usr/bin/python3; a python3
# found first on PATH (pyenv, a venv) may lack it.
try:
    import jsonschema  # noqa: F401
except ImportError:
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cli"))

import taplib  # noqa: E402
from taplib import Tap, close, cmdline, smprof  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"
LIGHT_BACKGROUND = (250, 250, 250)
SAMPLE_PERIOD_US = 1000

CPROFILE_CASES = [
    ("pt-cprofile", ["--all", "--node", "all"]),
    ("pt-cprofile", ["--step", "3", "--end-step", "5"]),
    ("pt-cprofile", ["--pre-step-zero", "--node", "1-algo-2"]),
    ("tf-cprofile", ["--all", "--node", "all"]),
    ("tf-cprofile", ["--step", "5", "--end-step", "8", "--node", "25641-algo-2"]),
    # one interval whose cpu_time timer saw no time at all: an empty picture
    ("tf-cprofile", ["--between-modes", "train", "eval"]),
]
PYINSTRUMENT_CASES = [
    ("pt-pyinstrument", ["--all", "--node", "all"]),
    ("tf-pyinstrument", ["--pre-step-zero"]),
]


def job(name):
    return os.path.join(taplib.REAL, name)


# ---------------------------------------------------------------- PNG reading

def read_png(path):
    """Decode an 8-bit, non-interlaced RGB/RGBA/grey PNG (what cairo, rsvg-convert
    and pdftoppm write). Returns (width, height, rows of (r, g, b) tuples)."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError("unsupported PNG: depth %d colour %d interlace %d" % (depth, colour, interlace))
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, off = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[off], bytearray(raw[off + 1:off + 1 + stride])
        off += 1 + stride
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
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
        if channels == 1:
            rows.append([(v, v, v) for v in line])
        else:
            rows.append([tuple(line[i:i + 3]) for i in range(0, stride, channels)])
    return width, height, rows


def check_picture(path, background, expect_width=None, expect_height=None):
    """Problems with a rendered picture: size, blankness, background."""
    p = []
    try:
        width, height, rows = read_png(path)
    except (OSError, ValueError, zlib.error) as e:
        return ["%s: cannot read the PNG: %s" % (path, e)]
    if expect_width is not None and width != expect_width:
        p.append("width %d, expected %d" % (width, expect_width))
    if expect_height is not None and height != expect_height:
        p.append("height %d, expected %d" % (height, expect_height))
    colours = set()
    for row in rows[::3]:
        colours.update(row[::3])
    if len(colours) < 8:
        p.append("looks blank: only %d distinct colours" % len(colours))
    if background is not None:
        for (x, y) in ((1, 1), (width - 2, 1), (1, height - 2), (width - 2, height - 2)):
            if rows[y][x] != background:
                p.append("pixel (%d,%d) is %r, expected the background %r" % (x, y, rows[y][x], background))
    frames = sum(1 for row in rows[::3] for px in row[::3] if px[0] > px[2] + 60)
    if frames < 20:
        p.append("hardly any warm (frame) pixels: %d" % frames)
    return p


# ---------------------------------------------------------------- helpers

class Env:
    def __init__(self, tap):
        self.tap = tap
        self.tmp = tempfile.mkdtemp(prefix="smprof-export-", dir=os.environ.get("SMPROF_EXPORT_TMP"))
        self.n = 0
        self.dump = os.environ.get("SYSCAP_DUMP")
        self.browser_checked = False
        self.schema = json.load(open(os.path.join(taplib.DATA, "speedscope", "file-format-schema.json")))

    def path(self, ext):
        self.n += 1
        return os.path.join(self.tmp, "out%d.%s" % (self.n, ext))

    def export(self, source, sel, fmt, *extra, allow_empty=False):
        """Runs an export; returns (path, problems)."""
        out = self.path(fmt)
        args = ["export", source] + sel + ["--format", fmt, "-o", out] + list(extra)
        rc, stdout, err = smprof(*args)
        if rc != 0:
            return out, ["%s: exit %d: %s" % (cmdline(args), rc, err.strip()[:500])]
        if not os.path.exists(out) or (os.path.getsize(out) == 0 and not allow_empty):
            return out, ["%s: wrote no file" % cmdline(args)]
        return out, []

    def stats(self, source, sel):
        rc, obj, out, err, p = taplib.smprof_json("stats", source, *sel, "--json")
        return obj, out, p


def frame_label(file, line, function):
    """The folded/Sysprof label: 'function (file:line)', pstats' label for built-ins."""
    if file == "~" and line == 0:
        if function.startswith("<") and function.endswith(">"):
            return "{" + function[1:-1] + "}"
        return function
    return "%s (%s:%d)" % (function, file, line)


FOLDED_LINE = re.compile(r"^(\S.*) ([0-9]+)$")


def parse_folded(path):
    """Returns (stacks [(frames, weight)], problems)."""
    stacks, p = [], []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            m = FOLDED_LINE.match(line.rstrip("\n"))
            if not m:
                p.append("line %d does not parse: %r" % (n, line[:200]))
                continue
            frames = m.group(1).split(";")
            if any(not f for f in frames):
                p.append("line %d has an empty frame: %r" % (n, line[:200]))
            stacks.append((frames, int(m.group(2))))
    return stacks, p


def total_of(stats):
    return stats["total_time"]


# ---------------------------------------------------------------- cases

def check_cprofile(env, name, sel):
    tap = env.tap
    source = job(name)
    what = "%s %s" % (name, " ".join(sel))
    stats, stats_text, p = env.stats(source, sel)
    if not tap.check(p, "%s: stats --json runs" % what):
        return

    # pstats: CPython loads it, with the same totals, functions and callers
    out, p = env.export(source, sel, "pstats")
    if not p:
        try:
            st = pstats.Stats(out)
            if st.total_calls != stats["total_calls"] or st.prim_calls != stats["primitive_calls"]:
                p.append("pstats calls %d/%d, stats --json %d/%d" % (
                    st.total_calls, st.prim_calls, stats["total_calls"], stats["primitive_calls"]))
            if not close(st.total_tt, stats["total_time"]):
                p.append("pstats total_tt %r, stats --json %r" % (st.total_tt, stats["total_time"]))
            p += taplib.compare_functions(stats["functions"], taplib.pstats_to_expf(st.stats), "pstats export")
            order = [taplib.fkey(f) for f in stats["functions"]]
            if list(st.stats) != order:
                p.append("the pstats dict is not in the merged order of stats --json")
        except Exception as e:  # noqa: BLE001 - any failure to load is the finding
            p.append("pstats.Stats(%s) failed: %r" % (out, e))
    tap.check(p, "%s: pstats loads in CPython and equals stats --json" % what)

    # pyprof2calltree (Debian's), the road to KCachegrind: one fn= per function
    if not p and shutil.which("pyprof2calltree"):
        grind = env.path("callgrind")
        r = subprocess.run(["pyprof2calltree", "-i", out, "-o", grind], capture_output=True, text=True)
        q = ["exit %d: %s" % (r.returncode, r.stderr[-300:])] if r.returncode else []
        if not q:
            n = sum(1 for line in open(grind, encoding="utf-8") if line.startswith("fn="))
            if n != len(stats["functions"]):
                q.append("%d functions in the callgrind file, %d in the profile" % (n, len(stats["functions"])))
        tap.check(q, "%s: pyprof2calltree converts the pstats export" % what)
    elif not p:
        tap.skip("%s: pyprof2calltree converts the pstats export" % what, "pyprof2calltree is not installed")

    check_common(env, source, sel, what, stats, stats_text, cprofile=True)


def sampled_pstats(tree):
    """What a pstats file of a sampled tree holds, worked out from the frames
    of `stats --json`: per function (file, line, name), its frames as calls
    (nc), those not inside a frame of the same function as primitive calls
    (cc), the summed self time (tt; Pyinstrument's rounding to 6 decimals can
    make a self time -1e-06, read as 0) and the time of those outer frames (ct);
    per caller the same over the frames it called, where a call is primitive
    unless the same caller -> callee call is already on the stack."""
    entries = {}
    # (frame, parent key, keys above, caller -> callee pairs above)
    todo = [(frame, None, frozenset(), frozenset()) for frame in tree]
    while todo:
        frame, parent, above, pairs_above = todo.pop()
        key = (frame["file"], frame["line"], frame["function"])
        entry = entries.setdefault(key, [0, 0, 0.0, 0.0, {}])
        entry[1] += 1
        entry[2] += max(frame["self_time"], 0.0)
        if key not in above:
            entry[0] += 1
            entry[3] += frame["time"]
        pairs = pairs_above
        if parent is not None:
            caller = entry[4].setdefault(parent, [0, 0, 0.0, 0.0])
            caller[0] += 1
            caller[2] += max(frame["self_time"], 0.0)
            if (parent, key) not in pairs_above:
                caller[1] += 1
                caller[3] += frame["time"]
            pairs = pairs_above | {(parent, key)}
        for child in frame["children"]:
            todo.append((child, key, above | {key}, pairs))
    return entries


def compare_sampled_pstats(expected, st):
    p = []
    if set(st.stats) != set(expected):
        p.append("functions: %d in the file, %d in the tree; e.g. only in the file %r, only in the tree %r" % (
            len(st.stats), len(expected), sorted(set(st.stats) - set(expected))[:2],
            sorted(set(expected) - set(st.stats))[:2]))
        return p
    for key, (cc, nc, tt, ct, callers) in expected.items():
        got = st.stats[key]
        if got[0] != cc or got[1] != nc or not close(got[2], tt, abs_=1e-9) or not close(got[3], ct, abs_=1e-9):
            p.append("%r: file %r, tree %r" % (key, got[:4], (cc, nc, tt, ct)))
        elif set(got[4]) != set(callers):
            p.append("%r: callers %r in the file, %r in the tree" % (key, sorted(got[4]), sorted(callers)))
        else:
            for caller, (cnc, ccc, ctt, cct) in callers.items():
                g = got[4][caller]
                if g[0] != cnc or g[1] != ccc or not close(g[2], ctt, abs_=1e-9) or not close(g[3], cct, abs_=1e-9):
                    p.append("%r called by %r: file %r, tree %r" % (key, caller, g, (cnc, ccc, ctt, cct)))
        if len(p) > 5:
            break
    if not p and st.total_calls != sum(e[1] for e in expected.values()):
        p.append("total calls %d" % st.total_calls)
    return p


def check_pyinstrument(env, name, sel):
    tap = env.tap
    source = job(name)
    what = "%s %s" % (name, " ".join(sel))
    stats, stats_text, p = env.stats(source, sel)
    if not tap.check(p, "%s: stats --json runs" % what):
        return

    # pstats: CPython loads it, with what the sampled tree says of each function
    out, p = env.export(source, sel, "pstats")
    if not p:
        try:
            p += compare_sampled_pstats(sampled_pstats(stats["tree"]), pstats.Stats(out))
        except Exception as e:  # noqa: BLE001 - any failure to load is the finding
            p.append("pstats.Stats(%s) failed: %r" % (out, e))
    tap.check(p, "%s: pstats loads in CPython and equals the tree of stats --json" % what)

    check_common(env, source, sel, what, stats, stats_text, cprofile=False)


def check_common(env, source, sel, what, stats, stats_text, cprofile):
    tap = env.tap

    # json: byte for byte what stats --json printed
    out, p = env.export(source, sel, "json")
    if not p and open(out, encoding="utf-8").read() != stats_text:
        p.append("differs from stats --json")
    tap.check(p, "%s: json export equals stats --json" % what)

    # csv: one row per function, numbers as in stats --json
    out, p = env.export(source, sel, "csv")
    if not p:
        with open(out, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        header = ["ncalls", "primitive_calls", "tottime", "tottime_percall", "cumtime",
                  "cumtime_percall", "file", "line", "function", "label"]
        if rows and list(rows[0].keys()) != header:
            p.append("header %r" % (list(rows[0].keys()),))
        if cprofile:
            want = {taplib.fkey(f): f for f in stats["functions"]}
            if len(rows) != len(want):
                p.append("%d rows for %d functions" % (len(rows), len(want)))
            for r in rows:
                f = want.get((r["file"], int(r["line"]), r["function"]))
                if f is None:
                    p.append("row for an unknown function %r" % (r["function"],))
                    continue
                if int(r["ncalls"]) != f["ncalls"] or int(r["primitive_calls"]) != f["primitive_calls"] or \
                        not close(float(r["tottime"]), f["tottime"]) or not close(float(r["cumtime"]), f["cumtime"]):
                    p.append("row %r differs from stats --json %r" % (r, f))
                if r["label"] != frame_label(r["file"], int(r["line"]), r["function"]) and \
                        r["label"] != "%s:%s(%s)" % (r["file"], r["line"], r["function"]):
                    p.append("label %r" % r["label"])
                if len(p) > 10:
                    break
        elif not rows or any(r["ncalls"] != "" for r in rows):
            p.append("Pyinstrument rows should leave the call counts empty")
    tap.check(p, "%s: csv rows equal stats --json" % what)

    # folded: every line parses; weights add up to the total (and per function
    # to its tottime, for cProfile)
    out, p = env.export(source, sel, "folded", allow_empty=total_of(stats) == 0)
    if not p:
        stacks, p = parse_folded(out)
        total_us = sum(w for _, w in stacks)
        slack = 0.5 * len(stacks) + 1
        if abs(total_us - total_of(stats) * 1e6) > slack:
            p.append("weights sum to %d us, the selection's total is %r s" % (total_us, total_of(stats)))
        if cprofile:
            self_us = {}
            for frames, w in stacks:
                self_us[frames[-1]] = self_us.get(frames[-1], 0) + w
            for f in stats["functions"]:
                label = frame_label(f["file"], f["line"], f["function"]).replace(";", ",")
                got = self_us.get(label, 0)
                n = sum(1 for fr, _ in stacks if fr[-1] == label)
                if abs(got - f["tottime"] * 1e6) > 0.5 * n + 1:
                    p.append("%s: leaf weights %d us, tottime %r s" % (label, got, f["tottime"]))
                    if len(p) > 5:
                        break
    tap.check(p, "%s: folded lines parse and add up to the total" % what)

    # speedscope: valid against speedscope's own schema, weights add up
    out, p = env.export(source, sel, "speedscope")
    if not p:
        doc = json.load(open(out, encoding="utf-8"))
        try:
            jsonschema.validate(doc, env.schema)
        except jsonschema.ValidationError as e:
            p.append("schema: %s" % str(e).splitlines()[0])
        first = doc["profiles"][0]
        if first["type"] != "sampled" or len(first["samples"]) != len(first["weights"]):
            p.append("first profile is not sampled with one weight per sample")
        if abs(sum(first["weights"]) - total_of(stats)) > 1e-6 * (len(first["weights"]) + 1):
            p.append("weights sum to %r, total %r" % (sum(first["weights"]), total_of(stats)))
        n_frames = len(doc["shared"]["frames"])
        if any(i < 0 or i >= n_frames for s in first["samples"] for i in s):
            p.append("a sample names a frame that does not exist")
        if len(stats["node_ids"]) > 1 and len(doc["profiles"]) != 1 + len(stats["node_ids"]):
            p.append("%d profiles for %d nodes (expected the sum, then one per node)" % (
                len(doc["profiles"]), len(stats["node_ids"])))
    tap.check(p, "%s: speedscope validates against speedscope's schema" % what)

    if total_of(stats) > 0:
        check_pictures(env, source, sel, what, stats, cprofile)
    else:
        check_empty_pictures(env, source, sel, what)
    check_syscap(env, source, sel, what, stats)


def selection_words(sel):
    """Words the pictures' subtitle uses for the selections of the cases above."""
    if "--all" in sel:
        return ["all intervals"]
    if "--pre-step-zero" in sel:
        return ["pre-step-zero"]
    if "--step" in sel:
        start = sel[sel.index("--step") + 1]
        end = sel[sel.index("--end-step") + 1] if "--end-step" in sel else start
        return ["steps %s (stepstart)" % start, "%s (stepend)" % end]
    return []


def check_pictures(env, source, sel, what, stats, cprofile):
    tap = env.tap

    svg, p = env.export(source, sel, "svg", "--title", "Export <test> & co")
    height = None
    if not p:
        try:
            root = ET.parse(svg).getroot()
            height = int(float(root.get("height")))
            frames = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "f"]
            texts = {t.get("id"): "".join(t.itertext()) for t in root.iter(SVG_NS + "text") if t.get("id")}
            if not frames:
                p.append("no frames")
            if texts.get("title") != "Export <test> & co":
                p.append("title %r" % texts.get("title"))
            subtitle = texts.get("subtitle", "")
            for node in stats["node_ids"]:
                if node not in subtitle:
                    p.append("subtitle %r does not name node %s" % (subtitle, node))
            n = len(stats["intervals"])
            for word in [os.path.basename(source), "%d interval%s" % (n, "" if n == 1 else "s")] + selection_words(sel):
                if word not in subtitle:
                    p.append("subtitle %r does not say %r" % (subtitle, word))
            if ("note" in texts) != cprofile:
                p.append("the 'estimated' note should be there exactly for cProfile")
            if root.find(SVG_NS + "script") is None or "search" not in texts:
                p.append("no script or search button")
            if not any(f.get("data-d") == "0" and f.get("data-p") == "-1" for f in frames):
                p.append("no root frame on row 0")
        except ET.ParseError as e:
            p.append("not valid XML: %s" % e)
    tap.check(p, "%s: svg is valid XML with frames, title, subtitle, script" % what)
    if not p and not env.browser_checked:
        env.browser_checked = True
        check_svg_in_browser(env, svg)

    if not p:
        png = env.path("png")
        r = subprocess.run(["rsvg-convert", svg, "-o", png], capture_output=True)
        q = ["rsvg-convert: exit %d %s" % (r.returncode, r.stderr[:300])] if r.returncode else []
        if not q:
            q = check_picture(png, LIGHT_BACKGROUND, 1200, height)
        tap.check(q, "%s: rsvg-convert renders the svg, not blank" % what)

    png, p = env.export(source, sel, "png", "--width", "800", "--min-width", "0.5")
    if not p:
        svg2, q = env.export(source, sel, "svg", "--width", "800", "--min-width", "0.5")
        expect_height = int(float(ET.parse(svg2).getroot().get("height"))) if not q else None
        p = q + check_picture(png, LIGHT_BACKGROUND, 800, expect_height)
    tap.check(p, "%s: png has the requested width, the svg's height, and is not blank" % what)

    pdf, p = env.export(source, sel, "pdf", "--direction", "down")
    if not p:
        prefix = env.path("pdfpage")
        r = subprocess.run(["pdftoppm", "-png", "-r", "72", "-singlefile", pdf, prefix], capture_output=True)
        if r.returncode:
            p.append("pdftoppm: exit %d %s" % (r.returncode, r.stderr[:300]))
        else:
            p = check_picture(prefix + ".png", LIGHT_BACKGROUND)
    tap.check(p, "%s: pdf renders with pdftoppm, not blank" % what)


def check_empty_pictures(env, source, sel, what):
    """A selection without time: no frames, a message that says so, a picture all the same."""
    svg, p = env.export(source, sel, "svg")
    if not p:
        root = ET.parse(svg).getroot()
        if any(g.get("class") == "f" for g in root.iter(SVG_NS + "g")):
            p.append("frames drawn for a profile without time")
        if not any("No time" in "".join(t.itertext()) for t in root.iter(SVG_NS + "text")):
            p.append("no message saying there is no time")
    for fmt in ("png", "pdf"):
        p += env.export(source, sel, fmt)[1]
    tap = env.tap
    tap.check(p, "%s: a selection without time gives pictures that say so" % what)


def check_syscap(env, source, sel, what, stats):
    tap = env.tap
    out, p = env.export(source, sel, "syscap")
    if p:
        tap.check(p, "%s: syscap export" % what)
        return
    r = subprocess.run([env.dump, out], capture_output=True, text=True)
    if r.returncode:
        tap.check(["syscap-dump: exit %d %s" % (r.returncode, r.stderr[:300])], "%s: syscap reads back" % what)
        return
    lines = [l.split("\t") for l in r.stdout.splitlines()]
    marks = [l for l in lines if l[0] == "mark"]
    samples = [l for l in lines if l[0] == "sample"]
    processes = {l[1]: l[3] for l in lines if l[0] == "process"}
    jitmap = {l[1]: l[2] for l in lines if l[0] == "jitmap"}
    meta = dict(kv.split("=", 1) for l in lines if l[0] == "metadata" and l[1] == "smprof"
                for kv in l[2].split("\\n") if kv)
    p = []

    if sorted(processes.values()) != sorted(stats["node_ids"]):
        p.append("processes %r, nodes %r" % (sorted(processes.values()), stats["node_ids"]))
    if sorted(m[6] for m in marks) != sorted(stats["intervals"]):
        p.append("%d marks for %d intervals, or their messages differ" % (len(marks), len(stats["intervals"])))
    for m in marks:
        if processes.get(m[1]) != m[4] or m[6].split("/")[0] != m[4]:
            p.append("mark %r: group, pid and node disagree" % (m,))
            break
    if min((int(m[2]) for m in marks), default=0) < 0 or min((int(s[2]) for s in samples), default=0) < 0:
        p.append("a frame is stamped before the capture's start")
    p += check_syscap_marks(marks, processes, lines)

    # Expected samples: per node, each stack's weight in microseconds over the period, rounded.
    period = int(meta.get("sample-period-us", 0))
    expected = 0
    want_stacks = collections.Counter()
    if period <= 0:
        p.append("no sample period in the smprof metadata: %r" % meta)
    else:
        for node in stats["node_ids"]:
            node_sel = [a for a in sel]
            if "--node" in node_sel:
                i = node_sel.index("--node")
                del node_sel[i:i + 2]
            folded, q = env.export(source, node_sel + ["--node", node], "folded", allow_empty=True)
            p += q
            if not q:
                stacks, q = parse_folded(folded)
                p += q
                expected += sum((w + period // 2) // period for _, w in stacks)
                for frames, w in stacks:
                    want_stacks[(node, tuple(frames))] += (w + period // 2) // period
    if len(samples) != expected:
        p.append("%d samples, expected %d" % (len(samples), expected))
    unnamed = {a for s in samples for a in s[3].split(",") if a and a not in jitmap}
    if unnamed:
        p.append("%d sample addresses have no jitmap name" % len(unnamed))
    elif period > 0:
        # Each sample's stack, named through jitmap (innermost first), is one
        # of the node's folded stacks: as many samples as its weight asks.
        got_stacks = collections.Counter(
            (processes.get(s[1]), tuple(folded_name(jitmap[a]) for a in reversed(s[3].split(",")) if a))
            for s in samples)
        want_stacks = +want_stacks
        if got_stacks != want_stacks:
            diff = sorted((got_stacks - want_stacks).items())[:2] + sorted((want_stacks - got_stacks).items())[:2]
            p.append("sample stacks differ from the folded stacks, e.g. %r" % (diff,))
        p += check_syscap_sample_times(marks, samples)
    tap.check(p, "%s: syscap reads back: a process per node, a mark per interval, %d samples" % (what, expected))


def folded_name(jitmap_name):
    """A jitmap name as the folded export labels the same frame."""
    return jitmap_name.replace(";", ",").replace("\\n", " ").replace("\r", " ")


MARK_NAME_BYTES = 40  # sizeof (SysprofCaptureMark.name), its NUL included


def mark_name_of(interval):
    """The mark name an interval folder asks for: mode, step and phase of both
    bounds ("train 3 stepstart->forwardpassend"), the end's mode and step
    left out when they are the start's."""
    start, end = interval.split("_")
    sm, ss, sp, _ = start.split("-")
    em, es, ep, _ = end.split("-")
    name = "%s %s %s->" % (sm, ss, sp)
    if (sm, ss) == (em, es):
        return name + ep
    return name + ("%s %s %s" % (em, es, ep) if sm != em else "%s %s" % (es, ep))


def check_syscap_marks(marks, processes, lines):
    """Mark names, durations and times against the intervals their messages name."""
    p = []
    rows = []
    for m in marks:
        interval = m[6].split("/", 1)[1]
        iv = taplib.parse_interval(interval)
        full = mark_name_of(interval)
        start = full[:full.index("->") + 2]
        if len(full.encode()) < MARK_NAME_BYTES:
            ok = m[5] == full
        else:  # cut at a word, never into the start bound
            ok = (len(m[5].encode()) < MARK_NAME_BYTES and m[5].startswith(start) and
                  full.startswith(m[5]) and full[len(m[5])] == " " or m[5] == start)
        if not ok:
            p.append("mark %r is named %r, expected %r" % (m[6], m[5], full))
            break
        rows.append((int(m[2]), int(m[3]), iv["start_time_since_epoch_in_micros"],
                     iv["end_time_since_epoch_in_micros"]))
    if p or not rows:
        return p
    # The job's clock, shifted: mark time = t0 + (interval start - earliest start),
    # t0 the time every process frame carries (right after the capture's start).
    origin = min(r[2] for r in rows)
    t0 = {int(l[2]) for l in lines if l[0] == "process"}
    if len(t0) != 1 or not 0 <= min(t0) < 10 ** 9:
        return p + ["process frames stamped at %r, expected one time within a second of the start" % sorted(t0)]
    t0 = t0.pop()
    for time, duration, start_us, end_us in rows:
        if abs(time - (t0 + (start_us - origin) * 1000)) > 2 or abs(duration - (end_us - start_us) * 1000) > 2:
            p.append("mark at %d ns lasting %d ns; the interval is at %.3f us lasting %.3f us after the earliest" % (
                time, duration, start_us - origin, end_us - start_us))
            break
    return p


def check_syscap_sample_times(marks, samples):
    """Every sample falls within one of its process's marks (its node's intervals)."""
    spans = {}
    for m in marks:
        spans.setdefault(m[1], []).append((int(m[2]), int(m[2]) + int(m[3])))
    for s in samples:
        t = int(s[2])
        if not any(a - 2 <= t <= b + 2 for a, b in spans.get(s[1], [])):
            return ["a sample of pid %s at %d ns is outside its node's intervals" % (s[1], t)]
    return []


BROWSER_PROBE = """<script type="text/ecmascript"><![CDATA[
window.addEventListener('load', function () {
  setTimeout(function () {
    var target = frames[%d], hl = 0, shown = 0, parents = 0;
    zoom(target);
    search(%s);
    target.g.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].g.style.display !== 'none') shown++;
      if (frames[i].g.classList.contains('parent')) parents++;
      if (frames[i].rect.getAttribute('fill') === 'rgb(230,0,230)' && frames[i].g.style.display !== 'none') hl++;
    }
    document.getElementById('title').textContent = 'PROBE|' + shown + '|' + parents + '|' + hl + '|' +
      matched.textContent + '|' + target.rect.getAttribute('width') + '|' + details.textContent;
  }, 10);
});
]]></script>
</svg>
"""


def check_svg_in_browser(env, svg):
    """The SVG's own script in a real browser: zoom, search and hover."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        env.tap.skip("svg script: zoom, search and hover work in a browser", "no chromium installed")
        return
    root = ET.parse(svg).getroot()
    frames = [dict(x=float(g.get("data-x")), w=float(g.get("data-w")), d=int(g.get("data-d")),
                   p=int(g.get("data-p")), name=g.get("data-n"), file=g.get("data-f"))
              for g in root.iter(SVG_NS + "g") if g.get("class") == "f"]
    width = float(root.get("data-frames-width"))
    # Zoom to the widest frame on row 1 that has children; search for its deepest descendant's name.
    inside = lambda f, z: f["d"] >= z["d"] and f["x"] >= z["x"] - 1e-12 and f["x"] + f["w"] <= z["x"] + z["w"] + 1e-12
    candidates = [i for i, f in enumerate(frames) if f["d"] == 1 and any(g["p"] == i for g in frames)]
    t = max(candidates, key=lambda i: frames[i]["w"])
    z = frames[t]
    deepest = max((f for f in frames if inside(f, z)), key=lambda f: f["d"])
    needle = deepest["name"][1:4].upper() or deepest["name"]
    hit = [needle.lower() in f["name"].lower() or needle.lower() in f["file"].lower() for f in frames]
    share = 0.0
    for i, f in enumerate(frames):
        if hit[i] and inside(f, z):
            p, nested = f["p"], False
            while p >= 0 and frames[p]["d"] >= z["d"]:
                nested = nested or hit[p]
                p = frames[p]["p"]
            share += 0 if nested else f["w"] / z["w"]
    expect_shown = sum(1 for f in frames if inside(f, z)) + z["d"]
    expect_hl = sum(1 for i, f in enumerate(frames) if hit[i] and (inside(f, z) or
                    (f["d"] < z["d"] and f["x"] <= z["x"] + 1e-12 and f["x"] + f["w"] >= z["x"] + z["w"] - 1e-12)))

    probe = env.path("svg")
    with open(svg, encoding="utf-8") as fh:
        text = fh.read()
    with open(probe, "w", encoding="utf-8") as fh:
        fh.write(text.replace("</svg>\n", BROWSER_PROBE % (t, json.dumps(needle))))
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000",
                        "--dump-dom", "file://" + probe], capture_output=True, text=True, timeout=120)
    m = re.search(r"PROBE\|([^<]*)", r.stdout)
    p = []
    if not m:
        p.append("the probe did not run (exit %d): %s" % (r.returncode, r.stderr[-300:]))
    else:
        shown, parents, hl, matched, zoom_width, details = m.group(1).split("|", 5)
        if int(shown) != expect_shown or int(parents) != z["d"]:
            p.append("after the zoom %s frames shown, %s faded; expected %d, %d" % (shown, parents, expect_shown, z["d"]))
        if int(hl) != expect_hl:
            p.append("%s frames highlighted for %r, expected %d" % (hl, needle, expect_hl))
        if matched != "Matched: %.1f%%" % (100 * min(share, 1)):
            p.append("%r, expected %.1f%%" % (matched, 100 * share))
        if abs(float(zoom_width) - (width - 0.5)) > 0.01:
            p.append("the zoomed frame is %s px wide, expected the full %s" % (zoom_width, width - 0.5))
        if not details.startswith(z["name"]):
            p.append("hover details %r" % details)
    env.tap.check(p, "svg script: zoom, search (%r) and hover work in Chromium" % needle)


def check_cli(env):
    tap = env.tap
    pt = job("pt-cprofile")

    out = env.path("folded")
    tap.check(taplib.expect_no_selection(["export", pt, "--step", "999", "--format", "folded", "-o", out]) +
              (["a file was written"] if os.path.exists(out) else []),
              "export: nothing selected exits 1 and writes nothing")

    for args, name in (
        (["--all", "--format", "gif", "-o", out], "an unknown format"),
        (["--all", "-o", out], "no --format"),
        (["--all", "--format", "svg"], "no -o"),
        (["--training-phase", "--format", "svg", "-o", out], "--training-phase (several selections)"),
        (["--all", "--format", "svg", "-o", out, "--width", "5"], "a width out of range"),
        (["--all", "--format", "svg", "-o", out, "--direction", "left"], "a bad direction"),
        (["--all", "--format", "json", "--json", "-o", out], "--json"),
    ):
        rc, stdout, err = smprof("export", pt, *args)
        tap.check([] if rc == 2 and err.strip() else ["exit %d, stderr %r" % (rc, err[:200])],
                  "export: %s is a usage error (exit 2)" % name)

    rc, _, err = smprof("stats", pt, "--all", "--format", "svg")
    tap.check([] if rc == 2 else ["exit %d" % rc], "stats: --format is a usage error (exit 2)")

    rc, _, err = smprof("export", os.path.join(env.tmp, "no-such-job"), "--all", "--format", "svg", "-o", out)
    tap.check([] if rc == 3 else ["exit %d" % rc], "export: an unreadable source exits 3")

    bad = os.path.join(env.tmp, "no-such-dir", "out.svg")
    rc, _, err = smprof("export", pt, "--all", "--format", "svg", "-o", bad)
    tap.check([] if rc == 4 and bad in err else ["exit %d, stderr %r" % (rc, err[:200])],
              "export: a file that cannot be written exits 4, naming it")

    # -o - writes to stdout, the same bytes as a file
    f, p = env.export(pt, ["--step", "3"], "folded")
    rc, stdout, err = smprof("export", pt, "--step", "3", "--format", "folded", "-o", "-")
    if rc != 0 or (not p and stdout != open(f, encoding="utf-8").read()):
        p.append("exit %d; stdout differs from the file" % rc)
    tap.check(p, "export: -o - writes the same bytes to stdout")

    # A failed export keeps what the file held.
    keep = env.path("pstats")
    with open(keep, "w") as fh:
        fh.write("keep me")
    rc, _, err = smprof("export", job("pt-pyinstrument"), "--step", "100000", "--format", "pstats", "-o", keep)
    tap.check([] if rc == 1 and open(keep).read() == "keep me" else ["exit %d, file now %r" % (rc, open(keep).read()[:20])],
              "export: a failed export (no interval selected) leaves the existing file alone")

    # Direction: row 0 at the bottom of a flame graph, at the top of an icicle.
    ys = {}
    for direction in ("up", "down"):
        svg, p = env.export(pt, ["--all"], "svg", "--direction", direction)
        if p:
            break
        root = ET.parse(svg).getroot()
        by_depth = {}
        for g in root.iter(SVG_NS + "g"):
            if g.get("class") == "f":
                by_depth.setdefault(int(g.get("data-d")), float(g.find(SVG_NS + "rect").get("y")))
        ys[direction] = (by_depth.get(0), by_depth.get(1))
    ok = ("up" in ys and "down" in ys and ys["up"][0] > ys["up"][1] and ys["down"][0] < ys["down"][1])
    tap.check([] if ok else ["row y positions %r" % ys], "export: --direction up draws a flame, down an icicle")

    # --min-width drops narrow frames
    counts = []
    for width in ("0", "20"):
        svg, p = env.export(pt, ["--all"], "svg", "--min-width", width)
        if p:
            break
        frames = [g for g in ET.parse(svg).getroot().iter(SVG_NS + "g") if g.get("class") == "f"]
        narrow = [g for g in frames if float(g.get("data-w")) * 1180 < float(width) - 1e-6]
        counts.append((len(frames), len(narrow)))
    ok = len(counts) == 2 and counts[1][0] < counts[0][0] and counts[1][1] == 0
    tap.check([] if ok else ["frames (all, narrower than asked): %r" % counts], "export: --min-width drops narrow frames")


def main(tap):
    env = Env(tap)
    try:
        if not env.dump or not os.path.exists(env.dump):
            tap.ok(False, "SYSCAP_DUMP names the built syscap-dump")
            return
        for name, sel in CPROFILE_CASES:
            check_cprofile(env, name, sel)
        for name, sel in PYINSTRUMENT_CASES:
            check_pyinstrument(env, name, sel)
        check_cli(env)
    finally:
        shutil.rmtree(env.tmp, ignore_errors=True)


if __name__ == "__main__":
    Tap().run_main(main)
