"""Sections 1–3: pools of d6, keep the best, the zero-dice rule, multiple-dice tests and the armour value.

A pool is built from named dice modifiers (`Mods`), thrown once, and written down as one `Roll` whose formula
shows how many dice and why, every face in the order rolled, and which were kept:
`snap n=1+1 accuracy+1 still=3: 3d6 [2 5 3] best 5 vs AV 4: hit`.
"""

from __future__ import annotations

from typing import Callable, Iterable, Literal

import attrs

from engine.core.dice import Dice, Roll

Mods = tuple[tuple[str, int], ...]  # (why, dice): ("base", 1), ("accuracy", 2), ("severe wound", -1)


def spelled(mods: Mods) -> str:
    """The modifiers as a sum a player writes: `1+2 accuracy-1 severe wound`."""
    parts = []
    for i, (why, d) in enumerate(mods):
        sign = "" if i == 0 and d >= 0 else ("+" if d >= 0 else "-")
        parts.append(f"{sign}{abs(d)}{'' if why == 'base' else ' ' + why}")
    return "".join(parts)


def count(mods: Mods) -> tuple[int, str]:
    """The number of dice and how it was reached: `n=1+2 accuracy-1 severe wound=2` (`n=1` for the base alone)."""
    n = sum(d for _, d in mods)
    return n, f"n={n}" if len(mods) == 1 else f"n={spelled(mods)}={n}"


@attrs.frozen
class Pool:
    """One thrown pool: every face, the dice kept as attacks (highest first), and the rule that kept them."""

    base: int  # B: attacks the action has (1 for a single-die test)
    n: int  # dice the modifiers came to; may be 0 or less
    faces: tuple[int, ...]  # in the order rolled
    kept: tuple[int, ...]
    rule: Literal["best", "all", "lower"]
    index: int  # stream index of the first face (-1 for scripted dice)

    @property
    def result(self) -> int:
        """The die a single-die test reads (N-1.5)."""
        return self.kept[0]

    @property
    def missed(self) -> int:
        """Attacks that cannot hit because fewer dice were thrown than B (N-2.2)."""
        return self.base - len(self.kept)

    @property
    def discarded(self) -> tuple[int, ...]:
        rest = list(self.faces)
        for k in self.kept:
            rest.remove(k)
        return tuple(rest)

    def text(self) -> str:
        """`4d6 [6 5 2 1] keep 6,5`, `2d6 [5 3] lower 3`, `3d6 [2 5 3] best 5`."""
        shown = f"{len(self.faces)}d6 [{' '.join(map(str, self.faces))}]"
        kept = ",".join(map(str, self.kept))
        if self.rule == "lower":
            return f"{shown} lower {kept}"
        if self.rule == "all":
            return f"{shown} keep all" if len(self.faces) > 1 else shown
        return f"{shown} best {kept}" if self.base == 1 else f"{shown} keep {kept}"


def throw(dice: Dice, actor: str, purpose: str, base: int, n: int) -> Pool:
    """N-2.3 (N-1.5 is the case base = 1): n ≥ B keeps the B highest, 1 ≤ n < B keeps all, n ≤ 0 rolls two
    and keeps the lower as the one attack die."""
    faces, first = [], -1
    for i in range(2 if n <= 0 else n):
        face, index = dice.d(6, actor, purpose)
        faces.append(face)
        first = index if i == 0 else first
    ordered = sorted(faces, reverse=True)
    if n <= 0:
        return Pool(base, n, tuple(faces), (ordered[-1],), "lower", first)
    if n > base:
        return Pool(base, n, tuple(faces), tuple(ordered[:base]), "best", first)
    return Pool(base, n, tuple(faces), tuple(ordered), "all", first)


def die(dice: Dice, sides: int, actor: str, purpose: str, formula: Callable[[int], str]) -> Roll:
    """One die that is not a pool (initiative, a critical, a random pick), written by `formula(face)`."""
    face, index = dice.d(sides, actor, purpose)
    return Roll(actor=actor, purpose=purpose, expr=f"1d{sides}", faces=(face,), formula=formula(face),
                total=face, index=index)


def record(pool: Pool, actor: str, purpose: str, how: str, tail: str, total: int) -> Roll:
    """The pool as one Roll: `<purpose> <how>: <faces and keeps> <tail>`."""
    return Roll(actor=actor, purpose=purpose, expr=f"{len(pool.faces)}d6", faces=pool.faces,
                formula=f"{purpose} {how}: {pool.text()} {tail}", total=total, index=pool.index,
                kept=kept_indices(pool))


def kept_indices(pool: Pool) -> tuple[int, ...]:
    """Roll.kept: the indices into `faces` of the kept dice (each kept value at its first unused place), or ()
    when every die counts."""
    if len(pool.kept) == len(pool.faces):
        return ()
    used: list[int] = []
    for k in pool.kept:
        used.append(next(i for i, f in enumerate(pool.faces) if f == k and i not in used))
    return tuple(sorted(used))


@attrs.frozen
class Check:
    """A single-die-result test (N-1.5)."""

    pool: Pool
    tn: int
    modifier: int
    success: bool
    roll: Roll


def check(dice: Dice, actor: str, purpose: str, mods: Mods, tn: int, modifier: int = 0) -> Check:
    """Roll the pool, read the best die (the lower of two at zero dice), add the direct modifier, compare to
    TN. There is no automatic 6: a TN above 6 after modifiers cannot succeed."""
    n, how = count(mods)
    pool = throw(dice, actor, purpose, 1, n)
    ok = pool.result + modifier >= tn
    shown = f"{modifier:+d}={pool.result + modifier} " if modifier else ""
    roll = record(pool, actor, purpose, how, f"{shown}vs TN {tn} {'✓' if ok else '✗'}", pool.result + modifier)
    return Check(pool, tn, modifier, ok, roll)


@attrs.frozen
class Attack:
    """A pool of attack dice against one AV (N-2.3): each kept die is one attack."""

    pool: Pool
    av: int
    hits: int  # kept dice that reached the AV
    roll: Roll


def hits_word(k: int) -> str:
    return f"{k} hit{'s' * (k != 1)}"


def attack(dice: Dice, actor: str, purpose: str, base: int, mods: Mods, av: int, modifier: int = 0) -> Attack:
    n, how = count(mods)
    pool = throw(dice, actor, purpose, base, n)
    hits = sum(1 for d in pool.kept if d + modifier >= av)
    word = ("hit" if hits else "miss") if base == 1 else hits_word(hits)
    lost = f" ({pool.missed} cannot hit)" if pool.missed else ""
    bonus = f" {modifier:+d}" if modifier else ""
    roll = record(pool, actor, purpose, how, f"vs AV {av}{bonus}: {word}{lost}", hits)
    return Attack(pool, av, hits, roll)


def difficulty(tables: dict, name: str) -> int:
    """N-1.2: the TN of a named difficulty."""
    return tables["difficulties"][name].tn


def effective_av(av: int, cover: Iterable[str], covers: dict, cap: int, unseen: bool = False,
                 unseen_av: int = 6) -> int:
    """N-3.2–N-3.4: the better cover bonus only, capped; an unseen target whose cell is known is AV 6, cover or
    not. Melee passes no cover."""
    if unseen:
        return unseen_av
    bonus = max((covers[c].av for c in cover), default=0)
    return min(cap, av + bonus)
