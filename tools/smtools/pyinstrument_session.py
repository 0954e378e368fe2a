# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Pyinstrument interval files made from a real one (smdebug-format.md §1.6, §1.8).

python_stats.json is pyinstrument 3.4.2's JSONRenderer output: fixed key
order, "%f" numbers, strings escaped as json.dumps(ensure_ascii=False) does,
no space after ",", a newline at the end. render() writes that form; a real
file parsed and rendered again gives its bytes back.

Times are rescaled on whole microseconds: each frame's self time (its time
minus its children's) is multiplied, then the times are summed bottom-up, so
a parent always covers its children (real files are sometimes 1 µs short:
their self time is taken as 0).
"""

import json
import uuid

FAILURE_JSON = '{"root_frame": null}'
FAILURE_HTML = "An error occurred during profiling!"


def _text(s):
    return json.dumps(s, ensure_ascii=False)


def _number(x):
    return "%f" % x


def render_frame(frame):
    parts = [
        '"function": ' + _text(frame["function"]),
        '"file_path_short": ' + _text(frame["file_path_short"]),
        '"file_path": ' + _text(frame["file_path"]),
        '"line_no": %d' % frame["line_no"],
        '"time": ' + _number(frame["time"]),
        '"is_application_code": ' + ("true" if frame["is_application_code"] else "false"),
        '"children": [' + ",".join(render_frame(c) for c in frame["children"]) + "]",
    ]
    if "group_id" in frame:
        parts.append('"group_id": ' + _text(frame["group_id"]))
    return "{" + ",".join(parts) + "}"


def render(session):
    """The JSON text of a session, as JSONRenderer().render() writes it."""
    cpu = session["cpu_time"]
    root = session["root_frame"]
    parts = [
        '"start_time": ' + _number(session["start_time"]),
        '"duration": ' + _number(session["duration"]),
        '"sample_count": %d' % session["sample_count"],
        '"program": ' + _text(session["program"]),
        '"cpu_time": ' + ("null" if cpu is None else _number(cpu)),
        '"root_frame": ' + ("null" if root is None else render_frame(root)),
    ]
    return "{" + ",".join(parts) + "}\n"


def html_page(json_text):
    """A small stand-in for pyinstrument's ~85 KB viewer page (smdebug writes
    one per interval and needs it; smprof reads only the JSON)."""
    return ("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>pyinstrument session</title>\n</head>\n<body>\n"
            "<div id=\"app\"></div>\n<script>\nwindow.profileSession = " + json_text.rstrip("\n") + ";\n"
            "</script>\n</body>\n</html>\n")


def _us(seconds):
    return int(round(seconds * 1e6))


def frame_identity(frame):
    return {k: frame[k] for k in ("function", "file_path_short", "file_path", "line_no")}


def _self_us(frame):
    return max(0, _us(frame["time"]) - sum(_us(c["time"]) for c in frame["children"]))


def pick_hotspot(root):
    """The built-in sleep where the session has one, else the frame with the
    largest self time (the first in pre-order on a tie)."""
    best, best_self = None, -1
    stack = [root]
    while stack:
        frame = stack.pop()
        if frame["function"] == "sleep" and frame["file_path"] == "<built-in>":
            return frame
        own = _self_us(frame)
        if own > best_self:
            best, best_self = frame, own
        stack.extend(reversed(frame["children"]))
    return best


def _scaled(frame, factor, hotspot, extra_us, groups, rng):
    children = [_scaled(c, factor, hotspot, extra_us, groups, rng) for c in frame["children"]]
    own = int(round(_self_us(frame) * factor)) + (extra_us if frame is hotspot else 0)
    total = own + sum(c["time_us"] for c in children)
    children.sort(key=lambda c: -c["time_us"])
    new = dict(frame)
    new["time_us"] = total
    new["children"] = children
    if "group_id" in frame:
        if frame["group_id"] not in groups:
            groups[frame["group_id"]] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        new["group_id"] = groups[frame["group_id"]]
    return new


def _finish(frame):
    frame["time"] = frame.pop("time_us") / 1e6
    for child in frame["children"]:
        _finish(child)
    return frame


def scaled_session(template, factor, rng, start_time, wall_s, program, extra_seconds=0.0):
    """A new session from a template: times multiplied by factor, extra_seconds
    of self time on its hotspot frame, fresh group ids from rng, the start
    time and program given. Returns (session, hotspot identity or None)."""
    root = template["root_frame"]
    session = {
        "start_time": start_time,
        "duration": min(template["duration"] * factor + extra_seconds, wall_s),
        "sample_count": template["sample_count"],
        "program": program,
        "cpu_time": None if template["cpu_time"] is None else template["cpu_time"] * factor,
        "root_frame": None,
    }
    if root is None:
        return session, None
    hotspot = pick_hotspot(root) if extra_seconds > 0 else None
    session["root_frame"] = _finish(_scaled(root, factor, hotspot, _us(extra_seconds), {}, rng))
    session["sample_count"] = max(1, int(round(template["sample_count"] * factor)))
    return session, None if hotspot is None else frame_identity(hotspot)


def empty_session(template, factor, start_time, wall_s, program):
    """An interval in which pyinstrument recorded no sample."""
    return {
        "start_time": start_time,
        "duration": min(template["duration"] * factor, wall_s),
        "sample_count": 0,
        "program": program,
        "cpu_time": None if template["cpu_time"] is None else template["cpu_time"] * factor,
        "root_frame": None,
    }
