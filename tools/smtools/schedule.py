# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plan of a synthetic job: its steps, the chunks smdebug writes for them
on each node, their contents, lengths and times (smdebug-format.md §2).

Everything random is drawn here, in the main process, in one fixed order from
one seeded generator, so the files written afterwards by any number of worker
processes are the same.
"""

import math

from . import intervals


class Chunk:
    """One profiling chunk, the same on every node: its folder labels (mode,
    step or None for '*', phase), its kind, the step it belongs to (None for
    pre-step-zero and finalisation) and whether it is the chunk in which
    data-parallel nodes wait for each other (sync): it ends on every node when
    the slowest gets there."""

    __slots__ = ("start", "end", "kind", "mode", "step_index", "sync")

    def __init__(self, start, end, kind, mode, step_index, sync):
        self.start, self.end, self.kind, self.mode = start, end, kind, mode
        self.step_index, self.sync = step_index, sync


def step_sequence(framework, steps, eval_every, eval_steps):
    """(mode, step number) of each step, plus the one after the last (a step
    that runs unprofiled). Without eval blocks PyTorch steps are 'global' (the
    hook's default mode) and Keras steps 'train'. PyTorch numbers steps
    globally; Keras counts each mode apart."""
    sequence, counters = [], {}
    for i in range(steps + 1):
        if eval_every:
            mode = "eval" if i % (eval_every + eval_steps) >= eval_every else "train"
        else:
            mode = "global" if framework == "pytorch" else "train"
        if framework == "pytorch":
            sequence.append((mode, i))
        else:
            sequence.append((mode, counters.get(mode, 0)))
            counters[mode] = counters.get(mode, 0) + 1
    return sequence


def _mode_key(mode):
    return "train" if mode == "global" else mode


def pytorch_chunks(sequence, steps, close):
    """§2.6, PyTorch: forward pass, then the rest of the step up to the next
    step start. hook.close() opens the finalisation chunk (prestepzero-*-end);
    without it, the last chunk runs on to the process's exit."""
    first_mode = sequence[0][0]
    chunks = [Chunk(("prestepzero", None, "start"), (first_mode, 0, "stepstart"), "init", _mode_key(first_mode),
                    None, True)]
    for i in range(steps):
        mode, step = sequence[i]
        chunks.append(Chunk((mode, step, "stepstart"), (mode, step, "forwardpassend"), "fwd", _mode_key(mode), i,
                            False))
        if i == steps - 1 and not close:
            chunks.append(Chunk((mode, step, "forwardpassend"), ("posthookclose", None, "end"), "final", "any", i,
                                False))
            continue
        next_mode, next_step = sequence[i + 1]
        if next_mode == mode:
            chunks.append(Chunk((mode, step, "forwardpassend"), (next_mode, next_step, "stepstart"), "rest",
                                _mode_key(mode), i, True))
        else:
            chunks.append(Chunk((mode, step, "forwardpassend"), (next_mode, next_step, "stepstart"), "restswitch",
                                "%s>%s" % (_mode_key(mode), _mode_key(next_mode)), i, True))
    if close:
        chunks.append(Chunk(("prestepzero", None, "end"), ("posthookclose", None, "end"), "final", "any", None,
                            False))
    return chunks


def keras_chunks(sequence, steps):
    """§2.6, Keras: the batch, then up to the next batch; a mode that ends
    (on_test_end, on_train_end) reopens a chunk at its last step end. The hook
    always closes at exit, so the finalisation chunk follows. Data-parallel
    Keras nodes wait for each other inside the batch (the gradients'
    all-reduce), so the batch is the chunk that ends together."""
    first_mode = sequence[0][0]
    chunks = [Chunk(("prestepzero", None, "start"), (first_mode, 0, "stepstart"), "init", first_mode, None, True)]
    last_train = max(step for mode, step in sequence[:steps] if mode == "train")
    for i in range(steps):
        mode, step = sequence[i]
        after = (mode, step, "stepend")
        chunks.append(Chunk((mode, step, "stepstart"), after, "step", mode, i, True))
        if i < steps - 1:
            next_mode, next_step = sequence[i + 1]
            if next_mode == mode:
                chunks.append(Chunk(after, (next_mode, next_step, "stepstart"), "between", mode, i, False))
                continue
            if mode == "eval":  # on_test_end, then back to training
                chunks.append(Chunk(after, after, "modeend", mode, i, False))
            chunks.append(Chunk(after, (next_mode, next_step, "stepstart"), "switch", "%s>%s" % (mode, next_mode), i,
                                False))
        elif mode == "eval":  # on_test_end, then on_train_end
            chunks.append(Chunk(after, after, "modeend", mode, i, False))
            chunks.append(Chunk(after, ("train", last_train, "stepend"), "trainend", "eval>train", i, False))
        else:  # on_train_end
            chunks.append(Chunk(after, after, "modeend", mode, i, False))
    chunks.append(Chunk(("prestepzero", None, "end"), ("posthookclose", None, "end"), "final", "any", None, False))
    return chunks


class NodePlan:
    """What one node's worker writes: per chunk its folder name, factor,
    extra seconds, wall time and what is special about it (the templates are
    the same on every node)."""

    def __init__(self, index, node_id, rank):
        self.index, self.node_id, self.rank = index, node_id, rank
        self.factors = []
        self.extras = []
        self.walls = []
        self.names = []
        self.starts_us = []  # as written in the folder names
        self.special = {}     # chunk index -> "empty" | "failure"
        self.hotspot_chunks = set()


def lognormal(rng, sigma):
    return math.exp(rng.gauss(0.0, sigma))


def plan_times(rng, plans, chunks, start_us, skew_us, close_gap):
    """Folder times. Nodes start a little apart; within a node the chunks
    follow each other with a small seam; every chunk that ends at a step start
    ends, on every node, when the slowest node gets there (plus a moment).
    With close_gap (PyTorch's hook.close()), the finalisation chunk starts
    after a stretch of unprofiled work. Then each host's clock skew is added."""
    n_nodes = len(plans)
    begin = [[0.0] * len(chunks) for _ in range(n_nodes)]
    end = [[0.0] * len(chunks) for _ in range(n_nodes)]
    cursor = list(start_us)

    def seam():
        return rng.uniform(300.0, 2500.0)

    first = 0
    while first < len(chunks):
        last = first
        while not chunks[last].sync and last + 1 < len(chunks):
            last += 1
        for c in range(first, last + 1):
            if close_gap and chunks[c].start == ("prestepzero", None, "end"):
                for n in range(n_nodes):
                    cursor[n] += rng.uniform(200000.0, 1500000.0)
            for n, plan in enumerate(plans):
                begin[n][c] = cursor[n]
                end[n][c] = cursor[n] + plan.walls[c] * 1e6
                cursor[n] = end[n][c] + seam()
        if chunks[last].sync:
            barrier = max(end[n][last] for n in range(n_nodes)) + rng.uniform(50.0, 400.0)
            for n in range(n_nodes):
                end[n][last] = barrier - rng.uniform(0.0, 40.0)
                cursor[n] = end[n][last] + seam()
        first = last + 1

    for n, plan in enumerate(plans):
        skew = skew_us[n]
        for c, chunk in enumerate(chunks):
            t0, t1 = begin[n][c] + skew, end[n][c] + skew
            plan.names.append(intervals.format_name(chunk.start + (t0,), chunk.end + (t1,)))
            plan.starts_us.append(t0)
            plan.walls[c] = (t1 - t0) / 1e6
