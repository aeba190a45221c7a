"""N-3.5 falling objects: a blast brings down what stands tall in its area, and what falls attacks like an explosion.

Interpretation for the game (docs/rules-notes.md): with `settings.falling` on, an explosion destroys every destructible
tile in its area that blocks sight (a wall, a tree: things tall enough to fall), which becomes its `destroyed` tile
(rubble, grass). Each one that falls is a falling object: one die against the AV of every creature in the 3 × 3 round
it (N-3.5's default area), with the cover between the creature and the fallen cell, and each hit goes to the save
(no weapon modifier), HP and critical like any other (§16–18). Old content has the setting off: its blasts leave the
map as it was.
"""

from __future__ import annotations

import attrs

from engine.core.dice import Dice
from engine.core.events import Event, Resolved, TileChanged
from engine.core.geometry import Pos
from engine.core.model import State
from engine.rules.neo_troops import battle, damage, ground, pools, shooting
from engine.rules.neo_troops.unit import Trooper


@attrs.frozen
class Fall:
    events: list[Event]  # the tiles changed, then one Resolved per fallen object that had anyone round it
    records: dict[str, Trooper]  # every creature's record after the falls (the blast's, passed in, carried on)


def falls(rs, state: State, area: frozenset[Pos]) -> list[Pos]:
    """The cells of `area` whose tile a blast brings down, in reading order."""
    if not rs.settings.falling:
        return []
    out = []
    for cell in sorted(area, key=lambda c: (c[1], c[0])):
        if not state.grid.inside(cell):
            continue
        tile = rs.content.terrain[state.grid.tile(cell)]
        if tile.destructible and tile.destroyed and not tile.transparent:
            out.append(cell)
    return out


def collapse(rs, state: State, actor: str, area: frozenset[Pos], records: dict[str, Trooper], dice: Dice) -> Fall:
    """The blast's area brought down: each falling object's die at each creature round it, after the blast's own."""
    fallen = falls(rs, state, area)
    if not fallen:
        return Fall([], records)
    grid = state.grid.with_tiles({c: rs.content.terrain[state.grid.tile(c)].destroyed for c in fallen})
    events: list[Event] = [TileChanged(pos=c, tile=grid.tile(c)) for c in fallen]
    records = dict(records)
    for cell in fallen:
        what = rs.content.terrain[state.grid.tile(cell)].name.lower()
        round_it = sorted((u for u in state.units.values() if u.pos in _round(cell) and u.record is not None
                           and records.get(u.id, u.record).status != "dead"), key=lambda u: u.id)
        if not round_it:
            continue
        targets = [ground.target_of(grid, cell, records.get(u.id, u.record), u.pos, rs.tables,
                                    stationary=battle.stationary(u)) for u in round_it]
        attacks = [pools.attack(dice, actor, f"falling on {x.id}", 1, (("base", 1),), x.av) for x in targets]
        rolls, said, struck = [a.roll for a in attacks], [], 0
        for u, a in zip(round_it, attacks):
            if not a.hits:
                continue
            struck += 1
            records.setdefault(u.id, u.record)
            after, hits = damage.apply(dice, {u.id: a.hits}, records, 0, rs.tables)
            records[u.id] = after[u.id]
            rolls += [r for h in hits for r in h.rolls]
            said += [f"{u.name}: {e}" for h in hits for e in h.effects]
        events.append(Resolved(actor=actor, action="falling", cell=cell, rolls=tuple(rolls), outcome=f"{struck} hit",
                               text=f"The {what} at {cell[0]},{cell[1]} comes down: {struck} of {len(round_it)} hit"
                                    + (f" ({'; '.join(said)})" if said else "")))
    return Fall(events, records)


def _round(cell: Pos) -> frozenset[Pos]:
    return shooting.area_cells(cell, 1)
