"""Items on the ground (4, Interact: "pick up an item"; Interpretation). `Act("drop", option=item)` lets the item in
hand fall on the unit's square (0 AP: letting go takes no time; a primed grenade is thrown, not dropped);
`Act("pick_up", option=item, cell=square)` takes an item from the unit's square or one next to it into a free hand
(Interact, 1 AP), a gun with the rounds it had. The battle record keeps what lies where (`Battle.ground`), and the
map marks it where the side sees the square. Encumbrance weighs what the unit carries now (`battle.burden`): a
dropped item lightens it, one picked up weighs on it."""

from __future__ import annotations

import attrs

from engine.core.commands import Act, Rejected
from engine.core.events import Event, Noted
from engine.core.geometry import Pos, distance
from engine.core.model import State, Unit
from engine.core.ruleset import Mark, Option
from engine.rules.xxxzone import actions, battle
from engine.rules.xxxzone.units import battle as record_of
from engine.rules.xxxzone.units import changed

DROP, PICK = "drop", "pick_up"
MARK = ("*", "#e0c060")


def _name(book, item: str) -> str:
    return book.gear(item).name if item in book.items or item in book.weapons else item or "item"


def drop(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    held = next((h for h in c.hands if h.item == cmd.option), None)
    if held is None:
        return Rejected("not_in_hand", f"{unit.name} holds no {_name(book, cmd.option or '')}")
    if held.primed:
        return Rejected("primed", "A primed grenade is thrown, not dropped")
    hands = list(c.hands)
    hands.remove(held)
    rec = record_of(state)
    lighter = attrs.evolve(c, hands=tuple(hands), shed=c.shed - battle.weight(book, held.item))
    return [changed(book, unit, lighter, f"drops the {_name(book, held.item)} (0 AP)"),
            Noted(record=attrs.evolve(rec, ground=rec.ground + ((unit.pos, held),)),
                  cause=f"{_name(book, held.item)} on the ground at {unit.pos[0]},{unit.pos[1]}")]


def pick_up(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    cell = tuple(cmd.cell) if cmd.cell is not None else unit.pos
    if distance(unit.pos, cell) > 1:
        return Rejected("not_adjacent", "An item is picked up from the unit's own square or one next to it")
    rec = record_of(state)
    lying = next((i for i, (at, h) in enumerate(rec.ground) if tuple(at) == cell and h.item == cmd.option), None)
    if lying is None:
        return Rejected("nothing_there", f"No {_name(book, cmd.option or '')} lies at {cell[0]},{cell[1]}")
    held = rec.ground[lying][1]
    refused = battle.can_hold(book, c, held.item)
    if refused is not None:
        return refused
    paid = actions.do(book, c.turn, "interact", frozenset(c.op.abilities), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    left = rec.ground[:lying] + rec.ground[lying + 1:]
    heavier = attrs.evolve(c, turn=paid, hands=c.hands + (held,), shed=c.shed + battle.weight(book, held.item))
    return [changed(book, unit, heavier,
                    f"picks up the {_name(book, held.item)} (1 AP)"),
            Noted(record=attrs.evolve(rec, ground=left), cause=f"{_name(book, held.item)} picked up")]


def options(rs, state: State, unit: Unit) -> list[Option]:
    book, c = rs.book, unit.record
    out = [Option("Items", f"Drop {_name(book, h.item)} (0 AP)", Act(unit=unit.id, action=DROP, option=h.item),
                  note="it lies here until someone picks it up") for h in c.hands if not h.primed]
    for at, h in record_of(state).ground:
        cell = tuple(at)
        if distance(unit.pos, cell) <= 1 and battle.can_hold(book, c, h.item) is None:
            out.append(Option("Items", f"Pick up {_name(book, h.item)} at {cell[0]},{cell[1]} (1 AP)",
                              Act(unit=unit.id, action=PICK, option=h.item, cell=cell)))
    return out


def marks(rs, state: State, side: str) -> list[Mark]:
    """What lies on the ground where the side sees the square."""
    seen = rs.visible(state, side)
    where: dict[Pos, list[str]] = {}
    for at, h in record_of(state).ground:
        where.setdefault(tuple(at), []).append(_name(rs.book, h.item))
    return [Mark(cell, MARK[0], MARK[1], "On the ground: " + ", ".join(names))
            for cell, names in sorted(where.items()) if seen[cell[1], cell[0]]]
