#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof loads S3 and the PNG and PDF pictures as modules, when asked for.

(cli/smprof-cli-modules.c; test_links checks that the program itself loads
neither libsoup nor cairo.) With SMPROF_MODULE_DIR naming a folder:

* an empty folder: `nodes`, `stats --json`, `steps --json` and an SVG export
  of a real job answer byte for byte as with the modules, so a local query
  never needs them; a PNG export and an s3:// source fail with an error that
  names the missing module, and the PNG's file is not left behind;
* a copy of the pictures module whose build stamp was altered (a module of
  another build): refused with an error that says so, no file left;
* each module copied under the other's name (the right stamp, but not the
  functions asked for): refused when loaded, with an error that names the
  function missing;
* a folder holding a copy of the real module: the PNG and the PDF are written.
Without the variable, the modules beside the program (the build tree) are
found: a PNG export works.
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import REAL, cmdline, smprof_path  # noqa: E402

JOB = os.path.join(REAL, "pt-cprofile")
MODULE_DIR = os.path.dirname(os.path.abspath(smprof_path()))
PICTURES = os.path.join(MODULE_DIR, "smprof-pictures.so")
# smprof-cli-modules.h: SMPROF_CLI_MODULE_ABI ends so
STAMP = b" modules 1\0"


def run(args, module_dir=None):
    env = dict(os.environ)
    env.pop("SMPROF_MODULE_DIR", None)
    if module_dir is not None:
        env["SMPROF_MODULE_DIR"] = module_dir
    p = subprocess.run([smprof_path()] + [str(a) for a in args], capture_output=True, env=env,
                       timeout=taplib.CALL_TIMEOUT)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def check_local_queries(tap, empty):
    for args in (["nodes", JOB], ["stats", JOB, "--all", "--json", "--no-cache"],
                 ["steps", JOB, "--all", "--json", "--no-cache"],
                 ["export", JOB, "--all", "--format", "svg", "-o", "-"]):
        rc, out, err = run(args)
        erc, eout, eerr = run(args, module_dir=empty)
        problems = []
        if rc != 0 or not out:
            problems.append("with the modules: exit %d, %d bytes, %s" % (rc, len(out), err[:300]))
        elif (erc, eout, eerr) != (rc, out, err):
            problems.append("without: exit %d, %d bytes (with: %d bytes), stderr %r" % (erc, len(eout), len(out),
                                                                                      eerr[:300]))
        tap.check(problems, "%s answers the same without the modules" % cmdline(args))


def check_refused(tap, module_dir, tmp, what, wanted):
    for fmt in ("png", "pdf"):
        out_file = os.path.join(tmp, "refused." + fmt)
        rc, out, err = run(["export", JOB, "--all", "--format", fmt, "-o", out_file], module_dir=module_dir)
        problems = []
        if rc == 0:
            problems.append("exit 0")
        if not all(w in err for w in wanted):
            problems.append("stderr %r does not say %r" % (err, wanted))
        if os.path.exists(out_file):
            problems.append("%s was left behind (%d bytes)" % (out_file, os.path.getsize(out_file)))
        tap.check(problems, "%s: a %s export fails, saying so, and leaves no file" % (what, fmt.upper()))


def check_pictures(tap, module_dir, tmp, what):
    for fmt, magic in (("png", b"\x89PNG"), ("pdf", b"%PDF")):
        out_file = os.path.join(tmp, "written." + fmt)
        rc, out, err = run(["export", JOB, "--all", "--format", fmt, "-o", out_file], module_dir=module_dir)
        problems = []
        if rc != 0:
            problems.append("exit %d: %s" % (rc, err[:300]))
        elif not os.path.exists(out_file):
            problems.append("no file")
        else:
            with open(out_file, "rb") as f:
                head = f.read(len(magic))
            if head != magic:
                problems.append("the file starts with %r" % head)
            os.unlink(out_file)
        tap.check(problems, "%s: the %s is written" % (what, fmt.upper()))


def main(tap):
    tmp = tempfile.mkdtemp(prefix="smprof-modules-")
    try:
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        check_local_queries(tap, empty)
        check_refused(tap, empty, tmp, "no pictures module", ["smprof-pictures.so"])

        rc, out, err = run(["nodes", "s3://smprof-test-bucket/job"], module_dir=empty)
        tap.check([] if rc != 0 and "smprof-s3.so" in err and not out
                  else ["exit %d, stdout %r, stderr %r" % (rc, out[:200], err)],
                  "no S3 module: an s3:// source fails, naming the module")

        other = os.path.join(tmp, "other")
        os.mkdir(other)
        with open(PICTURES, "rb") as f:
            module = f.read()
        problems = [] if module.count(STAMP) == 1 else ["the module holds %r %d times" % (STAMP, module.count(STAMP))]
        with open(os.path.join(other, "smprof-pictures.so"), "wb") as f:
            f.write(module.replace(STAMP, b" modules 0\0"))
        tap.check(problems, "the pictures module carries its build stamp once")
        check_refused(tap, other, tmp, "a pictures module of another build", ["another version", "smprof-pictures.so"])

        swapped = os.path.join(tmp, "swapped")
        os.mkdir(swapped)
        shutil.copy(PICTURES, os.path.join(swapped, "smprof-s3.so"))
        shutil.copy(os.path.join(MODULE_DIR, "smprof-s3.so"), os.path.join(swapped, "smprof-pictures.so"))
        check_refused(tap, swapped, tmp, "the S3 module in the pictures' place",
                      ["lacks smprof_export_write_picture", "smprof-pictures.so"])
        rc, out, err = run(["nodes", "s3://smprof-test-bucket/job"], module_dir=swapped)
        tap.check([] if rc != 0 and "lacks smprof_s3_source_new" in err and "smprof-s3.so" in err and not out
                  else ["exit %d, stdout %r, stderr %r" % (rc, out[:200], err)],
                  "the pictures module in S3's place: an s3:// source fails, naming what it lacks")

        copy = os.path.join(tmp, "copy")
        os.mkdir(copy)
        shutil.copy(PICTURES, copy)
        check_pictures(tap, copy, tmp, "SMPROF_MODULE_DIR with the module")
        check_pictures(tap, None, tmp, "the module beside the program")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    taplib.Tap().run_main(main)
