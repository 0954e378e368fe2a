#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Copies built catalogues into one $localedir-shaped tree.

Usage: make-locale-tree.py LOCALE_DIR STAMP MO...

Each MO is BUILD/po/DOMAIN/LANG/LC_MESSAGES/DOMAIN.mo, as i18n.gettext()
builds it; it is copied to LOCALE_DIR/LANG/LC_MESSAGES/DOMAIN.mo, then STAMP
is written.
"""

import os
import shutil
import sys


def main():
    locale_dir, stamp, catalogues = sys.argv[1], sys.argv[2], sys.argv[3:]
    for mo in catalogues:
        lc_messages = os.path.dirname(os.path.abspath(mo))
        lang = os.path.basename(os.path.dirname(lc_messages))
        target_dir = os.path.join(locale_dir, lang, 'LC_MESSAGES')
        os.makedirs(target_dir, exist_ok=True)
        target = os.path.join(target_dir, os.path.basename(mo))
        shutil.copyfile(mo, target + '.tmp')
        os.replace(target + '.tmp', target)
    with open(stamp, 'w', encoding='utf-8') as f:
        f.write(''.join(f'{mo}\n' for mo in catalogues))
    return 0


if __name__ == '__main__':
    sys.exit(main())
