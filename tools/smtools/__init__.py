# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared code of tools/make-corpus.py and tools/smdebug-aggregate.py.

Python 3 standard library only. The format facts come from
docs/smdebug-format.md (the team's reading of smdebug 1.0.34); the code is ours.
"""
