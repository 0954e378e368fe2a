#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What flatpak-builder --show-manifest cannot see in flatpak/*.json (TAP).

Usage: check-manifests.py SOURCE_ROOT

The app's permissions are the few it needs; its extension point is where the
viewer looks for plugins (viewer/smv-source-registry.c); the extension builds
the plugin alone into that point; ids match the AppStream metadata; config-opts
name options that exist.
"""

import json
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
APP_ID = 'io.github.smprof.Viewer'
EXTENSION_POINT = APP_ID + '.Plugin'
PLUGINS_DIR = 'lib/smprof-viewer/plugins'

# network: S3; ipc: X11 shared memory (with fallback-x11); wayland or X11; GL;
# credentials read-only. Files come through the portals (FileChooser, drag and
# drop, the command line through the document portal): no filesystem grant.
ALLOWED_FINISH_ARGS = {
    '--share=network', '--share=ipc', '--socket=wayland', '--socket=fallback-x11',
    '--device=dri', '--filesystem=~/.aws:ro',
}
EXTENSION_KEYS = {
    'directory', 'bundle', 'remove-after-build', 'autodelete', 'no-autodownload',
    'subdirectories', 'add-ld-path', 'download-if', 'enable-if', 'autoprune-unless',
    'merge-dirs', 'subdirectory-suffix', 'locale-subset', 'version', 'versions',
}

n = 0
failed = 0


def check(ok, name, *details):
    global n, failed
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {name}")
    for d in details:
        print(f'# {d}')
    failed += not ok


def load(name):
    with open(os.path.join(root, 'flatpak', name), encoding='utf-8') as f:
        return json.load(f)


def meson_options():
    with open(os.path.join(root, 'meson_options.txt'), encoding='utf-8') as f:
        return set(re.findall(r"option\s*\(\s*'([^']+)'", f.read()))


def check_config_opts(manifest, name):
    options = meson_options()
    unknown = []
    for module in manifest['modules']:
        for opt in module.get('config-opts', []):
            m = re.match(r'-D([^=]+)=', opt)
            if m and m.group(1) not in options and m.group(1) not in ('buildtype', 'b_lto', 'b_ndebug'):
                unknown.append(opt)
    check(not unknown, f'{name}: config-opts name options of meson_options.txt', *unknown)


app = load(APP_ID + '.json')
check(app['id'] == APP_ID, 'the app id is ' + APP_ID)
check(app.get('command') == 'smprof-viewer', 'the app runs smprof-viewer')
check(app['runtime'] == 'org.gnome.Platform' and app['sdk'] == 'org.gnome.Sdk',
      'the app uses the GNOME runtime', app['runtime'], app['sdk'])
extra = [a for a in app.get('finish-args', []) if a not in ALLOWED_FINISH_ARGS]
check(not extra, 'the app asks only for network, display, GPU, IPC and ~/.aws read-only', *extra)
check(not any(a.startswith(('--filesystem=host', '--filesystem=home')) for a in app.get('finish-args', [])),
      'no host or home filesystem grant: files come through the portals')

point = app.get('add-extensions', {}).get(EXTENSION_POINT)
check(point is not None, f'the app declares the extension point {EXTENSION_POINT}')
point = point or {}
check(set(point) <= EXTENSION_KEYS, 'the extension point has only keys flatpak knows', *sorted(set(point) - EXTENSION_KEYS))
merged = os.path.join('/app', point.get('directory', ''), PLUGINS_DIR)
with open(os.path.join(root, 'viewer', 'smv-source-registry.c'), encoding='utf-8') as f:
    registry = f.read()
check(point.get('directory') == 'extensions' and PLUGINS_DIR in point.get('merge-dirs', '').split(';')
      and point.get('subdirectories') is True and f'"{merged}"' in registry
      and '"/app/extensions"' in registry,
      f'the extensions merge into {merged}, where the viewer looks (viewer/smv-source-registry.c)')
check(any('install -d /app/extensions' in c for m in app['modules'] for c in m.get('post-install', [])),
      'the app creates the extension mount point')
check_config_opts(app, 'app')

ext_name = EXTENSION_POINT + '.SageMaker'
ext = load(ext_name + '.json')
suffix = ext['id'][len(EXTENSION_POINT) + 1:]
check(ext['id'].startswith(EXTENSION_POINT + '.') and suffix, f'the plugin is an extension of {EXTENSION_POINT}')
check(ext.get('build-extension') is True and ext['runtime'] == APP_ID,
      'the extension is built against the app')
check(ext['sdk'] == f"{app['sdk']}//{app['runtime-version']}",
      "the extension uses the app's SDK", ext['sdk'])
check(ext.get('build-options', {}).get('prefix') == f'/app/extensions/{suffix}',
      f'the extension installs into /app/extensions/{suffix}')
check('/app/lib/pkgconfig' in ext.get('build-options', {}).get('prepend-pkg-config-path', ''),
      "the extension finds the app's smprof-viewer-api-1.pc")
opts = [o for m in ext['modules'] for o in m.get('config-opts', [])]
check('-Dviewer=false' in opts and '-Dcli=false' in opts and '-Dtests=false' in opts,
      'the extension builds the plugin alone', *opts)
check_config_opts(ext, 'extension')
check(not any(p in app.get('cleanup', []) for p in ('/include', '/lib/pkgconfig')),
      'the app keeps the plugin API headers and pkg-config file, for extensions')

with open(os.path.join(root, 'data', ext['id'] + '.metainfo.xml.in'), encoding='utf-8') as f:
    addon = f.read()
check(f'<id>{ext["id"]}</id>' in addon and f'<extends>{APP_ID}</extends>' in addon,
      "the add-on's AppStream id is the extension's, and it extends the app")

print(f'1..{n}')
sys.exit(1 if failed else 0)
