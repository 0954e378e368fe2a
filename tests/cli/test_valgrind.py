#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof under valgrind's memcheck, on every real job and on a damaged one.

Runs only when SMPROF_VALGRIND=1 (CI's .ci/run-valgrind.sh sets it: a
valgrind run takes a few seconds per command, and an ASan build cannot run
under valgrind); otherwise the whole script is one TAP skip.

For each job in tests/data/real-smdebug/: `nodes`, `list --json`, `stats --all
--node all --json` and one step query, each under
`valgrind --leak-check=full --errors-for-leak-kinds=definite` with GLib's
suppressions. A case passes when valgrind finds no invalid read or write, no
use of uninitialised memory and nothing definitely lost, and smprof prints
exactly what it prints without valgrind. The damaged job (truncated, garbage,
hostile and empty stats files, a bad folder name, a stray file) runs the
error paths the same way.
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import REAL, REAL_JOBS, smprof, smprof_path  # noqa: E402

VALGRIND_ERROR = 99  # valgrind's exit status when it found errors; smprof never uses it
SUPPRESSIONS = [
    "/usr/share/glib-2.0/valgrind/glib.supp",
    os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), ".ci", "valgrind.supp"),
]


def valgrind_cmd(log):
    cmd = ["valgrind", "--error-exitcode=%d" % VALGRIND_ERROR, "--leak-check=full",
           "--show-possibly-lost=no", "--errors-for-leak-kinds=definite", "--track-origins=yes",
           "--num-callers=30", "--log-file=" + log]
    return cmd + ["--suppressions=" + s for s in SUPPRESSIONS if os.path.exists(s)]


def run_valgrind(args, log):
    env = dict(os.environ, G_SLICE="always-malloc", G_DEBUG="gc-friendly")
    cmd = valgrind_cmd(log) + [smprof_path()] + [str(a) for a in args]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=600, env=env)
    except subprocess.TimeoutExpired:
        return -999, "", "TIMEOUT"
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def check(tap, tmp, label, args):
    log = os.path.join(tmp, "valgrind-%d.log" % tap.n)
    want_rc, want_out, want_err = smprof(*args)
    rc, out, err = run_valgrind(args, log)
    p = []
    if rc == VALGRIND_ERROR or rc != want_rc:
        p.append("exit %d under valgrind (%d without)" % (rc, want_rc))
        try:
            with open(log, encoding="utf-8", errors="replace") as fh:
                report = [l for l in fh.read().splitlines() if l.startswith("==")]
            p += report[-30:]
        except OSError:
            pass
    elif out != want_out:
        p.append("stdout differs from the run without valgrind")
    elif sorted(err.splitlines()) != sorted(want_err.splitlines()):
        # files load on several threads: warnings come in any order
        p.append("stderr differs from the run without valgrind")
    tap.check(p, "valgrind: smprof %s: no memory error, nothing definitely lost" % label)


def damaged_copy(tmp):
    import marshal
    job = os.path.join(tmp, "damaged")
    shutil.copytree(os.path.join(REAL, "tf-cprofile"), job, ignore=shutil.ignore_patterns("expected"))
    base = os.path.join(job, "framework", "tensorflow", "cprofile")
    node = sorted(os.listdir(base))[0]
    ivs = sorted(os.listdir(os.path.join(base, node)))
    with open(os.path.join(base, node, ivs[1], "python_stats"), "rb") as fh:
        data = fh.read()
    with open(os.path.join(base, node, ivs[1], "python_stats"), "wb") as fh:
        fh.write(data[: len(data) // 2])
    with open(os.path.join(base, node, ivs[2], "python_stats"), "wb") as fh:
        fh.write(bytes(range(256)) * 8)
    with open(os.path.join(base, node, ivs[3], "python_stats"), "wb") as fh:
        fh.write(marshal.dumps({("f.py", 1, "g"): ("x", 1, 0.5, 0.5, {})}))
    with open(os.path.join(base, node, ivs[4], "python_stats"), "wb") as fh:
        fh.write(b")\x01" * 100000 + b"N")
    open(os.path.join(base, node, ivs[5], "python_stats"), "wb").close()
    os.rename(os.path.join(base, node, ivs[6]), os.path.join(base, node, "train-1.0-stepstart-1.0_train-5-stepend-2.0"))
    with open(os.path.join(base, "core.1"), "wb") as fh:
        fh.write(b"\0")
    return job


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-valgrind-")
    try:
        for job, (fw, prof) in sorted(REAL_JOBS.items()):
            path = os.path.join(REAL, job)
            check(tap, tmp, "nodes %s" % job, ["nodes", path, "--profiler", prof])
            check(tap, tmp, "list %s --json" % job, ["list", path, "--profiler", prof, "--json"])
            check(tap, tmp, "stats %s --all --node all --json" % job,
                  ["stats", path, "--profiler", prof, "--all", "--node", "all", "--json"])
            check(tap, tmp, "stats %s --step 3 --end-step 5 (text)" % job,
                  ["stats", path, "--profiler", prof, "--step", "3", "--end-step", "5"])
        job = damaged_copy(tmp)
        check(tap, tmp, "stats on a damaged tf-cprofile --all --node all --json",
              ["stats", job, "--all", "--node", "all", "--json"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if os.environ.get("SMPROF_VALGRIND") != "1":
        print("1..0 # SKIP valgrind runs in CI (.ci/run-valgrind.sh); set SMPROF_VALGRIND=1 to run it here")
        sys.exit(0)
    if shutil.which("valgrind") is None:
        print("1..0 # SKIP valgrind is not installed")
        sys.exit(0)
    taplib.Tap().run_main(main)
