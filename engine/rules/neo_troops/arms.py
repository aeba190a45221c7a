"""§12–14 in play: switching weapons at the start of an action, dropping and picking them up, two weapons in hand.

`Act(unit, "swap", option=weapon)` puts the weapon in hand away and draws another (−1 attack die this action),
`"swap_drop"` drops it in the unit's cell instead (no die lost), `"draw"` draws a small weapon beside the one held
(no die lost); within a combination (§14) any of them is free. The drawn weapon is the one in use (`held[0]`); with
two `dual` weapons in hand a spray fires both (§12). A switch is free and does not end the action, but it is made
before anything else and once an action. `"pick_up"` (a Stationary action) takes a dropped weapon from the cell.
"""

from __future__ import annotations

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.neo_troops import actions, battle, loadout, shooting
from engine.rules.neo_troops.schema import Weapon
from engine.rules.neo_troops.unit import Part, Trooper

HOW_KIND = {"swap": "away", "swap_drop": "drop", "draw": "keep"}  # the action: how shooting.switch lets go


def carried(t: Trooper) -> list[str]:
    """The working weapons it carries, held or not, in its kit's order."""
    return [p.id for p in t.parts if p.kind == "weapon" and p.state != "destroyed"]


def pair(rs, t: Trooper) -> tuple[Weapon, Weapon] | None:
    """Two weapons in hand that spray together (N-12.2: both dual, neither BIG, neither snap-only)."""
    if len(t.held) != 2 or t.arms_lost:
        return None
    a, b = (rs.weapons[w] for w in t.held)
    if isinstance(shooting.two_weapons(a, b), Rejected) or a.snap_only or b.snap_only:
        return None
    return a, b


def _check(rs, unit: Unit, how: str, draw: str | None) -> Rejected | shooting.Switch:
    t: Trooper = unit.record
    if not (t.fresh and t.switch_dice is None):
        return Rejected("not_at_start", f"{unit.name} switches weapons only at the start of its action, once (N-13.2)")
    if not draw or draw not in carried(t):
        return Rejected("not_carried", f"{unit.name} carries no working {rs.name(draw or 'weapon')}")
    if draw in t.held:
        return Rejected("already_held", f"{unit.name} holds the {rs.name(draw)} already")
    if how == "draw" and t.arms_lost:
        return Rejected("one_arm", f"{unit.name} has lost an arm: one weapon in hand at most")
    return shooting.switch(t.held, draw, HOW_KIND[how], rs.weapons, t.combined)


def switch(rs, state: State, unit: Unit, how: str, draw: str | None, dice: Dice) -> Rejected | list[Event]:
    got = _check(rs, unit, how, draw)
    if isinstance(got, Rejected):
        return got
    t: Trooper = unit.record
    held = (draw,) + tuple(w for w in got.held if w != draw)  # the one drawn is the one in use
    after = attrs.evolve(t, held=held, switch_dice=got.dice)
    events: list[Event] = []
    let_go = got.dropped
    if let_go is not None:
        w = rs.weapons[let_go]
        after = attrs.evolve(after, parts=tuple(p for p in after.parts if p.id != let_go),
                             shots=tuple(s for s in after.shots if s[0] != let_go),
                             load_kg=max(0.0, after.load_kg - w.weight_kg))
        b = battle.battle(state)
        drop = battle.Dropped(weapon=let_go, cell=unit.pos, shots=loadout.shots_left(t, let_go))
        events.append(Noted(record=attrs.evolve(b, dropped=b.dropped + (drop,)), cause="drops a weapon"))
    before = " and ".join(rs.name(w) for w in t.held) or "nothing"
    verb = {"swap": f"puts the {before} away", "swap_drop": f"drops the {rs.name(let_go or '')}",
            "draw": f"keeps the {before}"}[how]
    cost = "−1 attack die this action" if got.dice else "no die lost"
    text = f"{unit.name} {verb} and draws the {rs.name(draw)} ({cost})"
    return [Resolved(actor=unit.id, action="switch", weapon=draw, rolls=(), outcome=how, text=text),
            *events, UnitChanged(unit=unit.id, changes={"record": after}, cause="switches weapons")]


