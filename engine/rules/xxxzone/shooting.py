"""Shots on the map: the mode a `Shoot` names, the cover on the line of fire (terrain_cover.toml, worn by hits),
the attack through `shot.fire`, its events, and the exact odds of every outcome before it is fired."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import attrs

from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.xxxzone import abilities as ab
from engine.rules.xxxzone import actions, battle, blasts, feats, seen, sight, smoke
from engine.rules.xxxzone.attack import Attack, CoverPiece, Defence, WOUNDS
from engine.rules.xxxzone.attack import volley as roll_volley
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.lines import between, cover_between, line
from engine.rules.xxxzone.shot import Shot, fire, prepare
from engine.rules.xxxzone.units import changed

WEIGHT = {"minor": 1, "severe": 2, "mortal": 4, "lethal": 8}  # the AI's worth of a wound (units.WEIGHT)


DISABLING = "+disabling"  # a mode id's suffix: Disabling Shot declared (13, Sam's: a single shot of a gun)


NO_SCOPE = "+no_scope"  # a mode id's suffix: Dead Eye Aims without the scope and keeps the bonus (6.7, 13)


def disabling(mode_id: str) -> bool:
    return mode_id.endswith(DISABLING)


def no_scope(mode_id: str) -> bool:
    return mode_id.endswith(NO_SCOPE)


def declared(mode_id: str) -> bool:
    """A mode id with a declaration (Disabling Shot, Dead Eye's no scope): not one overwatch stores."""
    return disabling(mode_id) or no_scope(mode_id)


def declare(shot: Shot, mode_id: str) -> Shot:
    """The shot with what its mode id declares."""
    return attrs.evolve(shot, disabling=disabling(mode_id), use_scope=not no_scope(mode_id))


def modes(book: Book, c) -> list[tuple[str, str, str, int]]:
    """(mode id, weapon, mode, AP) for every mode of what it attacks with, the drawn weapon's first; with
    Disabling Shot, each gun's single shot once more as `<id>+disabling`; with Dead Eye, each scoped weapon's
    aimed mode once more as `<id>+no_scope`."""
    out = []
    weapons = battle.attacks_with(book, c)
    if len(weapons) > 1:  # bare hands only when nothing else is in hand
        weapons = tuple(w for w in weapons if w != "unarmed")
    for i, w in enumerate(weapons):
        for m, spec in book.weapons[w].modes.items():
            mid = m if i == 0 else f"{w}:{m}"
            out.append((mid, w, m, 0 if charging(book, c, w, m) else spec.ap))
            if (c.op.has("disabling_shot") and book.weapons[w].kind != "melee" and spec.rounds == 1
                    and not spec.cone and not book.weapons[w].explosion):
                out.append((mid + DISABLING, w, m, spec.ap))
            if c.op.has("dead_eye") and book.weapons[w].scope and not spec.cone:
                out.append((mid + NO_SCOPE, w, m, spec.ap))
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


def charging(book: Book, c, weapon: str, mode: str) -> bool:
    """Melee Charge (13): this melee attack is the turn's free one, after moving twice its AP."""
    turn = c.turn
    return (book.weapons[weapon].kind == "melee" and not turn.charged
            and ab.charge_ready(turn, book.weapons[weapon].modes[mode].ap, frozenset(c.op.abilities)))


def _teamwork(state: State, shooter: Unit, target: Unit) -> bool:
    """Teamwork! (13, Interpretation: the same target): an ally with it attacked this target this turn."""
    return "teamwork" in shooter.record.op.abilities and any(
        u.id != shooter.id and u.record is not None and u.record.turn.teamwork_at == target.id
        and "teamwork" in u.record.op.abilities for u in state.side_units(shooter.side))


def shot_for(rs, state: State, shooter: Unit, target: Unit, weapon: str, mode: str, reaction: bool = False) -> Shot:
    """The attack as the state has it: awareness, concealment, a mark, Teamwork!, a charge and (6.4, with
    `repeat_recoil`) the attack actions made with the weapon earlier this turn; reaction fire counts none."""
    book, c = rs.book, shooter.record
    earlier = c.turn.attacks_with(weapon) if book.settings.repeat_recoil and not reaction else 0
    t = book.roster.get(target.template)
    kind = book.enemies.get(t.enemy) if t is not None and t.enemy else None
    charge = not reaction and charging(book, c, weapon, mode)
    return Shot(weapon=weapon, mode=mode, reaction=reaction, unaware=shooter.id not in rs.spotted(state, target.side),
                vs_human=kind is None or kind.human, mechanical=kind is not None and kind.mechanical,
                concealed=smoke.level(book, state, shooter.pos, target.pos) == "concealed",
                marked=feats.marked(rs, state, shooter, target), teamwork=_teamwork(state, shooter, target),
                earlier_actions=earlier, full_charge=charge and ab.full_charge(c.turn, frozenset(c.op.abilities)))


def plan(book: Book, shooter, target, shot: Shot, pieces) -> tuple[tuple[Attack, ...], Defence] | Rejected:
    """The attack rolls `shot.fire` would make and the defence they meet, for the odds: fire's own set-up."""
    ready = prepare(book, shooter, target, shot, pieces)
    if isinstance(ready, Rejected):
        return ready
    return tuple(a for a, _ in ready.planned), ready.defence


def reckoned(book: Book, shooter, target, shot: Shot, pieces) -> str:
    """What made the first roll's AdjAcc, for the targeting panel: `Acc 110 − distance 16 + aim 20` (fire's own
    set-up and words, as the log writes them); "" when the shot is refused."""
    ready = prepare(book, shooter, target, shot, pieces)
    if isinstance(ready, Rejected) or not ready.planned:
        return ""
    words = ready.planned[0][1].removeprefix("AdjAcc = ")
    return "Acc " + words.rsplit(" = ", 1)[0]


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
           reaction: bool = False, mode_id: str = "") -> Rejected | tuple[list[Event], object, object]:
    """One attack action, paid with `turn` already: its events, and the shooter's and target's records after;
    `mode_id`: the mode as the command names it, with what it declares (`declare`)."""
    book = rs.book
    c = records.evolve(unit.record, {"turn": turn, "facing": sight.facing(unit.pos, target.pos)})
    pieces = cover(book, state, unit.pos, target.pos)
    shot = declare(shot_for(rs, state, unit, target, weapon, mode, reaction), mode_id)
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
    if not (shot.suppressed or w.kind == "melee"):
        events += seen.heard(book, fold(state, events), unit)
    return events, shooter, out.target


def _rank(outcome: str) -> int:
    order = ("miss", "cover", "glancing", "hit", "minor", "severe", "mortal", "lethal")
    return order.index(outcome) if outcome in order else 0
