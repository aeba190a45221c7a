"""`xenotac audit`: every roll of a log written out as a player would write it, then dice statistics."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Iterator

import attrs

from engine.log import writer as log
from engine.log import reading, skim
from engine.log.chain import collector_paused
from engine.log.story import SHARED, Sides
from engine.log.view import View, everything, hidden_line

GOD = "god"


@attrs.frozen
class Line:
    n: int
    phase: int
    abandoned: bool
    headline: str
    rolls: list[dict[str, Any]]  # every roll, for the statistics
    shown: list[dict[str, Any]]  # the rolls the reader may see (all of them without a view)
    hidden: int = 0  # rolls made out of the view's side's sight


@attrs.define
class Tally:
    faces: dict[int, list[int]] = attrs.field(factory=dict)  # sides of the die -> every face rolled
    crit_plus: int = 0
    crit_minus: int = 0
    luck_checks: int = 0
    luck_passed: int = 0
    luck_expected: float = 0.0
    pooled: list[int] = attrs.field(factory=list)  # every face of a pool of several dice (neo-troops' d6 pools)
    kept: list[int] = attrs.field(factory=list)  # the faces of those the pools kept (`Roll.kept`; () kept all)


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


def read(path: Path, view: View | None = None) -> tuple[list[Line], dict[str, str], dict[str, str], str | None]:
    """Lines with rolls, unit names, unit sides, and a note if the chain is broken. With a `view`, each line
    shows only the rolls its side saw (engine.log.view) and counts the others."""
    with collector_paused():
        return _read(path, view)


def _read(path: Path, view: View | None) -> tuple[list[Line], dict[str, str], dict[str, str], str | None]:
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
        for event in record.get("events", []):
            if event.get("kind") == "spawned":
                unit = event["unit"]
                names[unit["id"]], sides[unit["id"]] = unit["name"], unit["side"]
            if event.get("kind") == "phase":
                phase = event["phase"]
            rolls.extend(event.get("rolls", []))
        told = view.feed(n, record) if view is not None else everything(record.get("events", []))
        if rolls and told is not None:
            shown = [r for e in told.events for r in e.get("rolls") or []]
            headline = next((e.get("text", "") for e in told.events if e.get("kind") == "resolved"), "")
            if not headline:
                headline = _describe(record.get("command", {})) if shown else "out of sight"
            out.append(Line(n, phase, n not in alive, headline, rolls, shown, told.hidden))
    note = str(broken) if broken else None
    return out, names, sides, note


def _describe(command: dict[str, Any]) -> str:
    kind = command.get("kind", "?")
    return {"start": "mission start: hit points rolled", "end_turn": f"{command.get('side')} ends the turn"}.get(
        kind, kind)


def luck_of(roll: dict[str, Any]) -> int | None:
    faces = roll.get("faces") or [0]
    return roll["total"] // faces[0] if faces[0] else None


def render(path: Path, record: int | None = None, unit: str | None = None, view: View | None = None,
           named: Sides = SHARED) -> Iterator[str]:
    lines, names, sides, note = read(path, view)
    header = log.read_header(path)
    if record is not None:
        last = max(n for n, _r in reading.records(path)[0])
        if record > last:
            raise log.LogError(f"--record {record} is out of range: the log has lines 1 to {last}")
    mission = header.get("mission") if isinstance(header.get("mission"), dict) else {}
    yield (f"{path} · mission {str(mission.get('id'))[:40]} · ruleset {str(header.get('ruleset'))[:40]} · "
           f"seed commitment {str(header.get('seed_commitment'))[:16]}…")
    yield reading.seed_note(header)
    if note:
        yield f"warning: {note}; the rolls after it are not shown"
    tallies: dict[str, Tally] = {}
    for line in lines:
        if record is not None and line.n != record:
            continue
        rolls = [r for r in line.shown if unit is None or r.get("actor") == unit]
        if not line.abandoned:  # every die counts, seen or not, so the statistics stay honest; a unit's, if seen
            for r in line.rolls if unit is None else rolls:
                _count(tallies.setdefault(sides.get(r["actor"], GOD), Tally()), r)
        hidden = line.hidden if unit is None else 0
        if not rolls and not hidden:
            continue
        mark = " (undone)" if line.abandoned else ""
        yield f"line {line.n} · phase {line.phase}{mark} · {line.headline}"
        width = max((len(names.get(r["actor"], r["actor"])) for r in rolls), default=0)
        for r in rolls:
            who = names.get(r["actor"], r["actor"])
            crit = f" [{r['crit']}]" if r.get("crit") else ""
            yield f"  {who:<{width}}  {r['purpose']:<22} {r['formula']}{crit}"
        if hidden:
            yield f"  {hidden_line(hidden)}"
    yield ""
    yield from _statistics(tallies, _audited(path), named)


DIE = re.compile(r"^(\d*)d(\d+)$")  # "1d100", "4d6": a roll of plain dice, each face one die


def _count(t: Tally, r: dict[str, Any]) -> None:
    die = DIE.match(str(r.get("expr", "")))
    if die is None:
        return
    faces = list(r.get("faces", []))
    t.faces.setdefault(int(die.group(2)), []).extend(faces)
    if len(faces) > 1:
        t.pooled += faces
        t.kept += [faces[i] for i in (r.get("kept") or range(len(faces))) if 0 <= i < len(faces)]
    if die.group(2) != "100":
        return
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


def _statistics(tallies: dict[str, Tally], dice: tuple[int, ...] = (100,), named: Sides = SHARED) -> Iterator[str]:
    """Per side, the count and mean of each die the ruleset audits; with d100, its crits and luck checks (3.2)."""
    yield "Dice statistics (rolls on the final branch)"
    head = "".join(f" {f'd{n}':>6} {'mean':>6}" for n in dice)
    d100 = 100 in dice
    yield f"  {'side':<8}{head}" + (f" {'crit+':>6} {'crit-':>6}   luck checks passed (expected)" if d100 else "")
    for side in sorted(tallies):
        t = tallies[side]
        row = ""
        for n in dice:
            faces = t.faces.get(n, [])
            row += f" {len(faces):>6} {sum(faces) / len(faces) if faces else 0.0:>6.1f}"
        if d100:
            luck = "-"
            if t.luck_checks:
                luck = (f"{t.luck_passed}/{t.luck_checks} {100 * t.luck_passed / t.luck_checks:.1f}% "
                        f"({100 * t.luck_expected / t.luck_checks:.1f}%)")
            row += f" {t.crit_plus:>6} {t.crit_minus:>6}   {luck}"
        yield f"  {named.label(side):<8}{row}"


def stats(path: Path, named: Sides = SHARED) -> Iterator[str]:
    """`audit --stats`: per side, the distribution of each die the ruleset names (`audit_dice`: d100 for xcom-trpg,
    d6 for a pool ruleset) with a χ² test, and luck checks against their odds."""
    skimmed = skim.rolls(path)  # the common case, read only as far as the rolls
    if skimmed is None:  # anything else read whole, which says what is wrong
        lines, _names, sides, note = read(path)
        rolled = [(line.n, line.rolls) for line in lines]
        alive = {line.n for line in lines if not line.abandoned}
    else:
        (rolled, sides, alive), note = skimmed, None
    if note:
        yield f"warning: {note}; the rolls after it are not counted"
    tallies: dict[str, Tally] = {}
    for n, rolls in rolled:
        if n in alive:
            for r in rolls:
                _count(tallies.setdefault(sides.get(r["actor"], GOD), Tally()), r)
    audited = _audited(path)
    yield from _statistics(tallies, audited, named)
    for sides_of_die in audited:
        for side in sorted(tallies):
            faces = tallies[side].faces.get(sides_of_die, [])
            if faces:
                yield ""
                yield from _distribution(named.label(side), sides_of_die, faces)
    pools = {side: t for side, t in sorted(tallies.items()) if t.pooled}
    if pools:
        yield ""
        yield "Kept versus rolled (pools of several dice; a pool keeps its best, or the lower of two at zero dice)"
        for side, t in pools.items():
            yield (f"  {named.label(side):<8} rolled {len(t.pooled):>5} mean {sum(t.pooled) / len(t.pooled):.2f} · "
                   f"kept {len(t.kept):>5} mean {sum(t.kept) / len(t.kept) if t.kept else 0.0:.2f} · "
                   f"discarded {len(t.pooled) - len(t.kept)}")


def _audited(path: Path) -> tuple[int, ...]:
    """The die sizes the log's ruleset wants tabulated; d100 when the ruleset is unknown here."""
    from engine.core import ruleset

    try:
        return ruleset.kind(log.read_header(path).get("ruleset", "")).audit_dice
    except (KeyError, log.LogError, OSError):
        return (100,)


