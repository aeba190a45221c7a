"""The trials fast path (a ruleset's `trial_plan`) gives what the full referee gives, trial for trial."""

from __future__ import annotations

import itertools

import pytest

from engine.content import loader
from engine.content.scenario import seeded
from engine.rules.xcom_trpg.scenario import Action, Scenario, ScenarioUnit, make_units
from engine.core.dice import Dice
from engine.core.ruleset import make
from engine.play import trials

HUMAN = {"strength": 7, "agility": 6, "intelligence": 6, "bravery": 6, "charisma": 4, "luck": 6, "psionics": 1}
LUCKY = dict(HUMAN, luck=9, agility=9)
SECTOID = {"strength": 4, "agility": 7, "intelligence": 8, "bravery": 4, "charisma": 3, "luck": 6, "psionics": 4}


@pytest.fixture(scope="module")
def content():
    return loader.load()


def scenario(weapon: str, race: str, armor: str, between: int, sees: bool, cover: str, hp: int = 35,
             stats=SECTOID, shooter=HUMAN, mode: str = "single") -> Scenario:
    units = {"shooter": ScenarioUnit(race="human", stats=shooter, weapon=weapon, hp=60),
             "target": ScenarioUnit(race=race, stats=stats, armor=armor, hp=hp)}
    return Scenario(ruleset="xcom-trpg", units=units,
                    action=Action(type="shoot", actor="shooter", target="target", sectors_between=between,
                                  target_sees_actor=sees, cover=cover, mode=mode))


CASES = [scenario(w, race, armor, between, sees, cover, hp)
         for w, race, armor, between, sees, cover, hp in itertools.product(
             ["rifle", "pistol", "casull_454", "plasma_rifle"], ["sectoid", "muton"], ["none", "heavy"],
             [0, 3], [True, False], ["none", "partial"], [35, 3])]
CASES += [scenario("rifle", "human", "light", 2, True, "none", 10, stats=LUCKY, shooter=LUCKY),
          scenario("rifle", "human", "none", 5, True, "full"), scenario("shotgun", "sectoid", "none", 1, True, "none"),
          scenario("machine_gun", "muton", "medium", 2, True, "none", mode="burst"),
          scenario("sniper_rifle", "sectoid", "none", 3, True, "none", mode="sniper")]


def full_outcomes(content, sc: Scenario, n: int, seed: int):
    faces = seeded(seed)
    units, _ = make_units(content, sc, Dice(faces))
    dice = Dice(faces)
    rules = make(sc.ruleset, content, None)
    return units, [rules.referee(units, sc.action, dice).changes for _ in range(n)], dice.counters.get("main", 0)


@pytest.mark.parametrize("i", range(len(CASES)))
def test_the_fast_path_equals_the_full_referee(content, i):
    sc = CASES[i]
    for seed in range(4):
        assert trials.run(content, sc, 150, seed) == trials.run(content, sc, 150, seed, fast=False)


def test_the_plan_counts_each_outcome_and_uses_the_same_dice(content):
    """Outcome by outcome (not only the averages) and die for die, over many seeds."""
    rules = make("xcom-trpg", content, None)
    checked = 0
    for sc, seed in itertools.product(CASES[:32], range(25)):
        units, changes, drawn = full_outcomes(content, sc, 40, seed)
        plan = rules.trial_plan(units, sc.action)
        if plan is None:
            continue
        fast = plan.run(seeded(seed), 40)
        assert plan.drawn == drawn
        expected: dict[str, int] = {}
        for c in changes:
            expected[repr(c)] = expected.get(repr(c), 0) + 1
        found: dict[str, int] = {}
        for v, k in fast:
            found[repr(v.changes)] = found.get(repr(v.changes), 0) + k
        assert found == expected
        checked += 1
    assert checked >= 30


def test_actions_the_plan_does_not_follow_go_to_the_full_referee(content):
    rules = make("xcom-trpg", content, None)
    for sc in CASES[-4:]:  # full cover, pellets, a burst, a sniper shot
        units, _ = make_units(content, sc, Dice(seeded(1)))
        assert rules.trial_plan(units, sc.action) is None
