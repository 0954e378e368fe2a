# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""cProfile interval files made from a real one (smdebug-format.md §1.7).

A python_stats file is marshal.dumps(pstats dict, 4). marshal flags an object
for back-references when its reference count is above one, so the bytes
depend on which objects the dict shares. In a dump by smdebug's cProfile
wrapper every string is also held by a code object or by the profiler's
entries (always flagged), the key tuples of a function used as a caller are
one object shared by the callers dicts of its callees, and nothing else is
shared. marshal.loads() gives back exactly that sharing, except the extra
holders of the strings. So a file is rewritten by loading it, building the
new dict from the same key tuples (a renamed key gets one new tuple per old
one, keeping the sharing), dropping the loaded dict, and dumping while a list
holds every string: re-emitting a real file with factor 1 gives its bytes back.
"""

import json
import marshal
import re

SLEEP = ("~", 0, "<built-in method time.sleep>")
_FUNCTION_AT = re.compile(r"^<function (.+) at 0x[0-9a-f]+>$")


def display_name(key):
    """pstats.func_std_string: how pstats and smdebug print a function."""
    file_name, line, name = key
    if file_name == "~" and line == 0:
        return "{%s}" % name[1:-1] if name.startswith("<") and name.endswith(">") else name
    return "%s:%d(%s)" % key


def function_address_renamer(base):
    """'<function X at 0x...>' names carry the address of the function object,
    one per process: give each generated node its own, the same for X in
    every interval of the node whichever template it comes from."""
    def rename(name):
        match = _FUNCTION_AT.match(name)
        if match is None:
            return name
        offset = 0
        for ch in match.group(1).encode("utf-8"):
            offset = (offset * 131 + ch) & 0xFFFFF
        return "<function %s at 0x%x>" % (match.group(1), base + offset * 16)
    return rename


def summary(data):
    """(functions, total_tt) of a file's bytes, as pstats totals them."""
    stats = marshal.loads(data)
    return len(stats), sum(value[2] for value in stats.values())


def address_names(data):
    """The names in a file that carry a function's address (see
    function_address_renamer)."""
    return frozenset(key[2] for key in marshal.loads(data) if _FUNCTION_AT.match(key[2]))


def _scale(stats, factor):
    """Every time multiplied by factor, in place: the same keys, dicts and
    counts, new value tuples (as in the dump, each held once)."""
    for key, (cc, nc, tt, ct, callers) in stats.items():
        for caller, value in callers.items():
            if type(value) is tuple:
                callers[caller] = (value[0], value[1], value[2] * factor, value[3] * factor)
        stats[key] = (cc, nc, tt * factor, ct * factor, callers)


def _renamed(stats, rename, names):
    """A new dict where each key named in names is one new tuple per old tuple
    (and one new name per old name), so sharing stays as it was."""
    new_keys = {}
    new_names = {}

    def key_of(key):
        new = new_keys.get(id(key))
        if new is None:
            name = key[2]
            new_name = new_names.get(id(name))
            if new_name is None:
                new_name = new_names[id(name)] = rename(name)
            new = new_keys[id(key)] = (key[0], key[1], new_name)
        return new

    out = {}
    for key, (cc, nc, tt, ct, callers) in stats.items():
        if any(caller[2] in names for caller in callers):
            callers = {key_of(caller) if caller[2] in names else caller: value for caller, value in callers.items()}
        out[key_of(key) if key[2] in names else key] = (cc, nc, tt, ct, callers)
    return out


def pick_hotspot(stats):
    """time.sleep where the interval calls it (where a slow step's time most
    plausibly goes), else the function with the largest self time."""
    if SLEEP in stats:
        return SLEEP
    best, best_tt = None, -1.0
    for key, value in stats.items():
        if value[2] > best_tt:
            best, best_tt = key, value[2]
    return best


def _add_self_time(stats, hotspot, seconds):
    """Adds self time to one function and, along its heaviest caller chain up
    to a root, the cumulative time of every caller and caller edge: the graph
    stays consistent (cumtime >= tottime, an edge's times within its
    function's)."""
    cc, nc, tt, ct, callers = stats[hotspot]
    stats[hotspot] = (cc, nc, tt + seconds, ct + seconds, callers)
    seen = {hotspot}
    callee = hotspot
    while True:
        callers = stats[callee][4]
        best, best_ct = None, -1.0
        for caller, value in callers.items():
            if caller not in seen and caller in stats and isinstance(value, tuple) and value[3] > best_ct:
                best, best_ct = caller, value[3]
        if best is None:
            return
        value = callers[best]
        callers[best] = (value[0], value[1], value[2] + (seconds if callee is hotspot else 0.0), value[3] + seconds)
        cc, nc, tt, ct, up = stats[best]
        stats[best] = (cc, nc, tt, ct + seconds, up)
        seen.add(best)
        callee = best


def emit(data, factor, extra_seconds=0.0, rename=None, names=frozenset()):
    """The bytes of a template file with every time multiplied by factor,
    extra_seconds of self time added to its hotspot, and the functions in
    names (its address_names()) given their node's addresses by rename().
    Returns (bytes, hotspot key or None, total_tt). No reference to the
    dict's objects may outlive the dump's start: it would change their flags."""
    stats = marshal.loads(data)
    if names:
        stats = _renamed(stats, rename, names)
    _scale(stats, factor)
    hotspot = None
    if extra_seconds > 0:
        key = pick_hotspot(stats)
        _add_self_time(stats, key, extra_seconds)
        # As text: holding the key (or its line number) would flag it.
        hotspot = json.dumps(key)
        del key
    total_tt = sum(value[2] for value in stats.values())
    holders = _strings(stats)
    out = marshal.dumps(stats, 4)
    del holders
    return out, None if hotspot is None else tuple(json.loads(hotspot)), total_tt


def _strings(stats):
    # Every string of a caller key is also one of a function key (cProfile
    # lists each caller as a function too, and marshal shares the objects).
    held = [key[0] for key in stats]
    held += [key[2] for key in stats]
    return held
