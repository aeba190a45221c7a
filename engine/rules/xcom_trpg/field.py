"""The battlefield beyond shooting: deployment by mission, doors, the power source, smoke, the
risen dead, and the mission's end (engine.missions).

Doors and the power source are `Act` commands: `Act(unit, "open" | "close" | "shut_down", cell=...)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Moved, PhaseStarted, Resolved, TileChanged, UnitChanged, UnitSpawned
from engine.map.grid import NEIGHBOURS, Pos, distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.xcom_trpg.combat import effective_stat
from engine.rules.xcom_trpg.contest import Side, versus_god
from engine.rules.xcom_trpg.damage import Ledger, apply_crits
from engine.rules.xcom_trpg.units import final_stats, spawn

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

FACING = {missions.PLAYER: 0, missions.ALIENS: 4}  # north for the squad, south for the aliens
ACTIONS = ("open", "close", "shut_down")


def deploy(rs: "XcomTrpg", dice: Dice) -> list[Event]:
    """Every unit of the mission's roster in its side's deployment zone; HP rolled in roster order."""
    assert rs.setup is not None
    mission, zones = rs.setup.mission, rs.setup.spawns
    level = missions.difficulty(rs.content, mission)
    events: list[Event] = []
    placed: dict[str, int] = {}
    for m in missions.roster(rs.content, mission):
        cells = zones.get(missions.deploy_zone(mission, m.side)) or zones.get(m.side) or zones["xcom"]
        i = placed.get(m.side, 0)
        placed[m.side] = i + 1
        stats = None
        if m.side == missions.ALIENS and level is not None and level.alien_stats:
            stats = _adjusted(rs, final_stats(rs.content, m.template), level.alien_stats)
        unit, rolls = spawn(rs.content, rs.rules, m.template, m.uid, m.name, m.side, cells[i % len(cells)],
                            FACING.get(m.side, 0), dice, stats=stats, psi=True)
        events.append(UnitSpawned(unit=unit, rolls=tuple(rolls)))
    return events


def _adjusted(rs: "XcomTrpg", stats: dict[str, int], bonus: dict[str, int]) -> dict[str, int]:
    rules = rs.rules
    return {k: max(rules.stat_minimums.get(k, rules.stat_min), v + bonus.get(k, 0)) for k, v in stats.items()}


# -- Act: doors and the power source -------------------------------------------------------------


def act(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001 - the ruleset's own check of whose turn it is
    if isinstance(unit, Rejected):
        return unit
    if cmd.cell is None:
        return Rejected("no_cell", f"Say which cell to {cmd.action.replace('_', ' ')}")
    if not state.grid.inside(cmd.cell):
        return Rejected("off_map", f"{cmd.cell} is off the map")
    if distance(unit.pos, cmd.cell) > 1:
        return Rejected("out_of_reach", f"{unit.name} must stand in or next to {cmd.cell[0]},{cmd.cell[1]}")
    if cmd.action == "shut_down":
        return _shut_down(rs, state, unit, cmd.cell, dice)
    return _door(rs, state, unit, cmd.action, cmd.cell)


def _door(rs: "XcomTrpg", state: State, unit: Unit, action: str, cell: Pos) -> Rejected | list[Event]:
    """Opening or closing takes one action and rolls nothing: it is no interaction (4.2)."""
    tile_id = state.grid.tile(cell)
    tile = rs.content.terrain[tile_id]
    new = tile.opens_to if action == "open" else tile.closes_to
    if not new:
        other_way = tile.closes_to if action == "open" else tile.opens_to
        why = ("already open" if action == "open" else "already closed") if other_way else "not a door"
        return Rejected("not_a_door", f"{tile.name} at {cell[0]},{cell[1]}: {why}")
    if action == "close" and state.units_at(cell):
        return Rejected("doorway_blocked", f"Someone stands in the doorway at {cell[0]},{cell[1]}")
    ledger = Ledger(state.units)
    ledger.set(unit.id, f"{action}s the {tile.name.lower()}", actions=unit.actions - 1)
    return [TileChanged(pos=cell, tile=new), *ledger.events]


def shut_down_objective(rs: "XcomTrpg", cell: Pos):
    if rs.setup is None:
        return None
    for o in missions.objectives(rs.setup.mission).values():
        if o.kind == "shut_down" and cell in rs.setup.spawns.get(o.zone, ()):
            return o
    return None


def _shut_down(rs: "XcomTrpg", state: State, unit: Unit, cell: Pos, dice: Dice) -> Rejected | list[Event]:
    """A special formula (4.7): the sum of the objective's stats ×1d100 against the god of random,
    luck-checked. It is the unit's roll interaction: its turn ends."""
    objective = shut_down_objective(rs, cell)
    tile = rs.content.terrain[state.grid.tile(cell)]
    if objective is None:
        return Rejected("nothing_to_shut_down", f"{tile.name} at {cell[0]},{cell[1]} is not this mission's objective")
    if state.grid.tile(cell) == objective.done_tile:
        return Rejected("already_done", f"The {tile.name.lower()} is already shut down")
    if unit.side != missions.PLAYER:
        return Rejected("not_yours", "Only the squad has reason to shut it down")
    value = sum(effective_stat(unit, s) for s in objective.stats)  # Str/3 at stamina 0, buffs (3.5)
    contest = versus_god(dice, rs.rules, Side(unit.id, "+".join(objective.stats), value, effective_stat(unit, "luck")))
    ledger = Ledger(state.units)
    ledger.set(unit.id, "works on the power source", actions=0)
    apply_crits(ledger, rs.rules, contest.crits)
    verb = "shuts down" if contest.attacker_wins else "fails to shut down"
    resolved = Resolved(actor=unit.id, action="shut_down", cell=cell, rolls=tuple(contest.rolls),
                        outcome="success" if contest.attacker_wins else "failure",
                        text=f"{unit.name} {verb} the {tile.name.lower()}")
    tiles = [TileChanged(pos=cell, tile=objective.done_tile)] if contest.attacker_wins else []
    return [resolved, *tiles, *ledger.events]


