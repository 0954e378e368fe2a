#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The format and analysis tests link the core alone: no libsoup, no cairo.

The core is three static libraries so that a binary links only what it
uses (CONTRIBUTING.md). This reads what each core test executable given on
the command line loads, as the dynamic loader resolves it (`ldd`: direct and
indirect), and fails when libsoup, cairo or libsysprof-capture is among it.
A control: the smprof command line, which exports and reads S3, must show
all of them, so a broken `ldd` cannot pass the test.
"""

import subprocess
import sys

FORBIDDEN = ("libsoup-", "libcairo.", "libcairo-", "libsysprof-capture")


def loaded(path):
    out = subprocess.run(["ldd", path], check=True, capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def main():
    control, tests = sys.argv[1], sys.argv[2:]
    print(f"1..{len(tests) + 1}")
    n = 1
    libs = loaded(control)
    found = [lib for lib in libs if lib.startswith(("libsoup-", "libcairo"))]
    ok = any(lib.startswith("libsoup-") for lib in libs) and any(lib.startswith("libcairo") for lib in libs)
    print(f"{'ok' if ok else 'not ok'} {n} - control: smprof loads libsoup and cairo ({', '.join(found) or 'neither'})")
    failed = not ok
    for path in tests:
        n += 1
        bad = [lib for lib in loaded(path) if lib.startswith(FORBIDDEN)]
        name = path.rsplit("/", 1)[-1]
        if bad:
            failed = True
            print(f"not ok {n} - {name} loads none of libsoup, cairo, libsysprof-capture")
            print(f"# it loads {', '.join(bad)}")
        else:
            print(f"ok {n} - {name} loads none of libsoup, cairo, libsysprof-capture")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
