"""A log read back for people (audit, story, the client's chronicle): every record's shape checked.

Verification proves a log right; this only makes sure a damaged one is reported as one located
line instead of a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import codec, log
from engine.verify import Failure, chain


def records(path: Path) -> tuple[list[tuple[int, dict[str, Any]]], Failure | None]:
    """(line number, record) for every line up to the first break in the chain, and that break."""
    lines, broken = chain(path)
    if not lines:
        raise log.LogError(str(broken) if broken else f"{path}: empty log")
    header = lines[0][2]
    if header.get("format") != log.FORMAT:
        raise log.LogError("not a xenotac mission log", 1)
    for n, _raw, record in lines[1:]:
        problem = _shape(record)
        if problem:
            raise log.LogError(f"malformed record: {problem}", n)
    return [(n, record) for n, _raw, record in lines], broken


def _shape(record: dict[str, Any]) -> str | None:
    kind = record.get("kind")
    try:
        if kind == "command":
            if not isinstance(record.get("base"), int):
                return "its base is not a record number"
            codec.load_command(record.get("command"))
            events = record.get("events")
            if not isinstance(events, list):
                return "its events are not a list"
            for event in events:
                codec.load_event(event)
        elif kind == "undo" and not isinstance(record.get("base"), int):
            return "its base is not a record number"
        elif kind == "reveal" and not isinstance(record.get("seed"), str):
            return "the revealed seed is not text"
        elif kind not in ("command", "undo", "reveal", "checkpoint"):
            return f"unknown kind {kind!r}"
    except codec.CodecError as exc:
        return str(exc)
    return None