def _distribution(side: str, sides_of_die: int, faces: list[int]) -> Iterator[str]:
    """Ten rows for a big die (1-10, 11-20, ...), one row per face for a small one; χ² on rows - 1 degrees."""
    width = sides_of_die // 10 if sides_of_die >= 20 and sides_of_die % 10 == 0 else 1
    rows = sides_of_die // width
    buckets = [0] * rows
    for face in faces:
        buckets[(face - 1) // width] += 1
    expected = len(faces) / rows
    chi2 = sum((b - expected) ** 2 / expected for b in buckets)
    yield (f"{side}: {len(faces)} d{sides_of_die}, χ² = {chi2:.2f} on {rows - 1} degrees of freedom, "
           f"p = {chi2_p(chi2, rows - 1):.3f}  (p below 0.01 would mean the dice look unfair)")
    top = max(buckets)
    for i, b in enumerate(buckets):
        bar = "█" * round(40 * b / top) if top else ""
        label = f"{width * i + 1:>3}-{width * i + width:<3}" if width > 1 else f"{i + 1:>7}"
        yield f"  {label} {b:>6} {bar}"
    yield f"  expected {expected:.1f} per row"


def chi2_p(x: float, dof: int) -> float:
    """P(χ² >= x): the regularized upper incomplete gamma Q(dof/2, x/2)."""
    a, z = dof / 2, x / 2
    if z <= 0:
        return 1.0
    if z < a + 1:  # series for the lower part
        term = total = 1 / a
        k = a
        while abs(term) > 1e-14 * abs(total):
            k += 1
            term *= z / k
            total += term
        return max(0.0, 1 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    b, c, d = z + 1 - a, 1e300, 1 / (z + 1 - a)  # continued fraction for the upper part
    h = d
    for i in range(1, 300):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-14:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * h)
