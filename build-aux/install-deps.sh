#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what smprof needs to build and test on Debian 12.
# Usage: build-aux/install-deps.sh [--yes] [--update]
#   --yes     answer apt-get's questions
#   --update  run apt-get update first, when a package is missing
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc
  libglib2.0-dev libjson-glib-dev
  gettext python3
  # exports: cairo draws the images, libsysprof-capture-4 writes .syscap
  libcairo2-dev libsysprof-4-dev
  # the export tests' consumers: rsvg-convert, pdftoppm, speedscope's schema check, pyprof2calltree
  librsvg2-bin poppler-utils python3-jsonschema pyprof2calltree
  # the viewer and its plugin (GTK 4, libadwaita), and the UI tests: a virtual X server and a session bus;
  # gtk4-builder-tool (libgtk-4-bin, only recommended by GTK) validates the .ui files
  libgtk-4-dev libgtk-4-bin libadwaita-1-dev xvfb xauth dbus
  # S3: libsoup 3 (glib-networking gives it TLS), and the S3-compatible server
  # the integration test starts on 127.0.0.1 (OpenStack Swift with s3api)
  libsoup-3.0-dev glib-networking
  swift-proxy swift-account swift-container swift-object
  # data files, translations, install and Flatpak checks: the validators, the
  # French locale for the translated screenshot, xdotool for the installed viewer
  desktop-file-utils appstream flatpak-builder locales xdotool
  # the manual: itstool builds its translations, yelp-tools validates it; groff renders
  # the man page that test_man holds to smprof --help
  itstool yelp-tools groff-base
)

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
yes=()
update=no
for arg in "$@"; do
  case "$arg" in
    --yes) yes=(-y) ;;
    --update) update=yes ;;
    *) echo "install-deps.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$update" = yes ] && $sudo apt-get update -q
  $sudo apt-get install "${yes[@]}" --no-install-recommends "${missing[@]}"
fi

# fr_FR.UTF-8 for test-viewer-l10n (without it, the test uses C.UTF-8 and LANGUAGE=fr).
if ! locale -a 2>/dev/null | grep -qi '^fr_FR\.utf-\?8$'; then
  $sudo sed -i 's/^# *\(fr_FR\.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  $sudo locale-gen >/dev/null || echo "install-deps.sh: could not generate fr_FR.UTF-8" >&2
fi
