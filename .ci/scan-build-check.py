#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Turns a scan-build report into TAP; exits 1 on any finding not answered.

usage: scan-build-check.py BUILD_DIR REPORT_DIR ANSWERS_FILE

REPORT_DIR holds the .plist files of `scan-build -plist-html` run in
BUILD_DIR (the file names in them are relative to it). Each finding is
answered when either

* ANSWERS_FILE has a line `<issue hash> <file>:<function> <checker>: <reason>`
  (the hash is clang's issue_hash_content_of_line_in_context, which survives
  edits elsewhere in the file but not to the flagged line or its function), or
* it is one of the two patterns clang 14's analyzer gets wrong for every GLib
  program, checked against the source: a "potential leak" of, or a "never
  read" store to, a variable declared g_autofree or g_autoptr. The analyzer
  does not model __attribute__((cleanup)), so it neither sees the free at the
  end of the scope nor the read the cleanup does.

Every finding prints one TAP line: `ok` if answered (with the answer), `not
ok` otherwise. A run without findings prints a single `ok`.
"""
import glob
import os
import plistlib
import re
import sys

CLEANUP = re.compile(r"\bg_auto(free|ptr\s*\([^)]*\)|_free|\s*\([^)]*\))\s")


def declared_with_cleanup(path, line, name):
    """Whether ``name`` is declared g_auto* in the function around ``line``."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.readlines()
    except OSError:
        return False
    # Walk back to the start of the function (a line starting with '{').
    start = line - 1
    while start > 0 and not lines[start].startswith("{"):
        start -= 1
    decl = re.compile(r"[\s*]%s\s*(=|;|\[)" % re.escape(name))
    return any(CLEANUP.search(l) and decl.search(l) for l in lines[start:line])


def auto_answer(diag, path):
    desc = diag.get("description", "")
    check = diag.get("check_name", "")
    m = re.match(r"Potential leak of memory pointed to by '(\w+)'", desc)
    if check == "unix.Malloc" and m and declared_with_cleanup(path, diag["location"]["line"], m.group(1)):
        return "'%s' is g_autofree/g_autoptr: clang 14's analyzer does not model the cleanup attribute" % m.group(1)
    m = re.match(r"(?:Value stored to '(\w+)' is never read"
                 r"|Although the value stored to '(\w+)' is used in the enclosing expression)", desc)
    if m:
        m = re.match(r"(\w+)", m.group(1) or m.group(2))
    if check == "deadcode.DeadStores" and m and declared_with_cleanup(path, diag["location"]["line"] + 1, m.group(1)):
        return "'%s' is g_autofree/g_autoptr: its cleanup reads the stored value, which the analyzer does not model" % m.group(1)
    return None


def main(build_dir, report_dir, answers_path):
    answers = {}
    with open(answers_path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, rest = line.partition(" ")
                answers[key] = rest

    findings = []
    for plist in sorted(glob.glob(os.path.join(report_dir, "**", "*.plist"), recursive=True)):
        with open(plist, "rb") as fh:
            data = plistlib.load(fh)
        for diag in data.get("diagnostics", []):
            path = os.path.normpath(os.path.join(build_dir, data["files"][diag["location"]["file"]]))
            findings.append((path, diag))

    seen = set()
    lines = []
    n = failed = 0
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path, diag in sorted(findings, key=lambda f: (f[0], f[1]["location"]["line"])):
        key = diag.get("issue_hash_content_of_line_in_context", "?")
        if key in seen:
            continue
        seen.add(key)
        rel = os.path.relpath(path, root)
        n += 1
        where = "%s:%d (%s) [%s] %s" % (rel, diag["location"]["line"], diag.get("issue_context", "?"),
                                        diag.get("check_name", "?"), diag.get("description", ""))
        answer = answers.get(key) or auto_answer(diag, path)
        if answer:
            lines.append("ok %d - scan-build: %s (answered: %s)" % (n, where, answer.replace("#", "")))
        else:
            failed += 1
            lines.append("not ok %d - scan-build: %s" % (n, where))
            lines.append("# not answered: fix it, or add to .ci/scan-build-answers.txt:")
            lines.append("#   %s %s:%s %s: <why it is not a bug>" % (key, rel, diag.get("issue_context", "?"),
                                                                     diag.get("check_name", "?")))
    if not lines:
        n = 1
        lines.append("ok 1 - scan-build: no findings")
    print("1..%d" % n)
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3]))
