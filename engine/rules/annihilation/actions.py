"""Whole actions a ruleset's `decide` will call: a shot and a physical attack, paid, rolled and applied.

Each takes the fighters as they are and returns them as they become, with every Roll in the order it was rolled,
or a Rejected before anything is paid (A-8.3).
"""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.rules.annihilation import attacks, fire, hits
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.inventory import Carried
from engine.rules.annihilation.moves import Price, action_price, pay
from engine.rules.annihilation.space import hit_side, range_distance


@attrs.frozen
class Outcome:
    actor: Fighter
    target: Fighter
    gun: Carried | None  # the weapon with what is left in it
    rolls: tuple[Roll, ...]
    hits: int
    lines: tuple[str, ...]  # armour and wounds, one line a hit
    blasts: tuple[Pos, ...] = ()  # where blast rounds go off (hits on the target's square, misses scattered)


def shoot(book: Book, dice: Dice, shooter: Fighter, gun: Carried, target: Fighter, at: Pos, target_at: Pos,
          mode: str, *, sights: int = 0, one_handed: bool = False, harness: bool = False,
          dz: int = 0) -> Rejected | Outcome:
    """A firing action: the mode's TU (and sights), its rounds each rolled (A-14.1), then each hit through the side
    facing the shooter, the armour and the wounds, in the order of the rounds. A blast round's hit goes off on the
    target's square and a miss scatters (A-16.1); the caller resolves those blasts on everyone in them."""
    if shooter.status != "awake":
        return Rejected("not_now", "An unconscious character cannot fire")
    if gun.rounds < 1:
        return Rejected("empty", f"The {book.weapons[gun.id].name} is empty")
    rnd = hits.round_of(book, gun.id, gun.loaded)
    if isinstance(rnd, Rejected):
        return rnd
    spaces = range_distance(at, target_at, dz, book.settings.height_adds_to_range)
    odds = fire.to_hit(book, shooter, gun.id, mode, spaces, sights=sights, one_handed=one_handed, harness=harness)
    if isinstance(odds, Rejected):
        return odds
    paid = pay(shooter, Price(fire.shot_tu(book, shooter, gun.id, mode, sights), 0), f"the {mode} shot")
    if isinstance(paid, Rejected):
        return paid
    volley = fire.rounds(book, dice, shooter.character.id, mode, odds, gun.rounds)
    rolls, lines, blasts = list(volley.rolls), [], []
    for r in volley.rolls:
        if rnd.radius >= 0:
            if r.total:
                blasts.append(target_at)
            else:
                landed, scatter = attacks.scatter(book, dice, shooter.character.id, target_at, spaces)
                rolls += scatter
                blasts.append(landed)
        elif r.total and target.status != "dead":
            hurt = hits.strike(book, dice, target, rnd.damage, hit_side(target.facing, target_at, at),
                               target.character.id)
            target = hurt.fighter
            rolls += hurt.rolls
            lines.append("; ".join((hurt.armour.text,) + hurt.wounding.notes))
    gun = attrs.evolve(gun, rounds=gun.rounds - volley.fired)
    return Outcome(paid, target, gun, tuple(rolls), volley.hits, tuple(lines), tuple(blasts))


def punch(book: Book, dice: Dice, attacker: Fighter, target: Fighter, at: Pos, target_at: Pos, *,
          weapon_power: int = 0, family: str | None = None) -> Rejected | Outcome:
    """A-14.10: 20% of the allowance, `d100 ≤ Acc_eff + skill`, `Str + Wp` on the side facing the attacker."""
    if attacker.status != "awake":
        return Rejected("not_now", "An unconscious character cannot attack")
    strike = attacks.physical(book, attacker, at, target_at, weapon_power=weapon_power, family=family)
    if isinstance(strike, Rejected):
        return strike
    paid = pay(attacker, action_price(book, attacker, "physical_attack"), "a physical attack")
    if isinstance(paid, Rejected):
        return paid
    face, index = dice.d(100, attacker.character.id, "physical attack")
    hit = face <= strike.chance
    roll = Roll(actor=attacker.character.id, purpose="physical attack", expr="1d100", faces=(face,),
                formula=f"d100 {face} {'≤' if hit else '>'} to-hit {strike.chance} ({strike.text}) "
                        f"{'hit' if hit else 'miss'}", total=int(hit), index=index)
    if not hit:
        return Outcome(paid, target, None, (roll,), 0, ())
    hurt = hits.strike(book, dice, target, strike.damage, hit_side(target.facing, target_at, at),
                       target.character.id)
    return Outcome(paid, hurt.fighter, None, (roll,) + hurt.rolls, 1,
                   ("; ".join((hurt.armour.text,) + hurt.wounding.notes),))
