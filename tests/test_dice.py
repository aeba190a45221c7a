"""Dice: every face is a pure function of (seed, stream, index), uniform, and independent.

The statistical tests use fixed seeds, so they are deterministic: they either always pass or
always fail. Bounds are two-sided at p = 0.0001 each way: too good a fit (a counter, a cycle)
fails as surely as a biased die.
"""

from __future__ import annotations

import hmac
from collections import Counter
from statistics import NormalDist

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.dice import Dice, DiceExhausted, Faces, commitment, derive, seed_from_int

SEED = seed_from_int(1)


def chi2_bounds(df: int, p: float = 0.0001) -> tuple[float, float]:
    """Lower and upper χ² quantiles (p and 1-p), Wilson–Hilferty approximation."""

    def quantile(q: float) -> float:
        z = NormalDist().inv_cdf(q)
        return df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3

    return quantile(p), quantile(1 - p)


def chi2_uniform(values: list[int], cells: list) -> float:
    """Pearson χ² of `values` against equal counts in every one of `cells`."""
    counts = Counter(values)
    assert set(counts) <= set(cells), f"values outside the cells: {sorted(set(counts) - set(cells))[:5]}"
    expected = len(values) / len(cells)
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in cells)


def faces(seed: bytes, stream: str, indices, sides: int) -> list[int]:
    f = Faces(seed)
    return [f.face(stream, i, sides) for i in indices]


def test_chi2_helper_rejects_a_biased_and_a_too_perfect_die():
    low, high = chi2_bounds(99)
    loaded = [1 + (i * i) % 100 for i in range(100_000)]  # squares mod 100 miss most faces
    assert chi2_uniform(loaded, list(range(1, 101))) > high
    counter = [1 + i % 100 for i in range(100_000)]  # perfectly flat: not random
    assert chi2_uniform(counter, list(range(1, 101))) < low


# -- determinism ----------------------------------------------------------------------------


def test_same_seed_stream_index_gives_the_same_face():
    first = faces(SEED, "main", range(500), 100)
    again = faces(SEED, "main", range(500), 100)
    backwards = faces(SEED, "main", reversed(range(500)), 100)[::-1]
    assert first == again == backwards


def test_known_faces_never_change():
    """Pinned values: a change here means every saved log stops verifying (bump the log VERSION)."""
    assert seed_from_int(1).hex() == "3a83e013012f5b7fbde85687b151440835c0b55c4ea77ca5b32071a1645d52f6"
    assert faces(SEED, "main", range(12), 100) == [80, 85, 48, 10, 80, 66, 43, 47, 66, 2, 12, 66]
    assert faces(SEED, "setup", range(8), 10) == [4, 7, 7, 7, 2, 3, 4, 7]


def test_faces_are_a_function_of_the_seed_bytes_not_the_object():
    assert faces(seed_from_int(7), "main", range(64), 20) == faces(bytes(seed_from_int(7)), "main", range(64), 20)


def test_seed_from_int_and_commitment():
    assert seed_from_int(1) == seed_from_int(1)
    assert len({seed_from_int(n) for n in range(100)}) == 100
    assert len(SEED) == 32
    assert commitment(SEED) == commitment(seed_from_int(1))
    assert commitment(SEED) != commitment(seed_from_int(2))
    assert len(commitment(SEED)) == 64 and int(commitment(SEED), 16) >= 0


def test_different_seeds_give_different_sequences():
    assert faces(seed_from_int(1), "main", range(50), 100) != faces(seed_from_int(2), "main", range(50), 100)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(calls=st.lists(st.tuples(st.sampled_from(["main", "setup", "x"]), st.integers(0, 10_000),
                                st.sampled_from([1, 2, 6, 8, 10, 20, 100, 3 * 2**30, 2**32 - 1])),
                      min_size=1, max_size=30))
def test_a_face_does_not_depend_on_what_was_rolled_before(calls):
    """Faces caches digests; in any order, with any other rolls between, a face stays the same."""
    shared = Faces(SEED)
    for stream, index, sides in calls:
        face = shared.face(stream, index, sides)
        assert face == Faces(SEED).face(stream, index, sides) == derive(SEED, stream, index, sides).face
        assert 1 <= face <= sides


def test_a_one_sided_die_shows_one_and_a_zero_sided_die_is_refused():
    assert set(faces(SEED, "main", range(100), 1)) == {1}
    with pytest.raises(ValueError):
        derive(SEED, "main", 0, 0)


# -- auditability: derive() shows the work, and the work checks out ----------------------------


@pytest.mark.parametrize("sides", [2, 6, 100, 3 * 2**30])
def test_an_auditor_can_recompute_every_face_from_the_seed(sides):
    """The HMAC input and output that derive() reports are real, and the face follows from them."""
    limit = (1 << 32) - (1 << 32) % sides
    retried = 0
    for index in range(200):
        d = derive(SEED, "main", index, sides)
        digest = hmac.digest(SEED, d.message.encode(), "sha256")
        assert d.digest == digest.hex()
        words = [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4)]
        assert d.word in words
        assert d.word < limit, "a word in the rejected sliver would bias the die"
        assert d.face == d.word % sides + 1
        assert d.face == Faces(SEED).face("main", index, sides)
        retried += d.message != derive(SEED, "main", index, 1).message
    if sides == 3 * 2**30:  # a quarter of all words are rejected: the retry path must have run
        assert retried > 10


