"""neo-troops between missions (engine/rules/neo_troops/downtime.py, N-19): full HP regenerated, each damaged
system repaired in `repair_actions` (d6 minutes, scripted dice), destroyed ones replaced, severe wounds and
severed limbs kept on the record until the rest (campaign.toml `rest_days`), the deploy refusals, the dead, the
order refusal; and an older roster.toml without the new fields still loads."""

from __future__ import annotations

import attrs
import pytest

from engine.campaign.seam import Order, Timer
from engine.core.commands import Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.ruleset import make
from engine.play import roster
from engine.play.game import Game
from engine.rules.neo_troops.creator import Recruit

ID = "neo-troops"


def _hurt(state, uid, **changes):
    u = state.units[uid]
    return attrs.evolve(u, record=attrs.evolve(u.record, **changes))


@pytest.fixture
def mission(content):
    vera, ivo, kai = (Recruit(name=n, type="varan") for n in ("Vera", "Ivo", "Kai"))
    game = Game.new(content, ID, "eliminate", seed_from_int(2), None,
                    squad=[roster.Character(ID, r) for r in (vera, ivo)])
    s = game.state
    parts = tuple(attrs.evolve(p, state={"pistol": "damaged", "bio_scanner": "destroyed"}.get(p.id, p.state))
                  for p in s.units["roster_vera"].record.parts)
    v = _hurt(s, "roster_vera", hp=0, status="incapacitated", cloak="damaged", mapping="destroyed", head_hits=1,
              armour_hits=2, severe_wounds=1, limbs_lost=("left_arm",), bleeding=4, parts=parts)
    i = attrs.evolve(_hurt(s, "roster_ivo", hp=0, status="dead"), status="dead")
    end = attrs.evolve(s, units={**s.units, v.id: v, i.id: i})
    return make(ID, content, None).downtime(), (vera, ivo, kai), end


def test_after_the_mission_hp_regenerates_damaged_systems_are_repaired_in_d6_minutes_destroyed_ones_replaced(mission):
    dt, records, end = mission
    dice = Dice.scripted([4, 1, 6, 2])  # cloak, head sensors, pistol: three repairs, one die each; one left over
    out = dt.debrief(records, None, end, ("Vera", "Ivo"), False, dice)
    assert dice.scripted_left == 1
    assert [r.formula for r in out.rolls] == ["repair cloak: 4*10=40 actions", "repair head: 1*10=10 actions",
                                              "repair pistol: 6*10=60 actions"]
    assert out.notes == (
        "Vera: HP 0/3 → 3/3, regenerated, back in action",
        "Vera: the bleeding stopped with first aid after the fighting",
        "Vera: cloak repaired in 4*10=40 actions (4 minutes of work)",
        "Vera: head sensors repaired in 1*10=10 actions (1 minute of work)",
        "Vera: Pistol repaired in 6*10=60 actions (6 minutes of work)",
        "Vera: mapping system destroyed, replaced",
        "Vera: armour destroyed, replaced",
        "Vera: Bio-scanner destroyed, replaced",
        "Vera: 1 severe wound and the left arm regenerate at the rest, 7 days",
        "Ivo died on the mission",
    )
    vera, ivo, kai = out.records
    assert (vera.severe, vera.severed, vera.rests, vera.dead) == (1, ("left_arm",), 1, False)
    assert ivo.dead and out.dead == ("Ivo",) and kai == records[2]  # Kai stayed home: unchanged
    assert out.timers == (Timer(days=7, key="rest:vera:1", who="Vera",
                                label="Vera: 1 severe wound and the left arm regenerate at the rest, 7 days"),)
    assert out.cancel == () and out.funding == 0


def test_a_severely_wounded_varan_may_not_deploy_until_the_rest_regenerates_it(mission):
    dt, records, end = mission
    out = dt.debrief(records, None, end, ("Vera", "Ivo"), False, Dice.scripted([4, 1, 6]))
    vera, ivo, kai = out.records
    assert dt.deploy_refusal(vera, None, frozenset({"rest:vera:1"})) == \
        "Vera is regenerating at the rest: 1 severe wound and the left arm (N-19.4)"
    assert dt.deploy_refusal(ivo, None, frozenset()) == "Ivo is dead"
    assert dt.deploy_refusal(kai, None, frozenset()) is None
    rested = dt.due(out.records, None, out.timers[0], Dice.scripted([]))
    assert (rested.records[0].severe, rested.records[0].severed) == (0, ())
    assert rested.notes == ("Vera: 1 severe wound and the left arm regenerated",)
    assert dt.deploy_refusal(rested.records[0], None, frozenset()) is None
    stale = dt.due(out.records, None, attrs.evolve(out.timers[0], key="rest:vera:0"), Dice.scripted([]))
    assert stale.records == out.records and stale.notes == ()


def test_an_unhurt_varan_comes_back_as_it_went_and_rolls_nothing(mission, content):
    dt, records, end = mission
    fresh = Game.new(content, ID, "eliminate", seed_from_int(2), None,
                     squad=[roster.Character(ID, r) for r in records[:2]]).state
    out = dt.debrief(records, None, fresh, ("Vera", "Ivo"), True, Dice.scripted([]))
    assert out.records == records and out.notes == () and out.rolls == () and out.timers == ()


def test_orders_are_refused_and_there_is_no_base(mission):
    dt, records, _ = mission
    refused = dt.order(records, None, 0, frozenset(), Order("repair", "Vera", "cloak"), Dice.scripted([]))
    assert refused == Rejected("no_orders", "neo-troops has no between-mission orders ('repair'): repairs and "
                                            "regeneration happen by themselves (N-19)")
    assert dt.placement(None, "x", ()) == "neo-troops has no base" and dt.plots(None) == ()


def test_an_older_roster_without_the_campaign_fields_loads(content, tmp_path):
    path = tmp_path / roster.FILE
    path.write_text('[[character]]\nruleset = "neo-troops"\nname = "Vera"\ntype = "varan"\nheld = "pistol"\n',
                    encoding="utf-8")
    vera = roster.load(path, content)[0].record
    assert vera == Recruit(name="Vera", type="varan", held="pistol") and (vera.severe, vera.severed, vera.dead) == \
        (0, (), False)
    roster.save(path, [roster.Character(ID, attrs.evolve(vera, severe=1, severed=("left_arm",)))])
    assert roster.load(path, content)[0].record.severed == ("left_arm",)
