#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The parsed index ($XDG_CACHE_HOME/smprof/index) never changes an answer.

For every real job and the sample job, `stats --json` and the folded export
over the whole job come out byte for byte the same with --no-cache, on the
first run (the cache written) and on the second (read: G_MESSAGES_DEBUG
shows every cProfile interval came from the cache). Then each kind of
damage to the cache of a copy of a cProfile job is a miss with the right
answer: a truncated node or keys file, bytes flipped at several offsets,
garbage in place of a cache file, an older version number, a stats file
rewritten after caching (other size, or same size and new time), an
unwritable cache folder, and SMPROF_NO_CACHE=1 / --no-cache writing nothing.
"""

import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import REAL, REAL_JOBS, smprof_path  # noqa: E402

SAMPLE = os.path.join(os.path.dirname(taplib.DATA), "..", "data", "sample-job")
STATS = ["stats", None, "--all", "--node", "all", "--json"]
FOLDED = ["export", None, "--all", "--node", "all", "--format", "folded", "-o", "-"]
HIT = re.compile(r"parsed index: (\d+) of (\d+) cProfile intervals read from the cache")


def run(args, job, cache_home, extra_env=None, debug=False):
    """(rc, stdout bytes, stderr text, [(hits, wanted)]) of one smprof run."""
    argv = [smprof_path()] + [job if a is None else a for a in args]
    env = dict(os.environ, XDG_CACHE_HOME=cache_home)
    env.pop("SMPROF_NO_CACHE", None)
    env.pop("G_MESSAGES_DEBUG", None)
    if debug:
        env["G_MESSAGES_DEBUG"] = "smprof"
    env.update(extra_env or {})
    p = subprocess.run(argv, capture_output=True, env=env, timeout=taplib.CALL_TIMEOUT)
    out = p.stdout
    # GLib writes debug messages to standard output.
    counts = [(int(m.group(1)), int(m.group(2))) for m in HIT.finditer(out.decode("utf-8", "replace"))]
    return p.returncode, out, p.stderr.decode("utf-8", "replace"), counts


def index_dir(cache_home):
    return os.path.join(cache_home, "smprof", "index")


def cache_files(cache_home, prefix=""):
    d = index_dir(cache_home)
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, n) for n in os.listdir(d) if n.startswith(prefix) and n.endswith(".smpi"))


def hit_summary(counts):
    return (sum(c[0] for c in counts), sum(c[1] for c in counts))


def identical_runs(tap, name, job, tmp):
    """Byte-identical answers without the cache, writing it and reading it."""
    cprofile = any(True for _ in walk_stats(job))
    # a query on one named node reads ahead its node file while it lists
    nodes = subprocess.run([smprof_path(), "nodes", job], capture_output=True, text=True,
                           env=dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache-nodes-" + name)),
                           timeout=taplib.CALL_TIMEOUT).stdout.split()
    one_node = ["stats", None, "--all", "--node", nodes[-1] if nodes else "any", "--json"]
    for label, args in (("stats --json", STATS), ("export folded", FOLDED), ("stats --node ONE --json", one_node)):
        cache_home = os.path.join(tmp, "cache-%s-%s" % (name, label.replace(" ", "_")))
        rc0, ref, err0, _ = run(args + ["--no-cache"], job, cache_home)
        ok = tap.ok(rc0 == 0 and len(ref) > 0, "%s %s --no-cache answers" % (name, label), err0)
        tap.ok(not cache_files(cache_home), "%s %s --no-cache writes no cache" % (name, label),
               cache_files(cache_home))
        if not ok:
            continue
        rc1, first, err1, _ = run(args, job, cache_home)
        tap.ok(rc1 == 0 and first == ref, "%s %s: first run (cache written) is byte-identical" % (name, label),
               [err1, "lengths %d / %d" % (len(first), len(ref))])
        if cprofile:
            tap.ok(len(cache_files(cache_home, "node-")) > 0 and len(cache_files(cache_home, "keys-")) == 1,
                   "%s %s: the first run wrote a keys file and node files" % (name, label),
                   cache_files(cache_home))
        rc2, _, err2, counts = run(args, job, cache_home, debug=True)
        hits, wanted = hit_summary(counts)
        if cprofile:
            tap.ok(rc2 == 0 and wanted > 0 and hits == wanted,
                   "%s %s: the second run read all %d cProfile intervals from the cache" % (name, label, wanted),
                   [err2, "counts %r" % counts])
        else:
            tap.ok(rc2 == 0 and hits == 0 and not cache_files(cache_home),
                   "%s %s: Pyinstrument sessions are not cached" % (name, label),
                   [err2, "counts %r" % counts, cache_files(cache_home)])
        rc3, second, err3, _ = run(args, job, cache_home)
        tap.ok(rc3 == 0 and second == ref, "%s %s: second run (cache read) is byte-identical" % (name, label),
               [err3, "lengths %d / %d" % (len(second), len(ref))])


def walk_stats(job):
    for root, _, files in os.walk(job):
        for f in files:
            if f == "python_stats":
                yield os.path.join(root, f)


def fresh_cache(job, cache_home):
    shutil.rmtree(cache_home, ignore_errors=True)
    rc, _, err, _ = run(STATS, job, cache_home)
    assert rc == 0, err


def damage_case(tap, label, job, cache_home, ref, damage, expect_hits_below=None):
    """Caches @job afresh, damages the cache, and checks the answer is @ref
    with fewer than every interval read from the cache."""
    fresh_cache(job, cache_home)
    damage()
    rc, out, err, counts = run(STATS, job, cache_home, debug=True)
    hits, wanted = hit_summary(counts)
    answer = strip_debug(out)
    problems = []
    if rc != 0:
        problems.append("exit status %d: %s" % (rc, err.strip()[:400]))
    if answer != ref:
        problems.append("answer differs from --no-cache (%d / %d bytes)" % (len(answer), len(ref)))
    limit = expect_hits_below if expect_hits_below is not None else wanted
    if not hits < limit:
        problems.append("%d of %d intervals were hits: the damage was not seen" % (hits, wanted))
    tap.check(problems, "damaged cache, %s: a miss with the right answer (%d of %d hits)" % (label, hits, wanted))
    # and the run after it repaired the cache
    rc, out, err, counts = run(STATS, job, cache_home, debug=True)
    hits, wanted = hit_summary(counts)
    tap.ok(rc == 0 and strip_debug(out) == ref and hits == wanted,
           "after %s, the next run reads everything from the rewritten cache" % label,
           [err, "counts %r" % counts])


def strip_debug(out):
    return b"".join(line for line in out.splitlines(keepends=True) if b"parsed index:" not in line)


def flip(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset if offset >= 0 else os.path.getsize(path) + offset)
        b = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([b[0] ^ 0x10]))


def truncate(path, size):
    with open(path, "r+b") as f:
        f.truncate(size)


def biggest_node(cache_home):
    return max(cache_files(cache_home, "node-"), key=os.path.getsize)


def damage_cases(tap, tmp):
    job = os.path.join(tmp, "job")
    shutil.copytree(os.path.join(REAL, "pt-cprofile"), job)
    cache_home = os.path.join(tmp, "cache-damage")
    rc, ref, err, _ = run(STATS + ["--no-cache"], job, cache_home)
    assert rc == 0, err

    def node():
        return biggest_node(cache_home)

    def keys():
        return cache_files(cache_home, "keys-")[0]

    damage_case(tap, "node file truncated to half", job, cache_home, ref,
                lambda: truncate(node(), os.path.getsize(node()) // 2))
    damage_case(tap, "node file truncated by one byte", job, cache_home, ref,
                lambda: truncate(node(), os.path.getsize(node()) - 1))
    damage_case(tap, "keys file truncated", job, cache_home, ref,
                lambda: truncate(keys(), 100), expect_hits_below=1)
    # the header (magic, version, counts), the strings, the interval table,
    # the first interval's arrays, the middle and the last byte
    def intervals_offset(path):
        with open(path, "rb") as f:
            return struct.unpack_from("=Q", f.read(96), 88)[0]

    for label, where in (("magic", lambda p: 0), ("version", lambda p: 8), ("n_intervals", lambda p: 60),
                         ("identity string", lambda p: 130),
                         ("interval table", lambda p: intervals_offset(p) + 24),
                         ("middle", lambda p: os.path.getsize(p) // 2), ("last byte", lambda p: -1)):
        damage_case(tap, "node file byte flipped (%s)" % label, job, cache_home, ref,
                    lambda where=where: flip(node(), where(node())))
    damage_case(tap, "keys file byte flipped (middle)", job, cache_home, ref,
                lambda: flip(keys(), os.path.getsize(keys()) // 2), expect_hits_below=1)

    def garbage():
        for path in cache_files(cache_home):
            with open(path, "wb") as f:
                f.write(os.urandom(os.path.getsize(path)))

    damage_case(tap, "every cache file replaced by garbage", job, cache_home, ref, garbage, expect_hits_below=1)

    def older_version():
        # the version field (after the 8-byte magic) of every file: 0, as if
        # an older smprof wrote them
        for path in cache_files(cache_home):
            with open(path, "r+b") as f:
                f.seek(8)
                f.write(struct.pack("=I", 0))

    damage_case(tap, "an older version number", job, cache_home, ref, older_version, expect_hits_below=1)

    # Stale: a stats file rewritten after caching. The answer must be the
    # new file's, so the reference is taken again without the cache.
    stats_files = sorted(walk_stats(job))
    victim = stats_files[len(stats_files) // 2]
    donor = stats_files[len(stats_files) // 2 + 1]
    fresh_cache(job, cache_home)
    shutil.copyfile(donor, victim)      # other content, other size (mostly) and time
    rc, new_ref, err, _ = run(STATS + ["--no-cache"], job, cache_home)
    rc, out, err, counts = run(STATS, job, cache_home, debug=True)
    hits, wanted = hit_summary(counts)
    tap.ok(rc == 0 and strip_debug(out) == new_ref and new_ref != ref and hits == wanted - 1,
           "a stats file rewritten after caching is a miss, and the answer is the new file's",
           [err, "counts %r" % counts])

    # The same size, only the time changes: still a miss.
    fresh_cache(job, cache_home)
    st = os.stat(victim)
    os.utime(victim, ns=(st.st_atime_ns, st.st_mtime_ns + 1000000000))
    rc, out, err, counts = run(STATS, job, cache_home, debug=True)
    hits, wanted = hit_summary(counts)
    tap.ok(rc == 0 and strip_debug(out) == new_ref and hits == wanted - 1,
           "a stats file with a new time (same size) is a miss", [err, "counts %r" % counts])

    # An unwritable cache folder: answers still right, nothing written.
    locked = os.path.join(tmp, "cache-locked")
    os.makedirs(os.path.join(locked, "smprof"))
    with open(os.path.join(locked, "smprof", "index"), "w") as f:
        f.write("a file where the folder should be\n")
    rc, out, err, counts = run(STATS, job, locked)
    tap.ok(rc == 0 and out == new_ref, "a cache folder that cannot be made: the answer is right",
           [err])
    rc, out, err, counts = run(STATS, job, locked)
    tap.ok(rc == 0 and out == new_ref and err.strip() == "",
           "... again, and no message on stderr", [err])

    # SMPROF_NO_CACHE=1 neither reads nor writes.
    off = os.path.join(tmp, "cache-off")
    rc, out, err, counts = run(STATS, job, off, extra_env={"SMPROF_NO_CACHE": "1"}, debug=True)
    tap.ok(rc == 0 and strip_debug(out) == new_ref and not counts and not cache_files(off),
           "SMPROF_NO_CACHE=1: no cache read or written", [err, "counts %r" % counts, cache_files(off)])


def option_cases(tap, tmp):
    """--no-cache in every command's help, in diff, and refused inside a selection."""
    job = os.path.join(REAL, "pt-cprofile")
    for command in ("nodes", "list", "stats", "export", "steps", "outliers", "report", "diff"):
        p = subprocess.run([smprof_path(), command, "--help"], capture_output=True, text=True)
        tap.ok(p.returncode == 0 and "--no-cache" in p.stdout and "SMPROF_NO_CACHE" in p.stdout,
               "smprof %s --help describes --no-cache" % command, p.stdout[-400:])
    diff = ["diff", None, "--a", "--step 1", "--b", "--step 2"]
    off = os.path.join(tmp, "cache-diff-off")
    rc, ref, err, _ = run(diff + ["--no-cache"], job, off)
    tap.ok(rc == 0 and not cache_files(off), "diff --no-cache answers and writes no cache", [err])
    on = os.path.join(tmp, "cache-diff-on")
    run(diff, job, on)
    rc, out, err, counts = run(diff, job, on, debug=True)
    hits, wanted = hit_summary(counts)
    tap.ok(rc == 0 and strip_debug(out) == ref and wanted > 0 and hits == wanted,
           "diff reads its second run from the cache, with the same answer", [err, "counts %r" % counts])
    rc, _, err, _ = run(["diff", None, "--a", "--step 1 --no-cache", "--b", "--step 2"], job, off)
    tap.ok(rc == 2 and "--no-cache" in err, "--no-cache inside diff's selection is refused", [err])


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-index-cache-")
    try:
        jobs = [(name, os.path.join(REAL, name)) for name in sorted(REAL_JOBS)]
        jobs.append(("sample-job", os.path.normpath(SAMPLE)))
        for name, job in jobs:
            identical_runs(tap, name, job, tmp)
        damage_cases(tap, tmp)
        option_cases(tap, tmp)
    finally:
        for root, dirs, _ in os.walk(tmp):
            for d in dirs:
                try:
                    os.chmod(os.path.join(root, d), stat.S_IRWXU)
                except OSError:
                    pass
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
