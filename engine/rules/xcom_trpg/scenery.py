"""xcom-trpg 4.4 and 4.7: passive movement, taking an item, and special formulas (item search: search.py).

- `Act(helper, "carry", target=<unit>, cell=<adjacent cell>)`: both move there; the helper's turn ends.
- `Act(unit, "take", target=<unit>, option=<item>)`: a friend or a senseless unit hands it over;
  a conscious hostile resists: Strength against max(Strength, Agility), luck-checked, ends the turn.
- `Act(unit, "special", option=<formula id>)`: next to the formula's zone, (sum of its stats)*1d100
  against the god of random, luck-checked, ends the turn; a success counts `special[<id>]` on its record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING


from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.content.models import Content
from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Moved, Resolved
from engine.map.grid import NEIGHBOURS, Pos, distance
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xcom_trpg.combat import effective_stat
from engine.rules.xcom_trpg.contest import Contest, Side, opposed, versus_god
from engine.rules.xcom_trpg.damage import Ledger, apply_crits
from engine.content.scenario import Verdict
from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.tables import xcom

if TYPE_CHECKING:
    from engine.rules.xcom_trpg.scenario import Action
    from engine.rules.xcom_trpg import XcomTrpg


def _facing(a: Pos, b: Pos) -> int:
    return NEIGHBOURS.index((b[0] - a[0], b[1] - a[1]))


# -- passive movement (4.4) ---------------------------------------------------------------------------


def carry(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    helper = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(helper, Rejected):
        return helper
    if cmd.targets:
        return Rejected("one_at_a_time", f"{helper.name} can move one character at a time (4.4)")
    target = state.units.get(cmd.target or "")
    if target is None or target.id == helper.id or target.status == "dead":
        return Rejected("no_target", "Say whom to help along")
    if missions.hostile(helper.side, target.side):
        return Rejected("hostile", f"{target.name} is hostile: grab them instead")
    if target.pos != helper.pos:
        return Rejected("not_together", f"{helper.name} must stand in {target.name}'s cell (4.4)")
    if cmd.cell is None or distance(helper.pos, cmd.cell) != 1:
        return Rejected("not_adjacent", "Passive movement goes to an adjacent cell")
    for unit in (helper, target):
        problem = rs._step_problem(state, unit, cmd.cell)  # noqa: SLF001
        if problem:
            return Rejected("blocked", problem[0].upper() + problem[1:])
    facing = _facing(helper.pos, cmd.cell)
    ledger = Ledger(state.units)
    ledger.set(helper.id, f"helps {target.name} along: the turn ends (4.4)", actions=0, moved=True)
    text = f"{helper.name} helps {target.name} to {cmd.cell[0]},{cmd.cell[1]}"
    return [Resolved(actor=helper.id, action="carry", target=target.id, cell=cmd.cell, rolls=(), outcome="moved",
                     text=text),
            Moved(unit=helper.id, path=(cmd.cell,), facing=facing),
            Moved(unit=target.id, path=(cmd.cell,), facing=facing), *ledger.events]


def take(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    other = state.units.get(cmd.target or "")
    if other is None or other.id == unit.id:
        return Rejected("no_target", "Say whom to take it from")
    if distance(unit.pos, other.pos) > 1:
        return Rejected("out_of_reach", f"{other.name} is not in the same or the next cell")
    item = cmd.option or ""
    if other.items.get(item, 0) <= 0:
        return Rejected("no_item", f"{other.name} carries no {item or 'such item'}")
    ledger = Ledger(state.units)
    rolls: tuple[Roll, ...] = ()
    resists = missions.hostile(unit.side, other.side) and other.conscious
    won = True
    if resists:  # 4.4: "an attempt to take the bucket" is a Strength interaction
        best = max(("strength", "agility"), key=lambda s: effective_stat(other, s))
        contest: Contest = opposed(dice, rs.rules, Side(unit.id, "strength", effective_stat(unit, "strength"),
                                                        effective_stat(unit, "luck")),
                                   Side(other.id, best, effective_stat(other, best), effective_stat(other, "luck")))
        rolls, won = tuple(contest.rolls), contest.attacker_wins
        apply_crits(ledger, rs.rules, contest.crits)
    ledger.set(unit.id, "tries to take an item" if resists else "takes an item",
               actions=0 if resists else soldier(unit).actions - 1)
    if won:
        theirs = dict(other.items)
        theirs[item] -= 1
        ledger.set(other.id, f"{unit.name} takes the {item}", items={k: v for k, v in theirs.items() if v})
        ledger.set(unit.id, f"takes the {item}", items=dict(unit.items, **{item: unit.items.get(item, 0) + 1}))
    text = f"{unit.name} {'takes' if won else 'fails to take'} {other.name}'s {item}"
    return [Resolved(actor=unit.id, action="take", target=other.id, rolls=rolls,
                     outcome="success" if won else "failure", text=text), *ledger.events]


# -- special formulas (4.7) -----------------------------------------------------------------------------


def special_contest(dice: Dice, rules: RulesetDef, unit: Unit, stats: list[str]) -> Contest:
    value = sum(effective_stat(unit, s) for s in stats)
    return versus_god(dice, rules, Side(unit.id, "+".join(stats), value, effective_stat(unit, "luck")))


def formulas_near(rs: "XcomTrpg", pos: Pos) -> list[str]:
    if rs.setup is None:
        return []
    return [fid for fid, f in rs.setup.mission.formulas.items()
            if any(distance(pos, c) <= 1 for c in rs.setup.spawns.get(f.zone, ()))]


def special(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    formulas = rs.setup.mission.formulas if rs.setup else {}
    formula = formulas.get(cmd.option or "")
    if formula is None:
        return Rejected("unknown_formula", f"This mission has no special formula {cmd.option!r}"
                        + (f"; it has {', '.join(formulas)}" if formulas else ""))
    if cmd.option not in formulas_near(rs, unit.pos):
        return Rejected("out_of_reach", f"{unit.name} must stand at the {formula.zone} to {formula.text.lower()}")
    contest = special_contest(dice, rs.rules, unit, formula.stats)
    assert rs.setup is not None
    dice.note(contest.rolls[0], f"missions [{rs.setup.mission_id}].formulas.{cmd.option}.stats (4.7), luck-checked")
    ledger = Ledger(state.units)
    ledger.set(unit.id, f"{formula.text.lower()}: the turn ends (4.2)", actions=0)
    apply_crits(ledger, rs.rules, contest.crits)
    if contest.attacker_wins:
        ledger.count(unit.id, "special", cmd.option, f"{formula.text}: done")
    verb = "succeeds" if contest.attacker_wins else "fails"
    return [Resolved(actor=unit.id, action="special", rolls=tuple(contest.rolls),
                     outcome="success" if contest.attacker_wins else "failure",
                     text=f"{unit.name}: {formula.text} — {verb}"), *ledger.events]


# -- the action menu ---------------------------------------------------------------------------------


def options(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    out: list[Option] = []
    if soldier(unit).actions < 1:
        return out
    for friend in state.units_at(unit.pos):
        if friend.id == unit.id or missions.hostile(unit.side, friend.side):
            continue
        for dx, dy in NEIGHBOURS:
            cell = (unit.pos[0] + dx, unit.pos[1] + dy)
            if rs._step_problem(state, unit, cell) is None and rs._step_problem(state, friend, cell) is None:  # noqa: SLF001
                out.append(Option(group="Move", label=f"Help {friend.name} to {cell[0]},{cell[1]}",
                                        command=Act(unit=unit.id, action="carry", target=friend.id, cell=cell),
                                        note="both move one cell; ends your turn (4.4)"))
    for other in state.units.values():
        if other.id == unit.id or other.status == "dead" or distance(unit.pos, other.pos) > 1:
            continue
        resists = missions.hostile(unit.side, other.side) and other.conscious
        for item, n in sorted(other.items.items()):
            if n > 0:
                name = (xcom(rs.content).items.get(item) or xcom(rs.content).weapons.get(item)).name.lower()
                out.append(Option(group="Items", label=f"Take {other.name}'s {name}",
                                        command=Act(unit=unit.id, action="take", target=other.id, option=item),
                                        note="a Strength contest; ends your turn (4.4)" if resists
                                        else "handed over: 1 action"))
    for fid in formulas_near(rs, unit.pos):
        assert rs.setup is not None
        f = rs.setup.mission.formulas[fid]
        out.append(Option(group="Scenery", label=f.text, command=Act(unit=unit.id, action="special", option=fid),
                                note=f"({'+'.join(f.stats)})*1d100 vs the god of random; ends your turn (4.7)"))
    return out


# -- referees ------------------------------------------------------------------------------------------


def special_referee(content: Content, rules: RulesetDef, units: dict[str, Unit], action: Action,
                    dice: Dice) -> Verdict:
    unit = units[action.actor]
    stats = action.stats or ["intelligence"]
    contest = special_contest(dice, rules, unit, stats)
    ledger = Ledger(units)
    apply_crits(ledger, rules, contest.crits)
    verb = "succeeds" if contest.attacker_wins else "fails"
    return Verdict(contest.rolls, units, ledger.changes, f"{unit.name}: ({'+'.join(stats)}) special formula {verb}")