# -- uniformity -------------------------------------------------------------------------------


def test_chi_square_uniformity_of_100000_d100():
    rolled = faces(SEED, "main", range(100_000), 100)
    low, high = chi2_bounds(99)
    assert low < chi2_uniform(rolled, list(range(1, 101))) < high
    assert 50.0 < sum(rolled) / len(rolled) < 51.0  # the mean of 1..100 is 50.5; sd of the mean ~0.09


@pytest.mark.parametrize("sides", [2, 6, 8, 20, 3 * 2**30])
def test_other_dice_are_uniform_too(sides):
    n = 20_000
    rolled = faces(seed_from_int(2), "setup", range(n), sides)
    if sides > 100:  # too many faces to count: bin them into 10 equal ranges
        rolled = [(f - 1) * 10 // sides for f in rolled]
        cells = list(range(10))
    else:
        cells = list(range(1, sides + 1))
    low, high = chi2_bounds(len(cells) - 1)
    assert low < chi2_uniform(rolled, cells) < high


# -- independence -----------------------------------------------------------------------------


def chi2_pairs(a: list[int], b: list[int]) -> float:
    """χ² of (a, b) pairs of d10 faces against the 100 equally likely pairs of independent dice."""
    return chi2_uniform(list(zip(a, b)), [(x, y) for x in range(1, 11) for y in range(1, 11)])


N_PAIRS = 20_000


@pytest.mark.parametrize("case", ["streams", "seeds", "next_index", "next_digest", "same_word_next_block"])
def test_dice_are_independent(case):
    """Pairs of d10 faces fill the 10x10 table evenly: knowing one die tells nothing about the other."""
    idx = range(N_PAIRS)
    if case == "streams":  # same seed and index, different stream
        a, b = faces(SEED, "main", idx, 10), faces(SEED, "setup", idx, 10)
    elif case == "seeds":  # same stream and index, different seed
        a, b = faces(seed_from_int(1), "main", idx, 10), faces(seed_from_int(2), "main", idx, 10)
    elif case == "next_index":  # consecutive dice of one stream, in disjoint pairs
        both = faces(SEED, "main", range(2 * N_PAIRS), 10)
        a, b = both[0::2], both[1::2]
    elif case == "next_digest":  # last die of one 8-die block against the first of the next
        a = faces(SEED, "main", [8 * k + 7 for k in idx], 10)
        b = faces(SEED, "main", [8 * k + 8 for k in idx], 10)
    else:  # the same word position in neighbouring blocks
        a = faces(SEED, "main", [16 * k for k in idx], 10)
        b = faces(SEED, "main", [16 * k + 8 for k in idx], 10)
    low, high = chi2_bounds(99)
    assert low < chi2_pairs(a, b) < high


def test_streams_are_not_shifted_copies_of_each_other():
    main = faces(SEED, "main", range(2000), 100)
    setup = faces(SEED, "setup", range(2000), 100)
    for shift in range(0, 64):
        same = sum(x == y for x, y in zip(main[shift:], setup))
        assert same < 60, f"setup looks like main shifted by {shift}"  # ~20 expected by chance


# -- Dice: indices come from the state's counters ----------------------------------------------


def test_dice_take_indices_from_the_counters_and_advance_them():
    f = Faces(SEED)
    dice = Dice(f, {"main": 5})
    face, index = dice.d(100, "anton", "attack")
    assert (face, index) == (f.face("main", 5, 100), 5)
    face, index = dice.d(6, "anton", "hp", stream="setup")
    assert (face, index) == (f.face("setup", 0, 6), 0)
    assert dice.counters == {"main": 6, "setup": 1}


def test_dice_do_not_change_the_counters_they_were_given():
    counters = {"main": 3}
    Dice(Faces(SEED), counters).d(100, "a", "b")
    assert counters == {"main": 3}


def test_the_same_counters_give_the_same_faces():
    """What makes casual undo honest: rolling again from the same state rolls the same dice."""
    def roll_ten(counters):
        dice = Dice(Faces(SEED), counters)
        return [dice.d(100, "x", "y") for _ in range(10)]

    assert roll_ten({"main": 40}) == roll_ten({"main": 40})
    assert roll_ten({"main": 40}) != roll_ten({"main": 41})


def test_scripted_dice_are_used_in_order_and_name_the_roll_that_runs_out():
    dice = Dice.scripted([88, 3])
    assert dice.d(100, "anton", "attack") == (88, -1)
    assert dice.d(6, "anton", "damage") == (3, -1)
    assert dice.scripted_left == 0
    with pytest.raises(DiceExhausted, match=r"anton's luck check \(1d100\); 2 were given"):
        dice.d(100, "anton", "luck check")


def test_a_scripted_die_must_be_a_face_of_the_die():
    with pytest.raises(DiceExhausted, match=r"101 .*anton's attack.*1d100"):
        Dice.scripted([101]).d(100, "anton", "attack")
    with pytest.raises(DiceExhausted, match=r"1d6"):
        Dice.scripted([0]).d(6, "anton", "damage")
