"""Where saves live and how a new log is named: one module that the command line, the app and the session share."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path


def saves_dir(arg: str | None) -> Path:
    """--saves, then XENOTAC_SAVES, then the project's saves/ folder, then ./saves."""
    if arg:
        return Path(arg)
    env = os.environ.get("XENOTAC_SAVES")
    if env:
        return Path(env)
    project = Path(__file__).resolve().parent.parent / "saves"
    return project if project.is_dir() else Path("saves")


def new_log_path(folder: Path, stem: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.") or "mission"
    path = folder / f"{safe}.jsonl"
    i = 2
    while path.exists():
        path = folder / f"{safe}-{i}.jsonl"
        i += 1
    return path


def log_path(folder: Path, mission: str, tag: str) -> Path:
    return new_log_path(folder, f"{mission}-{tag}")


def stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")
