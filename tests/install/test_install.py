#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""meson install, then the installed programs (TAP, suite 'install').

Environment: MESON (the meson command), SMPROF_SOURCE_ROOT, SMPROF_BUILD_ROOT
(the build under test), SMPROF_INSTALL_TMP (a scratch folder, emptied first).

1. DESTDIR staging of the build under test: every file lands where
   docs/packaging.md says ("Installing from source").
2. A build configured with a temporary --prefix and the Flatpak app's
   config-opts, compiled and installed: the installed smprof answers, in French
   from the installed catalogues, and writes a PNG with the module it
   installed; the post-install steps ran; the installed
   smprof-viewer opens the sample job with the plugin it finds in its own
   plugin folder, without SMPROF_VIEWER_PLUGIN_PATH or SMPROF_LOCALEDIR.
   (The prefix is not one the dynamic linker or GSettings know: LD_LIBRARY_PATH
   and XDG_DATA_DIRS name it, as for any program installed in such a prefix.)
3. The plugin alone, built as the Flatpak extension builds it (its
   config-opts, against the installed smprof-viewer-api-1.pc, into its own
   prefix): it installs the module, its catalogues and its add-on metainfo,
   and nothing of the viewer; the installed viewer loads it from there.
"""

import gettext
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'cli'))
import helptext  # noqa: E402

MESON = os.environ.get('MESON', 'meson').split()
SOURCE = os.environ['SMPROF_SOURCE_ROOT']
BUILD = os.environ['SMPROF_BUILD_ROOT']
TMP = os.environ['SMPROF_INSTALL_TMP']
SAMPLE_JOB = os.path.join(SOURCE, 'data', 'sample-job')
APP_ID = 'io.github.smprof.Viewer'
ADDON_ID = APP_ID + '.Plugin.SageMaker'

n = 0
failed = 0


def check(ok, name, *details):
    global n, failed
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {name}", flush=True)
    if not ok:
        for d in details:
            for line in str(d).splitlines()[-40:]:
                print(f'# {line}')
    failed += not ok
    return ok


def skip(name, why):
    global n
    n += 1
    print(f'ok {n} - {name} # SKIP {why}', flush=True)


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


def clean_env(**extra):
    """The environment without anything that points at the build tree."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('SMPROF_', 'GSETTINGS_', 'LC_', 'LANG', 'MESON', 'LD_LIBRARY_PATH'))
           and k not in ('G_TEST_SRCDIR', 'G_TEST_BUILDDIR')}
    env['LC_ALL'] = 'C.UTF-8'
    env.update(extra)
    return env


def manifest_opts(name):
    with open(os.path.join(SOURCE, 'flatpak', name), encoding='utf-8') as f:
        manifest = json.load(f)
    return [o for m in manifest['modules'] for o in m.get('config-opts', [])]


def build_options(build):
    out = run(MESON + ['introspect', '--buildoptions', build])
    return {o['name']: o['value'] for o in json.loads(out.stdout)}


def relative_files(top):
    found = set()
    for dirpath, _, filenames in os.walk(top):
        for name in filenames:
            found.add(os.path.relpath(os.path.join(dirpath, name), top))
    return found


def setup_compile_install(build, prefix, options, env=None, what=''):
    steps = [
        MESON + ['setup', build, SOURCE, '--prefix=' + prefix, '--libdir=lib', '--buildtype=debugoptimized'] + options,
        MESON + ['compile', '-C', build],
        MESON + ['install', '-C', build, '--quiet'],
    ]
    for name, step in zip(('meson setup', 'meson compile', 'meson install'), steps):
        out = run(step, env=env)
        if not check(out.returncode == 0, f'{what}: {name}', out.stdout, out.stderr):
            return False
    return True


