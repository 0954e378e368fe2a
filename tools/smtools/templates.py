# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Real interval files used as templates, sorted by the kind of chunk they are.

Kinds (smdebug-format.md §2.6), from the folder name alone:

  init        prestepzero-*-start -> first step start
  final       ... -> posthookclose-*-end
  fwd         PyTorch stepstart -> forwardpassend
  rest        PyTorch forwardpassend -> next stepstart, same mode
  restswitch  PyTorch forwardpassend -> next stepstart, another mode
  step        Keras stepstart -> stepend
  between     Keras stepend -> next stepstart, same mode
  switch      Keras stepend -> stepstart of another mode
  modeend     Keras stepend -> stepend, same mode (on_train_end / on_test_end)
  trainend    Keras eval stepend -> train stepend (on_train_end after validation)
"""

import json
import os

from . import cprofile_stats, intervals

FRAMEWORK_DIRS = {"pytorch": "pt", "tensorflow": "tf"}
STATS_FILE = {"cprofile": "python_stats", "pyinstrument": "python_stats.json"}

# When no template has the kind wanted, the nearest shape that has one.
FALLBACK = {
    "rest": ["restswitch", "between"],
    "restswitch": ["rest", "switch"],
    "between": ["switch", "rest"],
    "switch": ["between", "restswitch"],
    "modeend": ["between", "switch"],
    "trainend": ["modeend", "switch", "between"],
    "fwd": ["step"],
    "step": ["fwd"],
}


def kind_of(interval):
    start, end = interval
    if start.phase == "start":
        return "init"
    if end.phase == "end":
        return "final"
    if start.phase == "stepstart":
        return "fwd" if end.phase == "forwardpassend" else "step"
    if start.phase == "forwardpassend":
        return "rest" if start.mode == end.mode else "restswitch"
    if end.phase == "stepstart":
        return "between" if start.mode == end.mode else "switch"
    return "modeend" if start.mode == end.mode else "trainend"


def mode_key(interval, kind):
    """What a template is chosen by besides its kind: its mode, or for a
    mode switch the pair of modes; 'global' steps take train templates."""
    start, end = interval
    if kind == "init":
        mode = end.mode
    elif kind == "final":
        return "any"
    elif kind in ("restswitch", "switch", "trainend"):
        return "%s>%s" % (start.mode, end.mode)
    else:
        mode = start.mode
    return "train" if mode == "global" else mode


class Template:
    def __init__(self, profiler, framework, path, label, interval, data):
        self.profiler = profiler
        self.framework = framework
        self.path = path
        self.label = label  # for the manifest: relative to the repository
        self.kind = kind_of(interval)
        self.mode = mode_key(interval, self.kind)
        self.step = interval.start.step
        self.wall_s = (interval.end.time_us - interval.start.time_us) / 1e6
        self.data = data
        if profiler == "cprofile":
            self.functions, self.total_s = cprofile_stats.summary(data)
            self.address_names = cprofile_stats.address_names(data)
            self.has_root = self.functions > 0
            self.start_offset_s = 0.0
        else:
            self.session = data
            self.has_root = data.get("root_frame") is not None
            self.functions = _count_frames(data.get("root_frame"))
            self.total_s = data["root_frame"]["time"] if self.has_root else 0.0
            # pyinstrument starts a moment after smdebug samples the folder's start time
            self.start_offset_s = min(max(data["start_time"] - interval.start.time_us / 1e6, 0.0), 0.001)
        # The wall time the interval needs at factor 1: its own length, and
        # never less than the profile it holds (10 ms os.times() ticks can
        # make a short real interval's total exceed its length).
        self.need_s = max(self.wall_s, self.total_s)

    def manifest(self):
        return {"path": self.label, "kind": self.kind, "mode": self.mode, "functions": self.functions,
                "bytes": len(self.data) if self.profiler == "cprofile" else None}


def _count_frames(frame):
    if frame is None:
        return 0
    return 1 + sum(_count_frames(c) for c in frame["children"])


def default_dirs(repo_root, framework, profiler):
    """tests/data/real-smdebug/<pt|tf>-<profiler>: the framework's own first,
    the other's as a fallback for kinds it lacks."""
    real = os.path.join(repo_root, "tests", "data", "real-smdebug")
    other = "tensorflow" if framework == "pytorch" else "pytorch"
    return [os.path.join(real, "%s-%s" % (FRAMEWORK_DIRS[fw], profiler)) for fw in (framework, other)]


def load(job_dirs, profiler, repo_root):
    """Every interval file of profiler under each job folder's framework/*/<profiler>/."""
    found = []
    for job in job_dirs:
        base = os.path.join(job, "framework")
        if not os.path.isdir(base):
            raise ValueError("%s: no framework/ folder: not an smdebug job" % job)
        for framework in sorted(os.listdir(base)):
            profiler_dir = os.path.join(base, framework, profiler)
            if not os.path.isdir(profiler_dir):
                continue
            for node in sorted(os.listdir(profiler_dir)):
                for name in sorted(os.listdir(os.path.join(profiler_dir, node))):
                    path = os.path.join(profiler_dir, node, name, STATS_FILE[profiler])
                    if not os.path.exists(path):
                        continue
                    interval = intervals.parse(name)
                    if profiler == "cprofile":
                        with open(path, "rb") as fh:
                            data = fh.read()
                    else:
                        with open(path, encoding="utf-8") as fh:
                            data = json.load(fh)
                        if "start_time" not in data:  # smdebug's failure stand-in
                            continue
                    label = os.path.relpath(path, repo_root)
                    found.append(Template(profiler, framework, path, label, interval, data))
    return found


class Catalogue:
    """The templates of one profiler, and the seeded choice among them."""

    def __init__(self, templates, framework):
        self.templates = templates
        self.framework = framework
        self.used = set()
        self._pools = {}

    def _matching(self, kind, mode, step_index, need_root):
        """The templates of one kind: the wanted framework's before the
        other's, the wanted mode's before any mode's; steps 0 and 1 of a real
        job (warm-up) only for steps 0 and 1, the later ones for the rest."""
        for same_framework in (True, False):
            pool = [t for t in self.templates if t.kind == kind and (t.framework == self.framework) == same_framework
                    and (t.has_root or not need_root)]
            for in_mode in (True, False):
                picked = [t for t in pool if t.mode == mode or not in_mode]
                if kind not in ("init", "final") and step_index is not None:
                    warm = [t for t in picked if t.step == step_index] if step_index < 2 else []
                    later = [t for t in picked if t.step >= 2]
                    picked = warm or later or picked
                if picked:
                    return picked
        return []

    def choose(self, rng, kind, mode, step_index=None, need_root=False):
        warm_up = step_index if step_index is not None and step_index < 2 else None
        key = (kind, mode, warm_up, step_index is None, need_root)
        pool = self._pools.get(key)
        if pool is None:
            for candidate in [kind] + FALLBACK.get(kind, []):
                pool = self._matching(candidate, mode, step_index, need_root)
                if pool:
                    break
            else:
                raise ValueError("no %s %s template of kind %s (mode %s)"
                                 % (self.framework, "cprofile" if not self.templates else self.templates[0].profiler,
                                    kind, mode))
            self._pools[key] = pool
        template = pool[rng.randrange(len(pool))]
        self.used.add(template)
        return template
