#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer.
# Usage: .ci/run-asan.sh [BUILD_DIR]   (default _build-asan)
# Any sanitizer report stops the test that made it (halt_on_error) and fails
# it; leaks are reported by LeakSanitizer at exit, minus .ci/lsan.supp (the
# toolkit's own, each with its reason). The log is BUILD_DIR/meson-logs/testlog.json.
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-_build-asan}"

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Db_sanitize=address,undefined -Dbuildtype=debugoptimized || exit 1
fi
meson compile -C "$build" || exit 1

export ASAN_OPTIONS="halt_on_error=1:print_stacktrace=1:detect_leaks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$PWD/.ci/lsan.supp:print_suppressions=0"

# Widget tests (if any) need a display and a session bus. They draw with
# cairo (GSK_RENDERER=cairo); without gl-disable GDK still opens Mesa's
# software GL driver under Xvfb, which leaks at exit and is dlclose()d before
# LeakSanitizer can name it (so no suppression can match it).
wrap=()
if command -v xvfb-run >/dev/null && command -v dbus-run-session >/dev/null; then
  export GTK_A11Y=none GDK_DEBUG=gl-disable
  # -noreset: see build-aux/run-tests.sh
  wrap=(dbus-run-session -- xvfb-run -a -s '-screen 0 1920x1200x24 -noreset')
fi
"${wrap[@]}" meson test -C "$build" --print-errorlogs --num-processes 2 --timeout-multiplier 3
