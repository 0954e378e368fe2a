#!/bin/bash
# Builds smprof if needed and runs the whole test suite.
# Usage: build-aux/run-tests.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-_build}"

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" || exit 1
fi
meson compile -C "$build" || exit 1
meson test -C "$build" --print-errorlogs --num-processes 2
