"""Mission mechanics every ruleset shares: where units deploy, what a door becomes, where smoke settles and how it
thins, which of the fallen rise (a faction that `converts` its victims), and the verdict after a command.

What these cost and roll (an action, 4 AP, 8 TU) is each ruleset's; what they do to the map and the roster is the
mission's, and lives here once, so neither a ruleset nor the `map` preview copies it.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from engine.content import missions
from engine.content.models import Content, Mission
from engine.core.events import Event, MissionEnded, Moved, PhaseStarted, Resolved, TileChanged, UnitChanged, UnitSpawned
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.reducer import fold

FACING = {missions.PLAYER: 0, missions.ALIENS: 4}  # north for the squad, south for the aliens


def placements(members: list[missions.Member], mission: Mission, zones: dict) -> list[tuple[missions.Member, Pos]]:
    """Where each member of the ruleset's roster deploys: the i-th of a side takes the i-th cell of its zone."""
    out, placed = [], {}
    for m in members:
        cells = zones.get(missions.deploy_zone(mission, m.side)) or zones.get(m.side) or zones[missions.PLAYER]
        i = placed.get(m.side, 0)
        placed[m.side] = i + 1
        out.append((m, cells[i % len(cells)]))
    return out


def sight(state: State, side: str, radius: int) -> np.ndarray:
    """The cells a side sees by line of sight: the union of its conscious units' fields of view. Read-only."""
    return state.grid.seen_from(frozenset(u.pos for u in state.units.values() if u.side == side and u.conscious),
                                radius)


def in_cells(state: State, side: str, seen: np.ndarray) -> frozenset[str]:
    """The other sides' units standing in seen cells: sighting for a ruleset that has no hiding."""
    return frozenset(u.id for u in state.units.values() if u.side != side and seen[u.pos[1], u.pos[0]])


def door(content: Content, state: State, cell: Pos, action: str, z: int = 0) -> str:
    """The tile an open or close makes of the one at `cell` (on storey z); raises ValueError with the reason it
    cannot."""
    grid = state.grid.level(z)
    tile = grid.terrain[grid.tile(cell)]  # a storey's own tiles (ladder, roof, air) are the grid's
    new = tile.opens_to if action == "open" else tile.closes_to
    if not new and tile.unlocks_to:
        raise ValueError(f"{tile.name} at {cell[0]},{cell[1]}: locked; it must be picked or broken")
    if not new:
        other_way = tile.closes_to if action == "open" else tile.opens_to
        why = ("already open" if action == "open" else "already closed") if other_way else "not a door"
        raise ValueError(f"{tile.name} at {cell[0]},{cell[1]}: {why}")
    if action == "close" and state.units_at(cell, z):
        raise ValueError(f"Someone stands in the doorway at {cell[0]},{cell[1]}")
    return new


def smoke(state: State, centre: Pos, radius: int, tile: str) -> list[Event]:
    """Smoke settles on open ground in sight of the blast, where the ground is as the map began (it does not
    cover rubble, doorways or other smoke)."""
    grid = state.grid
    seen = grid.fov(centre, radius + 1)  # tcod's radius stops short of the ring it names
    out: list[Event] = []
    for y in range(max(0, centre[1] - radius), min(grid.height, centre[1] + radius + 1)):
        for x in range(max(0, centre[0] - radius), min(grid.width, centre[0] + radius + 1)):
            if seen[y, x] and grid.walkable[y, x] and grid.transparent[y, x] and grid.tile((x, y)) == grid.original((x, y)):
                out.append(TileChanged(pos=(x, y), tile=tile))
    return out


def thinning(content: Content, state: State) -> list[Event]:
    """At a phase's start every fading tile (smoke) becomes what it fades to, or the map's own tile."""
    out: list[Event] = []
    for cell, tile in sorted(state.tiles_changed.items()):
        fade = content.terrain[tile].fades_to
        if fade is not None:
            out.append(TileChanged(pos=cell, tile=fade or state.grid.original(cell)))
    return out


Raise = Callable[[str, str, str, str, Unit, Unit], Unit]  # (template, uid, name, side, victim, killer) -> the risen
Kin = Callable[[str], "tuple[str, str] | None"]  # a unit template -> (its faction, its name), None if unknown


def risen(content: Content, before: State, now: State, events: list[Event], make: Raise, kin: Kin) -> list[Event]:
    """Victims of a faction that `converts` them rise where they fell, on the killer's side; the ruleset says
    whose faction a template is (`kin`, from its own unit table) and makes the new unit (`make`), since a unit's
    numbers are its own."""
    killer_id = next((e.actor for e in events if isinstance(e, Resolved)), None)
    killer = now.units.get(killer_id or "")
    if killer is None:
        return []
    template = kin(killer.template)
    converts = content.factions[template[0]].converts if template else {}
    if not converts:
        return []
    out: list[Event] = []
    made: dict[str, int] = {}
    for uid, unit in now.units.items():
        was = before.units.get(uid)
        if was is None or was.status == "dead" or unit.status != "dead":
            continue
        victim = kin(unit.template)
        rises_as = converts.get(victim[0]) if victim else None
        if rises_as is None:
            continue
        made[rises_as] = made.get(rises_as, sum(u.template == rises_as for u in now.units.values())) + 1
        n = made[rises_as]
        name = f"{kin(rises_as)[1]} {n}"
        zombie = make(rises_as, f"{rises_as}_{n}", name, killer.side, unit, killer)
        out.append(Resolved(actor=killer.id, action="convert", target=uid, rolls=(), outcome="risen",
                            text=f"{unit.name} rises as {name}"))
        out.append(UnitSpawned(unit=zombie))
    return out


SmokeOf = Callable[[State, Resolved], "tuple[Pos, int, str] | None"]  # a blast -> (centre, radius, tile), or None


def after(content: Content, mission: Mission | None, spawns: dict, state: State, events: list[Event],
          smoke_of: SmokeOf, make: Raise, kin: Kin) -> list[Event]:
    """After a command: smoke from blasts, smoke thinning at a phase's start, the dead rising, then the verdict."""
    fell = phase = moved = tiles = False
    clouds = []
    for e in events:  # one look at each event (this runs after every command)
        if isinstance(e, UnitChanged):
            fell = fell or "status" in e.changes
        elif isinstance(e, Moved):
            moved = True
        elif isinstance(e, PhaseStarted):
            phase = True
        elif isinstance(e, TileChanged):
            tiles = True
        elif isinstance(e, Resolved):
            cloud = smoke_of(state, e)
            if cloud is not None:
                clouds.append(cloud)
    if (moved or tiles) and not (fell or phase or clouds):
        watched = missions.watches(mission) if mission else set()
        moved, tiles = moved and "move" in watched, tiles and "tile" in watched
    if not (fell or phase or clouds or moved or tiles):
        return []
    now = fold(state, events)
    extra: list[Event] = []
    for cloud in clouds:
        extra += smoke(now, *cloud)
    if phase:
        extra += thinning(content, now)
    if fell:
        extra += risen(content, state, now, events, make, kin)
    if extra:
        now = fold(now, extra)
    if now.winner is None and mission is not None:
        found = missions.verdict(content, mission, spawns, now)
        if found is not None:
            extra.append(MissionEnded(winner=found[0], reason=found[1]))
    return extra
