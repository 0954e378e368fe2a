# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""smdebug 1.0.34's selection rules (smdebug-format.md §3.2-§3.5).

Each function takes records sorted in record order (intervals.load_records)
and returns the selected ones in that same order. Results never mix nodes
unless the caller asks for node "all", which smdebug has not.
"""

MODE_NAMES = {
    "TRAIN": "train", "EVAL": "eval", "PREDICT": "predict", "GLOBAL": "global",
    "PRE_STEP_ZERO": "prestepzero", "POST_HOOK_CLOSE": "posthookclose",
}
PHASE_NAMES = {
    "START": "start", "STEP_START": "stepstart", "FORWARD_PASS_END": "forwardpassend",
    "STEP_END": "stepend", "END": "end",
}
# PythonProfileModes in enum order: fetch_profile_stats_by_training_phase walks
# every (start, end) pair of them in this order.
MODE_ORDER = ("train", "eval", "predict", "global", "prestepzero", "posthookclose")


def mode_name(text):
    """A folder-name mode from its folder spelling or its enum member name."""
    name = MODE_NAMES.get(text, text)
    if name not in MODE_ORDER:
        raise ValueError("unknown mode %r" % text)
    return name


def phase_name(text):
    name = PHASE_NAMES.get(text, text)
    if name not in PHASE_NAMES.values():
        raise ValueError("unknown phase %r" % text)
    return name


def on_node(records, node_id):
    """'any' is the node of the first record (the earliest start); 'all' keeps
    every node; an unknown id keeps nothing."""
    if not records:
        return []
    if node_id == "all":
        return list(records)
    if node_id == "any":
        node_id = records[0].node_id
    return [r for r in records if r.node_id == node_id]


def in_step_interval(interval, start_step, end_step, start_phase, end_phase):
    """§3.5.2: inside strictly, or touching a boundary step with a phase that
    does not contradict the query's."""
    rs, re_ = interval.start.step, interval.end.step
    if start_step < rs and end_step > re_:
        return True
    if start_step > rs or end_step < re_:
        return False
    if rs == start_step and start_phase in ("stepend", "forwardpassend") and interval.start.phase != start_phase:
        return False
    if re_ == end_step and end_phase == "stepstart" and interval.end.phase != end_phase:
        return False
    return True


def by_step(records, start_step, end_step=None, mode="train", start_phase="stepstart", end_phase="stepend"):
    if end_step is None:
        end_step = start_step
    return [r for r in records
            if in_step_interval(r.interval, start_step, end_step, start_phase, end_phase)
            and r.interval.start.mode == mode and r.interval.end.mode == mode]


def by_time(records, start_s, end_s):
    """Seconds, multiplied as smdebug does; a record is kept when its start or
    its end lies in the closed window (one that only contains it is not)."""
    qs, qe = start_s * 1000000, end_s * 1000000
    return [r for r in records
            if qs <= r.interval.start.time_us <= qe or qs <= r.interval.end.time_us <= qe]


def between_modes(records, start_mode, end_mode):
    return [r for r in records if r.interval.start.mode == start_mode and r.interval.end.mode == end_mode]


def pre_step_zero(records):
    return [r for r in records if r.interval.start.phase == "start"]


def post_hook_close(records):
    return [r for r in records if r.interval.end.phase == "end"]
