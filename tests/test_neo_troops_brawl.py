"""N-15.3 in play: a melee of several attacks at several adjacent enemies (brawl.py), through `decide` on a staged
field with scripted dice: the attacks and Fighter dice divided before the throw, the one-throw sweep of alike
unskilled targets, the refusals, the menu, the AI's choice and `resolve`."""

from __future__ import annotations

import attrs
import pytest

from engine.core import ruleset
from engine.core.commands import Act, Rejected
from engine.core.reducer import fold
from engine.rules.neo_troops import battle, brawl, referee, views
from tests.test_neo_troops_actions import decide, field, formulas, played, told  # noqa: F401 - the fixture

ID = "neo-troops"


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.kind(ID)(content, None)


def hound_and_goons(rs, *goons):
    """An attack hound (Claws: B = 2, Fighter 1) of the squad's side beside goons (AV 4, Fighter 0, 1 HP)."""
    units = {"hound": ("hound", "xcom", (3, 3))}
    units.update({g: ("goon", "aliens", at) for g, at in goons})
    return field(rs, units, "hound")


def test_the_claws_have_two_attacks_and_the_hound_deploys_with_them(rs):
    state = hound_and_goons(rs, ("g1", (3, 4)))
    assert brawl.attacks(rs, state.units["hound"]) == 2
    assert brawl.shares(2, 1, 2) == [(1, 1), (1, 0)] and brawl.shares(3, 2, 2) == [(2, 1), (1, 1)]


def test_alike_unskilled_targets_share_one_throw_kept_and_assigned_as_spray(rs):
    """B = 2 + Fighter 1 = 3 dice, keep the 2 highest; each goon the lowest die that reaches AV 4 (N-10.4)."""
    state = hound_and_goons(rs, ("g1", (3, 4)), ("g2", (4, 4)))
    events = decide(rs, state, Act(unit="hound", action="melee", targets=("g1", "g2")), [6, 4, 1])
    assert formulas(events) == ["melee sweep n=2+1 fighter=3: 3d6 [6 4 1] keep 6,4 vs g1 AV 4: 1 hit, "
                                "g2 AV 4: 1 hit"]
    assert told(events) == ["Attack hound strikes Goon (g1) + Goon (g2) (Claws), one throw: 2 hits, 2 unsaved "
                            "(HP 1→0, dead; HP 1→0, dead)"]
    after = fold(state, events)
    assert {after.units[g].status for g in ("g1", "g2")} == {"dead"}


def test_skilled_targets_get_their_shares_before_the_throw_each_less_its_defence(rs):
    """Anna and Boris (Fighter 1 each): Anna gets the first attack and the Fighter die, n = 1 + 1 − 1 = 1; Boris
    the second attack alone, n = 1 − 1 = 0: two dice, the lower."""
    state = field(rs, {"hound": ("hound", "aliens", (3, 3)), "anna": ("anna", "xcom", (3, 4)),
                       "boris": ("boris", "xcom", (4, 4))}, "hound")
    state = attrs.evolve(state, record=attrs.evolve(battle.battle(state),
                                                    noticed=(("hound", "anna"), ("hound", "boris"))))
    # Anna: hit 5 vs AV 5, save 3 fails, external 6, critical 6 → massive, 2 → severe, limb 3 kept; Boris: 3, 3
    events = decide(rs, state, Act(unit="hound", action="melee", targets=("anna", "boris")), [5, 3, 6, 6, 2, 3, 3, 3])
    assert formulas(events) == [
        "melee n=1+1 fighter-1 defence=1: 1d6 [5] vs AV 5: hit", "save 4+ needs 4: 1d6=3 ✗",
        "external 1d6=6>=6 ✓", "critical varan 1d6=6 → massive", "critical massive 1d6=2 → severe",
        "limb severed? 1d6=3>=5 ✗", "melee n=1-1 defence=0: 2d6 [3 3] lower 3 vs AV 5: miss"]
    assert told(events) == ["Attack hound strikes Anna (Claws): 1 hit, 1 unsaved (bio_scanner damaged; HP 3→2; "
                            "severe wound, bleeding)", "Attack hound strikes Boris (Claws): 0 hits, 0 unsaved"]
    anna = fold(state, events).units["anna"].record
    assert (anna.hp, anna.severe_wounds, anna.bleeding) == (2, 1, 0)


