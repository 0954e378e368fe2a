#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a test program under valgrind's memcheck, for the `valgrind` suites.
# Usage: tests/viewer/valgrind-wrap.sh PROGRAM [ARGS...]
# Only with SMPROF_VALGRIND=1 (.ci/run-valgrind.sh sets it); otherwise it
# prints one TAP skip, so a normal `meson test` stays fast.
set -u
if [ "${SMPROF_VALGRIND:-}" != 1 ]; then
  echo "1..0 # SKIP valgrind runs in CI (.ci/run-valgrind.sh); set SMPROF_VALGRIND=1 to run it here"
  exit 0
fi
if ! command -v valgrind >/dev/null; then
  echo "1..0 # SKIP valgrind is not installed"
  exit 0
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
# The project's own suppressions must be found: without them the run reports
# known library noise as errors, which reads as a leak of ours.
if [ ! -f "$root/.ci/valgrind.supp" ]; then
  echo "Bail out! $root/.ci/valgrind.supp not found"
  exit 1
fi
supp=()
for f in /usr/share/glib-2.0/valgrind/glib.supp /usr/share/gtk-4.0/valgrind/gtk.supp "$root/.ci/valgrind.supp"; do
  [ -f "$f" ] && supp+=("--suppressions=$f")
done
export G_SLICE=always-malloc G_DEBUG=gc-friendly GDK_DEBUG=gl-disable
exec valgrind --error-exitcode=99 --leak-check=full --show-possibly-lost=no \
  --errors-for-leak-kinds=definite --num-callers=30 "${supp[@]}" "$@"
