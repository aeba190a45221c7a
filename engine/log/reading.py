"""A log read back for people (audit, story, the client's chronicle): every record's shape checked.

Verification proves a log right; this only makes sure a damaged one is reported as one located
line instead of a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.log import writer as log
from engine.log.chain import Failure, chain


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
    reveals = [n for n, _raw, record in lines if record.get("kind") == "reveal"]
    if len(reveals) > 1:
        raise log.LogError(f"a second reveal (the seed was revealed on line {reveals[0]})", reveals[1])
    if reveals and reveals[0] != lines[-1][0]:
        raise log.LogError(f"a record after the reveal on line {reveals[0]} (the mission was over)", reveals[0] + 1)
    return [(n, record) for n, _raw, record in lines], broken


def seed_note(header: dict[str, Any]) -> str:
    """What the header says of its seed, in the words the client, `audit` and the summary use."""
    public = header.get("seed_public")
    if isinstance(public, int) and not isinstance(public, bool):
        return f"public seed {public}: anyone could foresee these dice"
    if public is False:
        return "secret seed: committed to on line 1, revealed when the mission ends"
    return "seed: this log is older than the record of whether its seed was public (log format 2)"


def _shape(record: dict[str, Any]) -> str | None:
    """Cheap checks of what readers index into; the codec checks the rest when an event is used."""
    kind = record.get("kind")
    if kind == "command":
        if not isinstance(record.get("base"), int) or isinstance(record.get("base"), bool):
            return "its base is not a record number"
        if not isinstance(record.get("command"), dict):
            return "its command is not an object"
        events = record.get("events")
        if not isinstance(events, list):
            return "its events are not a list"
        for i, event in enumerate(events, start=1):
            problem = _event_shape(event)
            if problem:
                return f"event {i}: {problem}"
    elif kind == "undo" and not isinstance(record.get("base"), int):
        return "its base is not a record number"
    elif kind == "reveal" and not isinstance(record.get("seed"), str):
        return "the revealed seed is not text"
    elif kind not in ("command", "undo", "reveal", "checkpoint"):
        return f"unknown kind {kind!r}"
    return None


_ROLL = {"actor": str, "purpose": str, "expr": str, "faces": list, "formula": str, "total": int, "stream": str,
         "index": int}


def _event_shape(event: Any) -> str | None:
    if not isinstance(event, dict) or not isinstance(event.get("kind"), str):
        return "not an event object"
    if event["kind"] == "spawned":
        unit = event.get("unit")
        if not isinstance(unit, dict) or not all(isinstance(unit.get(k), str) for k in ("id", "name", "side")):
            return "a spawned unit without id, name and side"
    if event["kind"] == "phase" and not isinstance(event.get("phase"), int):
        return "a phase without its number"
    rolls = event.get("rolls")
    if not isinstance(rolls, list):
        return "its rolls are not a list"
    for roll in rolls:
        if not isinstance(roll, dict) or not all(isinstance(roll.get(k), t) for k, t in _ROLL.items()):
            return "a roll without actor, purpose, faces, formula and total"
    return None