def test_multi_target_refusals(rs):
    state = hound_and_goons(rs, ("g1", (3, 4)), ("g2", (4, 4)), ("g3", (2, 4)), ("g4", (8, 8)))
    hit = lambda *ids: decide(rs, state, Act(unit="hound", action="melee", targets=ids))  # noqa: E731
    assert hit("g1").code == "targets" and hit("g1", "g1").code == "targets"
    assert hit("g1", "g2", "g3").reason == "Attack hound has 2 melee attacks: at most 2 targets"
    assert hit("g1", "g4").code == "out_of_reach"
    assert hit("g1", "nobody").code == "no_target"
    one = field(rs, {"goon": ("goon", "xcom", (3, 3)), "g1": ("goon", "aliens", (3, 4)),
                     "g2": ("goon", "aliens", (4, 4))}, "goon")
    assert decide(rs, one, Act(unit="goon", action="melee", targets=("g1", "g2"))).reason == \
        "Goon (goon) has one melee attack: it strikes one target"


def test_the_menu_offers_the_shared_blow_and_the_ai_takes_it_when_it_wounds_more(played):  # noqa: F811
    state = hound_and_goons(played, ("g1", (3, 4)), ("g2", (4, 4)))
    hound = state.units["hound"]
    menu = {o.label: (o.command, o.note) for o in played.options(state, hound)}
    command, note = menu["Strike Goon (g1) + Goon (g2) (attacks shared)"]
    assert command == Act(unit="hound", action="melee", targets=("g1", "g2"))
    assert note == "one throw, n=2+1 fighter=3 keep 2 vs AV 4: a die for each first (N-15.3)"
    # one goon: 7/8 to wound it; both: 7/8 + 1/2 (two of the three dice reach 4)
    sweep, bs = brawl.blows(played, state, hound, ("g1", "g2"))
    assert sweep and brawl.wounding(bs, sweep) == pytest.approx(7 / 8 + 1 / 2)
    assert views.ai_special(played, state, hound, [], False) == command
    alone = hound_and_goons(played, ("g1", (3, 4)))
    assert views.ai_special(played, alone, alone.units["hound"], [], False) == Act(unit="hound", action="melee",
                                                                                  target="g1")


def test_resolve_stages_a_shared_melee(rs):
    sc = referee.Scenario(ruleset=ID, units={
        "hound": referee.ScUnit(template="hound", side="xcom", at=[3, 3]),
        "g1": referee.ScUnit(template="goon", side="aliens", at=[3, 4]),
        "g2": referee.ScUnit(template="goon", side="aliens", at=[4, 4])},
        action=referee.ScAction(type="melee", actor="hound", target="g1", also=["g2"]))
    assert referee.check(rs, sc) == []
    from engine.core.dice import Dice

    verdict = referee.referee(rs, referee.units(rs, sc), sc.action, Dice.scripted([6, 4, 1]))
    assert not isinstance(verdict, Rejected)
    assert [r.formula for r in verdict.rolls][0].startswith("melee sweep n=2+1 fighter=3: 3d6 [6 4 1] keep 6,4")
    assert set(verdict.changes) >= {"g1", "g2"}


