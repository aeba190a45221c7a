"""`resolve --trials` for xxxzone, annihilation and neo-troops: the fast plans give what the full referee gives, trial
for trial and die for die; the bare faces are the engine's; the kernel's tally of a ruleset's categories."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import attrs
import pytest

from engine.content import loader
from engine.content.scenario import Verdict, seeded
from engine.core.bare import Steps, Words
from engine.core.dice import Dice, Faces, seed_from_int
from engine.core.model import Unit
from engine.core.ruleset import make
from engine.play import trials

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs/scenarios").glob("[anx]*/*.toml"))


@pytest.fixture(scope="module")
def content():
    return loader.load()


def variants():
    """Every example scenario of the three rulesets, and the bursts and hunkering their plain shots leave out."""
    out = [(p.relative_to(ROOT).as_posix(), loader.load_scenario(p)) for p in DOCS]
    shot = loader.load_scenario(ROOT / "docs/scenarios/xxxzone/shot.toml")
    out.append(("xxxzone burst", attrs.evolve(shot, action=attrs.evolve(shot.action, mode="burst", aim=0))))
    zhetan = attrs.evolve(shot.units["zhetan"], hunkered=True)
    out.append(("xxxzone hunkered, reaction", attrs.evolve(shot, units={**shot.units, "zhetan": zhetan},
                                                           action=attrs.evolve(shot.action, reaction=True))))
    snap = loader.load_scenario(ROOT / "docs/scenarios/annihilation/shoot.toml")
    for mode in ("auto", "aimed"):
        out.append((f"annihilation {mode}", attrs.evolve(snap, action=attrs.evolve(snap.action, mode=mode,
                                                                                    from_behind=True))))
    spray = loader.load_scenario(ROOT / "docs/scenarios/neo-troops/spray.toml")
    out.append(("neo-troops snap", attrs.evolve(spray, action=attrs.evolve(spray.action, mode="snap"))))
    return out


CASES = variants()


def test_every_example_of_the_three_rulesets_is_covered():
    assert {sc.ruleset for _, sc in CASES} == {"xxxzone", "annihilation", "neo-troops"}
    assert len(DOCS) >= 9


@pytest.mark.parametrize("name", [n for n, _ in CASES])
def test_the_fast_path_equals_the_full_referee(content, name):
    sc = dict(CASES)[name]
    for seed in (1, 2):
        assert trials.run(content, sc, 40, seed) == trials.run(content, sc, 40, seed, fast=False)


@pytest.mark.parametrize("name", ["docs/scenarios/xxxzone/shot.toml", "xxxzone burst", "annihilation auto",
                                  "docs/scenarios/neo-troops/spray.toml"])
def test_the_plan_counts_each_outcome_and_draws_the_same_dice(content, name):
    sc = dict(CASES)[name]
    rules = make(sc.ruleset, content, None)
    for seed in range(2):
        faces = seeded(seed)
        units, _ = rules.scenario_units(sc, Dice(faces))
        plan = rules.trial_plan(units, sc.action)
        assert plan is not None
        fast = plan.run(faces, 40)
        dice = Dice(faces)
        expected: dict[str, int] = {}
        for _ in range(40):
            changes = repr(rules.referee(units, sc.action, dice).changes)
            expected[changes] = expected.get(changes, 0) + 1
        found: dict[str, int] = {}
        for verdict, k in fast:
            found[repr(verdict.changes)] = found.get(repr(verdict.changes), 0) + k
        assert found == expected
        assert plan.drawn == dice.counters


def test_actions_beyond_the_plain_shot_go_to_the_full_referee(content):
    for name in ("docs/scenarios/annihilation/melee.toml", "docs/scenarios/annihilation/throw.toml",
                 "docs/scenarios/neo-troops/grenade.toml", "docs/scenarios/neo-troops/spray-two.toml"):
        sc = dict(CASES)[name]
        rules = make(sc.ruleset, content, None)
        units, _ = rules.scenario_units(sc, Dice(seeded(1)))
        assert rules.trial_plan(units, sc.action) is None, name


def test_xxxzone_outcome_shares_meet_the_exact_odds(content):
    """20,000 trials of Johnny's shot against the targeting panel's exact odds of its one roll (shooting.odds)."""
    from engine.rules.xxxzone import shooting

    sc = dict(CASES)["docs/scenarios/xxxzone/shot.toml"]
    rules = make("xxxzone", content, None)
    units, _ = rules.scenario_units(sc, Dice(seeded(1)))
    plan = rules.trial_plan(units, sc.action)
    exact = dict(shooting.odds(tuple(plan.attacks), plan.first.key[2])[0])  # the first roll's key: (0, attack, defence)
    got = trials.run(content, sc, 20_000, 1)["units"]["zhetan"]["outcomes"]["outcome"]
    assert set(got) == {k for k, p in exact.items() if p}
    for outcome, p in exact.items():
        assert abs(got.get(outcome, 0) - float(p)) < 0.015, outcome
    assert exact == {"cover": Fraction(8, 100), "glancing": Fraction(55, 100), "minor": Fraction(37, 100)}


def test_bare_faces_are_the_engines_faces():
    faces = Faces(seed_from_int(7))
    words = Words(faces, {"main": 5, "other": 3})
    for i in range(5, 70):
        sides = (100, 6, 20, 4, 3)[i % 5]
        assert words.draw(sides) == faces.face("main", i, sides)
    assert [words.draw(6, "other") for _ in range(10)] == [faces.face("other", i, 6) for i in range(3, 13)]
    assert words.counters == {"main": 70, "other": 13}


def test_a_step_runs_once_per_run_of_faces_and_gives_its_own_result():
    """A d6 then, on a 6, another: the step runs for the root, each first face, and each face after a 6."""
    def step(key, dice):
        first, _ = dice.d(6, "x", "first")
        return first + (dice.d(6, "x", "again")[0] if first == 6 else 0) + key

    steps = Steps(step)
    faces = Faces(seed_from_int(3))
    words = Words(faces)
    root = steps.root(100)
    got = [steps.walk(root, words).result for _ in range(2000)]
    dice = Dice(faces)
    assert got == [step(100, dice) for _ in range(2000)]
    assert steps.runs == 1 + 6 + 6
    assert words.counters == dice.counters


def test_an_orderless_step_runs_once_per_multiset_and_gives_its_own_result():
    """3d6 keeping the best two: the same faces in any order share one node, and each trial's result is still
    the step's on its own faces."""
    def step(key, dice):
        faces = sorted((dice.d(6, "x", "pool")[0] for _ in range(3)), reverse=True)
        return sum(faces[:key])

    steps = Steps(step, orderless=True)
    faces = Faces(seed_from_int(4))
    words = Words(faces)
    root = steps.root(2)
    got = [steps.walk(root, words).result for _ in range(3000)]
    dice = Dice(faces)
    assert got == [step(2, dice) for _ in range(3000)]
    assert steps.runs == 1 + 6 + 21 + 56  # the multisets of 0 to 3 faces of a d6
    assert words.counters == dice.counters