# -- after every command -------------------------------------------------------------------------


def after(rs: "XcomTrpg", state: State, events: list[Event]) -> list[Event]:
    """Smoke from blasts and smoke thinning at a phase's start, the dead rising, then the verdict."""
    fell = any(isinstance(e, UnitChanged) and "status" in e.changes for e in events)
    phase = any(isinstance(e, PhaseStarted) for e in events)
    blasts = [e for e in events if isinstance(e, Resolved) and e.cell is not None and e.weapon is not None
              and rs.content.weapons[e.weapon].smoke]
    watched = missions.watches(rs.setup.mission) if rs.setup else set()
    moved = "move" in watched and any(isinstance(e, Moved) for e in events)
    tiles = "tile" in watched and any(isinstance(e, TileChanged) for e in events)
    if not (fell or phase or blasts or moved or tiles):
        return []
    now = fold(state, events)
    extra: list[Event] = []
    for blast in blasts:
        extra += _smoke(rs, now, blast)
    if phase:
        extra += _thinning(rs, now)
    if fell:
        extra += _risen(rs, state, now, events)
    if extra:
        now = fold(now, extra)
    if now.winner is None and rs.setup is not None:
        found = missions.verdict(rs.content, rs.setup.mission, rs.setup.spawns, now)
        if found is not None:
            extra.append(MissionEnded(winner=found[0], reason=found[1]))
    return extra


def landing_cell(state: State, blast: Resolved) -> Pos | None:
    """Where a blast went off: the aimed cell, or its neighbour if the 1d8 scatter roll moved it (8.10)."""
    assert blast.cell is not None
    way = next((r for r in blast.rolls if r.purpose == "scatter"), None)
    if way is None:
        return blast.cell
    dx, dy = NEIGHBOURS[way.total - 1]
    cell = (blast.cell[0] + dx, blast.cell[1] + dy)
    return cell if state.grid.inside(cell) else None


def _smoke(rs: "XcomTrpg", state: State, blast: Resolved) -> list[Event]:
    """Smoke settles on open ground round the blast, where the ground is as the map began
    (it does not cover rubble, doorways or other smoke)."""
    weapon = rs.content.weapons[blast.weapon or ""]
    centre = landing_cell(state, blast)
    if centre is None or not weapon.smoke:
        return []
    grid = state.grid
    r = weapon.smoke_radius
    seen = grid.fov(centre, r + 1)  # tcod's radius stops short of the ring it names
    out = []
    for y in range(max(0, centre[1] - r), min(grid.height, centre[1] + r + 1)):
        for x in range(max(0, centre[0] - r), min(grid.width, centre[0] + r + 1)):
            if seen[y, x] and grid.walkable[y, x] and grid.transparent[y, x] and grid.tile((x, y)) == grid.original((x, y)):
                out.append(TileChanged(pos=(x, y), tile=weapon.smoke))
    return out


def _thinning(rs: "XcomTrpg", state: State) -> list[Event]:
    out = []
    for cell, tile in sorted(state.tiles_changed.items()):
        fade = rs.content.terrain[tile].fades_to
        if fade is not None:
            out.append(TileChanged(pos=cell, tile=fade or state.grid.original(cell)))
    return out


def _risen(rs: "XcomTrpg", before: State, now: State, events: list[Event]) -> list[Event]:
    """Victims of a faction that `converts` them rise where they fell, on the killer's side."""
    killer_id = next((e.actor for e in events if isinstance(e, Resolved)), None)
    killer = now.units.get(killer_id or "")
    if killer is None:
        return []
    template = rs.content.units.get(killer.template)
    converts = rs.content.factions[template.faction].converts if template else {}
    if not converts:
        return []
    out: list[Event] = []
    made: dict[str, int] = {}
    for uid, unit in now.units.items():
        was = before.units.get(uid)
        if was is None or was.status == "dead" or unit.status != "dead":
            continue
        victim = rs.content.units.get(unit.template)
        risen = converts.get(victim.faction) if victim else None
        if risen is None:
            continue
        made[risen] = made.get(risen, sum(u.template == risen for u in now.units.values())) + 1
        n = made[risen]
        name = f"{rs.content.units[risen].name} {n}"
        zombie, _rolls = spawn(rs.content, rs.rules, risen, f"{risen}_{n}", name, killer.side, unit.pos,
                               unit.facing, Dice(None, script=[]), hp=unit.hp_max)
        out.append(Resolved(actor=killer.id, action="convert", target=uid, rolls=(), outcome="risen",
                            text=f"{unit.name} rises as {name}"))
        out.append(UnitSpawned(unit=zombie))
    return out
