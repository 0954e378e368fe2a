# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Interval folder names and smdebug's records (smdebug-format.md §1.3, §3.2, §3.3).

An interval folder is named

    <mode>-<step>-<phase>-<µs>_<mode>-<step>-<phase>-<µs>

and smdebug 1.0.34 parses it strictly: one "_", three "-" on each side, a known
mode and phase, int() for the step ("*" is -1 at the start and +inf at the
end), float() for the time. Any other name aborts its whole load, so parse()
raises ValueError the same way and callers decide what to do.
"""

import collections
import math
import os

MODES = ("train", "eval", "predict", "global", "prestepzero", "posthookclose")
PHASES = ("start", "stepstart", "forwardpassend", "stepend", "end")

Label = collections.namedtuple("Label", "mode step phase time_us")
Interval = collections.namedtuple("Interval", "start end")


def _parse_half(text, star):
    fields = text.split("-")
    if len(fields) != 4:
        raise ValueError("%r: expected <mode>-<step>-<phase>-<time>, got %d fields" % (text, len(fields)))
    mode, step, phase, time_us = fields
    if mode not in MODES:
        raise ValueError("%r: invalid mode %r" % (text, mode))
    if phase not in PHASES:
        raise ValueError("%r: invalid phase %r" % (text, phase))
    return Label(mode, star if step == "*" else int(step), phase, float(time_us))


def parse(name):
    """The Interval of a folder name, or ValueError as smdebug would fail."""
    halves = name.split("_")
    if len(halves) != 2:
        raise ValueError("%r: expected one '_' between the start and the end, got %d" % (name, len(halves) - 1))
    return Interval(_parse_half(halves[0], -1), _parse_half(halves[1], math.inf))


def format_label(mode, step, phase, time_us):
    """One half of a folder name. The time is written as Python's repr() of the
    float, as smdebug's str.format("{}") does; step None is written '*'."""
    return "%s-%s-%s-%r" % (mode, "*" if step is None else step, phase, float(time_us))


def format_name(start, end):
    """start and end: (mode, step or None, phase, time_us)."""
    return format_label(*start) + "_" + format_label(*end)


# ---------------------------------------------------------------- records

Record = collections.namedtuple("Record", "node_id interval path file_name")

FILE_PROFILER = {
    "python_stats": "cprofile",
    "python_stats.json": "pyinstrument",
    "python_stats.html": "pyinstrument",
}


def load_records(profiler_dir, profiler):
    """smdebug's LocalPythonStatsReader, then the analysis class's filter.

    Every entry of profiler_dir must be a node folder and every entry of a
    node folder an interval folder (NotADirectoryError otherwise, as in
    smdebug). Files of the other profiler and unknown files are skipped. A bad
    name on a folder holding a stats file of either profiler raises
    ValueError. Records are sorted stably by (start time, node id), ties in
    os.listdir order, which is what smdebug sees too."""
    found = []
    for node_id in os.listdir(profiler_dir):
        node_dir = os.path.join(profiler_dir, node_id)
        if not os.path.isdir(node_dir):
            raise NotADirectoryError("%s: not a node folder" % node_dir)
        for name in os.listdir(node_dir):
            interval_dir = os.path.join(node_dir, name)
            if not os.path.isdir(interval_dir):
                raise NotADirectoryError("%s: not an interval folder" % interval_dir)
            for file_name in os.listdir(interval_dir):
                if file_name not in FILE_PROFILER:
                    continue
                # smdebug's reader parses the name for the records of both
                # profilers before the analysis class keeps its own.
                try:
                    interval = parse(name)
                except ValueError as e:
                    raise ValueError("%s: %s" % (interval_dir, e)) from None
                if FILE_PROFILER[file_name] == profiler:
                    found.append(Record(node_id, interval, os.path.join(interval_dir, file_name), file_name))
    found.sort(key=lambda r: (r.interval.start.time_us, r.node_id))
    return found
