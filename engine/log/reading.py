"""A log read back for people (audit, story, the client's chronicle): every record's shape checked.

Verification proves a log right; this only makes sure a damaged one is reported as one located
line instead of a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.content.bounds import LONGEST
from engine.core.dice import commitment, seed_from_int
from engine.core.ruleset import available
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
    check_header(header)
    bad = first_malformed(lines)
    if bad is not None:
        raise log.LogError(f"malformed record: {bad[1]}", bad[0])
    reveals = [n for n, _raw, record in lines if record.get("kind") == "reveal"]
    if len(reveals) > 1:
        raise log.LogError(f"a second reveal (the seed was revealed on line {reveals[0]})", reveals[1])
    if reveals and reveals[0] != lines[-1][0]:
        raise log.LogError(f"a record after the reveal on line {reveals[0]} (the mission was over)", reveals[0] + 1)
    return [(n, record) for n, _raw, record in lines], broken


def check_ruleset(header: dict[str, Any]) -> None:
    if header.get("ruleset") not in available():
        raise log.LogError(f"unknown ruleset {str(header.get('ruleset'))[:40]!r}; this xenotac plays "
                           f"{', '.join(available())}", 1)


def check_header(header: dict[str, Any], squad_first: bool = False) -> dict[str, Any]:
    """Line 1's own fields, each one a reader relies on; LogError at line 1 if one is missing or one the rules
    cannot mean. Returns the mission parameters. `squad_first`: stop after the mission's own fields (the caller
    checks its squad against content, then calls again)."""
    mission = header.get("mission")
    if not isinstance(mission, dict) or not isinstance(mission.get("id"), str) \
            or not _int(mission.get("map_seed")) or not _int(mission.get("max_phases")) \
            or not isinstance(mission.get("casual", False), bool):
        raise log.LogError("the header has no valid mission parameters", 1)
    if not 0 <= mission["map_seed"] < 2**32:
        raise log.LogError(f"the header's map seed {str(mission['map_seed'])[:20]} is not a 32-bit number", 1)
    if not 1 <= mission["max_phases"] <= LONGEST:
        raise log.LogError(f"the header's phase limit {str(mission['max_phases'])[:20]} is not 1 to {LONGEST}", 1)
    extra = mission.get("extra_turns", 0)
    if not _int(extra) or not 0 <= extra <= LONGEST:
        raise log.LogError(f"the header's extra turns {str(extra)[:20]} is not 0 to {LONGEST}", 1)
    if squad_first:
        return mission
    check_ruleset(header)
    promised = header.get("seed_commitment")
    if not isinstance(promised, str) or len(promised) != 64:
        raise log.LogError("the header has no seed commitment", 1)
    public = header.get("seed_public")
    if "seed_public" not in header and header.get("version") == 1:
        pass  # version 1 did not record it: readers say the log is too old to tell
    elif not (public is False or _int(public) and 0 <= public < 10**18):
        raise log.LogError("the header does not say whether its seed is public", 1)
    elif public is not False and commitment(seed_from_int(public)) != promised:
        raise log.LogError(f"the header says its seed is public seed {str(public)[:20]}, but commits to another", 1)
    return mission


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def seed_note(header: dict[str, Any]) -> str:
    """What the header says of its seed, in the words the client, `audit` and the summary use."""
    public = header.get("seed_public")
    if isinstance(public, int) and not isinstance(public, bool):
        return f"public seed {public}: anyone could foresee these dice"
    if public is False:
        return "secret seed: committed to on line 1, revealed when the mission ends"
    return "seed: this log is older than the record of whether its seed was public (log format 2)"


def first_malformed(lines) -> tuple[int, str] | None:
    """(line, problem) of the first record after the header that is not a record's shape, or None."""
    for n, _raw, record in lines[1:]:
        problem = _shape(record)
        if problem:
            return n, problem
    return None


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