@pytest.mark.parametrize("name", ["docs/scenarios/neo-troops/spray.toml", "neo-troops snap",
                                  "docs/scenarios/xxxzone/shot.toml", "xxxzone burst", "annihilation auto",
                                  "docs/scenarios/annihilation/shoot.toml"])
def test_the_fast_path_equals_the_full_referee_on_many_seeds(content, name):
    """Long runs, so the memoised steps meet most runs of faces (orderless pools included)."""
    sc = dict(CASES)[name]
    for seed in range(3, 8):
        assert trials.run(content, sc, 300, seed) == trials.run(content, sc, 300, seed, fast=False)


class _Rules:
    """The two seams `tally` reads: a unit's report, and the ruleset's own categories."""

    def unit_report(self, before, after):
        from engine.content.scenario import UnitReport

        return UnitReport(line="", numbers={"hp_lost": before.hp - after.hp})

    def trial_tally(self, action, verdict):
        return {"t": {"outcome": verdict.outcome, "hp": verdict.after["t"].hp}}


def test_the_kernel_turns_a_rulesets_categories_into_shares():
    t = Unit(id="t", name="T", template="t", race="r", side="aliens", glyph="t", pos=(0, 0), facing=0, hp=10,
             hp_max=10)
    sc = attrs.make_class("Sc", ["ruleset", "action"])("stub", None)
    miss = Verdict([], {"t": t}, {}, "", outcome="miss")
    hit = Verdict([], {"t": t}, {"t": {"hp": 4}}, "", outcome="minor")
    dead = Verdict([], {"t": t}, {"t": {"hp": 0, "status": "dead"}}, "", outcome="lethal")
    got = trials.tally(_Rules(), sc, {"t": t}, [(miss, 5), (hit, 3), (dead, 2)], 10, 1)["units"]["t"]
    assert got["p_hit"] == 0.5 and got["p_dead"] == 0.2 and got["mean_hp_lost"] == pytest.approx(3.8)
    assert got["outcomes"] == {"outcome": {"miss": 0.5, "minor": 0.3, "lethal": 0.2},
                               "hp": {"0": 0.2, "4": 0.3, "10": 0.5}}
