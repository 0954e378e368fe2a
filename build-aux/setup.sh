#!/bin/bash
# The first command of the README: installs what is needed, builds smprof and
# runs it on the bundled sample job.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v apt-get >/dev/null; then
  echo "This script is for Debian 12; see README.md for the packages to install." >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then apt-get update -q; else sudo apt-get update -q; fi
bash build-aux/install-deps.sh --yes

[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build

echo
echo "== smprof list data/sample-job =="
./_build/cli/smprof list data/sample-job
echo
echo "== smprof stats data/sample-job --step 3 --end-step 5 --limit 15 =="
./_build/cli/smprof stats data/sample-job --step 3 --end-step 5 --limit 15
