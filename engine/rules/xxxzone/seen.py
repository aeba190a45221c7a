"""Section 10 on the map: per-unit sighting. Each side keeps the ids it has spotted in the battle record; a spot
check is rolled at the end of an action by the target or by a spotter in its line of sight, and at the start of
the spotter's side's turn (Interpretation: the spotter's own actions count too, so walking up to a hidden enemy
can find it). A spotted unit stays spotted while any unit of the side keeps it in line of sight; a unit at D = 1
is always seen; the squad always sees its civilians."""

from __future__ import annotations

from typing import Iterable

import attrs
import numpy as np

from engine.content import field, missions
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Noted
from engine.core.geometry import distance
from engine.core.model import State, Unit
from engine.rules.xxxzone import sight, smoke
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import Derived, derive
from engine.rules.xxxzone.units import Battle, battle

RADIUS = 20  # the furthest a unit looks: Sight 10-11 plus the 5%-per-square fall-off's useful reach
_DERIVED: dict[tuple[int, object], Derived] = {}


def stats(book: Book, unit: Unit) -> Derived:
    key = (id(book), unit.record.op)
    got = _DERIVED.get(key)
    if got is None:
        if len(_DERIVED) > 4096:
            _DERIVED.clear()
        got = _DERIVED[key] = derive(unit.record.op, book)
    return got


def spotters(book: Book, state: State, side: str, target: Unit, awake: list[Unit] | None = None) -> list[Unit]:
    """The side's conscious units that see the target; `awake`: those units, listed once for many targets."""
    if awake is None:
        awake = [u for u in state.side_units(side) if u.conscious]
    sees, at = state.grid.sees, target.pos
    eyes = [u for u in awake if sees(u.pos, at, RADIUS)]
    cells = smoke.smoky(state)
    if cells and eyes:  # through 3 smoke squares or more nobody sees it
        eyes = [u for u in eyes if smoke.level(book, state, u.pos, at, cells) != "hidden"]
    return eyes


def chance(book: Book, spotter: Unit, target: Unit, state: State | None = None) -> int:
    s, t = spotter.record, target.record
    concealed = state is not None and smoke.level(book, state, spotter.pos, target.pos) == "concealed"
    return sight.sees(book, spotter.pos, s.facing, stats(book, spotter).sight, target.pos, stats(book, target).sneak,
                      conspicuous=t.conspicuous or bool(t.condition.on_fire), concealed=concealed)


def friendly(side: str, other: str) -> bool:
    return side == other or not missions.hostile(side, other)


def spotted(book: Book, state: State, side: str) -> frozenset[str]:
    known = battle(state).sightings(side)
    out = set()
    awake = [u for u in state.side_units(side) if u.conscious]
    for u in state.units.values():
        if u.side == side:
            continue
        eyes = spotters(book, state, side, u, awake)
        if not eyes:
            continue
        if friendly(side, u.side) or u.id in known or u.status != "active" \
                or any(distance(e.pos, u.pos) <= 1 for e in eyes):
            out.add(u.id)
    return frozenset(out)


def heard(book: Book, state: State, shooter: Unit) -> list[Event]:
    """An unsuppressed shot alerts every enemy within the alert radius (10): each side with a conscious unit that
    close hears where it came from (kept in the battle record: the side's AI hunts there, `Ruleset.heard`)."""
    if not book.settings.shots_heard:
        return []
    enemies = [(u.side, u.pos) for u in state.units.values() if u.conscious and u.side != missions.CIVILIANS
               and missions.hostile(shooter.side, u.side)]
    sides = set(sight.alerted(book, shooter.pos, enemies, suppressed=False))
    if not sides:
        return []
    rec = battle(state)
    kept = tuple(h for h in rec.heard if h[0] not in sides)
    now = tuple(sorted(kept + tuple((s, shooter.pos, state.phase) for s in sides)))
    return [Noted(record=attrs.evolve(rec, heard=now), cause=f"{shooter.name}'s shot is heard")]


def visible(state: State, side: str) -> np.ndarray:
    return field.sight(state, side, RADIUS)


def update(dice: Dice, book: Book, state: State, acted: Iterable[str], starting: str = "") -> tuple[Battle, list[Roll]]:
    """The sightings after an action by `acted` (or at the start of `starting`'s turn), with the spot rolls."""
    acted = set(acted)
    rec = battle(state)
    rolls: list[Roll] = []
    seen = []
    for side in state.sides:
        if side == missions.CIVILIANS:
            continue
        known = rec.sightings(side)
        now = set()
        awake = [u for u in state.side_units(side) if u.conscious]
        for t in state.units.values():
            if friendly(side, t.side) or t.status == "dead":
                continue
            eyes = spotters(book, state, side, t, awake)
            if not eyes:
                continue
            if t.id in known:
                now.add(t.id)
                continue
            if not (side == starting or t.id in acted or any(e.id in acted for e in eyes)):
                continue
            best = max(eyes, key=lambda e: (chance(book, e, t, state), e.id))
            p = chance(book, best, t, state)
            sure = sight.sure(p)
            if sure is None:
                got = sight.spot(dice, book, best.id, t.id, p)
                rolls.append(got.roll)
                sure = got.passed
            if sure:
                now.add(t.id)
        if now:
            seen.append((side, tuple(sorted(now))))
    return attrs.evolve(rec, seen=tuple(seen)), rolls
