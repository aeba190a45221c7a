"""A physical attack on the map (A-14.10): `Act("melee", target=…)` on an adjacent enemy. The attacker turns to it
(A-9.4, 1 TU a 45° step), pays 20% of its allowance, and the observers who beat its reaction score fire first
(A-14.9); then `d100 ≤ Acc_eff` strikes `Str + Wp` (Wp 0: the source lists no melee weapon) on the side the target
shows the attacker."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.annihilation import actions, attacks
from engine.rules.annihilation.combat import answered
from engine.rules.annihilation.moves import action_price, turn_price
from engine.rules.annihilation.soldier import changes, fighter_of
from engine.rules.annihilation.space import between, facing_towards

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


@attrs.frozen
class Plan:
    """What a strike at `target` costs and its odds, before any die."""

    target: Unit
    turn: int  # TU to face it
    tu: int  # the attack's 20%
    chance: int
    damage: int
    text: str


def plan(rs: Annihilation, state: State, unit: Unit, target_id: str | None) -> Rejected | Plan:
    target = state.units.get(target_id or "")
    if target is None or target.status == "dead" or target.id == unit.id:
        return Rejected("no_target", "No one to strike there")
    if not missions.hostile(unit.side, target.side):
        return Rejected("friendly", f"{target.name} is on {unit.name}'s side")
    if target.id not in rs.spotted(state, unit.side):
        return Rejected("no_line_of_sight", f"{unit.name} cannot see anyone there")
    if target.z != unit.z:
        return Rejected("out_of_reach", f"{target.name} is on another level")
    f = fighter_of(unit)
    if f.status != "awake":
        return Rejected("not_now", "An unconscious character cannot attack")
    strike = attacks.physical(rs.book, f, unit.pos, target.pos)
    if isinstance(strike, Rejected):
        spaces = between(rs.book.settings.grid, unit.pos, target.pos)
        return Rejected(strike.code, f"{strike.reason}: {target.name} is {spaces} "
                                     "spaces away")
    turn = turn_price(rs.book, unit.facing, facing_towards(unit.pos, target.pos, rs.book.settings.grid)).tu
    tu = action_price(rs.book, f, "physical_attack").tu
    if turn + tu > f.tu_left:
        return Rejected("no_tu", f"A physical attack costs {tu} TU" + (f" and {turn} to turn" if turn else "")
                        + f"; {unit.name} has {f.tu_left} left")
    return Plan(target, turn, tu, strike.chance, strike.damage, strike.text)


def melee(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    p = plan(rs, state, unit, cmd.target)
    if isinstance(p, Rejected):
        return p
    towards = facing_towards(unit.pos, p.target.pos, rs.book.settings.grid)
    f = attrs.evolve(fighter_of(unit), facing=towards, tu_left=unit.record.fighter.tu_left - p.turn)
    hurt, pre, down = answered(rs, state, dice, unit, attrs.evolve(f, tu_left=f.tu_left - p.tu), "striking",
                               "attack cancelled: put down by opportunity fire", spent=True)
    if down:  # step 4: put down first, the attack is cancelled and its TUs stay spent
        return pre
    f = attrs.evolve(hurt, tu_left=f.tu_left)
    now = fold(state, pre) if pre else state
    target = now.units[p.target.id]
    out = actions.punch(rs.book, dice, f, fighter_of(target), unit.pos, target.pos)
    if isinstance(out, Rejected):
        return out
    words = f": {out.lines[0]}" if out.lines else ""
    events = pre + [Resolved(actor=unit.id, action="melee", target=target.id, rolls=out.rolls,
                             outcome="hit" if out.hits else "miss",
                             text=f"{unit.name} strikes at {target.name} ({p.turn + p.tu} TU): "
                                  f"{'hit' if out.hits else 'miss'}{words}"),
                    UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, fighter=out.actor)),
                                cause="physical attack")]
    if out.target != target.record.fighter:
        events.append(UnitChanged(unit=target.id, changes=changes(target, attrs.evolve(target.record,
                                                                                       fighter=out.target)),
                                  cause="struck"))
    return events


def targets(rs: Annihilation, state: State, unit: Unit) -> list[Plan]:
    """The strikes the unit could make now, at the enemies it sees next to it."""
    near = [u for u in state.units.values() if u.status != "dead" and missions.hostile(unit.side, u.side)
            and between(rs.book.settings.grid, unit.pos, u.pos) <= rs.book.settings.physical_reach]
    found = [plan(rs, state, unit, u.id) for u in sorted(near, key=lambda u: u.id)]
    return [p for p in found if not isinstance(p, Rejected)]

