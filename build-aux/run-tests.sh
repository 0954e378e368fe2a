#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds smprof if needed and runs the whole test suite.
# Usage: build-aux/run-tests.sh [BUILD_DIR] [meson test arguments...]
#
# The UI tests (suite 'ui') need a display and a session bus: the suite runs
# under `dbus-run-session -- xvfb-run -a` when those are installed (as CI
# does), so no window appears on your screen. Without xvfb-run it uses your
# own display if there is one; with no display at all the UI tests skip.
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-_build}"
shift || true

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" || exit 1
fi
meson compile -C "$build" || exit 1

# -noreset: by default Xvfb resets when its last client leaves, and a test
# that connects during the reset is refused ("cannot open display"); with
# two tests starting and ending at random times that happens now and then.
wrap=()
if command -v xvfb-run >/dev/null && command -v xauth >/dev/null; then
  wrap=(xvfb-run -a -s '-screen 0 1920x1200x24 -noreset')
elif [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "run-tests.sh: no xvfb-run and no display: the UI tests will be skipped" >&2
fi
if command -v dbus-run-session >/dev/null; then
  wrap=(dbus-run-session -- "${wrap[@]}")
fi

GTK_A11Y=none "${wrap[@]}" meson test -C "$build" --print-errorlogs --num-processes 2 "$@"
