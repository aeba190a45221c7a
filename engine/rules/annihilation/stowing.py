"""Inventory moves in play (section 12), for the client's inventory screen (`Ruleset.inventory`):

- `Act("stow", option="<n>:<place>")` moves the n-th thing carried to a place at A-12.5's cost (between two places
  that are not hands: through a free hand, both moves paid); `floor` drops it (hand → floor 2), and a thing on the
  floor is picked up to a hand (floor → hand 8). Floor items are the unit's own square's and do not count in ENC;
  with settings `ground_items` they leave the kit for the square's ground (floor.py), listed here as Ground.
- `Act("unload", option="<n>")`: a clip-fed weapon in a hand gives its clip to the other, free hand (8 TU, two
  hands, A-12.6); `Reload` loads (A-12.5), and `Act("load", option="<n>")` loads the n-th thing carried (a clip, a
  cannon's shell clip of another type, a rocket: unloading first, A-16.2).
Observers who beat the unit's reaction score fire first (A-14.9). ENC is counted again at the next phase's start
(section 22, step 6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.ruleset import Inventory, Option, Row, Stowed
from engine.rules.annihilation import combat, floor, harness, inventory
from engine.rules.annihilation.combat import paid_answered
from engine.rules.annihilation.inventory import HANDS, Carried
from engine.rules.annihilation.moves import Price
from engine.rules.annihilation.soldier import changes, gun, loads

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

PLACES = ("right_hand", "left_hand", "both_hands", "strap_1", "strap_2", "both_straps", "shoulder_left",
          "shoulder_right", "leg_left", "leg_right", "belt", "backpack", "bag", "floor")
WORDS = {p: p.replace("_", " ").capitalize() for p in PLACES} | {"strap_1": "Strap 1", "strap_2": "Strap 2",
                                                                 "bag": "Strap bag"}


def thing(unit: Unit, option: str) -> tuple[int, Carried] | Rejected:
    number = option.partition(":")[0]
    kit = unit.record.kit
    if not number.isdigit() or int(number) >= len(kit):
        return Rejected("no_item", f"{unit.name} carries no item {number!r}")
    return int(number), kit[int(number)]


def stow_price(rs: Annihilation, unit: Unit, item: Carried, to: str) -> Rejected | Price:
    if to not in PLACES:
        return Rejected("bad_place", f"A place is one of {', '.join(PLACES)}")
    if to == item.place:
        return Rejected("same_place", f"It is already there: {WORDS[to].lower()}")
    rest = [c for c in unit.record.kit if c is not item]
    return inventory.move_price(rs.book, rest, item, to, unit.record.fighter.lost, unit.record.harness)


def stow(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    found = thing(unit, cmd.option or "")
    if isinstance(found, Rejected):
        return found
    n, item = found
    to = (cmd.option or "").partition(":")[2]
    cost = stow_price(rs, unit, item, to)
    if isinstance(cost, Rejected):
        return cost
    name = rs.name(item.id)
    return _paid(rs, state, dice, unit, cost, "handling its kit", attrs.evolve(item, place=to, gripped=()), n,
                 f"{unit.name} moves the {name} from {WORDS[item.place].lower()} to {WORDS[to].lower()} "
                 f"({cost.tu} TU: {cost.text.replace('_', ' ')})")


def grip_price(rs: Annihilation, unit: Unit, item: Carried) -> Rejected | tuple[Price, tuple[str, ...]]:
    """A-12.4: a hanging strapped item gripped (both hands for a two-handed or a size I/J weapon), or a gripped one
    let hang, 1 TU; and the hands it is held in after."""
    if item.gripped:
        got = inventory.grip(rs.book, list(unit.record.kit), item, ())
        return got if isinstance(got, Rejected) else (got, ())
    w = rs.book.weapons.get(item.id)
    both = w is not None and (w.hands == 2 or w.size in ("I", "J"))
    lost = unit.record.fighter.lost
    hands = tuple(h for h in HANDS if inventory.ARM_OF[h] not in lost)
    hands = hands if both else hands[:1]
    if (both and len(hands) < 2) or not hands:
        return Rejected("arm_lost", "Gripping it needs " + ("both hands" if both else "a hand"))
    got = inventory.grip(rs.book, list(unit.record.kit), item, hands)
    return got if isinstance(got, Rejected) else (got, hands)


def grip(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    found = thing(unit, cmd.option or "")
    if isinstance(found, Rejected):
        return found
    n, item = found
    got = grip_price(rs, unit, item)
    if isinstance(got, Rejected):
        return got
    cost, hands = got
    doing = "gripping its strapped kit" if hands else "letting its strapped kit hang"
    verb = "grips" if hands else "lets go of"
    return _paid(rs, state, dice, unit, cost, doing, attrs.evolve(item, gripped=hands), n,
                 f"{unit.name} {verb} the {rs.name(item.id)} on {WORDS[item.place].lower()} ({cost.tu} TU)")


def unload_price(rs: Annihilation, unit: Unit, item: Carried) -> Rejected | Price:
    w = rs.book.weapons.get(item.id)
    if w is None or w.feed != "clip":
        return Rejected("no_unload", f"The {rs.name(item.id)} has no clip to take out")
    if item.loaded is None:
        return Rejected("empty", f"The {w.name} holds no clip")
    if item.place not in HANDS + ("both_hands",):
        return Rejected("not_in_hand", "The weapon must be in a hand to unload it")
    rest = [c for c in unit.record.kit if c is not item]
    if item.place != "both_hands" and inventory.free_hand(rest + [item], unit.record.fighter.lost) is None:
        return Rejected("hands_full", "Unloading needs the other hand free for the clip (A-12.6)")
    if any(inventory.ARM_OF[h] in unit.record.fighter.lost for h in HANDS):
        return Rejected("arm_lost", "Unloading needs both hands (A-12.6)")
    return Price(rs.book.costs["unload"].tu, 0, "unload")


def unload(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    found = thing(unit, cmd.option or "")
    if isinstance(found, Rejected):
        return found
    n, item = found
    cost = unload_price(rs, unit, item)
    if isinstance(cost, Rejected):
        return cost
    held = "right_hand" if item.place == "both_hands" else item.place
    other = HANDS[1 - HANDS.index(held)]
    clip = Carried(item.loaded, inventory.size_of(rs.book, item.loaded), other, rounds=item.rounds)
    emptied = attrs.evolve(item, place=held, loaded=None, rounds=0)
    w = rs.book.weapons[item.id]
    return _paid(rs, state, dice, unit, cost, "unloading", emptied, n,
                 f"{unit.name} unloads the {w.name} ({cost.tu} TU): the clip, {item.rounds} rounds, in the "
                 f"{WORDS[other].lower()}", extra=clip)


def _paid(rs: Annihilation, state: State, dice: Dice, unit: Unit, cost: Price, doing: str, new: Carried, n: int,
          text: str, extra: Carried | None = None) -> Rejected | list[Event]:
    kit = list(unit.record.kit)
    kit[n] = new
    kit += [extra] if extra is not None else []
    return paid_answered(rs, state, dice, unit, cost, doing.capitalize(), doing,
                         f"{doing} cancelled: put down by opportunity fire", lambda f: [
                             Resolved(actor=unit.id, action="stow", rolls=(), outcome="done", text=text),
                             UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(
                                 unit.record, fighter=f, kit=tuple(kit))), cause=doing)])


def screen(rs: Annihilation, state: State, unit: Unit) -> Inventory:
    """The inventory screen's content: each thing carried, where, and every move it can make now at its price."""
    s, f = unit.record, unit.record.fighter
    total, relief, enc = inventory.encumbrance(rs.book, list(s.kit), f.character.armour, f.character.stats.strength)
    armour = rs.book.armour[f.character.armour]
    lines = (Row("ENC", f" {total} boxes (armour {armour.weight}) − relief {relief} = {enc}: TU {f.tu_turn} a turn "),
             Row("TU", f" {f.tu_left}/{f.tu_turn} "),
             Row("Harness", harness.words(rs, unit)))
    mine = rs._mine(state, unit)
    things = []
    for n, c in enumerate(s.kit):
        moves = []
        for to in PLACES if mine else ():
            price = stow_price(rs, unit, c, to)
            if not isinstance(price, Rejected):
                moves.append(Option(WORDS[to], f"→ {WORDS[to]} ({price.tu} TU{_short(price.tu, f.tu_left)})",
                                    Act(unit=unit.id, action="stow", option=f"{n}:{to}"),
                                    note=price.text.replace("_", " ")))
        held = grip_price(rs, unit, c) if mine and c.place in inventory.STRAPS else None
        if held is not None and not isinstance(held, Rejected):
            word = "Grip" if held[1] else "Let hang"
            moves.append(Option("Strap", f"{word} ({held[0].tu} TU{_short(held[0].tu, f.tu_left)})",
                                Act(unit=unit.id, action="grip", option=str(n)), note="A-12.4: grab or release"))
        if mine and not isinstance(unload_price(rs, unit, c), Rejected):
            tu = rs.book.costs["unload"].tu
            moves.append(Option("Weapon", f"Unload ({tu} TU{_short(tu, f.tu_left)})",
                                Act(unit=unit.id, action="unload", option=str(n)), note="A-12.6: two hands"))
        if mine and c is gun(s, rs.book):
            load = combat.reload_price(rs, unit)
            if not isinstance(load, Rejected):
                what = "a clip" if rs.book.weapons[c.id].feed == "clip" else rs.name(loads(rs.book, s, c)[0].id)
                moves.append(Option("Weapon", f"Load {what} ({load.tu} TU{_short(load.tu, f.tu_left)})",
                                    Act(unit=unit.id, action="load"), note=load.text))
        g = gun(s, rs.book) if mine else None
        if g is not None and c is not g and c in loads(rs.book, s, g):  # this round in particular
            load = combat.reload_price(rs, unit, c)
            if not isinstance(load, Rejected):
                moves.append(Option("Weapon", f"Load into the {rs.name(g.id)} ({load.tu} TU"
                                              f"{_short(load.tu, f.tu_left)})",
                                    Act(unit=unit.id, action="load", option=str(n)), note=load.text))
        things.append(Stowed(label=_label(rs, c), place=WORDS[c.place], size=c.size, moves=tuple(moves)))
    ground = floor.rows(rs, state, unit, mine, _label, _short)  # settings `ground_items`: the square's ground
    return Inventory(lines=lines, items=tuple(things) + ground + (_harness(rs, unit, mine),))


