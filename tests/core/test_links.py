#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The format and analysis tests link the core alone: no libsoup, no cairo;
and the smprof command line loads them only as its modules.

The core is three static libraries so that a binary links only what it
uses (CONTRIBUTING.md). This reads what each executable given on the command
line loads, as the dynamic loader resolves it (`ldd`: direct and indirect),
and fails when libsoup, cairo or libsysprof-capture is among it. smprof is
one of them: it loads S3 and the PNG and PDF pictures as modules, on demand
(cli/smprof-cli-modules.c), so that a command that needs neither starts
without them. The controls are those two modules, given first: the S3
module must load libsoup and the pictures module cairo, so that a broken
`ldd` cannot pass the test.
"""

import subprocess
import sys

FORBIDDEN = ("libsoup-", "libcairo.", "libcairo-", "libsysprof-capture")


def loaded(path):
    out = subprocess.run(["ldd", path], check=True, capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def main():
    s3_module, pictures_module, tests = sys.argv[1], sys.argv[2], sys.argv[3:]
    print(f"1..{len(tests) + 2}")
    failed = False
    n = 0
    for module, wanted in ((s3_module, "libsoup-"), (pictures_module, "libcairo.")):
        n += 1
        found = [lib for lib in loaded(module) if lib.startswith(wanted)]
        name = module.rsplit("/", 1)[-1]
        print(f"{'ok' if found else 'not ok'} {n} - control: {name} loads {wanted}* ({', '.join(found) or 'not'})")
        failed = failed or not found
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
