"""Section 7: the initiative order as data, delaying, hastening, and free attacks on a runner.

There are no side turns: one action per slot, in an order that repeats each cycle (≈ 6 s). The order is a frozen
value; every change (a slot done, a delay, a held action taken, a hastened action) returns a new one.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.core.ruleset import Turn
from engine.rules.neo_troops import pools
from engine.rules.neo_troops.schema import Settings


@attrs.frozen(kw_only=True)
class Order:
    slots: tuple[str, ...]  # this cycle's order
    later: tuple[str, ...]  # the order from the next cycle on (cycle 1 puts the surprised last)
    at: int = 0  # index in `slots` of the slot that is up
    cycle: int = 1
    held: tuple[str, ...] = ()  # delayed this cycle and not acted yet
    skip: tuple[str, ...] = ()  # hastened: their next regular slot is passed over
    last: str | None = None  # whose action finished last since the latest delay: a held action may follow it

    @property
    def up(self) -> str:
        return self.slots[self.at]

    def label(self) -> str:
        return f"Initiative {self.at + 1}/{len(self.slots)}: {self.up}"


@attrs.frozen(kw_only=True)
class Combatant:
    id: str
    av: int
    surprised: bool = False  # ambushed or unaware of any enemy: last in the first cycle


@attrs.frozen
class Initiative:
    order: Order
    rolls: tuple[Roll, ...]


def roll_initiative(dice: Dice, combatants: Sequence[Combatant]) -> Initiative:
    """N-7.2: 1d6 each, high to low; ties to the higher AV, then a logged random choice (1dk among the k still
    tied picks the next, until one is left); the surprised go after all others in the first cycle only."""
    rolls: list[Roll] = []
    got: dict[str, int] = {}
    for c in combatants:
        roll = pools.die(dice, 6, c.id, "initiative", lambda f: f"initiative 1d6={f}")
        got[c.id] = roll.total
        rolls.append(roll)
    ranked: list[Combatant] = []
    groups: dict[tuple[int, int], list[Combatant]] = {}
    for c in combatants:
        groups.setdefault((got[c.id], c.av), []).append(c)
    for key in sorted(groups, reverse=True):
        tied = list(groups[key])
        while len(tied) > 1:
            names = ", ".join(c.id for c in tied)
            k = len(tied)
            roll = pools.die(dice, k, "order", "initiative tie",
                        lambda f: f"tie at {key[0]}, AV {key[1]} among {names}: 1d{k}={f} → {tied[f - 1].id}")
            rolls.append(roll)
            ranked.append(tied.pop(roll.total - 1))
        ranked += tied
    later = tuple(c.id for c in ranked)
    first = tuple(c.id for c in ranked if not c.surprised) + tuple(c.id for c in ranked if c.surprised)
    return Initiative(_settle(Order(slots=first, later=later)), tuple(rolls))


def _settle(order: Order) -> Order:
    """Move `at` onto a slot that plays: a new cycle starts past the end (held actions lapse with it), and a
    hastened unit's slot is passed over once."""
    while True:
        if order.at >= len(order.slots):
            order = attrs.evolve(order, slots=order.later, at=0, cycle=order.cycle + 1, held=())
        if not order.slots:
            return order
        unit = order.up
        if unit in order.skip:
            order = attrs.evolve(order, at=order.at + 1, skip=tuple(u for u in order.skip if u != unit))
            continue
        if unit in order.held:  # N-7.3: its original slot came round again: the held action is lost
            order = attrs.evolve(order, held=tuple(u for u in order.held if u != unit))
        return order


def done(order: Order, unit: str) -> Order | Rejected:
    """The unit whose slot is up has acted (or passed)."""
    if not order.slots or order.up != unit:
        return Rejected("not_your_slot", f"It is {order.up if order.slots else 'nobody'}'s slot, not {unit}'s")
    return _settle(attrs.evolve(order, at=order.at + 1, last=unit))


def delay(order: Order, unit: str) -> Order | Rejected:
    """N-7.3: the unit whose slot is up holds its action."""
    if not order.slots or order.up != unit:
        return Rejected("not_your_slot", f"Only the unit whose slot is up may delay, not {unit}")
    return _settle(attrs.evolve(order, at=order.at + 1, held=order.held + (unit,), last=None))


def _move_after(seq: tuple[str, ...], unit: str, anchor: str | None, fallback: int | None = None) -> tuple[str, ...]:
    """`seq` with `unit` moved right after `anchor`; if the anchor has left it (fallen), to `fallback`, or nowhere."""
    rest = [u for u in seq if u != unit]
    if unit not in seq:
        return seq
    if anchor in rest:
        where = rest.index(anchor) + 1
    elif fallback is not None:
        where = min(fallback, len(rest))
    else:
        return seq
    return tuple(rest[:where] + [unit] + rest[where:])


