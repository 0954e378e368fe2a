#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof on damaged copies of real jobs.

Each case copies a real job to a temporary folder and damages it (truncated,
garbage or empty python_stats, malformed folder name, stray file, empty
interval folder, unreadable file, bad python_stats.json). smprof must exit 0,
warn on stderr naming the damaged interval folder (or stray file), and give
for `stats --all --node all --json` exactly what it gives on a pristine copy
from which the damaged interval folders were deleted.
"""

import json
import marshal
import os
import random
import re
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import REAL, cmdline, smprof, smprof_json  # noqa: E402

QUERY = ["--all", "--node", "all", "--json"]


def profiler_base(job, fw, prof):
    return os.path.join(job, "framework", fw, prof)


def pick_intervals(base, node, n):
    """n distinct interval folders of a node, avoiding the first (pre-step-zero) one."""
    ivs = sorted(os.listdir(os.path.join(base, node)), key=lambda s: float(s.split("_")[0].split("-")[-1]))
    step = max(1, (len(ivs) - 1) // (n + 1))
    return [ivs[1 + i * step] for i in range(n)]


def run_case(tap, tmp, pristine, fw, prof, label, damage, deleted, needle, byte_offset=False):
    """damage(job) damages a fresh copy; ``deleted``: interval folders
    (node/interval) to delete from the reference copy; ``needle``: text the
    warning must contain; ``byte_offset``: that warning also gives the byte
    offset where the marshal reader stopped."""
    idx = len(os.listdir(tmp))
    job = os.path.join(tmp, "case-%02d" % idx)
    ref = os.path.join(tmp, "ref-%02d" % idx)
    shutil.copytree(pristine, job)
    shutil.copytree(pristine, ref)
    damage(job)
    for iv in deleted:
        shutil.rmtree(os.path.join(profiler_base(ref, fw, prof), iv))
    args = ["stats", job] + QUERY
    rc, out, err = smprof(*args)
    p = []
    if rc != 0:
        p.append("%s: exit %d, expected 0; stderr %r" % (cmdline(args), rc, err[:400]))
    elif needle not in err:
        p.append("stderr does not name %r:\n%s" % (needle, err[:600] or "(empty)"))
    elif byte_offset and not any(needle in ln and re.search(r"python_stats: .*\bbyte [0-9]+: ", ln)
                                 for ln in err.splitlines()):
        p.append("the warning naming %r gives no 'byte N:' offset:\n%s" % (needle, err[:600]))
    tap.check(p, "damaged %s: exit 0 and a warning naming %s%s"
              % (label, needle, " and the byte offset" if byte_offset else ""))
    p = []
    try:
        got = json.loads(out) if rc == 0 else None
    except ValueError:
        got = None
        p.append("stdout is not JSON: %r" % out[:200])
    rc2, want, _, _, p2 = smprof_json("stats", ref, *QUERY)
    p += p2
    if got is not None and want is not None and got != want:
        gi, wi = got.get("intervals") or [], want.get("intervals") or []
        p.append("differs from the pristine job without the damaged intervals")
        if gi != wi:
            p.append("intervals: extra %r missing %r" % (sorted(set(gi) - set(wi))[:3], sorted(set(wi) - set(gi))[:3]))
        for k in sorted(set(got) | set(want)):
            if k != "intervals" and got.get(k) != want.get(k):
                p.append("%s differs" % k)
    tap.check(p, "damaged %s: --all --node all equals the pristine job minus the damaged intervals" % label)


def cprofile_cases(tap, tmp):
    job_name, fw, prof = "tf-cprofile", "tensorflow", "cprofile"
    pristine = os.path.join(tmp, "pristine-" + job_name)
    shutil.copytree(os.path.join(REAL, job_name), pristine, ignore=shutil.ignore_patterns("expected"))
    base = profiler_base(pristine, fw, prof)
    nodes = sorted(os.listdir(base))
    n0, n1 = nodes[0], nodes[1]
    iv = pick_intervals(base, n0, 4) + pick_intervals(base, n1, 3)
    nodes_of = [n0] * 4 + [n1] * 3
    cases = []
    sub = os.path.join(tmp, "cases")
    os.makedirs(sub)

    def path(job, k, *rest):
        return os.path.join(profiler_base(job, fw, prof), nodes_of[k], iv[k], *rest)

    def truncate(job):
        f = path(job, 0, "python_stats")
        with open(f, "rb") as fh:
            data = fh.read()
        with open(f, "wb") as fh:
            fh.write(data[:len(data) // 2])
    cases.append(("truncated python_stats (half its bytes)", truncate, [0], iv[0]))

    def garbage(job):
        rng = random.Random(1234)
        data = bytes(rng.randrange(256) for _ in range(6000))
        try:  # make sure it really is not a pstats dict
            ok = not isinstance(marshal.loads(data), dict)
        except Exception:  # noqa: BLE001
            ok = True
        assert ok
        with open(path(job, 1, "python_stats"), "wb") as fh:
            fh.write(data)
    cases.append(("random-garbage python_stats", garbage, [1], iv[1]))

    def empty(job):
        open(path(job, 2, "python_stats"), "wb").close()
    cases.append(("empty (0-byte) python_stats", empty, [2], iv[2]))

    bad_name = iv[3].split("_")[0] + "_" + "train-99-stepend"  # end half lacks its time
    def malformed(job):  # noqa: E306
        os.rename(path(job, 3), os.path.join(profiler_base(job, fw, prof), nodes_of[3], bad_name))
    cases.append(("malformed interval folder name", malformed, [3], bad_name))

    def stray(job):
        with open(os.path.join(profiler_base(job, fw, prof), "core.4242"), "wb") as fh:
            fh.write(b"\0" * 64)
    cases.append(("stray file at node level", stray, [], "core.4242"))

    def empty_dir(job):
        os.unlink(path(job, 4, "python_stats"))
    cases.append(("empty interval folder", empty_dir, [4], iv[4]))

    def as_directory(job):
        f = path(job, 6, "python_stats")
        os.unlink(f)
        os.makedirs(os.path.join(f, "inner"))
    cases.append(("python_stats is a directory", as_directory, [6], iv[6]))

    marshal_damage = {truncate, garbage, empty}
    for label, damage, ks, needle in cases:
        run_case(tap, sub, pristine, fw, prof, label, damage, ["%s/%s" % (nodes_of[k], iv[k]) for k in ks], needle,
                 byte_offset=damage in marshal_damage)

    # An unreadable file. Root reads files whatever their mode, so then smprof
    # runs as nobody, over copies every user may read but this one file.
    prefix = taplib.unprivileged_prefix()
    if prefix:
        for root, dirs, files in os.walk(tmp):
            os.chmod(root, 0o755)
            for f in files:
                os.chmod(os.path.join(root, f), 0o644)
        os.chmod(tmp, 0o755)

    def unreadable(job):
        for root, dirs, files in os.walk(job):
            os.chmod(root, 0o755)
            for f in files:
                os.chmod(os.path.join(root, f), 0o644)
        os.chmod(path(job, 5, "python_stats"), 0)

    taplib.RUN_PREFIX = prefix
    try:
        run_case(tap, sub, pristine, fw, prof, "unreadable python_stats (chmod 000)", unreadable,
                 ["%s/%s" % (nodes_of[5], iv[5])], iv[5])
    finally:
        taplib.RUN_PREFIX = []
    for root, dirs, files in os.walk(sub):
        for f in files:
            os.chmod(os.path.join(root, f), stat.S_IRUSR | stat.S_IWUSR)


def pyinstrument_cases(tap, tmp):
    job_name, fw, prof = "pt-pyinstrument", "pytorch", "pyinstrument"
    pristine = os.path.join(tmp, "pristine-" + job_name)
    shutil.copytree(os.path.join(REAL, job_name), pristine, ignore=shutil.ignore_patterns("expected"))
    base = profiler_base(pristine, fw, prof)
    candidates = []
    for node in sorted(os.listdir(base)):
        for iv in sorted(os.listdir(os.path.join(base, node))):
            with open(os.path.join(base, node, iv, "python_stats.json")) as fh:
                if json.load(fh).get("root_frame") is not None and not iv.startswith("prestepzero"):
                    candidates.append("%s/%s" % (node, iv))
    a, b = candidates[0], candidates[-1]
    sub = os.path.join(tmp, "pycases")
    os.makedirs(sub)

    def wrong_types(job):
        f = os.path.join(profiler_base(job, fw, prof), a, "python_stats.json")
        with open(f) as fh:
            d = json.load(fh)
        d["root_frame"]["time"] = "0.25"
        d["root_frame"]["line_no"] = "twelve"
        d["root_frame"]["children"] = {"not": "a list"}
        with open(f, "w") as fh:
            json.dump(d, fh)
    run_case(tap, sub, pristine, fw, prof, "python_stats.json with wrong types", wrong_types, [a], a.split("/")[1])

    def invalid(job):
        f = os.path.join(profiler_base(job, fw, prof), b, "python_stats.json")
        with open(f) as fh:
            text = fh.read()
        with open(f, "w") as fh:
            fh.write(text[:len(text) // 3])
    run_case(tap, sub, pristine, fw, prof, "python_stats.json with invalid JSON", invalid, [b], b.split("/")[1])


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-damaged-")
    try:
        cprofile_cases(tap, tmp)
        pyinstrument_cases(tap, tmp)
    finally:
        for root, dirs, files in os.walk(tmp):
            for f in files:
                try:
                    os.chmod(os.path.join(root, f), stat.S_IRUSR | stat.S_IWUSR)
                except OSError:
                    pass
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
