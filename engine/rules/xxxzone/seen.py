"""Section 10 on the map: per-unit sighting. Each side keeps the ids it has spotted in the battle record; a spot
check is rolled at the end of an action by the target or by a spotter in its line of sight, and at the start of
the spotter's side's turn (Interpretation: the spotter's own actions count too, so walking up to a hidden enemy
can find it). A spotted unit stays spotted while any unit of the side keeps it in line of sight; a unit at D = 1
is always seen; the squad always sees its civilians."""

from __future__ import annotations

import threading
from typing import Iterable

import numpy as np

from engine.content import field, missions
from engine.core import records
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Noted
from engine.core.geometry import distance
from engine.core.model import State, Unit
from engine.rules.xxxzone import sight, smoke
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import Derived, derive
from engine.rules.xxxzone.units import Battle, battle

RADIUS = 20  # the furthest a unit looks: Sight 10-11 plus the 5%-per-square fall-off's useful reach


def stats(book: Book, unit: Unit) -> Derived:
    return derive(unit.record.op, book)


class _Lines(threading.local):
    """Whose square sees whose, kept from one call to the next on the same map and smoke: a command moves one
    unit or none, so only the lines to and from the units that moved are drawn again (sighting asks after every
    command, for every pair). One per thread: the client's fog worker folds states of its own."""

    grid: object = None
    book: object = None
    cells: frozenset = frozenset()
    at: dict  # unit id -> the unit as its lines were last drawn (its square and side)
    seers: dict  # unit id -> the ids of the other sides' units whose squares see it (whatever their status)
    pairs: dict  # (from, to) -> whether the line is open: units walk back and forth over the same squares


_LINES = _Lines()


def _line(book: Book, state: State, a, b, cells: frozenset) -> bool:
    """`b` seen from `a`: in the field of view and not behind 3 smoke squares or more."""
    return state.grid.sees(a, b, RADIUS) and (not cells or smoke.level(book, state, a, b, cells) != "hidden")


def sightlines(book: Book, state: State) -> dict[str, set[str]]:
    """Unit id -> the ids of the other sides' units whose squares see it: a side's eyes are only ever held to
    another side's units, so the lines between a side's own units are never drawn. Read-only for the caller."""
    lines, cells, units = _LINES, smoke.smoky(state), state.units
    if lines.grid is not state.grid or lines.book is not book or lines.cells != cells:
        lines.grid, lines.book, lines.cells, lines.at, lines.seers, lines.pairs = state.grid, book, cells, {}, {}, {}
    at, seers, pairs = lines.at, lines.seers, lines.pairs
    if len(pairs) > 1 << 16:
        pairs.clear()

    def line(a, b) -> bool:
        got = pairs.get((a, b))
        if got is None:
            got = pairs[(a, b)] = _line(book, state, a, b, cells)
        return got

    for uid in [uid for uid in at if uid not in units]:
        del at[uid], seers[uid]
        for ids in seers.values():
            ids.discard(uid)
    moved = []  # the units on another square or side since their lines were drawn, and those new to the table
    for u in units.values():
        was = at.get(u.id)
        if was is not u:  # the same unit object: the same square and side (most units, most commands)
            at[u.id] = u
            if was is None or was.pos != u.pos or was.side != u.side:
                moved.append(u)
    if moved:
        ids = {u.id for u in moved}
        for m in moved:  # who sees it now, from where each stands
            seers[m.id] = {o.id for o in units.values() if o.side != m.side and line(o.pos, m.pos)}
        for o in units.values():  # and whom it sees now
            if o.id in ids:
                continue
            got = seers[o.id]
            for m in moved:
                if m.side != o.side and line(m.pos, o.pos):
                    got.add(m.id)
                else:
                    got.discard(m.id)
    return seers


def spotters(book: Book, state: State, side: str, target: Unit, awake: list[Unit] | None = None,
             lines: dict[str, set[str]] | None = None) -> list[Unit]:
    """The side's conscious units that see the target; `awake`: those units, listed once for many targets."""
    if awake is None:
        awake = [u for u in state.side_units(side) if u.conscious]
    seers = (sightlines(book, state) if lines is None else lines)[target.id]
    return [u for u in awake if u.id in seers]


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
    ids, lines = {u.id for u in awake}, sightlines(book, state)
    for u in state.units.values():
        if u.side == side or lines[u.id].isdisjoint(ids):  # none of the side's eyes on it
            continue
        if friendly(side, u.side) or u.id in known or u.status != "active" \
                or any(distance(e.pos, u.pos) <= 1 for e in spotters(book, state, side, u, awake, lines)):
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
    return [Noted(record=records.evolve(rec, {"heard": now}), cause=f"{shooter.name}'s shot is heard")]


def visible(state: State, side: str) -> np.ndarray:
    return field.sight(state, side, RADIUS)


def update(dice: Dice, book: Book, state: State, acted: Iterable[str], starting: str = "") -> tuple[Battle, list[Roll]]:
    """The sightings after an action by `acted` (or at the start of `starting`'s turn), with the spot rolls."""
    acted = set(acted)
    rec = battle(state)
    rolls: list[Roll] = []
    seen = []
    lines = sightlines(book, state)
    present = {u.side for u in state.units.values()}
    for side in state.sides:
        if side == missions.CIVILIANS:
            continue
        known = rec.sightings(side)
        now = set()
        awake = [u for u in state.side_units(side) if u.conscious]
        ids = {u.id for u in awake}
        foes = {s for s in present if not friendly(side, s)}  # asked once per side, not once per unit
        for t in state.units.values():
            if t.side not in foes or t.status == "dead" or lines[t.id].isdisjoint(ids):  # no eyes on it
                continue
            if t.id in known:
                now.add(t.id)
                continue
            eyes = spotters(book, state, side, t, awake, lines)
            if not (side == starting or t.id in acted or any(e.id in acted for e in eyes)):
                continue
            p, _, best = max((chance(book, e, t, state), e.id, e) for e in eyes)  # ids differ: never a unit compared
            sure = sight.sure(p)
            if sure is None:
                got = sight.spot(dice, book, best.id, t.id, p)
                rolls.append(got.roll)
                sure = got.passed
            if sure:
                now.add(t.id)
        if now:
            seen.append((side, tuple(sorted(now))))
    seen = tuple(seen)
    return (rec if seen == rec.seen else records.evolve(rec, {"seen": seen})), rolls  # most commands spot no one new