def take_held(order: Order, unit: str) -> Order | Rejected:
    """N-7.3: a holding unit acts now, right after the action just finished; its slot sits there from now on.
    The slot that was up stays up."""
    if unit not in order.held:
        return Rejected("not_held", f"{unit} is not holding an action")
    anchor = order.last
    if anchor is None:
        return Rejected("no_action_yet", "A held action follows another character's action since the delay")
    # The action just finished sat before the slot that is up: if its unit fell since, the held one goes there.
    here = order.at - (1 if unit in order.slots and order.slots.index(unit) < order.at else 0)
    slots = _move_after(order.slots, unit, anchor, here)
    later = _move_after(order.later, unit, anchor)
    held = tuple(u for u in order.held if u != unit)
    return _settle(attrs.evolve(order, slots=slots, later=later, held=held, at=slots.index(unit) + 1, last=unit))


def hasten(order: Order, unit: str) -> Order | Rejected:
    """N-7.4: the unit acts at once; a held action is spent by it, otherwise its next regular slot is skipped.
    A unit that has already hastened has no action to give until that slot has passed."""
    if order.slots and order.up == unit:
        return Rejected("acting", f"{unit} is the one acting now")
    if unit in order.skip:
        return Rejected("already_hastened", f"{unit} has hastened and waits for its slot to pass")
    if unit in order.held:
        return attrs.evolve(order, held=tuple(u for u in order.held if u != unit))
    return attrs.evolve(order, skip=order.skip + (unit,))


def remove(order: Order, unit: str) -> Order:
    """A dead combatant leaves the order (an incapacitated one keeps its slot: its bleeding counts there)."""
    if unit not in order.slots and unit not in order.later:
        return order
    at = order.at - (1 if unit in order.slots and order.slots.index(unit) < order.at else 0)
    slots = tuple(u for u in order.slots if u != unit)
    later = tuple(u for u in order.later if u != unit)
    return _settle(attrs.evolve(order, slots=slots, later=later, at=at,
                                held=tuple(u for u in order.held if u != unit),
                                skip=tuple(u for u in order.skip if u != unit)))


def turn_of(order: Order, side_of: Mapping[str, str]) -> Turn:
    """The kernel's `Turn` for the slot that is up: its unit, and the same side's held units once an action has
    been taken since they delayed. Held units of the other side cannot be offered: a `Turn` names one side."""
    if not order.slots:
        return Turn(side="", units=(), label="Nobody left to act")
    up = order.up
    side = side_of[up]
    waiting = tuple(u for u in order.held if side_of[u] == side) if order.last is not None else ()
    label = order.label() + (f" (holding: {', '.join(waiting)})" if waiting else "")
    return Turn(side=side, units=(up,) + waiting, label=label)


def run_cancelled(attacks: Sequence[object]) -> bool:
    """N-7.4: a hastened attack that scores a hit, saved or not, cancels the leaver's movement; its action is
    spent. `attacks` are pools.Attack values."""
    return any(getattr(a, "hits", 0) for a in attacks)


@attrs.frozen(kw_only=True)
class Foe:
    """An enemy of a mover, as the movement triggers see it."""

    id: str
    pos: Pos
    can_fight: bool = True  # active and able to make a melee attack
    surprised: bool = False


def _adjacent(a: Pos, b: Pos) -> bool:
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def hasteners(start: Pos, foes: Sequence[Foe]) -> tuple[str, ...]:
    """N-7.4: the foes in melee with a unit that moves or runs away: adjacent to its start, able to fight and
    aware of it. They act, in the order given (initiative order), before it moves."""
    return tuple(f.id for f in foes if f.can_fight and not f.surprised and _adjacent(start, f.pos))


def run_past(path: Sequence[Pos], foes: Sequence[Foe], s: Settings,
             hastened: Sequence[str] = ()) -> tuple[tuple[str, int], ...]:
    """N-7.5: (foe, index of the path cell) for each non-surprised foe able to fight that the run passes
    adjacent to, once per foe, at the first such cell; those that hastened get none. In path order. None at
    all unless the `run_past_attacks` setting (GM's discretion) is on."""
    out: list[tuple[str, int]] = []
    if not s.run_past_attacks:
        return ()
    for f in foes:
        if f.id in hastened or not f.can_fight or f.surprised:
            continue
        first = next((i for i, cell in enumerate(path) if i > 0 and _adjacent(cell, f.pos)), None)
        if first is not None:
            out.append((f.id, first))
    return tuple(sorted(out, key=lambda o: o[1]))


def next_words(o: Order, state, up) -> str:
    """` ▸ Lev`: who acts after the slot up (the next in the order who can act, round into the next cycle), by name
    when of the same side, else ` ▸ foe` (the order is known, not who the foe is)."""
    n = len(o.slots)
    for k in range(1, n):
        uid = o.slots[(o.at + k) % n]
        u = state.units.get(uid)
        if u is not None and u.conscious and uid != up.id:
            return f" ▸ {u.name}" if u.side == up.side else " ▸ foe"
    return ""
