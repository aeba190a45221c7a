"""Carry a damaged log on from its last good record, in a new file; the damaged one is kept as it is."""

from __future__ import annotations

from pathlib import Path

from engine.log import writer as log
from engine.content.models import Content
from engine.play.game import Game
from engine.play.verify import verify


def recover(content: Content, path: Path, new_path: Path) -> tuple[Game, str]:
    """Copy every record before the first one `replay --verify` objects to, resume the copy, and say
    what was left behind."""
    if new_path.exists():
        raise log.LogError(f"{new_path} already exists")
    failure = verify(content, path).failure
    if failure is not None and (failure.line is None or failure.line <= 2):
        raise log.LogError(f"nothing to recover: {failure}")
    keep = failure.line - 1 if failure is not None else None
    good = b"".join(raw + b"\n" for n, _off, raw in log.read_lines(path) if keep is None or n <= keep)
    new_path.write_bytes(good)
    log.write_seed(new_path, log.read_seed(log.seed_path(path)))
    note = (f"recovered lines 1-{keep} of {path.name} into {new_path.name} ({failure}); {path.name} is unchanged"
            if failure else f"{path.name} verifies: copied whole into {new_path.name}")
    return Game.resume(content, new_path), note
