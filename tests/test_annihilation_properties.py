"""annihilation properties over many random cases: TU never negative, no partial action, Energy within
0…Stm_eff, no reaction shot without its TUs, armour that only wears, blasts that only fade."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings, strategies as st

from engine.content import loader, tables
from engine.core.commands import Rejected
from engine.core.dice import Dice, Faces, seed_from_int
from engine.rules.annihilation import armour, blast, character as ch, fire, moves, phase, wounds
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter, deploy, stamina_effective
from engine.rules.annihilation.moves import Step
from engine.rules.annihilation.schema import SCHEMA, STATS

BOOK = Book.of(tables.load_folder(loader.default_dir(), "annihilation", SCHEMA))
SOME = settings(max_examples=30, deadline=None, derandomize=True, database=None)
stat = st.integers(17, 80)
steps = st.builds(Step, st.sampled_from(["walk", "stairs_up", "stairs_down", "climb_up", "climb_down", "jump"]),
                  st.booleans(), st.sampled_from(sorted(BOOK.terrain)))


def fighter(tu: int, stm: int, rct: int = 50, hth: int = 50, brv: int = 50, armour_id: str = "none") -> Fighter:
    stats = {s: 50 for s in STATS} | {"time_units": tu, "stamina": stm, "reactions": rct, "health": hth,
                                       "bravery": brv}
    return deploy(BOOK, ch.Character(id="op", name="Op", stats=ch.Stats(**stats), skills=ch.baseline(BOOK),
                                     armour=armour_id))


@SOME
@given(tu=stat, stm=stat, path=st.lists(steps, max_size=12), spent=st.integers(0, 80))
def test_a_path_is_paid_whole_or_refused_and_never_overdraws(tu, stm, path, spent):
    f = attrs.evolve(fighter(tu, stm), tu_left=max(0, tu - spent))
    got = moves.walk(BOOK, f, path)
    if isinstance(got, Rejected):
        assert got.code in ("no_tu", "no_energy")
        return
    after, prices = got
    assert after.tu_left == f.tu_left - sum(p.tu for p in prices) >= 0
    assert 0 <= after.energy == f.energy - sum(p.energy for p in prices) <= stamina_effective(BOOK, after)


@SOME
@given(seed=st.integers(0, 10**6), hits=st.lists(st.integers(0, 90), min_size=1, max_size=8), stm=stat,
       phases=st.integers(0, 3))
def test_wounds_keep_energy_within_stamina_and_the_dead_dead(seed, hits, stm, phases):
    dice = Dice(Faces(seed_from_int(seed)))
    f = fighter(60, stm, hth=60)
    dead = False
    wound_count = 0
    for amount in hits:
        got = wounds.damage(BOOK, dice, f, amount, "op")
        f = got.fighter
        wound_count += got.wounds
        dead = dead or f.status == "dead"
        assert (f.status == "dead") == dead
        assert 0 <= f.energy <= stamina_effective(BOOK, f)
        assert f.tu_left >= 0 and all(p.open <= p.total for _, p in f.wounds)
    assert f.character.stats.stamina == max(0, stm - wound_count)  # every wound, −1 Stamina for good, down to 0
    for _ in range(phases):
        f, _ = phase.start(BOOK, f, encumbrance=0)
        assert f.tu_left >= 0 and 0 <= f.energy <= stamina_effective(BOOK, f)
        assert (f.tu_left == 0) if f.status != "awake" else f.tu_left == f.tu_turn


@SOME
@given(actor=st.tuples(stat, st.integers(0, 80)), observers=st.lists(st.tuples(stat, st.integers(0, 80),
                                                                          st.integers(0, 3)), max_size=5))
def test_no_reaction_shot_without_its_tus_or_a_better_score(actor, observers):
    mover = attrs.evolve(fighter(80, 50, rct=actor[0]), tu_left=min(80, actor[1]))
    lookers = [(f"o{i}", attrs.evolve(fighter(80, 50, rct=r), tu_left=left), "m_17", loaded)
               for i, (r, left, loaded) in enumerate(observers)]
    for answer in fire.reactions(BOOK, mover, lookers):
        o = next(f for oid, f, _, _ in lookers if oid == answer.observer)
        if answer.fires:
            assert o.tu_left >= fire.shot_tu(BOOK, o, "m_17", "snap")
            assert answer.observer_score > answer.actor_score == fire.reaction_score(BOOK, mover)


@SOME
@given(kind=st.sampled_from(sorted(BOOK.armour)), shots=st.lists(st.tuples(st.sampled_from(armour.SIDES),
                                                                           st.integers(0, 200)), max_size=10))
def test_armour_only_wears_and_never_adds_damage_beyond_its_loss(kind, shots):
    state = armour.ArmourState.of(BOOK.armour[kind])
    for side, amount in shots:
        got = armour.hit(state, side, amount)
        assert got.armour.av10 <= state.av10 and all(getattr(got.armour, s) <= getattr(state, s) for s in armour.SIDES)
        assert all(getattr(got.armour, s) >= 0 for s in armour.SIDES)
        assert 0 <= got.through <= amount + got.excess and got.excess <= got.wear
        state = got.armour


@SOME
@given(damage=st.integers(0, 300), radius=st.integers(0, 15))
def test_a_blast_fades_outwards_and_stops_past_its_edge(damage, radius):
    seen = [blast.falloff(damage, b, radius) for b in range(radius + 3)]
    assert seen[0] == damage and all(a >= b for a, b in zip(seen, seen[1:])) and seen[radius + 1:] == [0, 0]
    assert len(blast.cells(BOOK, (0, 0), radius)) == 2 * radius * radius + 2 * radius + 1


@SOME
@given(acc=stat, near=st.integers(0, 40), far=st.integers(0, 40), weapon=st.sampled_from(
    ["mk2v_assault_rifle", "pistol_9mm", "pump_action_shot_gun", "smg_9mm", "mk7_sniper_rifle"]))
def test_distance_never_helps_and_sights_never_hurt(acc, near, far, weapon):
    base = fighter(60, 50)
    f = attrs.evolve(base, character=attrs.evolve(base.character, stats=attrs.evolve(base.character.stats,
                                                                                      accuracy=acc)))
    near, far = sorted((near, far))
    for mode in BOOK.weapons[weapon].modes:
        assert fire.to_hit(BOOK, f, weapon, mode, near).chance >= fire.to_hit(BOOK, f, weapon, mode, far).chance
        assert fire.to_hit(BOOK, f, weapon, mode, far, sights=2).chance >= \
            fire.to_hit(BOOK, f, weapon, mode, far, sights=1).chance >= fire.to_hit(BOOK, f, weapon, mode, far).chance
        assert fire.shot_tu(BOOK, f, weapon, mode, 2) >= fire.shot_tu(BOOK, f, weapon, mode, 0) >= 1


@pytest.mark.parametrize("stance", ["standing", "kneeling", "prone"])
def test_every_stance_change_is_the_sum_of_its_steps(stance):
    f = attrs.evolve(fighter(60, 50), stance=stance)
    for to in moves.STANCES:
        there = moves.stance_price(BOOK, f, to)
        back = moves.stance_price(BOOK, attrs.evolve(f, stance=to), stance)
        assert there.energy == back.energy == 0 and (there.tu == 0) == (to == stance) == (back.tu == 0)
