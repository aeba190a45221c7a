"""Smoke and concealment on the map (6.9): a thrown Smoke Bomb (no pin to pull) makes a cloud of radius D <= 5
round where it lands, not through walls, for 3d3 turns counted at the end of the thrower's side's turns. A line
of sight through 1 smoke square or more (the target's own included, the looker's not) conceals the target: −20
to attacks and to the spot chance; through 3 or more it cannot be seen or targeted at all."""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core.events import Event, Noted, Resolved
from engine.core.geometry import Pos
from engine.core.model import State
from engine.rules.xxxzone import explosions
from engine.rules.xxxzone.lines import line
from engine.rules.xxxzone.units import battle, changed

Level = Literal["none", "concealed", "hidden"]
_CELLS: dict[tuple[int, Pos, int], frozenset[Pos]] = {}


def cloud_cells(state: State, centre: Pos, radius: int) -> frozenset[Pos]:
    key = (id(state.grid), centre, radius)
    got = _CELLS.get(key)
    if got is None:
        if len(_CELLS) > 256:
            _CELLS.clear()
        seen = state.grid.fov(centre, radius + 1)
        got = frozenset((x, y) for y in range(max(0, centre[1] - radius), min(state.grid.height, centre[1] + radius + 1))
                        for x in range(max(0, centre[0] - radius), min(state.grid.width, centre[0] + radius + 1))
                        if seen[y, x] or (x, y) == centre)
        _CELLS[key] = got
    return got


def smoky(state: State) -> frozenset[Pos]:
    """Every square under smoke now."""
    clouds = battle(state).smoke
    if not clouds:
        return frozenset()
    out: set[Pos] = set()
    for centre, radius, _, _ in clouds:
        out |= cloud_cells(state, tuple(centre), radius)  # type: ignore[arg-type]
    return frozenset(out)


def level(book, state: State, looker: Pos, target: Pos, cells: frozenset[Pos] | None = None) -> Level:
    cells = smoky(state) if cells is None else cells
    if not cells:
        return "none"
    return explosions.concealment(book, sum(1 for c in line(looker, target)[1:] if c in cells))


def thrown(rs, state: State, unit, thrower, cmd, landing, impact: Pos, dice) -> list[Event]:
    book = rs.book
    item = book.items[cmd.item]
    turns = explosions.smoke_turns(dice, book, unit.id, cmd.item)
    rec = battle(state)
    rec = attrs.evolve(rec, smoke=rec.smoke + ((impact, item.radius, turns.total, unit.side),))
    text = (f"{unit.name} throws the {item.name} at {cmd.cell[0]},{cmd.cell[1]}: {landing.how.replace('_', ' ')} at "
            f"{impact[0]},{impact[1]}; smoke within {item.radius} squares for {turns.formula} turns")
    return [Resolved(actor=unit.id, action="throw", cell=impact, weapon=cmd.item, target=cmd.target,
                     rolls=tuple(landing.rolls) + (turns,), outcome=landing.how, text=text),
            changed(book, unit, thrower, "throws"), Noted(record=rec, cause="smoke")]


def thinned(state: State, side: str) -> list[Event]:
    """The end of `side`'s turn: its clouds have one turn fewer; a cloud at 0 clears."""
    rec = battle(state)
    if not any(s == side for *_, s in rec.smoke):
        return []
    left = tuple((c, r, n - 1 if s == side else n, s) for c, r, n, s in rec.smoke)
    cleared = [c for c, r, n, s in left if n <= 0]
    rec = attrs.evolve(rec, smoke=tuple(cl for cl in left if cl[2] > 0))
    words = "smoke thins" + (f"; the cloud at {', '.join(f'{c[0]},{c[1]}' for c in cleared)} clears" if cleared else "")
    return [Noted(record=rec, cause=words)]