def pick_up(rs, state: State, unit: Unit, weapon: str | None, dice: Dice) -> Rejected | list[Event]:
    """A Stationary action (N-13.2, "miscellaneous item"): a weapon dropped in the unit's cell, taken in hand."""
    why = actions.stationary(unit)
    if why is not None:
        return why
    b = battle.battle(state)
    found = next((d for d in b.dropped if d.weapon == weapon and tuple(d.cell) == tuple(unit.pos)), None)
    if found is None:
        return Rejected("nothing_here", f"No {rs.name(weapon or 'weapon')} lies in {unit.name}'s cell")
    t: Trooper = unit.record
    if t.part(found.weapon) is not None:
        return Rejected("has_one", f"{unit.name} carries a {rs.name(found.weapon)} already")
    w = rs.weapons[found.weapon]
    after = attrs.evolve(t, parts=t.parts + (Part(id=found.weapon, kind="weapon"),),
                         shots=t.shots + (((found.weapon, found.shots),) if not w.melee else ()),
                         held=(found.weapon,),  # what it held is put away: a Stationary action, no die to lose
                         load_kg=t.load_kg + w.weight_kg)
    rest = tuple(d for d in b.dropped if d is not found)
    events: list[Event] = [
        Resolved(actor=unit.id, action="pick_up", weapon=found.weapon, rolls=(), outcome="picked up",
                 text=f"{unit.name} picks up the {w.name}"),
        Noted(record=attrs.evolve(b, dropped=rest), cause="picks up a weapon"),
        UnitChanged(unit=unit.id, changes={"record": after}, cause="picks up")]
    return events + battle.end_slot(rs, state, events, dice, cause="picks up a weapon")


def options(rs, state: State, unit: Unit) -> list[Option]:
    """The switches it may make now, and the weapons it may pick up from its cell."""
    t: Trooper = unit.record
    out: list[Option] = []
    held = " + ".join(rs.name(w) for w in t.held) or "nothing"
    for wid in carried(t):
        for how, words in (("draw", f"Draw the {rs.name(wid)} beside the {held}"),
                           ("swap", f"Put the {held} away, draw the {rs.name(wid)}"),
                           ("swap_drop", f"Drop the {rs.name(t.held[-1]) if t.held else 'nothing'}, "
                                         f"draw the {rs.name(wid)}")):
            got = _check(rs, unit, how, wid)
            if isinstance(got, Rejected) or how == "swap_drop" and got.dropped is None:
                continue
            if how == "swap" and got.dice == 0 and got.dropped is None and len(t.held) == 1 \
                    and shooting.combination_of(t.held[0], t.combined) is not None:
                words = f"Switch to the {rs.name(wid)} (combined with the {held}: free)"
            note = ("free, at the start of the action: " + ("−1 attack die this action" if got.dice
                                                            else "no die lost") + " (N-13.2)")
            out.append(Option("Weapons", words, Act(unit=unit.id, action=how, option=wid), note))
    b = battle.battle(state)
    if actions.stationary(unit) is None and b is not None:
        for d in b.dropped:
            if tuple(d.cell) == tuple(unit.pos) and t.part(d.weapon) is None:
                out.append(Option("Weapons", f"Pick up the {rs.name(d.weapon)}",
                                  Act(unit=unit.id, action="pick_up", option=d.weapon),
                                  "Stationary: takes it in hand, ends the action"))
    return out


def ai_switch(rs, state: State, unit: Unit) -> Act | None:
    """The AI's free switches: a second dual weapon drawn beside the first (two weapons spray with more dice), the
    weapon of its combination with the most ROF ready (Lev's heavy plasma gun), and an empty weapon with no load
    left dropped for one that fires."""
    t: Trooper = unit.record
    if not t.held or not (t.fresh and t.switch_dice is None):
        return None
    main = rs.weapons[t.held[0]]
    ready = [w for w in carried(t) if w not in t.held and not rs.weapons[w].melee
             and loadout.shots_left(t, w) >= rs.weapons[w].rof]
    if len(t.held) == 1 and main.dual:
        for wid in ready:
            w = rs.weapons[wid]
            if w.dual and not w.snap_only and _free(rs, unit, "draw", wid):
                return Act(unit=unit.id, action="draw", option=wid)
    combo = shooting.combination_of(t.held[0], t.combined) or ()
    better = [w for w in ready if w in combo and rs.weapons[w].rof > main.rof]
    if better and _free(rs, unit, "swap", better[0]):
        return Act(unit=unit.id, action="swap", option=better[0])
    empty = loadout.shots_left(t, t.held[0]) < 1 and isinstance(loadout.load(t, t.held[0], rs.weapons), Rejected)
    if empty and not main.melee:
        loaded = [w for w in carried(t) if w not in t.held and loadout.shots_left(t, w) >= 1]
        if loaded and _free(rs, unit, "swap_drop", loaded[0]):
            return Act(unit=unit.id, action="swap_drop", option=loaded[0])
    return None


def _free(rs, unit: Unit, how: str, wid: str) -> bool:
    got = _check(rs, unit, how, wid)
    return not isinstance(got, Rejected) and got.dice == 0
