"""xcom-trpg explosives (8.10): how far a unit throws, a throw's checks, and an explosive landing: the throw roll,
scatter, the blast on everyone in the cell, a destroyed tile."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Rejected, Throw
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, TileChanged
from engine.core.model import State, Unit
from engine.map.grid import NEIGHBOURS, Pos, distance
from engine.rules.xcom_trpg import combat, scale, throw_preview
from engine.rules.xcom_trpg.checks import plain_roll
from engine.rules.xcom_trpg.damage import Ledger, apply_crits, apply_hits

from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.shooting import facing_towards
from engine.rules.xcom_trpg.tables import xcom

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg


def throw_range(rs: XcomTrpg, state: State, unit: Unit, item: str) -> int:
    weapon = xcom(rs.content).weapons[item]
    if weapon.throw_range is None:
        return 0
    stats = dict(soldier(unit).stats, strength=combat.effective_stat(unit, "strength"))
    return weapon.throw_range.evaluate(stats)[0]


def throw(rs: XcomTrpg, state: State, cmd: Throw, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)
    if isinstance(unit, Rejected):
        return unit
    problem = throw_preview.problem(rs, state, unit, cmd.item, cmd.cell)
    if problem is not None:
        return problem
    target = None
    if cmd.target is not None:
        target = state.units.get(cmd.target)
        if target is None or target.pos != cmd.cell or target.status == "dead":
            return Rejected("no_target", f"{cmd.target!r} is not standing at {cmd.cell}")
    return rs._explosive(state, unit, cmd.item, cmd.cell, target, dice)


def explosive(rs: XcomTrpg, state: State, thrower: Unit, weapon_id: str, cell: Pos, declared: Unit | None,
               dice: Dice) -> list[Event]:
    weapon = xcom(rs.content).weapons[weapon_id]
    roll = combat.throw_roll(rs.content, rs.rules, dice, thrower, weapon, declared)
    rolls = list(roll.rolls)
    text = f"{thrower.name}: {weapon.name.lower()} at {cell}"
    landed_on: Pos | None = cell
    if not roll.landed:
        way = plain_roll(dice, thrower.id, "scatter", 8, "scatter")
        rolls.append(way)
        dice.note(way, "it went astray: 1-8 = N, NE, E, SE, S, SW, W, NW of the aimed cell (8.10)")
        dx, dy = NEIGHBOURS[way.total - 1]
        landed_on = (cell[0] + dx, cell[1] + dy)
        text += f" goes astray to {landed_on}" if state.grid.inside(landed_on) else " flies off the map"
        if not state.grid.inside(landed_on):
            landed_on = None
    hits, blast_rolls, crits = [], [], dict(roll.crits)
    tiles: list[Event] = []
    if landed_on is not None:
        head = declared if roll.attack.crit == "success" else None
        victims = [(u, scale.between(rs.rules, distance(thrower.pos, u.pos)), rs.target_sees(state, u, thrower))
                   for u in state.units_at(landed_on)]
        hits, blast_rolls, more = combat.blast(rs.content, rs.rules, dice, thrower, weapon,
                                               roll if roll.landed else None, head, victims)
        for uid, kinds in more.items():
            crits.setdefault(uid, []).extend(kinds)
        tile = rs.content.terrain[state.grid.tile(landed_on)]
        if tile.destructible and tile.destroyed:
            tiles.append(TileChanged(pos=landed_on, tile=tile.destroyed))
        names = {u.id: u.name for u in state.units.values()}
        text += ": " + (", ".join(_hit_text(names[h.target], h) for h in hits) if hits else "nobody hurt")
    outcome = combat.Outcome(rolls + blast_rolls, hits, "hit" if hits else "miss", text, crits)
    ledger = Ledger(state.units)
    if not weapon.thrown:
        ledger.set(thrower.id, f"fires the {weapon.name.lower()}", ammo=soldier(thrower).ammo - 1, actions=0,
                   facing=facing_towards(thrower.pos, cell))
    else:
        items = dict(thrower.items)
        items[weapon_id] -= 1
        ledger.set(thrower.id, f"throws a {weapon.name.lower()}", items={k: v for k, v in items.items() if v},
                   actions=0, facing=facing_towards(thrower.pos, cell))
    apply_crits(ledger, rs.rules, outcome.crits)
    apply_hits(ledger, rs.rules, thrower.id, outcome, pellets=False)
    resolved = Resolved(actor=thrower.id, action="throw" if weapon.thrown else "shoot",
                        target=declared.id if declared else None, cell=cell, weapon=weapon_id,
                        mode="single", rolls=tuple(outcome.rolls), outcome=outcome.verdict, text=text)
    return [resolved, *tiles, *ledger.events]


def _hit_text(name: str, hit: combat.Hit) -> str:
    if hit.kind == "kill":
        return f"{name} killed by a head-strike"
    text = f"{name} {hit.damage} dmg"
    if hit.concussion:
        text += f" +{hit.concussion} concussion"
    if hit.kind not in ("hit",):
        text += f" ({hit.kind})"
    return text
