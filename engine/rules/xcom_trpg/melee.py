"""xcom-trpg 5.1 and 8.11: melee techniques — grab, escape, shove.

Reach is the same or the next cell. The attacker plays Strength; the target resists with the better of
Strength and Agility (it may twist away), or with Strength alone in arm wrestling (`option` /
scenario `mode` "arm_wrestling"). Both sides are luck-checked (3.2). A technique is the unit's roll
interaction: its turn ends. A critical success cannot be blocked and deals 5 concussion (8.5), except
in arm wrestling.

A grab holds the target until it escapes, its grabber falls or they are no longer within reach:
record fields `melee_held_by[grabber id]` on the held unit and `melee_holding[held id]` on the grabber.
A held unit cannot move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Act, Combo, Move, Rejected
from engine.content.models import Content
from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice
from engine.core.events import Event, Moved, Resolved
from engine.map.grid import NEIGHBOURS, Pos, distance
from engine.core.model import State, Unit, memo
from engine.core.ruleset import Option
from engine.core.reducer import fold
from engine.rules.xcom_trpg.combat import Hit, Outcome, concussion_taken, crit_floor, effective_stat
from engine.rules.xcom_trpg.contest import Contest, Side, opposed
from engine.rules.xcom_trpg import watch
from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.damage import Ledger, apply_crits, apply_hits

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

CRIT_CONCUSSION = 5  # 8.11
WRESTLING = "arm_wrestling"
VERB = {"grab": "grabs", "escape": "breaks free from", "shove": "shoves"}


def strength(unit: Unit) -> Side:
    return Side(unit.id, "strength", effective_stat(unit, "strength"), effective_stat(unit, "luck"))


def best(unit: Unit) -> Side:
    """The higher of Strength and Agility, when agility can help (5.1); Strength on a tie."""
    s, a = effective_stat(unit, "strength"), effective_stat(unit, "agility")
    return Side(unit.id, "agility" if a > s else "strength", max(s, a), effective_stat(unit, "luck"))


def holder(unit: Unit) -> str | None:
    return next((k for k, v in sorted(soldier(unit).melee_held_by.items()) if v), None)


def holding(state: State, unit: Unit) -> Unit | None:
    """Who holds the unit now: the grab lasts while the grabber is conscious and within reach."""
    if not memo(unit, _held, _held):  # no grip counter at all: nothing to sort and look up (every move asks)
        return None
    gid = holder(unit)
    grabber = state.units.get(gid or "")
    if grabber is None or not grabber.conscious or distance(grabber.pos, unit.pos) > 1:
        return None
    return grabber


def technique(content: Content, rules: RulesetDef, dice: Dice, kind: str, actor: Unit, target: Unit,
              wrestling: bool = False) -> tuple[Contest, Outcome | None]:
    """The contest and, on the attacker's crit success, its 5 concussion (none in arm wrestling)."""
    if kind == "escape":
        a, d = best(actor), strength(target)
    else:
        a, d = strength(actor), strength(target) if wrestling else best(target)
    contest = opposed(dice, rules, a, d, crit_min=crit_floor(content, rules, target),
                      purposes=(kind, f"resists {kind}"))
    hurt = None
    if contest.crits.get(actor.id) == ["success"] and not wrestling:
        hit = Hit(target.id, 0, concussion_taken(content, CRIT_CONCUSSION, target), "hit")
        hurt = Outcome([], [hit], "hit", "", {})
    return contest, hurt


def _settle(ledger: Ledger, rules: RulesetDef, actor: Unit, contest: Contest, hurt: Outcome | None) -> None:
    apply_crits(ledger, rules, contest.crits)
    if hurt is not None:
        apply_hits(ledger, rules, actor.id, hurt, pellets=False)


def _text(kind: str, actor: Unit, target: Unit, won: bool, hurt: Outcome | None) -> str:
    if won:
        text = f"{actor.name} {VERB[kind]} {target.name}"
        if hurt is not None:
            text += f" (critical: unblockable, {hurt.hits[0].concussion} concussion)"
        return text
    if kind == "grab":
        return f"{target.name} slips free"
    if kind == "escape":
        return f"{actor.name} stays in {target.name}'s grip"
    return f"{target.name} stands firm"


def release(ledger: Ledger, held: str, grabber: str, cause: str) -> None:
    ledger.keyed(held, cause, "melee_held_by", {grabber: None})
    ledger.keyed(grabber, cause, "melee_holding", {held: None})


def away_cells(rs: "XcomTrpg", state: State, actor: Unit, target: Unit) -> list[Pos]:
    """Free cells next to the target, further from the shover; straight away first."""
    here = distance(actor.pos, target.pos)
    cells = [(target.pos[0] + dx, target.pos[1] + dy) for dx, dy in NEIGHBOURS]
    step = rs._step_problem  # noqa: SLF001 - the ruleset's own rule of who may stand where
    cells = [c for c in cells if distance(actor.pos, c) > here and step(state, target, c) is None]
    dx, dy = target.pos[0] - actor.pos[0], target.pos[1] - actor.pos[1]
    return sorted(cells, key=lambda c: (abs(c[0] - target.pos[0] - dx) + abs(c[1] - target.pos[1] - dy), c))


