"""Carry a damaged log on from its last good record, in a new file; the damaged one is kept as it is."""

from __future__ import annotations

import os
from pathlib import Path

from engine.core import files
from engine.log import writer as log
from engine.content.models import Content
from engine.play.game import Game
from engine.play.verify import verify


def recover(content: Content, path: Path, new_path: Path) -> tuple[Game, str]:
    """Copy every record before the first one `replay --verify` objects to, resume the copy, and say
    what was left behind. The copy is created like any new log: exclusively, locked before it is written."""
    if new_path.exists() or new_path.is_symlink():
        raise log.LogError(f"{new_path} already exists")
    failure = verify(content, path).failure
    if failure is not None and (failure.line is None or failure.line <= 2):
        raise log.LogError(f"nothing to recover: {failure}")
    keep = failure.line - 1 if failure is not None else None
    lines = [raw for n, _off, raw in log.read_lines(path) if keep is None or n <= keep]
    companion = log.read_companion(log.seed_path(path), strict=True)
    lock = log.Lock(new_path, create=True)
    try:
        log.write_seed(new_path, companion.seed, log.line_hash(lines[0]))
        files.write_all(lock.fd, b"".join(raw + b"\n" for raw in lines))
        os.fsync(lock.fd)
    except BaseException:
        lock.release()
        raise
    note = (f"recovered lines 1-{keep} of {path.name} into {new_path.name} ({failure}); {path.name} is unchanged"
            if failure else f"{path.name} verifies: copied whole into {new_path.name}")
    return Game.resume(content, new_path, lock), note
