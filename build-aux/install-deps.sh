#!/bin/bash
# Installs what smprof needs to build and test on Debian 12.
# Usage: build-aux/install-deps.sh [--yes]
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc
  libglib2.0-dev libjson-glib-dev
  gettext python3
)

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

yes=()
[ "${1:-}" = "--yes" ] && yes=(-y)
$sudo apt-get install "${yes[@]}" --no-install-recommends "${missing[@]}"
