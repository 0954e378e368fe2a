#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# valgrind's memcheck on smprof over every real job (tests/cli/test_valgrind.py)
# and, when the viewer has tests, on one of them (suite valgrind-ui, if any).
# Usage: .ci/run-valgrind.sh [BUILD_DIR]   (default _build, a build without
# sanitizers; set up and built if needed). The log is
# BUILD_DIR/meson-logs/testlog-valgrind.json.
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-_build}"

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" || exit 1
fi
meson compile -C "$build" || exit 1

export SMPROF_VALGRIND=1
wrap=()
if command -v xvfb-run >/dev/null && command -v dbus-run-session >/dev/null; then
  export GTK_A11Y=none GDK_DEBUG=gl-disable
  # -noreset: see build-aux/run-tests.sh
  wrap=(dbus-run-session -- xvfb-run -a -s '-screen 0 1920x1200x24 -noreset')
fi
suites=(--suite valgrind)
tests=$(meson test -C "$build" --list 2>/dev/null)
grep -q '^smprof:valgrind-ui / ' <<<"$tests" && suites+=(--suite valgrind-ui)
"${wrap[@]}" meson test -C "$build" --print-errorlogs --num-processes 2 --no-rebuild \
  --logbase testlog-valgrind "${suites[@]}"
