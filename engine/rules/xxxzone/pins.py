"""Pulling a grenade's pin on its own (4, Hands: Interpretation). `Act(action="pin", option=grenade)` takes the
grenade from the belt in the off hand (Draw, 1 AP; the weapon stays in hand, as a throw draws it) and pulls its
pin (Interact, 1 AP): 2 AP, or 1 for a grenade already in hand. A primed grenade is thrown later for the throw's
2 AP alone (throwing.py). One still in hand at the end of its holder's side's turn, the holder dead or alive,
explodes in the holder's square (the playtest's dying operative who "pulled all the pins on her grenades and
charged"). Smoke bombs have no pin."""

from __future__ import annotations

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import Option
from engine.rules.xxxzone import actions, battle, blasts
from engine.rules.xxxzone.battle import Held
from engine.rules.xxxzone.units import changed

ACTION = "pin"


def _pinned(book, item: str) -> bool:
    i = book.items.get(item)
    return i is not None and i.kind == "grenade" and i.effect in ("damage", "on_fire", "disorient")


def pull(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    item = cmd.option or ""
    if not _pinned(book, item):
        return Rejected("no_pin", f"The {book.gear(item).name if item in book.items else item or 'item'} has no pin "
                                  f"to pull" + (": a smoke bomb is thrown as it is" if item in book.items else ""))
    held = next((h for h in c.hands if h.item == item and not h.primed), None)
    if held is None and item not in c.belt:
        return Rejected("not_carried", f"{unit.name} carries no {book.gear(item).name}")
    need = 1 if held is not None else 2
    if actions.available(c.turn, "other") < need:
        how = "pin 1" if held is not None else "draw 1, pin 1"
        return Rejected("no_ap", f"Pulling the pin costs {need} AP ({how}); {c.turn.ap} left")
    paid = actions.spend(c.turn, need, "other", frozenset(c.op.abilities), what="Pulling the pin")
    if isinstance(paid, Rejected):
        return paid
    if held is not None:
        hands = tuple(attrs.evolve(h, primed=True) if h is held else h for h in c.hands)
        belt = c.belt
    else:
        hands = c.hands + (Held(item=item, primed=True),)
        belt = list(c.belt)
        belt.remove(item)
        belt = tuple(belt)
    after = attrs.evolve(c, turn=paid, hands=hands, belt=belt)
    return [changed(book, unit, after, f"pulls the {book.gear(item).name}'s pin ({need} AP): it explodes in hand "
                                       f"at the end of the turn unless thrown")]


def explode(rs, state: State, side: str, dice: Dice) -> list[Event]:
    """End of the side's turn: every primed grenade still in a hand goes off in the holder's square."""
    book = rs.book
    out: list[Event] = []
    now = state
    for u in state.side_units(side):
        c = now.units[u.id].record
        if c is None or not battle.primed_left(c):
            continue
        rec = attrs.evolve(c, hands=tuple(h for h in c.hands if not h.primed))
        step = [changed(book, now.units[u.id], rec, "a primed grenade goes off in hand")]
        out += step
        now = fold(now, step)
        s = battle.shooter(book, c)
        for item in battle.primed_left(c):
            events, rolls, words = blasts.blast_at(rs, now, s, item, c.at, dice)
            text = f"The {book.gear(item).name} in {u.name}'s hand goes off at {c.at[0]},{c.at[1]}" + (
                f": {'; '.join(words)}" if words else "")
            head = Resolved(actor=u.id, action="throw", cell=c.at, weapon=item, rolls=tuple(rolls),
                            outcome="in_hand", text=text)
            out += [head] + events
            now = fold(now, [head] + events)
    return out


def primed_in_hand(c, item: str) -> bool:
    return any(h.item == item and h.primed for h in c.hands)


def options(rs, state: State, unit: Unit) -> list[Option]:
    book, c = rs.book, unit.record
    out = []
    for item in dict.fromkeys([h.item for h in c.hands if not h.primed] + list(c.belt)):
        if not _pinned(book, item):
            continue
        in_hand = any(h.item == item and not h.primed for h in c.hands)
        out.append(Option("Items", f"Pull the pin: {book.gear(item).name} ({1 if in_hand else 2} AP)",
                          Act(unit=unit.id, action=ACTION, option=item),
                          note="throw it for 2 AP; still in hand at the turn's end, it explodes there"))
    return out
