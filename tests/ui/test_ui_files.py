#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every .ui file, validated by gtk4-builder-tool with our own types (TAP).

ui-types-preload.so (tests/ui/ui-types-preload.c) is preloaded into the tool:
it registers our widgets and list items, and lets GtkBuilder find exactly the
signal handlers each template's class binds in C (read here from its files:
smprof-job-page.ui -> smprof-job-page*.c). The tool then checks every object
type, property, signal, handler and binding of the file.

Three broken copies show the check can fail: a misspelt property, a handler
the class does not bind, a type nobody registers.

Environment: SMPROF_SOURCE_ROOT, SMPROF_UI_PRELOAD (the built library),
SMPROF_SANITIZER_RUNTIME (the ASan runtime to preload first, in a sanitizer
build; else empty). Needs a display (suite 'ui', under xvfb-run).
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'cli'))
from taplib import Tap  # noqa: E402

SOURCE = os.environ['SMPROF_SOURCE_ROOT']
PRELOAD = os.environ['SMPROF_UI_PRELOAD']
RUNTIME = os.environ.get('SMPROF_SANITIZER_RUNTIME', '')
TOOL = 'gtk4-builder-tool'


def ui_files():
    files = []
    for folder in ('plugin', 'viewer'):
        files += glob.glob(os.path.join(SOURCE, folder, '**', '*.ui'), recursive=True)
    return sorted(files)


def template_of(text):
    m = re.search(r'<template\s+class="(\w+)"', text)
    return m.group(1) if m else ''


def bound_handlers(ui_path):
    """The callbacks the class of a template binds, from its C files."""
    stem = ui_path[:-len('.ui')]
    names = set()
    for c_file in glob.glob(stem + '.c') + glob.glob(stem + '-*.c'):
        with open(c_file, encoding='utf-8') as f:
            text = f.read()
        names.update(re.findall(r'gtk_widget_class_bind_template_callback\s*\(\s*\w+\s*,\s*(\w+)\s*\)', text))
        names.update(re.findall(r'gtk_widget_class_bind_template_callback_full\s*\(\s*\w+\s*,\s*"(\w+)"', text))
    return sorted(names)


def validate(path, template, handlers):
    env = dict(os.environ)
    if RUNTIME:
        # The tool itself is not ours: its leaks at exit are not what this checks.
        env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':detect_leaks=0'
    env.update(LD_PRELOAD=':'.join(p for p in (RUNTIME, PRELOAD) if p),
               SMPROF_UI_TEMPLATE=template, SMPROF_UI_HANDLERS=','.join(handlers))
    out = subprocess.run([TOOL, 'validate', path], capture_output=True, text=True, env=env, timeout=120)
    # The tool exits 0 after GTK's warnings (a property it could not set, ...): those fail too.
    noise = [line for line in out.stderr.splitlines() if line.strip()]
    return out.returncode == 0 and not noise, out.stderr.strip() or f'exit {out.returncode}'


def main():
    tap = Tap()
    if not (os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY')):
        print('1..0 # SKIP no display (run under xvfb-run, as build-aux/run-tests.sh does)')
        return 0

    files = ui_files()
    tap.ok(len(files) >= 10, f'{len(files)} .ui files found under plugin/ and viewer/')
    for path in files:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        ok, message = validate(path, template_of(text), bound_handlers(path))
        tap.ok(ok, 'gtk4-builder-tool validate ' + os.path.relpath(path, SOURCE), message)

    page = os.path.join(SOURCE, 'plugin', 'ui', 'smprof-job-page.ui')
    with open(page, encoding='utf-8') as f:
        text = f.read()
    broken = {
        'a misspelt property': re.sub(r'<property name="(\w[\w-]*)"', r'<property name="\1-misspelt"', text, 1),
        'a handler the class does not bind': re.sub(r'handler="(\w+)"', r'handler="\1_unbound"', text, 1),
        'an unknown type of ours': text.replace('class="SmprofTimeline"', 'class="SmprofNoSuchWidget"', 1),
    }
    with tempfile.TemporaryDirectory() as scratch:
        for what, copy in broken.items():
            tap.ok(copy != text, f'the copy with {what} differs from smprof-job-page.ui')
            path = os.path.join(scratch, 'smprof-job-page.ui')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(copy)
            ok, message = validate(path, template_of(text), bound_handlers(page))
            tap.ok(not ok, f'a copy of smprof-job-page.ui with {what} fails', message)

    return tap.finish()


if __name__ == '__main__':
    sys.exit(main())
