"""`xenotac audit`: every roll of a log written out as a player would write it, then dice statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import attrs

from engine import log, reading

GOD = "god"


@attrs.frozen
class Line:
    n: int
    phase: int
    abandoned: bool
    headline: str
    rolls: list[dict[str, Any]]


@attrs.define
class Tally:
    d100: list[int] = attrs.field(factory=list)
    crit_plus: int = 0
    crit_minus: int = 0
    luck_checks: int = 0
    luck_passed: int = 0
    luck_expected: float = 0.0


def _branch(records: list[tuple[int, dict[str, Any]]]) -> set[int]:
    """Record numbers on the final branch; the others were undone."""
    bases: dict[int, int] = {}
    head = 1
    for n, r in records:
        if r.get("kind") == "command":
            bases[n], head = r.get("base", 1), n
        elif r.get("kind") == "undo":
            head = r.get("base", 1)
    alive = set()
    while head in bases:
        alive.add(head)
        head = bases[head]
    return alive


def read(path: Path) -> tuple[list[Line], dict[str, str], dict[str, str], str | None]:
    """Lines with rolls, unit names, unit sides, and a note if the chain is broken."""
    records, broken = reading.records(path)
    alive = _branch(records)
    names: dict[str, str] = {}
    sides: dict[str, str] = {}
    out: list[Line] = []
    phase = 0
    for n, record in records:
        if record.get("kind") != "command":
            continue
        rolls: list[dict[str, Any]] = []
        headline = ""
        for event in record.get("events", []):
            if event.get("kind") == "spawned":
                unit = event["unit"]
                names[unit["id"]], sides[unit["id"]] = unit["name"], unit["side"]
            if event.get("kind") == "phase":
                phase = event["phase"]
            if event.get("kind") == "resolved" and not headline:
                headline = event.get("text", "")
            rolls.extend(event.get("rolls", []))
        if rolls:
            command = record.get("command", {})
            out.append(Line(n, phase, n not in alive, headline or _describe(command), rolls))
    note = str(broken) if broken else None
    return out, names, sides, note


def _describe(command: dict[str, Any]) -> str:
    kind = command.get("kind", "?")
    return {"start": "mission start: hit points rolled", "end_turn": f"{command.get('side')} ends the turn"}.get(
        kind, kind)


def luck_of(roll: dict[str, Any]) -> int | None:
    faces = roll.get("faces") or [0]
    return roll["total"] // faces[0] if faces[0] else None


def render(path: Path, record: int | None = None, unit: str | None = None) -> Iterator[str]:
    lines, names, sides, note = read(path)
    header = log.read_header(path)
    yield (f"{path} · mission {header['mission']['id']} · ruleset {header['ruleset']} · "
           f"seed commitment {header['seed_commitment'][:16]}…")
    if note:
        yield f"warning: {note}; the rolls after it are not shown"
    tallies: dict[str, Tally] = {}
    for line in lines:
        if record is not None and line.n != record:
            continue
        rolls = [r for r in line.rolls if unit is None or r.get("actor") == unit]
        if not rolls:
            continue
        mark = " (undone)" if line.abandoned else ""
        yield f"line {line.n} · phase {line.phase}{mark} · {line.headline}"
        width = max(len(names.get(r["actor"], r["actor"])) for r in rolls)
        for r in rolls:
            who = names.get(r["actor"], r["actor"])
            crit = f" [{r['crit']}]" if r.get("crit") else ""
            yield f"  {who:<{width}}  {r['purpose']:<22} {r['formula']}{crit}"
            if not line.abandoned:
                _count(tallies.setdefault(sides.get(r["actor"], GOD), Tally()), r)
    yield ""
    yield from _statistics(tallies)


def _count(t: Tally, r: dict[str, Any]) -> None:
    if r.get("expr") != "1d100":
        return
    t.d100.extend(r.get("faces", []))
    if r.get("crit") == "success":
        t.crit_plus += 1
    elif r.get("crit") == "failure":
        t.crit_minus += 1
    if "luck" in r.get("purpose", "") and r.get("formula", "").startswith("luck "):
        luck = luck_of(r)
        if luck:
            t.luck_checks += 1
            t.luck_passed += int(r["formula"].endswith("✓"))
            t.luck_expected += sum(1 for f in range(1, 101) if luck * f >= 100) / 100


def _statistics(tallies: dict[str, Tally]) -> Iterator[str]:
    yield "Dice statistics (rolls on the final branch)"
    yield f"  {'side':<8} {'d100':>6} {'mean':>6} {'crit+':>6} {'crit-':>6}   luck checks passed (expected)"
    for side in sorted(tallies):
        t = tallies[side]
        mean = sum(t.d100) / len(t.d100) if t.d100 else 0.0
        luck = "-"
        if t.luck_checks:
            luck = (f"{t.luck_passed}/{t.luck_checks} {100 * t.luck_passed / t.luck_checks:.1f}% "
                    f"({100 * t.luck_expected / t.luck_checks:.1f}%)")
        yield f"  {side:<8} {len(t.d100):>6} {mean:>6.1f} {t.crit_plus:>6} {t.crit_minus:>6}   {luck}"
