"""Section 6: the seven-step attack roll, one roll at a time, and volleys (bursts, sprays, blast rolls).

1 AdjAcc (accuracy.py), 2 `R = d100 + AdjAcc - Agi`, 3 cover piece by piece, 4 armour DR (the armour loses 1 HP
on every hit), 5-6 three subtractions of `DT + End` for Minor, Severe, Mortal, else Lethal, 7 riders (the callers).
Every step is written into the Roll's formula as a player writes it:
`d100 57 + AdjAcc 98 − Agi 5 = 150, − cover 20 (crate, adjacent) = 130, − DR 35 = 95 ≤ 100: glancing hit`.
"""

from __future__ import annotations

from typing import Callable, Literal, Sequence

import attrs

from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos

Outcome = Literal["miss", "cover", "glancing", "minor", "severe", "mortal", "lethal", "hit"]
WOUNDS: tuple[Outcome, ...] = ("minor", "severe", "mortal", "lethal")
LADDER: tuple[Outcome, ...] = ("glancing", "minor", "severe", "mortal", "lethal")
OVER = 100  # every comparison is strict: exactly 100 fails (section 0)


@attrs.frozen(kw_only=True)
class CoverPiece:
    """One piece of intervening cover, in the order the shot meets it (nearest the shooter first)."""

    label: str  # "crate", "low wall"
    value: int  # its cover value (cover.toml)
    hp: int
    adjacent: bool  # adjacent to the target: full value, else half
    cell: Pos | None = None


@attrs.frozen(kw_only=True)
class Defence:
    """The target as one attack roll meets it."""

    id: str
    agility: int  # effective; subtracted in step 2 (not for a throw at a square)
    endurance: int
    armour_dr: int
    armour_hp: int
    extra_dr: tuple[tuple[str, int], ...] = ()  # abilities' DR (Moving Target, Chi Breath): costs no armour HP
    hunkered: bool = False  # doubles adjacent cover
    cover: tuple[CoverPiece, ...] = ()


@attrs.frozen(kw_only=True)
class Attack:
    """One attack roll: the AdjAcc of step 1 and what the weapon brings to steps 4-6."""

    attacker: str
    adj_acc: int
    dt: int  # the weapon's DT after abilities (dt.py); the target's End is added here
    penetration: int = 0  # 1 halves the armour's DR, 2 ignores it (6.3)
    explosion: bool = False  # cover counts at full value (only adjacent pieces are given, 6.9)
    status_only: bool = False  # Flashbang, Incendiary: a hit is R > 100 after cover; no armour, no DT
    subtract_agility: bool = True
    shift: int = 0  # Sneak Attack: melee vs unaware moves the result up one tier, up to Mortal
    cap: Outcome | None = None  # Disabling Shot: a wound is recorded as at most this
    revised: bool = True  # false: the first post's rules (no Lethal tier)
    purpose: str = "attack"


@attrs.frozen(kw_only=True)
class Hit:
    roll: Roll
    outcome: Outcome
    cover: int | None = None  # index in Defence.cover of the piece that was hit
    armour_hp: int  # after the roll
    cover_hp: int | None = None  # the hit piece's HP after the roll
    raw: Outcome  # before Sneak Attack's shift or Disabling Shot's cap
    wear: Roll | None = None  # an explosion's damage to the cover piece it hit (1d4, 4 with Grenadier)

    @property
    def wound(self) -> Outcome | None:
        return self.outcome if self.outcome in WOUNDS else None


def cover_value(piece: CoverPiece, d: Defence, explosion: bool) -> tuple[int, str]:
    """6.2: full value adjacent to the target (doubled by Hunker Down), half otherwise; explosions: full."""
    if piece.adjacent or explosion:
        value, how = piece.value, "adjacent"
        if d.hunkered and piece.adjacent:
            value, how = 2 * value, "adjacent, hunkered ×2"
        return value, how
    return piece.value // 2, "half"