def test_a_varan_of_the_squad_shares_its_claws_and_jaws_among_adjacent_foes(rs):
    """Anna (two attacks bare-handed, Fighter 1), unnoticed by two goons: surprise gives the superior die, and the
    alike unskilled goons share one throw, n = 2 + 1 + 1 = 4, keep 6, 4: g1 the 4, g2 the 6 (N-10.4)."""
    state = field(rs, {"anna": ("anna", "xcom", (3, 3)), "g1": ("goon", "aliens", (3, 4)),
                       "g2": ("goon", "aliens", (4, 4))}, "anna")
    assert brawl.attacks(rs, state.units["anna"]) == 2
    events = decide(rs, state, Act(unit="anna", action="melee", targets=("g1", "g2")), [6, 4, 2, 1])
    assert formulas(events) == ["melee sweep n=2+1 fighter+1 superior=4: 4d6 [6 4 2 1] keep 6,4 vs g1 AV 4: 1 hit, "
                                "g2 AV 4: 1 hit"]
    assert told(events) == ["Anna strikes Goon (g1) + Goon (g2) (bare-handed), one throw: 2 hits, 2 unsaved "
                            "(HP 1→0, dead; HP 1→0, dead)"]
    three = field(rs, {"anna": ("anna", "xcom", (3, 3)), "g1": ("goon", "aliens", (3, 4)),
                       "g2": ("goon", "aliens", (4, 4)), "g3": ("goon", "aliens", (2, 4))}, "anna")
    assert decide(rs, three, Act(unit="anna", action="melee", targets=("g1", "g2", "g3"))).reason == \
        "Anna has 2 melee attacks: at most 2 targets"


def test_a_varan_divides_its_attacks_between_skilled_foes_before_the_throw(rs):
    """Two armoured goons (Fighter 1) that have noticed Anna: b1 gets the first attack and her Fighter die,
    n = 1 + 1 − 1 = 1; b2 the second attack alone, n = 1 − 1 = 0: two dice, the lower (N-15.3, N-15.4)."""
    state = field(rs, {"anna": ("anna", "xcom", (3, 3)), "b1": ("brute", "aliens", (3, 4)),
                       "b2": ("brute", "aliens", (4, 4))}, "anna")
    state = attrs.evolve(state, record=attrs.evolve(battle.battle(state), noticed=(("b1", "anna"), ("b2", "anna"))))
    events = decide(rs, state, Act(unit="anna", action="melee", targets=("b1", "b2")), [5, 2, 4, 3, 6])
    assert formulas(events) == ["melee n=1+1 fighter-1 defence=1: 1d6 [5] vs AV 4: hit", "save 5+ needs 5: 1d6=2 ✗",
                                "critical generic 1d6=4 → extra_damage",
                                "melee n=1-1 defence=0: 2d6 [3 6] lower 3 vs AV 4: miss"]
    assert told(events) == ["Anna strikes Armoured goon (b1) (bare-handed): 1 hit, 1 unsaved (HP 2→1; +1 damage: "
                            "HP 1→0, dead)", "Anna strikes Armoured goon (b2) (bare-handed): 0 hits, 0 unsaved"]


def test_the_menu_offers_a_varan_the_shared_blow_and_its_ai_takes_it(played):  # noqa: F811
    state = field(played, {"anna": ("anna", "xcom", (3, 3)), "g1": ("goon", "aliens", (3, 4)),
                           "g2": ("goon", "aliens", (4, 4))}, "anna")
    anna = state.units["anna"]
    menu = {o.label: (o.command, o.note) for o in played.options(state, anna)}
    command, note = menu["Strike Goon (g1) + Goon (g2) (attacks shared)"]
    assert command == Act(unit="anna", action="melee", targets=("g1", "g2"))
    assert note == "one throw, n=2+1 fighter+1 superior=4 keep 2 vs AV 4: a die for each first (N-15.3)"
    # the same rule as the hound's: with its guns empty (no better shot) it shares the blow
    empty = field(played, {"anna": ("anna", "xcom", (3, 3)), "g1": ("goon", "aliens", (3, 4)),
                           "g2": ("goon", "aliens", (4, 4))}, "anna", anna={"shots": (("plasma_rifle", 0), ("pistol", 0))})
    assert views.ai_special(played, empty, empty.units["anna"], [], False) == command
    alone = field(played, {"anna": ("anna", "xcom", (3, 3)), "g1": ("goon", "aliens", (3, 4))}, "anna")
    assert not any(o.command.targets for o in played.options(alone, alone.units["anna"]))
