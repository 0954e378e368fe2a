# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reads `smprof --help`, `smprof COMMAND --help` and the rendered man page
into the same shape, so tests can compare them piece by piece (Python 3
standard library only).

A piece is one paragraph with its line breaks and indentation folded into
single spaces: what the program or groff wrapped comes back as the msgid.
"""

import re
import subprocess


def fold(text):
    return re.sub(r'\s+', ' ', text).strip()


def paragraphs(lines):
    """Blank-line separated paragraphs, each folded."""
    out, current = [], []
    for line in lines + ['']:
        if line.strip():
            current.append(line)
        elif current:
            out.append(fold(' '.join(current)))
            current = []
    return out


def _items(lines, pattern):
    """Lines "  NAME TEXT" and their indented continuations: {NAME: folded TEXT}."""
    items, current = {}, None
    for line in lines:
        m = re.match(pattern, line)
        if m:
            current = m.group(1)
            items[current] = m.group(2)
        elif line.strip():
            items[current] += ' ' + line.strip()
    return {k: fold(v) for k, v in items.items()}


def parse_overview(text):
    """`smprof --help`: {'usage': {cmd: synopsis}, 'summary': {cmd: text},
    'paragraphs': [the paragraphs after the commands]}."""
    lines = text.splitlines()
    headers = [i for i, line in enumerate(lines) if line and not line.startswith(' ')]
    usage_end = lines.index('', headers[0])
    commands_end = lines.index('', headers[1])
    return {'usage': _items(lines[headers[0] + 1:usage_end], r'  smprof (\S+) (.*)'),
            'summary': _items(lines[headers[1] + 1:commands_end], r'  (\S+) +(.*)'),
            'paragraphs': paragraphs(lines[commands_end:])}


def parse_command(text):
    """`smprof COMMAND --help`: {'command', 'synopsis', 'summary',
    'description' (or None), 'source', 'groups': [(title, [(tag, text)])]}."""
    lines = text.splitlines()
    head, groups = [], []
    entries = None
    for i, line in enumerate(lines):
        # a group's title: a paragraph of one line ending in ':', before an option
        is_title = (i > 0 and not lines[i - 1] and line.rstrip().endswith(':')
                    and i + 1 < len(lines) and lines[i + 1].startswith('  -'))
        if is_title:
            entries = []
            groups.append((line.rstrip()[:-1].rstrip(), entries))
        elif entries is None:
            head.append(line)
        elif line.startswith('  ') and not line.startswith('   '):
            entries.append([line.strip(), ''])
        elif line.strip():
            entries[-1][1] += ' ' + line.strip()
    paras = paragraphs(head)
    m = re.search(r'smprof (\S+) (.*)', paras[0])
    return {'command': m.group(1), 'synopsis': m.group(2),
            'summary': paras[1], 'description': paras[2] if len(paras) == 4 else None,
            'source': paras[-1],
            'groups': [(title, [(tag, fold(body)) for tag, body in items]) for title, items in groups]}


def render_man(path, groff='groff'):
    """The man page as man(1) shows it, with lines long enough never to wrap."""
    out = subprocess.run([groff, '-man', '-Tutf8', '-rLL=2000n', '-rHY=0', '-P-cbou', path],
                         capture_output=True, text=True, check=True)
    return out.stdout


def _entries(lines):
    """.TP items rendered at indent 7 (tag) and 14 (body): [(tag, [paragraphs])].
    A tag shorter than the indent shares its line with the body; a longer one
    is alone, the body on the next line."""
    items = []
    for i, line in enumerate(lines):
        if not line.strip():
            if items:
                items[-1][1].append('')
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 7:
            next_line = lines[i + 1] if i + 1 < len(lines) else ''
            alone = next_line.strip() and len(next_line) - len(next_line.lstrip()) == 14
            if not alone and len(line) > 14 and line[13] == ' ':
                items.append((line[7:14].strip(), [line[14:]]))
            else:
                items.append((line.strip(), []))
        elif items:
            items[-1][1].append(line)
    return [(tag, paragraphs(body)) for tag, body in items]


def parse_man(text):
    """{'synopsis': {cmd: synopsis}, 'description': [paragraphs],
    'commands': {cmd: [paragraphs]}, 'options': [(title, [(tag, text)])]}."""
    sections, name = {}, None
    for line in text.splitlines():
        if line and not line.startswith(' '):
            name = line.strip()
            sections[name] = []
        elif name is not None:
            sections[name].append(line)

    synopsis = {}
    for para in paragraphs(sections.get('SYNOPSIS', [])):
        m = re.match(r'smprof (\S+) (.*)', para)
        synopsis[m.group(1)] = m.group(2)

    options, current = [], None
    for line in sections.get('OPTIONS', []):
        if line.startswith('   ') and not line.startswith('    '):
            current = []
            options.append((line.strip(), current))
        elif current is not None:
            current.append(line)

    return {'synopsis': synopsis,
            'description': paragraphs(sections.get('DESCRIPTION', [])),
            'commands': dict(_entries(sections.get('COMMANDS', []))),
            'options': [(title, [(tag, ' '.join(body)) for tag, body in _entries(lines)])
                        for title, lines in options]}


def split_tag(tag):
    """'-o, --output FILE' -> ('-o, --output', 'FILE')."""
    words = tag.split(' ')
    n = 0
    while n < len(words) and words[n].startswith('-'):
        n += 1
    return ' '.join(words[:n]), ' '.join(words[n:])


def translation_problems(english, french, gettext, command=False):
    """Where the French help is not the English one with each piece through
    the catalogue's gettext (an empty list: it is). The pieces are msgids:
    with the wrapping folded away, they are what the program translated."""
    problems = []

    def same(what, en, fr):
        if fold(gettext(en)) != fr:
            problems.append(f'{what}: {fr!r} is not the translation of {en!r}')

    if not command:
        en, fr = parse_overview(english), parse_overview(french)
        if list(en['usage']) != list(fr['usage']) or len(en['paragraphs']) != len(fr['paragraphs']):
            return ['the commands or the paragraphs differ']
        for name in en['usage']:
            same(f'{name} synopsis', en['usage'][name], fr['usage'][name])
            same(f'{name} summary', en['summary'][name], fr['summary'][name])
        for e, f in zip(en['paragraphs'], fr['paragraphs']):
            same('paragraph', e, f)
        return problems

    en, fr = parse_command(english), parse_command(french)
    for key in ('synopsis', 'summary', 'description', 'source'):
        if (en[key] is None) != (fr[key] is None):
            problems.append(f'{key}: present in one language only')
        elif en[key] is not None:
            same(key, en[key], fr[key])
    if [len(e) for _, e in en['groups']] != [len(e) for _, e in fr['groups']]:
        return problems + ['the groups of options differ']
    for (en_title, en_entries), (fr_title, fr_entries) in zip(en['groups'], fr['groups']):
        same('group title', en_title, fr_title)
        for (en_tag, en_text), (fr_tag, fr_text) in zip(en_entries, fr_entries):
            (en_name, en_value), (fr_name, fr_value) = split_tag(en_tag), split_tag(fr_tag)
            if en_name != fr_name:
                problems.append(f'{en_name}: the option is {fr_name!r} in French')
            if en_value:
                same(f'{en_name} value', en_value, fr_value)
            same(f'{en_name} text', en_text, fr_text)
    return problems