class Viewer:
    """smprof-viewer on the X display of the suite, in its own session bus."""

    def __init__(self, program, args, env):
        self.pidfile = os.path.join(TMP, 'viewer.pid')
        self.log = open(os.path.join(TMP, 'viewer.log'), 'w+')
        if os.path.exists(self.pidfile):
            os.unlink(self.pidfile)
        self.process = subprocess.Popen(
            ['dbus-run-session', '--', 'sh', '-c', 'echo $$ > "$0"; exec "$@"', self.pidfile, program] + args,
            stdout=self.log, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def pid(self):
        for _ in range(100):
            if os.path.exists(self.pidfile):
                with open(self.pidfile) as f:
                    text = f.read().strip()
                if text:
                    return int(text)
            time.sleep(0.1)
        return None

    def wait_window(self, title, timeout=90):
        out = run(['timeout', str(timeout), 'xdotool', 'search', '--sync', '--onlyvisible', '--name', f'^{title}$'])
        return out.returncode == 0

    def maps(self):
        pid = self.pid()
        try:
            with open(f'/proc/{pid}/maps') as f:
                return f.read()
        except (OSError, TypeError):
            return ''

    def output(self):
        with open(self.log.name, encoding='utf-8', errors='replace') as f:
            return f.read()

    def stop(self):
        pid = self.pid()
        if pid is not None:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.log.close()


def can_show_windows():
    return bool(os.environ.get('DISPLAY')) and shutil.which('xdotool') and shutil.which('dbus-run-session')


def viewer_env(prefix, **extra):
    home = os.path.join(TMP, 'home')
    env = clean_env(
        LD_LIBRARY_PATH=os.path.join(prefix, 'lib'),
        XDG_DATA_DIRS=os.path.join(prefix, 'share') + ':/usr/local/share:/usr/share',
        XDG_DATA_HOME=os.path.join(home, 'data'), XDG_CONFIG_HOME=os.path.join(home, 'config'),
        XDG_CACHE_HOME=os.path.join(home, 'cache'), XDG_STATE_HOME=os.path.join(home, 'state'),
        GSETTINGS_BACKEND='memory', GTK_A11Y='none', GSK_RENDERER='cairo',
        G_MESSAGES_DEBUG='smprof-viewer', GIO_USE_VOLUME_MONITOR='unix')
    env.update(extra)
    return env


def main():
    shutil.rmtree(TMP, ignore_errors=True)
    os.makedirs(TMP)

    # 1. DESTDIR staging of the build under test.
    stage = os.path.join(TMP, 'stage')
    out = run(MESON + ['install', '-C', BUILD, '--no-rebuild', '--quiet', '--destdir', stage])
    check(out.returncode == 0, 'meson install --destdir of the build under test', out.stdout, out.stderr)
    opts = build_options(BUILD)
    prefix = opts['prefix']
    top = stage + prefix
    libdir, datadir, bindir = opts['libdir'], opts['datadir'], opts['bindir']
    expected = [
        f'{bindir}/smprof',
        f'{bindir}/smprof-viewer',
        f'{libdir}/libsmprof-viewer-api-1.so.0.0.0',
        f'{libdir}/smprof-viewer/plugins/libsmprof-sagemaker.so',
        f'{libdir}/smprof/smprof-s3.so',
        f'{libdir}/smprof/smprof-pictures.so',
        f'{libdir}/pkgconfig/smprof-viewer-api-1.pc',
        f"{opts['includedir']}/smprof-viewer-1/smprof-viewer-api.h",
        f'{datadir}/applications/{APP_ID}.desktop',
        f'{datadir}/metainfo/{APP_ID}.metainfo.xml',
        f'{datadir}/metainfo/{ADDON_ID}.metainfo.xml',
        f'{datadir}/glib-2.0/schemas/{APP_ID}.gschema.xml',
        f'{datadir}/glib-2.0/schemas/{ADDON_ID}.gschema.xml',
        f'{datadir}/icons/hicolor/scalable/apps/{APP_ID}.svg',
        f'{datadir}/icons/hicolor/symbolic/apps/{APP_ID}-symbolic.svg',
        f"{opts['mandir']}/man1/smprof.1",
        f'{datadir}/help/C/smprof/index.page',
        f'{datadir}/help/C/smprof/figures/job-page.png',
        f'{datadir}/help/fr/smprof/index.page',
    ] + [f"{opts['localedir']}/fr/LC_MESSAGES/{d}.mo" for d in ('smprof-viewer', 'smprof-plugin', 'smprof')]
    staged = relative_files(top)
    missing = [f for f in expected if f not in staged]
    check(not missing, f'DESTDIR holds every installed file under {prefix}', *missing)
    check(not os.path.exists(os.path.join(top, datadir, 'glib-2.0', 'schemas', 'gschemas.compiled')),
          'with DESTDIR, the post-install steps are left to the packager')

    # 2. A prefix build, as the Flatpak app's module configures it.
    prefix = os.path.join(TMP, 'prefix')
    if setup_compile_install(os.path.join(TMP, 'build'), prefix, manifest_opts(APP_ID + '.json'),
                             what='prefix build'):
        smprof = os.path.join(prefix, 'bin', 'smprof')
        out = run([smprof, 'nodes', SAMPLE_JOB], env=clean_env())
        check(out.returncode == 0 and out.stdout.split() == ['0-algo-1', '1-algo-2'],
              'the installed smprof lists the sample job\'s nodes', out.stdout, out.stderr)

        # Its modules from its compiled-in folder: no build tree beside it.
        picture = os.path.join(TMP, 'installed.png')
        out = run([smprof, 'export', SAMPLE_JOB, '--all', '--format', 'png', '-o', picture], env=clean_env())
        head = b''
        if os.path.exists(picture):
            with open(picture, 'rb') as f:
                head = f.read(4)
        check(out.returncode == 0 and head == b'\x89PNG',
              'the installed smprof writes a PNG with the pictures module it installed', out.stdout, out.stderr)

        english = run([smprof, '--help'], env=clean_env(LANGUAGE=''))
        french = run([smprof, '--help'], env=clean_env(LANGUAGE='fr'))
        catalogue = gettext.translation('smprof', os.path.join(prefix, 'share', 'locale'), languages=['fr'])
        problems = helptext.translation_problems(english.stdout, french.stdout, catalogue.gettext)
        check(french.returncode == 0 and french.stdout != english.stdout and not problems,
              'the installed smprof speaks French from the installed catalogue', *problems, french.stdout[:300])

        check(os.path.exists(os.path.join(prefix, 'share', 'glib-2.0', 'schemas', 'gschemas.compiled')),
              'meson install compiled the schemas')
        # The viewer's schema holds the viewer's keys; the plugin's, its own.
        keys = {}
        for schema in (APP_ID, ADDON_ID, ADDON_ID + '.s3'):
            out = run(['gsettings', 'list-keys', schema], env=viewer_env(prefix))
            keys[schema] = set(out.stdout.split()) if out.returncode == 0 else None
        check(keys[APP_ID] == {'window-size', 'window-maximized', 'recent-jobs'},
              'the installed viewer schema holds only the viewer\'s keys', keys[APP_ID])
        check(keys[ADDON_ID] is not None and {'flame-graph-color-scheme', 'show-step-columns',
                                              'last-export-folder'} <= keys[ADDON_ID]
              and keys[ADDON_ID + '.s3'] == {'max-connections', 'cache-size', 'refresh-interval'},
              'the installed plugin schema holds the plugin\'s keys', keys[ADDON_ID], keys[ADDON_ID + '.s3'])
        check(os.path.exists(os.path.join(prefix, 'share', 'icons', 'hicolor', 'icon-theme.cache')),
              'meson install updated the icon cache')

        viewer_program = os.path.join(prefix, 'bin', 'smprof-viewer')
        out = run([viewer_program, '--version'], env=viewer_env(prefix))
        check(out.returncode == 0 and out.stdout.startswith('smprof-viewer '), 'smprof-viewer --version',
              out.stdout, out.stderr)

        plugin = os.path.join(prefix, 'lib', 'smprof-viewer', 'plugins', 'libsmprof-sagemaker.so')
        if can_show_windows():
            viewer = Viewer(viewer_program, [SAMPLE_JOB], viewer_env(prefix))
            opened = viewer.wait_window('sample-job')
            maps = viewer.maps()
            viewer.stop()
            log = viewer.output()
            check(opened, 'the installed viewer opens the sample job (its window is titled sample-job)', log)
            check(plugin in maps, 'with the plugin of its own plugin folder', log)
        else:
            skip('the installed viewer opens the sample job', 'no display, xdotool or dbus-run-session')

        # 3. The plugin alone, as the Flatpak extension builds it.
        ext_prefix = os.path.join(prefix, 'extensions', 'SageMaker')
        env = clean_env(PKG_CONFIG_PATH=os.path.join(prefix, 'lib', 'pkgconfig'))
        if setup_compile_install(os.path.join(TMP, 'build-extension'), ext_prefix,
                                 manifest_opts(ADDON_ID + '.json'), env=env, what='extension build'):
            files = relative_files(ext_prefix)
            wanted = ['lib/smprof-viewer/plugins/libsmprof-sagemaker.so',
                      f'share/metainfo/{ADDON_ID}.metainfo.xml',
                      f'share/glib-2.0/schemas/{ADDON_ID}.gschema.xml',
                      'share/glib-2.0/schemas/gschemas.compiled',
                      'share/locale/fr/LC_MESSAGES/smprof-plugin.mo',
                      'share/locale/fr/LC_MESSAGES/smprof.mo']
            check(all(w in files for w in wanted),
                  'the extension installs the plugin, its catalogues, its compiled schema and its add-on metainfo',
                  *sorted(files))
            check(not any(f.startswith(('bin/', 'include/')) or 'smprof-viewer-api' in f or APP_ID + '.desktop' in f
                          or f.endswith(APP_ID + '.gschema.xml') for f in files),
                  'and nothing of the viewer or the command line', *sorted(files))
            # The plugin reads its schema from its own folder, which GSettings
            # does not search inside the Flatpak app.
            out = run(['gsettings', '--schemadir', os.path.join(ext_prefix, 'share', 'glib-2.0', 'schemas'),
                       'get', ADDON_ID + '.s3', 'max-connections'], env=clean_env(GSETTINGS_BACKEND='memory'))
            check(out.returncode == 0 and out.stdout.split() == ['uint32', '8'],
                  "the extension's compiled schema answers from its own folder", out.stdout, out.stderr)
            ext_plugin = os.path.join(ext_prefix, 'lib', 'smprof-viewer', 'plugins', 'libsmprof-sagemaker.so')
            if can_show_windows():
                viewer = Viewer(viewer_program, [SAMPLE_JOB],
                                viewer_env(prefix, SMPROF_VIEWER_PLUGIN_PATH=os.path.dirname(ext_plugin)))
                opened = viewer.wait_window('sample-job')
                maps = viewer.maps()
                viewer.stop()
                check(opened and ext_plugin in maps and plugin not in maps,
                      "the installed viewer opens the sample job with the extension's plugin", viewer.output())
            else:
                skip("the installed viewer loads the extension's plugin", 'no display, xdotool or dbus-run-session')

    print(f'1..{n}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