def dr_of(a: Attack, d: Defence) -> tuple[int, str]:
    armour = d.armour_dr if d.armour_hp > 0 else 0
    shown = f"DR {armour}" if d.armour_hp > 0 else "DR 0 (armour broken)"
    if armour and a.penetration == 1:
        armour //= 2
        shown = f"DR {armour} (halved)"
    elif armour and a.penetration >= 2:
        armour, shown = 0, "DR 0 (pierced)"
    extra = sum(v for _, v in d.extra_dr)
    if extra:
        shown += "".join(f" {'+' if v >= 0 else '−'} {label} {abs(v)}" for label, v in d.extra_dr)
    return max(0, armour + extra), shown  # Engineering's -5 never makes DR negative


def resolve(dice: Dice, a: Attack, d: Defence) -> Hit:
    face, index = dice.d(100, a.attacker, a.purpose)
    r = face + a.adj_acc - (d.agility if a.subtract_agility else 0)
    steps = [f"d100 {face} + AdjAcc {a.adj_acc}" + (f" − Agi {d.agility}" if a.subtract_agility else "") + f" = {r}"]

    def done(outcome: Outcome, note: str, **kw) -> Hit:
        steps[-1] += f" {'≤' if r <= OVER else '>'} {OVER}: {note}"
        raw = outcome
        outcome = _adjust(outcome, a)
        if outcome != raw:
            steps.append(f"{raw} → {outcome}")
        roll = Roll(actor=a.attacker, purpose=a.purpose, expr="1d100", faces=(face,), formula=", ".join(steps),
                    total=r, index=index)
        return Hit(roll=roll, outcome=outcome, raw=raw, **{"armour_hp": d.armour_hp, **kw})

    if r <= OVER:
        return done("miss", "miss")
    for i, piece in enumerate(d.cover):
        value, how = cover_value(piece, d, a.explosion)
        r -= value
        steps.append(f"− cover {value} ({piece.label}, {how}) = {r}")
        if r <= OVER:
            return done("cover", f"hits the {piece.label}", cover=i, cover_hp=max(0, piece.hp - 1))
    if a.status_only:
        return done("hit", "hit")
    dr, shown = dr_of(a, d)
    r -= dr
    steps.append(f"− {shown} = {r}")
    armour_hp = max(0, d.armour_hp - 1)
    if r <= OVER:
        return done("glancing", "glancing hit", armour_hp=armour_hp)
    dt = max(0, a.dt + d.endurance)
    tiers = WOUNDS if a.revised else WOUNDS[:3]
    for outcome in tiers[:-1]:
        r -= dt
        steps.append(f"− DT {dt} = {r}")
        if r <= OVER:
            return done(outcome, f"{outcome} wound", armour_hp=armour_hp)
    return done(tiers[-1], f"{tiers[-1]} wound", armour_hp=armour_hp)


def _adjust(outcome: Outcome, a: Attack) -> Outcome:
    if a.shift and outcome in LADDER[:-2]:  # glancing, minor, severe move up; never past Mortal
        outcome = LADDER[min(LADDER.index(outcome) + a.shift, LADDER.index("mortal"))]
    if a.cap is not None and outcome in WOUNDS and WOUNDS.index(outcome) > WOUNDS.index(a.cap):
        outcome = a.cap
    return outcome


def volley(dice: Dice, attacks: Sequence[Attack], d: Defence,
           wear: Callable[[], Roll] | None = None) -> tuple[tuple[Hit, ...], Defence]:
    """Several rolls at one target (a burst, a spray's rolls at it, a blast ring): armour HP and cover HP carry
    from roll to roll, and a destroyed cover piece no longer stands in the way. A hit on cover takes 1 HP, or
    what `wear` rolls (explosions)."""
    hits: list[Hit] = []
    for a in attacks:
        hit = resolve(dice, a, d)
        cover = d.cover
        if hit.cover is not None:
            if wear is not None:
                damage = wear()
                hit = attrs.evolve(hit, wear=damage, cover_hp=max(0, cover[hit.cover].hp - damage.total))
            piece = attrs.evolve(cover[hit.cover], hp=hit.cover_hp)
            cover = cover[:hit.cover] + ((piece,) if piece.hp > 0 else ()) + cover[hit.cover + 1:]
        hits.append(hit)
        d = attrs.evolve(d, armour_hp=hit.armour_hp, cover=cover)
    return tuple(hits), d
