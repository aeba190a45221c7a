"""Exact odds of a pool before it is rolled: the distribution of hits and of unsaved hits (the targeting panel's
numbers, and `resolve --trials`' expectation), as fractions."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from engine.rules.neo_troops.damage import save_needed

Dist = dict[int, Fraction]  # value -> probability


def face_at_least(need: int) -> Fraction:
    """P(d6 ≥ need)."""
    return Fraction(max(0, min(6, 7 - need)), 6)


def binomial(n: int, p: Fraction) -> Dist:
    return {k: comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}


def hits(base: int, n: int, av: int, modifier: int = 0) -> Dist:
    """N-2.3: the number of kept dice that reach the AV. Keeping the B highest of n dice hits min(B, the dice
    that reach it); with n ≤ 0 the lower of two dice is the one attack."""
    p = face_at_least(av - modifier)
    if n <= 0:
        return {0: 1 - p * p, 1: p * p}
    out: Dist = {}
    for k, prob in binomial(n, p).items():
        out[min(base, k)] = out.get(min(base, k), Fraction(0)) + prob
    return out


def unsaved(dist: Dist, save: int | None, save_mod: int, per_hit: int = 1) -> Dist:
    """N-16.3: each hit (× the weapon's hits) saved on its own die; a harmless weapon leaves nothing."""
    kind, required = save_needed(save, save_mod)
    if kind == "harmless":
        return {0: Fraction(1)}
    through = Fraction(1) if kind == "none" else 1 - face_at_least(required or 7)
    out: Dist = {}
    for h, prob in dist.items():
        for k, q in binomial(h * per_hit, through).items():
            out[k] = out.get(k, Fraction(0)) + prob * q
    return out


def mean(dist: Dist) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


def shown(dist: Dist) -> str:
    """`0: 25.0% · 1: 50.0% · 2: 25.0%` for the panel."""
    return " · ".join(f"{k}: {float(p) * 100:.1f}%" for k, p in sorted(dist.items()) if p)


def short(dist: Dist) -> str:
    """`0–4: 3 16 31 31 19%`: the chance of each count from the least to the most, in whole percent (`<1` for a
    chance under one), short enough for the 30 columns of the panel at 80×24 (the log keeps the exact odds)."""
    keys = [k for k, p in dist.items() if p]
    lo, hi = min(keys), max(keys)
    pct = [float(dist.get(k, 0)) * 100 for k in range(lo, hi + 1)]
    said = " ".join("<1" if 0 < x < 0.5 else f"{x:.0f}" for x in pct)
    return f"{lo}: {said}%" if lo == hi else f"{lo}–{hi}: {said}%"
