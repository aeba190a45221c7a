"""A-7.6's optional spotting roll (settings `spotting_roll`, off as the source leaves it): an enemy standing in smoke
is seen only by a side one of whose units spotted it, `d100 <= Sns` (character.spots). There is no darkness on the
game's maps, so smoke is the only place it applies. Sight into smoke is still cut after 2 squares (A-17.8).

Each conscious unit of a side that takes phases, with a line to the enemy in smoke (clouds.sees), rolls once, in unit
order, until one spots it; the result (`board.Sighting`) holds while the enemy stays in smoke in that unit's sight.
A side's failed looks are forgotten when its phase starts: it looks again. The rolls happen after every command and,
inside a move, before opportunity fire (combat.react); every one is on a `Noted` event. Whether a side sees such an
enemy (`seen`) is the one answer the fog of war, the AI, shots and reaction fire all ask."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

import attrs

from engine.content import missions
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Noted, SideStarted
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.annihilation import clouds
from engine.rules.annihilation.board import Sighting, field_of
from engine.rules.annihilation.character import spots

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def hidden(rs: Annihilation, state: State, target: Unit) -> bool:
    """Whether `target` is where only a spotting roll finds it: the rule on, alive, in smoke."""
    return (rs.book.settings.spotting_roll and target.status != "dead"
            and clouds.in_smoke(state, target.pos, target.z))


def seen(rs: Annihilation, state: State, side: str, target: Unit, kept: Iterable[Sighting] | None = None) -> bool:
    """Whether `side` sees `target` as far as spotting goes (the line of sight is the caller's): always outside
    smoke or with the rule off, else if one of its units holds a sighting (`kept`, or the state's) that spotted it."""
    if not hidden(rs, state, target) or not missions.hostile(side, target.side):
        return True
    return _spotted(state, field_of(state).sightings if kept is None else kept, side, target.id)


def made_out(rs: Annihilation, state: State, watcher: Unit, target: Unit) -> bool:
    """Whether `watcher` itself makes `target` out, its line of sight apart: always outside smoke or with the rule
    off, else only by its own roll that spotted it (a friend's roll shows it to the side, not to this unit)."""
    if not hidden(rs, state, target):
        return True
    return any(s.seen and s.watcher == watcher.id and s.target == target.id for s in field_of(state).sightings)


def _spotted(state: State, kept: Iterable[Sighting], side: str, target: str) -> bool:
    return any(s.seen and s.target == target and s.watcher in state.units and state.units[s.watcher].side == side
               for s in kept)


def _valid(rs: Annihilation, state: State, s: Sighting) -> bool:
    w, t = state.units.get(s.watcher), state.units.get(s.target)
    return (w is not None and t is not None and w.conscious and hidden(rs, state, t)
            and clouds.sees(rs, state, w.pos, t.pos, w.z, t.z))


def look(rs: Annihilation, state: State, dice: Dice, watchers: Iterable[Unit], target: Unit,
         kept: list[Sighting]) -> tuple[list[Roll], list[str]]:
    """The watchers (each with a line to `target` in smoke) who have not looked yet roll in unit order until one
    of their side spots it; `kept` gains their sightings."""
    rolls, words = [], []
    for w in sorted(watchers, key=lambda u: u.id):
        if _spotted(state, kept, w.side, target.id):
            continue
        if any(s.watcher == w.id and s.target == target.id for s in kept):
            continue
        roll = spots(dice, w.record.fighter.character)
        rolls.append(roll)
        kept.append(Sighting(w.id, target.id, bool(roll.total)))
        words.append(f"{w.name} {'spots' if roll.total else 'does not make out'} {target.name} in the smoke")
    return rolls, words


def noted(state: State, kept: list[Sighting], rolls: list[Roll], words: list[str]) -> list[Event]:
    field = field_of(state)
    if tuple(kept) == field.sightings:
        return []
    return [Noted(record=attrs.evolve(field, sightings=tuple(kept)), rolls=tuple(rolls),
                  cause="; ".join(words) if words else "sightings in the smoke lapse (out of it, or out of sight)")]


def settle(rs: Annihilation, state: State, events: list[Event], dice: Dice) -> list[Event]:
    """After a command: the sightings that no longer hold go, the failed ones of a side whose phase began are
    forgotten, and every watcher with a new line to an enemy in smoke looks."""
    if not rs.book.settings.spotting_roll:
        return []
    now = fold(state, events)
    field = field_of(now)
    if not field.sightings and not any(c.kind == "smoke" for c in field.clouds):
        return []
    began = {e.side for e in events if isinstance(e, SideStarted)}
    kept = [s for s in field.sightings if _valid(rs, now, s)
            and not (not s.seen and now.units[s.watcher].side in began)]
    from engine.rules.annihilation.turns import acting  # turns -> fuses -> combat -> spotting: asked at run time

    sides = set(acting(now))
    rolls: list[Roll] = []
    words: list[str] = []
    for t in sorted(now.units.values(), key=lambda u: u.id):
        if not hidden(rs, now, t):
            continue
        eyes = [w for w in now.units.values() if w.side in sides and missions.hostile(w.side, t.side) and w.conscious
                and w.record is not None and clouds.sees(rs, now, w.pos, t.pos, w.z, t.z)]
        r, said = look(rs, now, dice, eyes, t, kept)
        rolls += r
        words += said
    return noted(now, kept, rolls, words)

