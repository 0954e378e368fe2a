#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Exports the sample job as a Sysprof capture, opens it in Sysprof 3.46 under
# Xvfb and takes the screenshot the README shows.
# Needs: sysprof xvfb xdotool imagemagick dbus (apt-get install ...).
# Usage: build-aux/sysprof-screenshot.sh [BUILD_DIR] [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-_build}"
out="${2:-docs/images/sysprof-sample-job.png}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$build/cli/smprof" export data/sample-job --all --node all --format syscap -o "$tmp/sample-job.syscap"

# The window is 1600x1000; the zoom slider's knob starts near (127, 583): a
# short drag spreads the 7 s capture over the timeline (the initial zoom
# squeezes it into its first pixels).
GTK_A11Y=none timeout 120 xvfb-run -a -s '-screen 0 1600x1000x24' dbus-run-session -- sh -c '
  sysprof "$1" 2>/dev/null & P=$!
  W=$(timeout 30 xdotool search --sync --name syscap | head -1)
  xdotool windowmove "$W" 0 0 windowsize "$W" 1600 1000
  sleep 5
  xdotool mousemove 127 583 mousedown 1 mousemove 135 583 mousemove 142 583 mousemove 146 583 mouseup 1
  sleep 2
  xdotool mousemove 900 750
  sleep 1
  import -window root "$2"
  kill $P; wait $P 2>/dev/null || true' sh "$tmp/sample-job.syscap" "$out"
echo "wrote $out"
