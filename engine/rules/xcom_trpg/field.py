"""xcom-trpg on the battlefield beyond shooting: what deploying, doors, the power source, smoke and the
risen dead cost and roll here; what they do to the map is shared (engine.content.field).

Doors and the power source are `Act` commands: `Act(unit, "open" | "close" | "shut_down", cell=...)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content import field as shared
from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, TileChanged, UnitSpawned
from engine.map.grid import NEIGHBOURS, Pos, distance
from engine.core.model import State, Unit
from engine.rules.xcom_trpg.combat import effective_stat
from engine.rules.xcom_trpg.contest import Side, versus_god
from engine.rules.xcom_trpg import episode
from engine.rules.xcom_trpg.damage import Ledger, apply_crits
from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.units import final_stats, spawn
from engine.rules.xcom_trpg.tables import xcom

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

ACTIONS = ("open", "close", "shut_down")


def deploy(rs: "XcomTrpg", dice: Dice) -> list[Event]:
    """Every unit of the mission's roster in its side's deployment zone; HP rolled in roster order."""
    assert rs.setup is not None
    mission = rs.setup.mission
    level = missions.difficulty(rs.content, mission)
    events: list[Event] = []
    for m, cell in shared.placements(rs.roster(rs.setup.mission_id), mission, rs.setup.spawns):
        stats = None
        if m.side == missions.ALIENS and level is not None and level.alien_stats:
            stats = _adjusted(rs, final_stats(rs.content, m.template), level.alien_stats)
        unit, rolls = spawn(rs.content, rs.rules, m.template, m.uid, m.name, m.side, cell,
                            shared.FACING.get(m.side, 0), dice, stats=stats, psi=True)
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
    try:
        new = shared.door(rs.content, state, cell, action)
    except ValueError as why:
        code = "doorway_blocked" if "doorway" in str(why) else "not_a_door"
        return Rejected(code, str(why))
    ledger = Ledger(state.units)
    ground = rs.content.terrain[state.grid.tile(cell)].name.lower()
    ledger.set(unit.id, f"{action}s the {ground}", actions=soldier(unit).actions - 1)
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
    """Smoke from blasts and smoke thinning at a phase's start, the dead rising, then the verdict (shared), held
    for the extra turns of the episode's end (episode.py)."""
    mission, spawns = (rs.setup.mission, rs.setup.spawns) if rs.setup else (None, {})
    found = shared.after(rs.content, mission, spawns, state, events, lambda now, e: _smoke_of(rs, now, e),
                         lambda *who: _zombie(rs, *who), lambda template: _kin(rs, template))
    return episode.held(rs, state, events, found)  # 4.8: extra turns after the main objectives


def _kin(rs: "XcomTrpg", template: str) -> tuple[str, str] | None:
    t = xcom(rs.content).units.get(template)
    return (t.faction, t.name) if t is not None else None


def landing_cell(state: State, blast: Resolved) -> Pos | None:
    """Where a blast went off: the aimed cell, or its neighbour if the 1d8 scatter roll moved it (8.10)."""
    assert blast.cell is not None
    way = next((r for r in blast.rolls if r.purpose == "scatter"), None)
    if way is None:
        return blast.cell
    dx, dy = NEIGHBOURS[way.total - 1]
    cell = (blast.cell[0] + dx, blast.cell[1] + dy)
    return cell if state.grid.inside(cell) else None


def _smoke_of(rs: "XcomTrpg", state: State, blast: Resolved) -> tuple[Pos, int, str] | None:
    """A smoke grenade's cloud: where it landed, its radius and the smoke tile."""
    weapon = xcom(rs.content).weapons.get(blast.weapon or "") if blast.cell is not None else None
    if weapon is None or not weapon.smoke:
        return None
    centre = landing_cell(state, blast)
    return None if centre is None else (centre, weapon.smoke_radius, weapon.smoke)


def _zombie(rs: "XcomTrpg", template: str, uid: str, name: str, side: str, victim: Unit, killer: Unit) -> Unit:
    zombie, _rolls = spawn(rs.content, rs.rules, template, uid, name, side, victim.pos, victim.facing,
                           Dice(None, script=[]), hp=victim.hp_max)
    return zombie
