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
from engine.rules.annihilation.inventory import ARM_OF, Carried, hands_holding, reload_price, size_of
from engine.rules.annihilation.moves import Price, action_price, pay
from engine.rules.annihilation.space import between, side_on


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
          mode: str, *, sights: int = 0, harness: bool = False, dz: int = 0) -> Rejected | Outcome:
    """A firing action: the mode's TU (and sights), its rounds each rolled (A-14.1), then each hit through the side
    facing the shooter, the armour and the wounds, in the order of the rounds. The hands holding the gun decide
    one-handed use and which arms' wounds count (A-14.6, A-19.7). A blast round's hit goes off on the target's
    square and a miss scatters (A-16.1); the caller resolves those blasts on everyone in them."""
    if shooter.status != "awake":
        return Rejected("not_now", "An unconscious character cannot fire")
    hands = hands_holding(gun)
    if not hands:
        return Rejected("not_in_hand", f"The {book.weapons[gun.id].name} must be held to fire it")
    arms = tuple(ARM_OF[h] for h in hands)[:book.weapons[gun.id].hands]  # a one-handed gun, one arm
    if gun.rounds < 1:
        return Rejected("empty", f"The {book.weapons[gun.id].name} is empty")
    rnd = hits.round_of(book, gun.id, gun.loaded)
    if isinstance(rnd, Rejected):
        return rnd
    spaces = between(book.settings.grid, at, target_at, dz, book.settings.height_adds_to_range)
    odds = fire.to_hit(book, shooter, gun.id, mode, spaces, sights=sights, one_handed=len(arms) == 1, arms=arms,
                       harness=harness)
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
            hurt = hits.strike(book, dice, target, rnd.damage, side_on(book.settings.grid, target.facing, target_at, at),
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
    hurt = hits.strike(book, dice, target, strike.damage, side_on(book.settings.grid, target.facing, target_at, at),
                       target.character.id)
    return Outcome(paid, hurt.fighter, None, (roll,) + hurt.rolls, 1,
                   ("; ".join((hurt.armour.text,) + hurt.wounding.notes),))


@attrs.frozen
class Thrown:
    actor: Fighter
    landed: Pos
    rolls: tuple[Roll, ...]


def throw(book: Book, dice: Dice, thrower: Fighter, item: Carried, at: Pos, cell: Pos, *,
          open_cell=lambda cell: True) -> Rejected | Thrown:
    """A-14.11: 25% of the allowance, from a hand, within `floor(Str / 4)` (halved from size C);
    `d100 ≤ Trw + skill − 2 × D` lands on the square, else it scatters."""
    if thrower.status != "awake":
        return Rejected("not_now", "An unconscious character cannot throw")
    if item.place not in ("right_hand", "left_hand", "both_hands"):
        return Rejected("not_in_hand", "Only what is in a hand can be thrown")
    spaces = between(book.settings.grid, at, cell)
    odds = attacks.throw_odds(book, thrower, item.size, spaces)
    if isinstance(odds, Rejected):
        return odds
    paid = pay(thrower, action_price(book, thrower, "throw"), "a throw")
    if isinstance(paid, Rejected):
        return paid
    face, index = dice.d(100, thrower.character.id, "throw")
    hit = face <= odds.chance
    roll = Roll(actor=thrower.character.id, purpose="throw", expr="1d100", faces=(face,),
                formula=f"d100 {face} {'≤' if hit else '>'} to-hit {odds.chance} ({odds.text}) "
                        f"{'on target' if hit else 'misses'}", total=int(hit), index=index)
    if hit:
        return Thrown(paid, cell, (roll,))
    landed, scatter = attacks.scatter(book, dice, thrower.character.id, cell, spaces, open_cell)
    return Thrown(paid, landed, (roll, *scatter))


@attrs.frozen
class ModeOdds:
    """One line of the targeting panel: a mode's chance per round, its rounds, its TU and what is left after."""

    mode: str
    chance: int
    rounds: int
    tu: int
    tu_after: int
    side: str  # the armour side the shot will hit
    expected_hits: float
    text: str
    paid: bool = True  # the shooter's TUs pay for it now


def preview(book: Book, shooter: Fighter, gun: Carried, target: Fighter, at: Pos, target_at: Pos, *,
            sights: int = 0, harness: bool = False, dz: int = 0, every: bool = False) -> list[ModeOdds]:
    """Every mode of the weapon the shooter can pay for now (`every`: the others too, `paid` False), without
    rolling (issue 12: the targeting panel). Sights count where the mode can use them (A-14.7, A-14.8)."""
    arms = tuple(ARM_OF[h] for h in hands_holding(gun))[:book.weapons[gun.id].hands]
    if not arms:
        return []
    spaces = between(book.settings.grid, at, target_at, dz, book.settings.height_adds_to_range)
    side = side_on(book.settings.grid, target.facing, target_at, at)
    out = []
    for mode in sorted(book.weapons[gun.id].modes, key=lambda m: book.modes[m].column):
        odds = fire.to_hit(book, shooter, gun.id, mode, spaces, sights=sights, one_handed=len(arms) == 1,
                           arms=arms, harness=harness)
        if isinstance(odds, Rejected):
            continue
        tu = fire.shot_tu(book, shooter, gun.id, mode, sights)
        if tu > shooter.tu_left and not every:
            continue
        chance = max(0, min(100, odds.chance))
        rounds = min(book.modes[mode].rounds, gun.rounds)
        out.append(ModeOdds(mode, odds.chance, rounds, tu, shooter.tu_left - tu, side, rounds * chance / 100,
                            odds.text, tu <= shooter.tu_left))
    return out


def reload(book: Book, f: Fighter, carried: list[Carried], weapon: Carried,
           clip: Carried) -> Rejected | tuple[Fighter, list[Carried]]:
    """A-12.5, A-16.2: pay the reload, then the clip (its rounds) is in the weapon. A clip of another type comes
    out first and falls to the unit's square; a grenade launcher takes one grenade a load, of one kind, up to its
    capacity."""
    w = book.weapons[weapon.id]
    if w.feed == "grenade":
        if clip.id not in book.explosives or book.explosives[clip.id].size != "A":
            return Rejected("wrong_ammo", f"The {w.name} takes size-A grenades")
        if weapon.rounds >= w.capacity and weapon.loaded == clip.id:
            return Rejected("full", f"The {w.name} holds {w.capacity}")
    elif w.feed == "ammo" and (clip.id not in book.ammo or book.ammo[clip.id].weapon != weapon.id):
        return Rejected("wrong_ammo", f"That is not ammunition for the {w.name}")
    elif w.feed == "clip" and clip.id != f"clip:{weapon.id}":
        return Rejected("wrong_ammo", f"That is not a clip for the {w.name}")
    price = reload_price(book, carried, weapon, clip)
    if isinstance(price, Rejected):
        return price
    paid = pay(f, price, "loading")
    if isinstance(paid, Rejected):
        return paid
    out = [c for c in carried if c is not clip and c is not weapon]
    same = weapon.loaded == clip.id and w.feed == "grenade"
    if weapon.loaded is not None and weapon.rounds and not same:
        out.append(Carried(weapon.loaded, size_of(book, weapon.loaded), "floor", rounds=weapon.rounds))
    rounds = weapon.rounds + 1 if w.feed == "grenade" and same else (1 if w.feed == "grenade" else clip.rounds)
    out.append(attrs.evolve(weapon, loaded=clip.id, rounds=rounds))
    return paid, out


def sense(book: Book, f: Fighter, sensor: Carried, at: Pos,
          others: list[tuple[str, Pos, bool]]) -> Rejected | tuple[Fighter, list[str]]:
    """A-13.3: 50% of the allowance, the sensor in a hand: the movers within 20 spaces."""
    if sensor.id != "motion_sensor" or sensor.place not in ("right_hand", "left_hand"):
        return Rejected("not_in_hand", "The motion sensor must be in a hand")
    paid = pay(f, action_price(book, f, "motion_sensor"), "the motion sensor")
    if isinstance(paid, Rejected):
        return paid
    return paid, hits.sensed(book, at, others)