def _harness(rs: Annihilation, unit: Unit, mine: bool) -> Stowed:
    """The strap, gyro and pad system as a thing of its own: a turn's work at putting it on or taking it off."""
    s = unit.record
    need = harness.turns(rs, unit)
    verb = "Take it off" if s.harness else "Put it on"
    cost = harness.price(rs, unit) if mine else None
    moves = () if cost is None or isinstance(cost, Rejected) else (Option(
        "Harness", f"{verb}: a turn's work, {s.harness_work + 1} of {need} ({cost.tu} TU)",
        Act(unit=unit.id, action="harness"),
        note=f"A-12.3, section 11: {need} full turns, the whole allowance of each; the turns done are kept"),)
    return Stowed(label=f"Strap, gyro and pad system ({s.harness_work} of {need} turns done)" if s.harness_work
                  else "Strap, gyro and pad system", place="Worn" if s.harness else "Not worn", moves=moves)


def _short(tu: int, left: int) -> str:
    return "" if tu <= left else f", {left} left"


def _label(rs: Annihilation, c: Carried) -> str:
    name = rs.name(c.id)
    if c.id in rs.book.weapons:
        w = rs.book.weapons[c.id]
        if w.feed == "charges":
            return name
        return f"{name} {c.rounds}/{w.capacity}" + (f" ({rs.name(c.loaded)})" if c.rounds and w.feed != "clip"
                                                     else "")
    if c.id.startswith("clip:") or c.id in rs.book.ammo:
        return f"{name} ({c.rounds} round{'s' if c.rounds != 1 else ''})"
    if c.doses:
        return f"{name} (" + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in c.doses) + ")"
    return name + (" (primed)" if c.primed is not None else "")
