"""neo-troops exact odds: checked against every outcome of the dice, rolled through the rules themselves."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from engine.core.dice import Dice
from engine.rules.neo_troops import odds, pools


def enumerate_hits(base: int, n: int, av: int, modifier: int = 0) -> dict[int, Fraction]:
    """Roll every combination of faces through pools.attack and count the hits."""
    rolled = 2 if n <= 0 else n
    counts: Counter[int] = Counter()
    for faces in product(range(1, 7), repeat=rolled):
        a = pools.attack(Dice.scripted(list(faces)), "x", "odds", base, (("base", n),), av, modifier)
        counts[a.hits] += 1
    total = 6 ** rolled
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("base, n, av, modifier", [
    (1, 3, 4, 0), (1, 0, 4, 0), (1, -2, 5, 0), (4, 3, 4, 0), (3, 5, 5, 0), (2, 4, 6, 0), (1, 2, 5, 2), (2, 2, 7, 0)])
def test_the_hit_distribution_matches_every_outcome(base, n, av, modifier):
    got = {k: p for k, p in odds.hits(base, n, av, modifier).items() if p}
    assert got == enumerate_hits(base, n, av, modifier)


def test_the_aimed_snap_shot_of_tv_n2_hits_seven_times_in_eight():
    assert odds.hits(1, 3, 4) == {0: Fraction(1, 8), 1: Fraction(7, 8)}
    assert odds.hits(1, 0, 4)[1] == Fraction(1, 4)  # the lower of two dice


def test_unsaved_hits_follow_the_save():
    two = {2: Fraction(1)}
    assert odds.unsaved(two, 4, -2) == {0: Fraction(1, 36), 1: Fraction(10, 36), 2: Fraction(25, 36)}  # needs 6
    assert odds.unsaved(two, 5, -2) == {0: 0, 1: 0, 2: Fraction(1)}  # needs 7: no save
    assert odds.unsaved(two, 3, 2) == {0: Fraction(1)}  # needs 1: harmless
    assert odds.unsaved({1: Fraction(1)}, None, 0, per_hit=2) == {0: 0, 1: 0, 2: Fraction(1)}
    dist = odds.unsaved(odds.hits(1, 3, 4), 4, 0)
    assert odds.mean(dist) == Fraction(7, 16) and sum(dist.values()) == 1
    assert odds.shown({0: Fraction(1, 4), 1: Fraction(3, 4)}) == "0: 25.0% · 1: 75.0%"


def test_the_panel_says_a_distribution_in_whole_percent_from_least_to_most():
    from engine.rules.neo_troops.odds import short

    assert short({0: Fraction(1, 32), 1: Fraction(5, 32), 2: Fraction(10, 32), 3: Fraction(10, 32),
                  4: Fraction(6, 32)}) == "0–4: 3 16 31 31 19%"
    assert short({0: Fraction(996, 1000), 2: Fraction(4, 1000)}) == "0–2: 100 0 <1%"  # a gap says 0
    assert short({0: Fraction(1)}) == "0: 100%"
    assert len("Hits  " + short(odds.hits(6, 7, 4))) <= 30  # a heavy plasma gun's spray fits the 30 columns


def test_a_long_pool_takes_two_rows_of_the_panel_and_neither_wraps():
    from engine.rules.neo_troops.panel import dice_rows

    short = dice_rows((("base", 4), ("accuracy", 1)), 4)
    assert [(r.label, r.text) for r in short] == [("Dice", " n=4+1 accuracy=5 vs AV 4 ")]
    long = dice_rows((("base", 4), ("accuracy", 1), ("combined", -1)), 6)
    assert [(r.label, r.text) for r in long] == [("Dice", " n=4 vs AV 6 "), ("From", " 4+1 accuracy-1 combined ")]
    zero = dice_rows((("base", 1), ("severe wound", -1), ("long range", -1)), 4)
    assert [r.text for r in zero] == [" n=-1: 2d6, lower vs AV 4 ", " 1-1 severe wound-1 long ", " range "]
    assert all(len(f"{r.label}  {r.text.strip()}") <= 30 for r in long + zero)
