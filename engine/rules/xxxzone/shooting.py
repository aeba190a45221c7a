"""Shots on the map: the mode a `Shoot` names, the cover on the line of fire (terrain_cover.toml, worn by hits),
the attack through `shot.fire`, its events, and the exact odds of every outcome before it is fired."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache


from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.xxxzone import abilities as ab
from engine.rules.xxxzone import actions, battle, blasts, feats, firing, sight, smoke
from engine.rules.xxxzone.attack import Attack, CoverPiece, Defence, WOUNDS
from engine.rules.xxxzone.attack import volley as roll_volley
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.lines import between, cover_between, line
from engine.rules.xxxzone.modifiers import Situation, weapon_dt
from engine.rules.xxxzone.shot import Shot, fire
from engine.rules.xxxzone.units import changed

WEIGHT = {"minor": 1, "severe": 2, "mortal": 4, "lethal": 8}  # the AI's worth of a wound (units.WEIGHT)


def modes(book: Book, c) -> list[tuple[str, str, str, int]]:
    """(mode id, weapon, mode, AP) for every mode of what it attacks with, the drawn weapon's first."""
    out = []
    weapons = battle.attacks_with(book, c)
    if len(weapons) > 1:  # bare hands only when nothing else is in hand
        weapons = tuple(w for w in weapons if w != "unarmed")
    for i, w in enumerate(weapons):
        for m, spec in book.weapons[w].modes.items():
            out.append((m if i == 0 else f"{w}:{m}", w, m, spec.ap))
    return out


def mode_of(book: Book, c, mode_id: str) -> tuple[str, str] | Rejected:
    ours = modes(book, c)
    for mid, w, m, _ in ours:
        if mode_id in (mid, m, f"{w}:{m}"):
            return w, m
    listed = ", ".join(mid for mid, *_ in ours) or "nothing"
    return Rejected("no_mode", f"{c.op.name} has no {mode_id.replace('_', ' ')} to fire; it has {listed}")


def cover(book: Book, state: State, a, b) -> tuple[CoverPiece, ...]:
    worn = blasts.worn(state)
    pieces = {}
    for cell in line(a, b)[1:-1]:
        tile = state.grid.tile(cell)
        tc = book.terrain_cover.get(tile)
        if tc is None:
            continue
        kind = book.cover[tc.cover]
        hp = worn.get(cell, tc.hp or kind.hp)
        if hp > 0:
            pieces[cell] = (tile.replace("_", " "), kind.value, hp)
    return cover_between(a, b, pieces)


def shot_for(rs, state: State, shooter: Unit, target: Unit, weapon: str, mode: str, reaction: bool = False) -> Shot:
    book = rs.book
    t = book.roster.get(target.template)
    kind = book.enemies.get(t.enemy) if t is not None and t.enemy else None
    return Shot(weapon=weapon, mode=mode, reaction=reaction, unaware=shooter.id not in rs.spotted(state, target.side),
                vs_human=kind is None or kind.human, mechanical=kind is not None and kind.mechanical,
                concealed=smoke.level(book, state, shooter.pos, target.pos) == "concealed",
                marked=feats.marked(rs, state, shooter, target))


def plan(book: Book, shooter, target, shot: Shot, pieces) -> tuple[tuple[Attack, ...], Defence] | Rejected:
    """The attack rolls `shot.fire` would make, for the odds (the same steps as fire's own set-up)."""
    w = book.weapons[shot.weapon]
    d = between(shooter.at, target.at)
    ready = firing.Readiness(drawn=tuple(h.item for h in shooter.hands), loaded={h.item: h.rounds for h in shooter.hands},
                             disabled=shooter.disabled)
    s = battle.shooter(book, shooter)
    refused = firing.check(book, s, shot.weapon, shot.mode, d, ready)
    if refused is not None:
        return refused
    melee = w.kind == "melee"
    aims = shooter.aim.stacks if shooter.aim is not None and shooter.aim.target == target.id else 0
    sit = Situation(distance=d, aims=aims, reaction=shot.reaction, unaware=shot.unaware, lion_ignores=True,
                    concealed=shot.concealed, marked=shot.marked,
                    target_moving_target=shot.reaction and target.op.has("moving_target"),
                    target_wounded=target.condition.wounds.any, chi_breath_melee=target.chi_breath and melee,
                    aimed_before=aims > 0)
    dt, _ = weapon_dt(book, s.abilities, w, vs_human=shot.vs_human)
    extra = ab.defence_dr(book, frozenset(target.op.abilities), chi_breath=target.chi_breath,
                          reaction_to_move=shot.reaction, mechanical=shot.mechanical, attacker=s.abilities)
    planned = firing.rolls(book, s, shot.weapon, shot.mode, sit, dt, shift=ab.sneak_shift(s.abilities, melee,
                                                                                           shot.unaware))
    return tuple(a for a, _ in planned), battle.defence(book, target, pieces, extra)


