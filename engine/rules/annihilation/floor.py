"""Things lying on the map apart from any unit (settings `ground_items`; A-12.2: "floor (the unit's own square)").
After a command, what a unit put on the floor (hand → floor, 2 TU), what its hands let go of (letgo.py), the round a
reload took out, and a dead unit's whole kit leave it and lie on its square's ground (`Field.ground`); they stay
there when it walks on. Whoever stands on that square picks one up into a free hand (both for a size above the
hand's limit) at floor → hand (A-12.5, 8 TU): `Act("pick_up", option="<k>")`, k the thing's number on the ground.
A primed grenade stays in its holder's kit (fuses.py sets it off there). Without the setting the floor is a place
of the unit's own kit and travels with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import Mark, Option, Stowed
from engine.rules.annihilation import inventory
from engine.rules.annihilation.board import Dropped, field_of
from engine.rules.annihilation.combat import answered
from engine.rules.annihilation.inventory import HANDS, Carried
from engine.rules.annihilation.moves import Price, pay
from engine.rules.annihilation.schema import SIZES
from engine.rules.annihilation.soldier import Soldier, changes, fighter_of

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

PICK = "pick_up"
MARK = ("*", "#e0c060")


def _falls(c: Carried, dead: bool) -> bool:
    return c.primed is None and (dead or c.place == "floor")


def settle(rs: Annihilation, state: State, events: list[Event]) -> list[Event]:
    """After a command: every unit it changed lets what lies on its floor (all it has, if dead) down on its square,
    in unit order, the ground keeping the order things were put down in."""
    if not rs.book.settings.ground_items:
        return []
    touched = sorted({e.unit for e in events if isinstance(e, UnitChanged)})
    if not touched:
        return []
    now = fold(state, events)
    out: list[Event] = []
    laid: list[Dropped] = []
    for uid in touched:
        u = now.units.get(uid)
        if u is None or not isinstance(u.record, Soldier):
            continue
        dead = u.record.fighter.status == "dead"
        down = [c for c in u.record.kit if _falls(c, dead)]
        if not down:
            continue
        keep = tuple(c for c in u.record.kit if not _falls(c, dead))
        out.append(UnitChanged(unit=uid, changes=changes(u, attrs.evolve(u.record, kit=keep)),
                               cause="its kit falls to the ground (dead)" if dead else "leaves it on the ground"))
        laid += [Dropped(u.pos, u.z, attrs.evolve(c, place="floor", gripped=())) for c in down]
    if not laid:
        return out
    f = field_of(now)
    names = ", ".join(rs.name(d.item.id) for d in laid)
    return out + [Noted(record=attrs.evolve(f, ground=f.ground + tuple(laid)), cause=f"on the ground: {names}")]


def here(state: State, unit: Unit) -> list[tuple[int, Dropped]]:
    """The things on the unit's square and storey, with their numbers on the ground."""
    return [(k, d) for k, d in enumerate(field_of(state).ground) if d.cell == unit.pos and d.z == unit.z]


def _hold(rs: Annihilation, unit: Unit, item: Carried) -> Rejected | tuple[Price, Carried]:
    """A-12.3, A-12.5: into the free hand (both, for a thing above the hand's size) at floor → hand."""
    kit, lost = list(unit.record.kit), unit.record.fighter.lost
    if SIZES.index(item.size) > SIZES.index(rs.book.settings.hand_size_max):
        held = attrs.evolve(item, place="both_hands")
    else:
        hand = inventory.free_hand(kit, lost)
        held = attrs.evolve(item, place=hand or HANDS[0])
    bad = inventory.fits(rs.book, kit, held, lost, unit.record.harness)
    if bad is not None:
        return Rejected("hands_full", "Picking it up needs a free hand" + ("s" if held.place == "both_hands" else "")
                        + f" ({bad.reason})")
    return Price(rs.book.costs["floor_to_hand"].tu, 0, "floor_to_hand"), held


def pick_up(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    if not rs.book.settings.ground_items:
        return Rejected("unknown_action", "Nothing lies on the map apart from a unit in this content")
    number = cmd.option or ""
    found = dict(here(state, unit)).get(int(number)) if number.isdigit() else None
    if found is None:
        return Rejected("nothing_there", f"Nothing numbered {number!r} lies on {unit.name}'s square")
    got = _hold(rs, unit, found.item)
    if isinstance(got, Rejected):
        return got
    cost, held = got
    name = rs.name(held.id)
    f = pay(fighter_of(unit), cost, f"Picking up the {name}")
    if isinstance(f, Rejected):
        return f
    f, pre, down = answered(rs, state, dice, unit, f, "picking up", "picking up cancelled: put down by opportunity "
                                                                      "fire")
    if down:
        return pre
    field = field_of(fold(state, pre))
    left = tuple(d for k, d in enumerate(field.ground) if k != int(number))
    word = held.place.replace('_', ' ')
    text = f"{unit.name} picks up the {name} into the {word} ({cost.tu} TU: floor → hand)"
    return pre + [Resolved(actor=unit.id, action=PICK, rolls=(), outcome="done", text=text),
                  UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(
                      unit.record, fighter=f, kit=unit.record.kit + (held,))), cause=f"picks up the {name}"),
                  Noted(record=attrs.evolve(field, ground=left), cause=f"the {name} picked up")]


def rows(rs: Annihilation, state: State, unit: Unit, mine: bool, label, short) -> tuple[Stowed, ...]:
    """The inventory screen's ground list: each thing on the unit's square, and picking it up at its price."""
    out = []
    for k, d in here(state, unit):
        got = _hold(rs, unit, d.item) if mine else None
        moves = () if got is None or isinstance(got, Rejected) else (Option(
            "Ground", f"Pick up ({got[0].tu} TU{short(got[0].tu, unit.record.fighter.tu_left)})",
            Act(unit=unit.id, action=PICK, option=str(k)),
            note=f"A-12.5: floor → hand, into the {got[1].place.replace('_', ' ')}"),)
        out.append(Stowed(label=label(rs, d.item), place="Ground", size=d.item.size, moves=moves))
    return tuple(out)


def marks(rs: Annihilation, state: State, sight) -> list[Mark]:
    """What lies on the ground where the side sees the square, one mark a square naming everything there."""
    where: dict[tuple, list[str]] = {}
    for d in field_of(state).ground:
        where.setdefault((d.cell, d.z), []).append(rs.name(d.item.id))
    return [Mark(cell, MARK[0], MARK[1], "On the ground: " + ", ".join(names), z=z)
            for (cell, z), names in sorted(where.items()) if sight[z][cell[1], cell[0]]]
