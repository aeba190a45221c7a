"""The trials `benchmarks/run.py` times are the trials the full referee gives: for each ruleset with `resolve`, its
benchmarked scenario resolved on many seeds by the fast plan and by the referee alone, compared seed by seed."""

from __future__ import annotations

import pytest

from benchmarks.bench_engine import TRIAL_SCENARIOS
from engine.content import loader
from engine.content.scenario import seeded
from engine.core.dice import Dice
from engine.core.ruleset import available, kind, make
from engine.play import trials

WITH_RESOLVE = [r for r in available() if kind(r).scenario is not None]


@pytest.fixture(scope="module")
def content():
    return loader.load()


def test_every_ruleset_with_resolve_has_a_benchmarked_trial():
    assert WITH_RESOLVE and set(WITH_RESOLVE) <= set(TRIAL_SCENARIOS)


@pytest.mark.parametrize("ruleset", WITH_RESOLVE)
def test_the_fast_path_equals_the_full_referee_seed_by_seed(content, ruleset):
    sc = loader.load_scenario(TRIAL_SCENARIOS[ruleset])
    rules = make(ruleset, content, None)
    units, _ = rules.scenario_units(sc, Dice(seeded(0)))
    assert rules.trial_plan(units, sc.action) is not None  # the fast path is the one compared
    for seed in range(16):
        fast = trials.run(content, sc, 250, seed)
        assert fast == trials.run(content, sc, 250, seed, fast=False), seed
        assert fast["trials"] == 250 and fast["units"]
