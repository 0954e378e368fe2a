#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The merged desktop entry and metainfo carry every language of LINGUAS (TAP).

Usage: check-translations.py LINGUAS [FILE.desktop | FILE.metainfo.xml]...

A desktop entry needs Name, GenericName, Comment and Keywords in each
language; a metainfo file its summary, every paragraph and list item of its
description, and every screenshot caption (names may stay as they are).
"""

import configparser
import sys
import xml.etree.ElementTree as ET

XML_LANG = '{http://www.w3.org/XML/1998/namespace}lang'

linguas, files = sys.argv[1], sys.argv[2:]
with open(linguas, encoding='utf-8') as f:
    langs = [w for line in f if not line.strip().startswith('#') for w in line.split()]

n = 0
failed = 0


def check(ok, name, *details):
    global n, failed
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {name}")
    for d in details:
        print(f'# {d}')
    failed += not ok


for path in files:
    name = path.rsplit('/', 1)[-1]
    if path.endswith('.desktop'):
        entry = configparser.RawConfigParser(delimiters=('=',), interpolation=None)
        entry.optionxform = str
        entry.read(path, encoding='utf-8')
        keys = entry['Desktop Entry']
        for lang in langs:
            missing = [k for k in ('Name', 'GenericName', 'Comment', 'Keywords')
                       if k in keys and f'{k}[{lang}]' not in keys]
            check(not missing, f'{name}: {lang}', *missing)
    else:
        root = ET.parse(path).getroot()
        for lang in langs:
            missing = []
            # msgfmt puts each translation right after its element, as a sibling.
            for parent in root.iter():
                for tag in ('summary', 'p', 'li', 'caption'):
                    english = [c for c in parent if c.tag == tag and XML_LANG not in c.attrib]
                    translated = [c for c in parent if c.tag == tag and c.get(XML_LANG) == lang]
                    if len(translated) < len(english):
                        missing += [f'<{tag}>{(c.text or "").strip()[:70]}' for c in english]
            check(not missing, f'{name}: {lang}', *missing)

print(f'1..{n}')
sys.exit(1 if failed else 0)