# -- the game ---------------------------------------------------------------------------------------


def act(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    if cmd.action == "escape":
        target = holding(state, unit)
        if target is None:
            return Rejected("not_held", f"{unit.name} is not held by anyone")
    else:
        target = state.units.get(cmd.target or "")
        if target is None:
            return Rejected("no_target", f"Say whom to {cmd.action}")
        if target.side == unit.side:
            return Rejected("friendly", f"{target.name} is on your side")
        if not target.conscious:
            return Rejected("not_conscious", f"{target.name} is {target.status}")
        if distance(unit.pos, target.pos) > 1:
            return Rejected("out_of_reach", f"{target.name} is {distance(unit.pos, target.pos)} cells away: "
                                            "melee reaches the same or the next cell (8.11)")
    if cmd.action == "grab" and holding(state, target) is unit:
        return Rejected("already_held", f"{unit.name} already holds {target.name}")
    wrestling = cmd.option == WRESTLING
    if cmd.option not in (None, WRESTLING):
        return Rejected("bad_option", f"A {cmd.action} knows only the option {WRESTLING!r}")
    cell = None
    if cmd.action == "shove":
        choices = away_cells(rs, state, unit, target)
        cell = cmd.cell if cmd.cell is not None else (choices[0] if choices else None)
        if cell is None or cell not in choices:
            return Rejected("no_room", f"{target.name} cannot be shoved "
                                       + (f"to {cell[0]},{cell[1]}" if cell else "anywhere")
                                       + ": it must be a free cell next to it, away from " + unit.name)
    contest, hurt = technique(rs.content, rs.rules, dice, cmd.action, unit, target, wrestling)
    won = contest.attacker_wins
    ledger = Ledger(state.units)
    ledger.set(unit.id, cmd.action, actions=0)
    _settle(ledger, rs.rules, unit, contest, hurt)
    events: list[Event] = []
    if won and cmd.action == "grab":
        ledger.count(target.id, "melee_held_by", unit.id, f"held by {unit.name}")
        ledger.count(unit.id, "melee_holding", target.id, f"holds {target.name}")
    elif won and cmd.action == "escape":
        release(ledger, unit.id, target.id, f"breaks free from {target.name}")
    elif won and cmd.action == "shove" and cell is not None:
        events.append(Moved(unit=target.id, path=(cell,), facing=target.facing))
    resolved = Resolved(actor=unit.id, action=cmd.action, target=target.id, cell=cell, rolls=tuple(contest.rolls),
                        outcome="success" if won else "failure",
                        text=_text(cmd.action, unit, target, won, hurt))
    return [resolved, *ledger.events, *events]


def held_cannot_move(rs: "XcomTrpg", state: State, cmd: object) -> Rejected | None:
    if not isinstance(cmd, (Move, Combo)):
        return None
    unit = state.units.get(cmd.unit)
    grabber = holding(state, unit) if unit is not None else None
    if grabber is None:
        return None
    return Rejected("held", f"{unit.name} is held by {grabber.name} and cannot move: escape first (8.11)")


def _held(unit: Unit) -> bool:
    return bool(soldier(unit).melee_held_by)


def loose_grips(rs: "XcomTrpg", before: State, events: list[Event], dice: Dice) -> list[Event]:
    """A grab ends when the grabber falls or they are no longer within reach."""
    if not any(m & watch.HELD for _u, m in watch.marked(before)):
        return []
    now = fold(before, events)
    ledger = Ledger(now.units)
    for unit in now.units.values():
        gid = holder(unit)
        if gid is not None and (holding(now, unit) is None or not unit.conscious):
            release(ledger, unit.id, gid, "the grip is broken")
    return ledger.take()


def menu(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    if soldier(unit).actions < 1:
        return []
    out = []
    grabber = holding(state, unit)
    if grabber is not None:
        me, them = best(unit), strength(grabber)
        out.append(Option("Melee", f"Escape from {grabber.name}", Act(unit=unit.id, action="escape"),
                                note=f"{me.stat} {me.value} vs strength {them.value}"))
    mine = strength(unit)
    for t in state.units.values():
        if t.side == unit.side or not t.conscious or distance(unit.pos, t.pos) > 1:
            continue
        theirs = best(t)
        note = f"strength {mine.value} vs {theirs.stat} {theirs.value}"
        if holding(state, t) is not unit:
            out.append(Option("Melee", f"Grab {t.name}", Act(unit=unit.id, action="grab", target=t.id), note))
        cells = away_cells(rs, state, unit, t)
        if cells:
            c = cells[0]
            out.append(Option("Melee", f"Shove {t.name} to {c[0]},{c[1]}",
                                    Act(unit=unit.id, action="shove", target=t.id, cell=c), note))
    return out


# -- xenotac resolve --------------------------------------------------------------------------------
