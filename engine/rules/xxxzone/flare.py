"""The Flare Gun's untargeted shot (6.7, 11.1): "it may be fired at a square up to 100 away with no attack roll".
Interpretation for the game: `Act(action="flare", cell=...)` with a weapon that has an untargeted range in hand
costs its single shot's AP and round; the flare lights the squares within `flare_radius` of where it lands, so every
enemy there whom one of the side's units sees is spotted at once, without a spot roll. It is heard like any
unsuppressed shot. It is no attack action (no roll): it adds nothing to 6.4's repeated-attack recoil."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.events import Event, Noted, Resolved
from engine.core.geometry import distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import Option
from engine.rules.xxxzone import actions, seen, sight
from engine.rules.xxxzone.battle import burden
from engine.rules.xxxzone.firing import check_square
from engine.rules.xxxzone.lines import between
from engine.rules.xxxzone.units import battle, changed

ACTION = "flare"
AHEAD = (5, 10)  # the menu's squares: this many squares along the unit's facing


def _shot(w):
    """The mode an untargeted flare is fired with: the one using the fewest rounds (the Flare Gun's only one)."""
    return w.modes[min(w.modes, key=lambda m: w.modes[m].rounds)]


def _gun(rs, c) -> str | None:
    return next((h.item for h in c.hands if h.item in rs.book.weapons and rs.book.weapons[h.item].untargeted_range),
                None)


def fire(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    weapon = _gun(rs, c)
    if weapon is None:
        return Rejected("not_drawn", "a flare needs the Flare Gun in hand (Draw Item, 1 AP)")
    w = book.weapons[weapon]
    cell = cmd.cell
    if cell is None or not state.grid.inside(cell):
        return Rejected("no_cell", f"the {w.name} fires a flare at a square on the map")
    refused = check_square(book, weapon, between(unit.pos, cell))
    if refused is not None:
        return refused
    mode = _shot(w)
    held = next(h for h in c.hands if h.item == weapon)
    if weapon in c.disabled:
        return Rejected("disabled", f"the {w.name} is disabled until {w.reload} AP are spent on it")
    if burden(book, c) != "free":
        return Rejected("burdened", "carrying more than Carry: no weapon can be used until something is dropped")
    if held.rounds < mode.rounds:
        return Rejected("no_ammo", f"the {w.name} is empty: reload it ({w.reload} AP)")
    paid = actions.spend(c.turn, mode.ap, "gun", frozenset(c.op.abilities), what=f"A flare from the {w.name}")
    if isinstance(paid, Rejected):
        return paid
    hands = tuple(attrs.evolve(h, rounds=h.rounds - mode.rounds) if h is held else h for h in c.hands)
    shooter = attrs.evolve(c, turn=paid, hands=hands, facing=sight.facing(unit.pos, cell), conspicuous=True)
    events: list[Event] = [changed(book, unit, shooter, "fires a flare")]
    now = fold(state, events)
    lit = _lit(rs, now, unit.side, cell)
    names = ", ".join(now.units[u].name for u in lit)
    text = (f"{unit.name} fires a flare at {cell[0]},{cell[1]} ({mode.ap} AP): "
            + (f"it lights {names}" if lit else "nobody new in its light"))
    events.insert(0, Resolved(actor=unit.id, action=ACTION, cell=cell, weapon=weapon, rolls=(), outcome="lit",
                              text=text))
    if lit:
        rec = battle(now)
        known = rec.sightings(unit.side) | set(lit)
        seen_now = tuple(sorted([(s, ids) for s, ids in rec.seen if s != unit.side]
                                + [(unit.side, tuple(sorted(known)))]))
        events.append(Noted(record=attrs.evolve(rec, seen=seen_now), cause="the flare lights them"))
    return events + seen.heard(book, fold(state, events), now.units[unit.id])


def _lit(rs, state: State, side: str, cell) -> list[str]:
    """The enemies within the flare's light, not yet spotted, whom one of the side's units sees."""
    known = battle(state).sightings(side)
    awake = [u for u in state.side_units(side) if u.conscious]
    return sorted(u.id for u in state.units.values()
                  if u.status != "dead" and u.side != missions.CIVILIANS and missions.hostile(side, u.side)
                  and u.id not in known and distance(u.pos, cell) <= rs.book.settings.flare_radius
                  and seen.spotters(rs.book, state, side, u, awake))


def options(rs, state: State, unit: Unit) -> list[Option]:
    weapon = _gun(rs, unit.record)
    if weapon is None:
        return []
    w, (x, y), (dx, dy) = rs.book.weapons[weapon], unit.pos, unit.record.facing
    out = []
    for far in AHEAD:
        cell = (x + dx * far, y + dy * far)
        if state.grid.inside(cell):
            out.append(Option("Attacks", f"Flare {far} squares ahead, at {cell[0]},{cell[1]} "
                                         f"({_shot(w).ap} AP)",
                              Act(unit=unit.id, action=ACTION, cell=cell),
                              note=f"no attack roll; spots the enemies seen within {rs.book.settings.flare_radius} "
                                   f"of it"))
    return out
