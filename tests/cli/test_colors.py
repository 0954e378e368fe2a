#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""`smprof export --colors SCHEME`: the SVG's frame fills follow the scheme (TAP).

The same frames in every scheme; "module" and "colorblind" fill them
differently from "default"; "colorblind" keeps to Okabe and Ito's hues (its
shades are mixes with white, which keep the hue); an unknown scheme is a
usage error naming --colors.

Environment: SMPROF, SMPROF_TEST_DATA (as for the other tests/cli scripts).
"""

import colorsys
import os
import re
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import taplib  # noqa: E402
from taplib import Tap, smprof  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"
OKABE_ITO = ["e69f00", "56b4e9", "009e73", "f0e442", "0072b2", "d55e00", "cc79a7"]
SELECTION = ["--all", "--node", "all"]


def hue(rgb):
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360


def frames(path):
    """(title, (r, g, b)) of each frame, in document order."""
    out = []
    for g in ET.parse(path).getroot().iter(SVG_NS + "g"):
        if g.get("class") != "f":
            continue
        title = g.find(SVG_NS + "title").text
        fill = re.fullmatch(r"rgb\((\d+),(\d+),(\d+)\)", g.find(SVG_NS + "rect").get("fill"))
        out.append((title, tuple(int(x) for x in fill.groups())))
    return out


def main(tap):
    job = os.path.join(taplib.REAL, "pt-cprofile")
    tmp = tempfile.mkdtemp(prefix="smprof-colors-")
    try:
        check(tap, job, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check(tap, job, tmp):
    got = {}
    for scheme in ["default", "module", "colorblind", None]:
        path = os.path.join(tmp, "%s.svg" % scheme)
        args = ["export", job] + SELECTION + ["--format", "svg", "-o", path]
        if scheme is not None:
            args += ["--colors", scheme]
        rc, _, err = smprof(*args)
        if not tap.ok(rc == 0, "export --colors %s" % scheme, err):
            return
        got[scheme] = frames(path)

    base = got["default"]
    tap.ok(len(base) > 20, "the picture has frames (%d)" % len(base))
    tap.ok(got[None] == base, "no --colors is the default scheme")
    for scheme in ["module", "colorblind"]:
        same_frames = [t for t, _ in got[scheme]] == [t for t, _ in base]
        tap.ok(same_frames, "%s: the same frames as default" % scheme)
        differ = sum(1 for (_, a), (_, b) in zip(base, got[scheme]) if a != b)
        tap.ok(differ > len(base) * 9 // 10,
               "%s: %d of %d fills differ from default" % (scheme, differ, len(base)))

    hues = [hue(tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))) for h in OKABE_ITO]
    off = []
    for title, rgb in got["colorblind"]:
        if max(rgb) - min(rgb) < 12:   # too pale or dark to have a hue worth checking
            continue
        h = hue(rgb)
        if min(min(abs(h - k), 360 - abs(h - k)) for k in hues) > 8:
            off.append("%s: rgb%s, hue %.0f" % (title.splitlines()[0], rgb, h))
    tap.check(off, "colorblind: every fill has an Okabe-Ito hue")
    tap.ok(len({rgb for _, rgb in got["colorblind"]}) > 3, "colorblind: several colours")

    rc, _, err = smprof("export", job, *SELECTION, "--format", "svg", "-o", os.path.join(tmp, "x.svg"),
                        "--colors", "light")
    tap.ok(rc == 2 and "--colors" in err and "light" in err, "an unknown scheme is a usage error", err)


if __name__ == "__main__":
    Tap().run_main(main)
