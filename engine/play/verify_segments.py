"""`replay --verify --jobs N`: where a log is split into segments, and the worker processes that verify them.

Each worker starts at a checkpoint's anchor (the state that checkpoint holds, held to the hash on the anchored
line) and ends where the next segment's start is covered; `verify_fast.Job.run` walks each segment.
"""

from __future__ import annotations

import gc
import multiprocessing
import re
import threading
from array import array
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.content.models import Content
from engine.play.game import build

if TYPE_CHECKING:
    from engine.play.verify_fast import Job, Ran

SEGMENT_MIN = 2_000  # lines below which a forked worker costs more than it saves (an AI mission: measured idle)
SPAWN_MIN = 8_000  # the same for a worker started afresh (it imports the engine and builds the map first)

_JOB: Job | None = None  # what a forked worker inherits


class Start(NamedTuple):
    """Where a worker's segment starts: a command line (and its byte offset) that a later checkpoint anchors
    (that checkpoint's offset), and the last line the segment before covers (at least this one)."""

    line: int
    offset: int
    checkpoint: int
    covered: int


_MARK = re.compile(rb'{"n":(\d+),"kind":"checkpoint","of":\d+,"anchor":{"of":(\d+),')


def starts(path: Path, jobs: int) -> list[Start]:
    """Where workers start: at about equal shares of the log's bytes (a line's length follows its work: an AI's
    long walk is a long line), each at a checkpoint's anchor, whose state that checkpoint holds. The segment
    before ends at the last checkpoint before the anchor's checkpoint (it checks those; the worker may not
    hold their anchors), or at the anchor itself."""
    offsets = array("q")
    marks: list[tuple[int, int, int]] = []  # (checkpoint line, its offset, its anchor's line)
    every: list[int] = []  # every checkpoint's line
    offset = 0
    with open(path, "rb") as f:
        for raw in f:
            offsets.append(offset)
            if raw.startswith(b'{"n":%d,"kind":"checkpoint"' % len(offsets)):
                every.append(len(offsets))
                found = _MARK.match(raw)
                if found and 1 < int(found[2]) < int(found[1]):
                    marks.append((len(offsets), offset, int(found[2])))
            offset += len(raw)
    if len(offsets) < (SEGMENT_MIN if _can_fork() else SPAWN_MIN) or not marks:
        return []
    starts: list[Start] = []
    for k in range(1, jobs):
        line, at, anchor = min(marks, key=lambda m: abs(offsets[m[2] - 1] - k * offset / jobs))
        covered = max([n for n in every if anchor < n < line], default=anchor)
        if not starts or covered > starts[-1].line:
            starts.append(Start(anchor, offsets[anchor - 1], at, covered))
    return starts


def _can_fork() -> bool:
    """Workers are forked when that is safe: they start in milliseconds with the content, map and rules
    already built. A process with other threads is not forked (their locks would be copied mid-use): its
    workers start afresh (forkserver or spawn) and build the job from the content, header and seed."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def parallel(job: Job, bounds: list[Start], jobs: int) -> list[Ran]:
    """What each segment read, in the log's order."""
    global _JOB
    _JOB = job
    try:
        starts: list[Start | None] = [None, *bounds]
        ends: list[int | None] = [b.covered for b in bounds] + [None]
        if _can_fork():
            pool = ProcessPoolExecutor(max_workers=min(jobs, len(starts)) - 1,
                                       mp_context=multiprocessing.get_context("fork"))
        else:
            method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
            pool = ProcessPoolExecutor(max_workers=min(jobs, len(starts)) - 1,
                                       mp_context=multiprocessing.get_context(method), initializer=_start,
                                       initargs=(job.content, job.header, job.seed, str(job.path)))
        with pool:
            futures = [pool.submit(_segment, s, e) for s, e in zip(starts[1:], ends[1:])]
            first = job.run(starts[0], ends[0])  # the first segment here, meanwhile
            return [first, *(f.result() for f in futures)]
    finally:
        _JOB = None


def _start(content: Content, header: dict[str, Any], seed: bytes, path: str) -> None:
    """A worker started afresh builds the job itself."""
    from engine.play.verify_fast import Job

    global _JOB
    ruleset, initial = build(content, header)
    _JOB = Job(content, header, seed, ruleset, initial, Path(path))


def _segment(start: Start, end: int | None) -> Ran:
    assert _JOB is not None
    gc.disable()
    return _JOB.run(start, end)
