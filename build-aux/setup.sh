#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# The first command of the README: installs what is needed, builds smprof,
# runs the command line on the bundled sample job, then opens that job in the
# viewer with the SageMaker plugin loaded from the build tree.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v apt-get >/dev/null; then
  echo "This script is for Debian 12; README.md lists the packages to install." >&2
  exit 1
fi
# apt-get update runs only when a package is missing, so a machine that has
# them all needs no network here.
bash build-aux/install-deps.sh --yes --update

[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build

echo
echo "== smprof list data/sample-job =="
./_build/cli/smprof list data/sample-job
echo
echo "== smprof stats data/sample-job --step 3 --end-step 5 --limit 15 =="
./_build/cli/smprof stats data/sample-job --step 3 --end-step 5 --limit 15

echo
echo "== smprof-viewer data/sample-job (the plugin from _build/plugin) =="
# meson devenv: the plugin (SMPROF_VIEWER_PLUGIN_PATH), the settings schema
# (GSETTINGS_SCHEMA_DIR) and the translations (SMPROF_LOCALEDIR) of the build tree.
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec meson devenv -C _build smprof-viewer "$PWD/data/sample-job"
else
  echo "No display here. On a desktop, run:"
  echo "  meson devenv -C _build smprof-viewer \"$PWD/data/sample-job\""
fi
