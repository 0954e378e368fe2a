#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# scan-build (clang's static analyzer) over the whole project, as TAP.
# Usage: .ci/scan-build.sh [BUILD_DIR]   (default _build-scan, wiped first)
# Writes BUILD_DIR/scan-build.tap: one line per finding, `ok` when it is
# answered in .ci/scan-build-answers.txt (or is a g_autoptr/g_autofree false
# positive), `not ok` otherwise. Exit status 1 on any unanswered finding.
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-_build-scan}"
scan_build="${SCAN_BUILD:-scan-build}"
tap="$build/scan-build.tap"

rm -rf "$build"
mkdir -p "$build"
fail () {
  printf '1..1\nnot ok 1 - scan-build: %s\n# see %s\n' "$1" "$2" > "$tap.tmp"
  mv "$tap.tmp" "$tap"
  cat "$tap"
  exit 1
}

command -v "$scan_build" >/dev/null || fail "$scan_build is not installed (clang-tools)" "apt-get install clang-tools"
"$scan_build" meson setup "$build/tree" > "$build/setup.log" 2>&1 || fail "meson setup failed" "$build/setup.log"
"$scan_build" -plist-html -o "$build/report" ninja -C "$build/tree" > "$build/scan-build.log" 2>&1 \
  || fail "the analyzed build failed" "$build/scan-build.log"
grep -E '^scan-build: ' "$build/scan-build.log" >&2
python3 .ci/scan-build-check.py "$build/tree" "$build/report" .ci/scan-build-answers.txt > "$tap"
status=$?
cat "$tap"
exit $status
