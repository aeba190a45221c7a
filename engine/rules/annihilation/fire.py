"""Shooting (section 14-16): the to-hit formula of A-14.2, shot costs with sights (A-14.7, A-14.8), the rounds of a
firing mode (A-14.1) and opportunity fire (A-14.9). Every round is its own Roll, written out with its parts."""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.rules.annihilation.book import Book, percent_cost
from engine.rules.annihilation.character import weapon_bonus
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.schema import SIZES

BOTH_ARMS = ("right_arm", "left_arm")


@attrs.frozen
class Odds:
    """The to-hit chance and its parts, as A-14.2 adds them up."""

    acc_eff: int
    base: int
    skill: int
    range_pen: int
    one_hand: int
    kneel: int
    chance: int
    text: str  # "Acc 60×110% 66 + skill 6 − range 1×12 12"


def sight_divisor(book: Book, weapon_id: str, mode: str, sights: int) -> int:
    st, w = book.settings, book.weapons[weapon_id]
    if w.sniper and mode == "aimed":
        return st.sniper_divisor  # both sights, free
    if not book.classes[w.category].sights or sights == 0:
        return 1
    return st.one_sight_divisor if sights == 1 else st.two_sights_divisor


def sight_tu(book: Book, weapon_id: str, mode: str, sights: int) -> int:
    """A-14.7: +10 TU for one sight, +15 for both; nothing for a sniper's aimed shot (A-14.8), nothing where sights
    do not help (shotguns, A-14.5)."""
    w = book.weapons[weapon_id]
    if sights == 0 or (w.sniper and mode == "aimed") or not book.classes[w.category].sights:
        return 0
    return book.settings.one_sight_tu if sights == 1 else book.settings.two_sights_tu


def accuracy(book: Book, f: Fighter, arms: tuple[str, ...]) -> int:
    """A-14.2, A-19.7: Acc − 10 per open wound of the arm(s) holding the weapon."""
    return f.character.stats.accuracy - book.settings.arm_wound_accuracy * sum(f.part(a).open for a in arms)


def to_hit(book: Book, f: Fighter, weapon_id: str, mode: str, distance: int, *, sights: int = 0,
           one_handed: bool = False, arms: tuple[str, ...] | None = None, harness: bool = False) -> Rejected | Odds:
    """A-14.2: `base + skill − range − one-handed`, each part rounded down on its own.
    `arms` hold the weapon: both for a two-handed weapon in two hands, else the right arm unless given."""
    w = book.weapons.get(weapon_id)
    if w is None:
        return Rejected("unknown_weapon", f"No weapon {weapon_id!r}")
    if mode not in w.modes:
        return Rejected("no_mode", f"The {w.name} has no {mode} mode")
    big = SIZES.index(w.size) > SIZES.index(book.settings.strap_pair_size_max)
    if big and (one_handed or not harness):
        return Rejected("needs_harness", f"The {w.name} (size {w.size}) fires only from the strap, gyro and pad "
                                         "system, in both hands")
    if arms is None:
        arms = BOTH_ARMS if w.hands == 2 and not one_handed else ("right_arm",)
    if any(a in f.lost for a in arms):  # a lost arm holds nothing; two-handed weapons go one-handed
        return Rejected("arm_lost", "That arm is gone" + (": fire it one-handed" if len(arms) == 2 else ""))
    cls = book.classes[w.category]
    acc = accuracy(book, f, arms)
    line = w.modes[mode]
    base = acc * line.accuracy // 100
    bonus = weapon_bonus(book, f.character, w.family)
    skill = acc * bonus // 100
    divisor = sight_divisor(book, weapon_id, mode, sights)
    range_pen = cls.range_penalty * distance // divisor
    one_hand = cls.one_hand_penalty if one_handed and w.hands == 2 else 0
    kneel = acc * book.settings.kneel_bonus // 100 if f.stance == "kneeling" else 0
    chance = base + skill - range_pen - one_hand + kneel
    text = (f"Acc {acc}×{line.accuracy}% {base} + skill {skill} − range {cls.range_penalty}×{distance}"
            + (f"/{divisor}" if divisor > 1 else "") + f" {range_pen}"
            + (f" − one-handed {one_hand}" if one_hand else "") + (f" + kneeling {kneel}" if kneel else ""))
    return Odds(acc, base, skill, range_pen, one_hand, kneel, chance, text)


def shot_tu(book: Book, f: Fighter, weapon_id: str, mode: str, sights: int = 0) -> int:
    """A-8.2, A-14.7: the mode's share of this turn's allowance, plus the sights used."""
    return percent_cost(book.settings, f.tu_turn, book.weapons[weapon_id].modes[mode].tu) \
        + sight_tu(book, weapon_id, mode, sights)


@attrs.frozen
class Volley:
    rolls: tuple[Roll, ...]
    hits: int
    fired: int  # rounds used (A-14.1: fewer if fewer are loaded)


def rounds(book: Book, dice: Dice, actor: str, mode: str, odds: Odds, loaded: int) -> Volley:
    """A-14.1: each round of the mode rolled on its own at the same chance: `d100 ≤ to-hit` hits."""
    fired = min(book.modes[mode].rounds, loaded)
    rolls = []
    for n in range(fired):
        face, index = dice.d(100, actor, f"{mode} round {n + 1}")
        hit = face <= odds.chance
        rolls.append(Roll(actor=actor, purpose=f"{mode} round {n + 1}", expr="1d100", faces=(face,),
                          formula=f"d100 {face} {'≤' if hit else '>'} to-hit {odds.chance} ({odds.text}) "
                                  f"{'hit' if hit else 'miss'}", total=int(hit), index=index))
    return Volley(tuple(rolls), sum(r.total for r in rolls), fired)


def reaction_score(book: Book, f: Fighter) -> int:
    """A-14.9: `floor(Rct × TU_current / TU_turn)`, 0 when the allowance is 0."""
    if f.tu_turn == 0:
        return 0
    return book.value("reaction_score", reactions=f.character.stats.reactions, tu_left=f.tu_left,
                      tu_turn=f.tu_turn)


@attrs.frozen
class Reaction:
    """One observer's answer to a step or action, with both scores, so the player can read why."""

    observer: str
    observer_score: int
    actor_score: int
    fires: bool
    reason: str


def reactions(book: Book, actor: Fighter, observers: list[tuple[str, Fighter, str | None, int]]) -> list[Reaction]:
    """A-14.9 interpretation: each observer (id, fighter, weapon held, rounds loaded) that can snap-fire with its
    TUs fires once if its score beats the actor's (after the actor paid); firers come first, highest score first
    (ties by id). Sights are never used in opportunity fire."""
    mover = reaction_score(book, actor)
    modes = [m for m, md in book.modes.items() if md.reaction]
    out = []
    for oid, o, weapon, loaded in observers:
        score = reaction_score(book, o)
        usable = weapon is not None and any(m in book.weapons[weapon].modes for m in modes)
        cost = min((shot_tu(book, o, weapon, m) for m in modes if m in book.weapons[weapon].modes), default=0) \
            if usable else 0
        if o.status != "awake":
            why, fires = "not conscious", False
        elif not usable or loaded < 1:
            why, fires = "no loaded weapon with a snap shot", False
        elif o.tu_left < cost:
            why, fires = f"{o.tu_left} TU left, snap costs {cost}", False
        elif score <= mover:
            why, fires = f"reaction {score} ≤ {mover}", False
        else:
            why, fires = f"reaction {score} > {mover}", True
        out.append(Reaction(oid, score, mover, fires, why))
    return sorted(out, key=lambda r: (not r.fires, -r.observer_score, r.observer))