@lru_cache(maxsize=4096)
def odds(attacks: tuple[Attack, ...], d: Defence) -> tuple[tuple[tuple[str, Fraction], ...], Fraction, Fraction]:
    """Exactly, by following every d100 face: each outcome's chance on the first roll, the chance that at least
    one roll wounds, and the expected wound worth over all rolls (armour and cover worn from roll to roll)."""
    states: dict[tuple[Defence, bool], Fraction] = {(d, False): Fraction(1)}
    first: dict[str, Fraction] = {}
    worth = Fraction(0)
    for i, a in enumerate(attacks):
        after: dict[tuple[Defence, bool], Fraction] = {}
        for (state, wounded), p in states.items():
            for face in range(1, 101):
                (hit,), nxt = roll_volley(Dice.scripted([face]), [a], state)
                q = p / 100
                if i == 0:
                    first[hit.outcome] = first.get(hit.outcome, Fraction(0)) + q
                worth += q * WEIGHT.get(hit.outcome, 0)
                key = (nxt, wounded or hit.outcome in WOUNDS)
                after[key] = after.get(key, Fraction(0)) + q
        states = after
    wound = sum((p for (_, w), p in states.items() if w), Fraction(0))
    return tuple(sorted(first.items())), wound, worth


def attack(rs, state: State, unit: Unit, target: Unit, weapon: str, mode: str, dice: Dice, turn,
           reaction: bool = False) -> Rejected | tuple[list[Event], object, object]:
    """One attack action, paid with `turn` already: its events, and the shooter's and target's records after."""
    book = rs.book
    c = records.evolve(unit.record, {"turn": turn, "facing": sight.facing(unit.pos, target.pos)})
    pieces = cover(book, state, unit.pos, target.pos)
    shot = shot_for(rs, state, unit, target, weapon, mode, reaction)
    out = fire(dice, book, c, target.record, shot, pieces)
    if isinstance(out, Rejected):
        return out
    shooter = out.shooter
    if out.killed:
        shooter = records.evolve(shooter, {"turn": actions.killed(shooter.turn, book.weapons[weapon].modes[mode].ap,
                                                                  frozenset(shooter.op.abilities))})
    w = book.weapons[weapon]
    words = ", ".join(h.outcome for h in out.hits)
    notes = "; ".join(dict.fromkeys(out.lines)) + (f" (×{len(out.hits)})" if len(out.hits) > 1 else "")
    text = (f"{unit.name} {'reacts with' if reaction else 'fires'} the {w.name} ({mode.replace('_', ' ')}) at "
            f"{target.name}: {words}" + (f" ({notes})" if notes else ""))
    worst = max((h.outcome for h in out.hits), key=_rank)
    events: list[Event] = [Resolved(actor=unit.id, action="shoot", target=target.id, weapon=weapon, mode=mode,
                                    rolls=out.rolls, outcome=worst, text=text),
                           changed(book, unit, shooter, "reaction fire" if reaction else "shoots"),
                           changed(book, target, out.target, "shot")]
    events += blasts.wear(rs, state, pieces, out.cover)
    if w.explosion:
        events += blasts.missile(rs, fold(state, events), unit, shooter, target, out.hits[0], pieces, w.explosion, dice)
    return events, shooter, out.target


def _rank(outcome: str) -> int:
    order = ("miss", "cover", "glancing", "hit", "minor", "severe", "mortal", "lethal")
    return order.index(outcome) if outcome in order else 0
