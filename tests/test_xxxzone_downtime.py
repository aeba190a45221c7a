"""xxxzone between missions through the campaign seam: wounds kept and healed (8.2), training (14.2), gambling
(14.3), building, moving and hiring (15), the month's funding; scripted dice, every number checked."""

from __future__ import annotations

from types import SimpleNamespace

import attrs
import pytest

from engine.campaign.seam import Order, Outcome, Timer
from engine.content import loader
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.ruleset import make
from engine.play import roster
from engine.rules.xxxzone.battle import Combatant
from engine.rules.xxxzone.character import Operative
from engine.rules.xxxzone.creator import Kept, Recruit
from engine.rules.xxxzone.downtime import XxxzoneDowntime
from engine.rules.xxxzone.schema import Attributes
from engine.rules.xxxzone.wounds import Condition, Wounds

NONE = frozenset()


@pytest.fixture(scope="module")
def content():
    return loader.load()


@pytest.fixture(scope="module")
def dt(content):
    return XxxzoneDowntime(content)


@pytest.fixture(scope="module")
def begun(dt):
    return dt.begin((), Dice.scripted([]))


def recruit(name="Sable", abilities=(), **values):
    a = dict(strength=3, perception=3, endurance=3, charisma=3, intelligence=3, agility=3, luck=3)
    a.update(values)
    return Recruit(name=name, attributes=Attributes(**a), rolled="", abilities=tuple(abilities))


def test_the_ruleset_gives_its_downtime(content):
    assert isinstance(make("xxxzone", content, None).downtime(), XxxzoneDowntime)


def test_begin(begun):
    assert begun.funding == 10 and begun.timers == ()
    assert begun.base.staff_of("engineer") == 5
    assert len(begun.base.placed) == 13 and not any(p.building for p in begun.base.placed)


def test_an_old_roster_record_loads(content):
    old = {"ruleset": "xxxzone", "name": "Sable", "rolled": "",
           "attributes": {"strength": 3, "perception": 3, "endurance": 3, "charisma": 3, "intelligence": 3,
                          "agility": 3, "luck": 3}}
    (ch,) = roster.structure(content, {"character": [old]}, "test")
    assert ch.record == recruit()


def dead_or_wounded(name, **wounds):
    dead = wounds.pop("dead", False)
    op = Operative(id="sable", name=name, attributes=recruit().attributes, armour="type1")
    c = Combatant(op=op, side="squad", at=(0, 0), armour_hp=1, condition=Condition(wounds=Wounds(**wounds), dead=dead))
    return SimpleNamespace(sides=("squad", "aliens"), units={"sable": SimpleNamespace(side="squad", record=c)})


def test_wounds_are_kept_with_their_heal_rolls(dt, begun):
    state = dead_or_wounded("Sable", minor=1, severe=1, ignored_minor=1)
    dice = Dice.scripted([4, 3, 5, 1, 7])  # Minor 1d6 = 4; Severe 4d8 = 3+5+1+7 = 16
    out = dt.debrief((recruit(),), begun.base, state, ("Sable",), True, dice)
    (r,) = out.records
    assert r.wounds == (Kept(tier="minor", key="heal:Sable:1"), Kept(tier="severe", key="heal:Sable:2"),
                        Kept(tier="minor", key="heal:Sable:3", ignored=True))
    assert [(t.days, t.key) for t in out.timers] == [(4, "heal:Sable:1"), (16, "heal:Sable:2"), (1, "heal:Sable:3")]
    assert out.timers[1].label == "Sable's Severe Wound heals"
    assert [ro.total for ro in out.rolls] == [4, 16]
    assert out.notes[1] == "Sable: Severe Wound heals in 4d8: 3+5+1+7=16 days"
    assert dice.scripted_left == 0
    assert dt.deploy_refusal(r, begun.base, NONE) == "Sable is convalescing: 1 Severe Wound to heal"
    # the Minor heals first: still convalescing; then the Severe: fit again
    healed = dt.due(out.records, begun.base, out.timers[0], Dice.scripted([]))
    assert dt.deploy_refusal(healed.records[0], begun.base, NONE) is not None
    healed = dt.due(healed.records, begun.base, out.timers[1], Dice.scripted([]))
    assert healed.notes == ("Sable's Severe Wound has healed: Sable may deploy again",)
    assert dt.deploy_refusal(healed.records[0], begun.base, NONE) is None
    assert healed.records[0].wounds == (Kept(tier="minor", key="heal:Sable:3", ignored=True),)


def test_fast_healing_rolls_the_shorter_dice(dt, begun):
    state = dead_or_wounded("Sable", minor=1, mortal=1)
    dice = Dice.scripted([2, 3, 9, 10])  # Minor 1d3 = 2; Mortal 3d10 = 3+9+10 = 22
    out = dt.debrief((recruit(abilities=["fast_healing"], endurance=5),), begun.base, state, ("Sable",), True, dice)
    assert [(t.days, t.key) for t in out.timers] == [(2, "heal:Sable:1"), (22, "heal:Sable:2")]
    assert out.notes[1] == "Sable: Mortal Wound heals in 3d10: 3+9+10=22 days (Fast Healing)"
    assert dt.deploy_refusal(out.records[0], begun.base, NONE) == "Sable is convalescing: 1 Mortal Wound to heal"


def test_the_dead_stay_dead(dt, begun):
    state = dead_or_wounded("Sable", lethal=1, dead=True)
    out = dt.debrief((recruit(), recruit("Vex")), begun.base, state, ("Sable", "Vex"), False, Dice.scripted([]))
    assert out.dead == ("Sable",) and out.records[0].dead and out.records[1] == recruit("Vex")
    assert dt.deploy_refusal(out.records[0], begun.base, NONE) == "Sable is dead"
    again = dt.debrief(out.records, begun.base, state, ("Sable",), True, Dice.scripted([]))
    assert again.dead == () and again.records[0].dead
    assert isinstance(dt.order(out.records, begun.base, 5, NONE, Order("gamble", "Sable"), Dice.scripted([])),
                      Rejected)


def test_a_mission_breaks_off_a_course(dt, begun):
    state = dead_or_wounded("Sable")
    out = dt.debrief((attrs.evolve(recruit(), course="perception"),), begun.base, state, ("Sable",), True,
                     Dice.scripted([]))
    assert out.cancel == ("train:Sable",) and out.records[0].course == ""


def test_month_income_with_poster_boy_and_schmooze(dt, begun):
    rs = (recruit("Ann", ["poster_boy", "schmooze"]), recruit("Bo", ["poster_boy"]),
          attrs.evolve(recruit("Cy", ["poster_boy"]), dead=True), recruit("Di"))
    out = dt.month(rs, begun.base, Dice.scripted([]))
    assert out.funding == 13  # 10 + 1 + 1 + 1; the dead earn nothing
    assert out.notes == ("Monthly funding: 10F + Poster Boy / Girl (Ann) 1F + Schmooze the Boss' Boss (Ann) 1F + "
                         "Poster Boy / Girl (Bo) 1F = 13F",)


def order(dt, records, base, o, funding=10, busy=NONE, dice=None):
    return dt.order(records, base, funding, busy, o, dice or Dice.scripted([]))


def test_build_a_firing_range_then_train_at_it(dt, begun):
    rs = (recruit(perception=5),)
    assert order(dt, rs, begun.base, Order("train", "Sable", "perception")) == Rejected(
        "no_facility", "Per is trained at a Firing Range: the base has none built")
    built = order(dt, rs, begun.base, Order("build", what="firing_range", where=(0, 6, 9, 0)))
    assert isinstance(built, Outcome) and built.funding == -1
    (timer,) = built.timers
    assert (timer.days, timer.key) == (6, "build:firing_range.14")  # 30 man-days by 5 engineers = 144 h
    assert built.notes == ("Building the Firing Range at G10 on the Surface, turned 0: 30 man-days by 5 engineers = "
                           "144 hours, ready in 6 days (1F)",)
    # still being built: no course yet, and every engineer is busy
    assert order(dt, rs, built.base, Order("train", "Sable", "perception")).code == "no_facility"
    assert order(dt, rs, built.base, Order("build", what="class_room", where=(1, 5, 7, 0))) == Rejected(
        "engineers", "0 of the base's 5 engineers are free")
    done = dt.due(rs, built.base, timer, Dice.scripted([]))
    assert done.notes == ("The Firing Range at G10 on the Surface is ready",)
    course = order(dt, rs, done.base, Order("train", "Sable", "perception"))
    assert course.records[0].course == "perception"
    assert course.timers == (Timer(18, "train:Sable", "Sable finishes training Per 5→6", "Sable"),)
    assert course.notes == ("Train Sable's Per 5→6 at the Firing Range (18 days)",)
    assert order(dt, course.records, done.base, Order("train", "Sable", "agility"),
                 busy=frozenset({"train:Sable"})) == Rejected("busy", "Sable is already training Per")
    trained = dt.due(course.records, done.base, course.timers[0], Dice.scripted([]))
    assert trained.records[0].attributes.perception == 6 and trained.records[0].course == ""
    assert order(dt, trained.records, done.base, Order("train", "Sable", "perception")) == Rejected(
        "cap", "the Firing Range trains Per up to 6; Sable has 6")
    # Agi at the Firing Range: 3->4 allowed (12 days), 4->5 not (vector 53)
    agi = order(dt, (recruit(agility=3),), done.base, Order("train", "Sable", "agility"))
    assert agi.timers[0].days == 12
    assert order(dt, (recruit(agility=4),), done.base, Order("train", "Sable", "agility")) == Rejected(
        "cap", "the Firing Range trains Agi up to 4; Sable has 4")
    # an ability at the Firing Range: Lockpicker (PER 2): 6 days
    assert order(dt, rs, done.base, Order("train", "Sable", "lockpicker")).timers[0].days == 6
    assert order(dt, rs, done.base, Order("train", "Sable", "guardian")).timers[0].days == 24  # 3*(5+3)
    assert "Train Sable's Per 5→6 at the Firing Range (18 days)" in {o.label for o in dt.offers(rs, done.base, 10, NONE)}


def with_gym(dt, base):
    built = order(dt, (), base, Order("build", what="training_gym", where=(0, 6, 9, 0)))
    return dt.due((), built.base, built.timers[0], Dice.scripted([])).base


def test_the_gym_needs_a_bio_chemist(dt, begun):
    base = with_gym(dt, begun.base)
    rs = (recruit(strength=5),)
    assert order(dt, rs, base, Order("train", "Sable", "strength")) == Rejected(
        "no_staff", "the Training Gym needs a Bio-chemist assigned: hire one")
    hired = order(dt, rs, base, Order("hire", what="bio_chemist"))
    assert hired.funding == -1 and hired.base.staff_of("bio_chemist") == 1
    assert order(dt, rs, hired.base, Order("train", "Sable", "strength")).timers[0].days == 18  # vector 53
    assert order(dt, (recruit(strength=6),), hired.base, Order("train", "Sable", "strength")) == Rejected(
        "cap", "the Training Gym trains Str up to 6; Sable has 6")
    # Run and Gun (AGI 2) 6 days at the Gym (vector 54)
    assert order(dt, rs, hired.base, Order("train", "Sable", "run_and_gun")).timers[0].days == 6
    # the Residence houses 10: 5 engineers and 1 bio-chemist leave room for 4 more
    base = hired.base
    for _ in range(4):
        base = order(dt, rs, base, Order("hire", what="engineer")).base
    assert order(dt, rs, base, Order("hire", what="engineer")) == Rejected(
        "no_room", "no room: 1 Residence house 10, and 10 live there")


def test_a_convalescing_operative_neither_trains_nor_gambles(dt, begun):
    r = attrs.evolve(recruit(), wounds=(Kept(tier="severe", key="heal:Sable:1"),))
    assert order(dt, (r,), begun.base, Order("gamble", "Sable")) == Rejected(
        "busy", "Sable is convalescing: 1 Severe Wound to heal")


@pytest.mark.parametrize("faces,luck,back,notes", [
    ([7, 15], 4, 1, ("Sable is back from the binge: d10 7 > Luck 3: Luck 3→4",
                     "Sable: d100 15 ≤ 15: 1F won back")),
    ([3, 16], 3, 0, ("Sable is back from the binge: d10 3 ≤ Luck 3: Luck stays 3",
                     "Sable: d100 16 > 15: the stake is lost")),
])
def test_gambling(dt, begun, faces, luck, back, notes):
    rs = (recruit(),)
    assert order(dt, rs, begun.base, Order("gamble", "Sable"), funding=0) == Rejected(
        "funding", "a binge costs 1F; the base has 0F")
    went = order(dt, rs, begun.base, Order("gamble", "Sable"))
    assert went.funding == -1 and went.timers == (Timer(7, "gamble:Sable", "Sable is back from the binge", "Sable"),)
    busy = frozenset({"gamble:Sable"})
    assert dt.deploy_refusal(rs[0], begun.base, busy) == "Sable is away on a gambling binge"
    dice = Dice.scripted(faces)
    back_out = dt.due(went.records, begun.base, went.timers[0], dice)
    assert back_out.records[0].attributes.luck == luck and back_out.funding == back
    assert back_out.notes == notes
    assert [r.faces for r in back_out.rolls] == [(faces[0],), (faces[1],)]


def test_luck_is_capped(dt, begun):
    assert order(dt, (recruit(luck=10),), begun.base, Order("gamble", "Sable")) == Rejected(
        "cap", "Sable's Luck is 10, the most it can be")


def test_moving_costs_man_days_and_no_funding(dt, begun):
    hangar = next(p.key for p in begun.base.placed if p.facility == "aircraft_hangar")
    moved = order(dt, (), begun.base, Order("move", what=hangar, where=(0, 6, 9, 0)))
    assert moved.funding == 0 and moved.timers[0].days == 6
    assert moved.base.get(hangar).building
    ex = next(p.key for p in begun.base.placed if p.facility == "excavation")
    assert order(dt, (), begun.base, Order("move", what=ex, where=(1, 5, 5, 0))).code == "fixed"
    assert order(dt, (), begun.base, Order("move", what=hangar, where=(0, 4, 4, 0))) == Rejected(
        "placement", "overlap: E5 on the Surface is the Runway's")


def test_build_refusals(dt, begun):
    assert order(dt, (), begun.base, Order("build", what="command_center", where=(0, 6, 9, 0)), funding=10) == \
        Rejected("placement", "limit reached: exactly 1 Command Center per base")
    assert order(dt, (), begun.base, Order("build", what="laboratory", where=(0, 6, 8, 1)), funding=0) == \
        Rejected("funding", "a Laboratory costs 1F; the base has 0F")
    assert order(dt, (), begun.base, Order("build", what="laboratory", where=(0, 6, 8, 1, 9))) == \
        Rejected("engineers", "5 of the base's 5 engineers are free")
    two = order(dt, (), begun.base, Order("build", what="laboratory", where=(0, 6, 8, 1, 2)))
    assert two.timers[0].days == 15  # 24*30/2 = 360 h
    assert order(dt, (), begun.base, Order("repair")).code == "unknown_order"


def test_offers_are_all_accepted(dt, begun):
    rs = (recruit(perception=5),)
    offers = dt.offers(rs, begun.base, 10, NONE)
    kinds = {o.order.kind for o in offers}
    assert kinds == {"recruit", "gamble", "hire", "build", "found"}  # nothing to train at before a facility stands
    builds = [o for o in offers if o.order.kind == "build"]
    assert {o.order.what for o in builds} >= {"firing_range", "class_room", "training_gym", "elevator"}
    for o in builds[::7]:
        assert dt.placement(begun.base, o.order.what, o.order.where) is None
        assert isinstance(order(dt, rs, begun.base, o.order), Outcome), o.label


def test_plots_and_placement(dt, begun):
    assert [p.name for p in dt.plots(begun.base)] == ["Surface", "Excavation 1"]
    assert dt.plots(None) == ()
    assert dt.placement(begun.base, "firing_range", (0, 6, 9, 0)) is None


def test_unhealed_minor_wounds_go_into_battle_and_come_back_once(content, dt, begun):
    from engine.core.dice import seed_from_int
    from engine.play.game import Game

    r = attrs.evolve(recruit("Anna"), wounds=(Kept(tier="minor", key="heal:Anna:1"),
                                              Kept(tier="minor", key="heal:Anna:2"),
                                              Kept(tier="minor", key="heal:Anna:3", ignored=True)), serial=3)
    game = Game.new(content, "xxxzone", "vip", seed_from_int(2), None, squad=[roster.Character("xxxzone", r)])
    c = game.state.units["roster_anna"].record
    assert c.condition.wounds == Wounds(minor=2)  # the ignored one carries nothing
    out = dt.debrief((r,), begun.base, game.state, ("Anna",), True, Dice.scripted([]))
    assert out.records[0] == r and out.timers == () and out.cancel == ()  # nothing new, nothing lost
    # the same two at the end: nothing new; one at the end: the other was treated (its timer cancelled);
    # three: one new Minor, 1d6 = 5 days
    after = SimpleNamespace(sides=("xcom", "aliens"), units={"a": SimpleNamespace(side="xcom", record=attrs.evolve(
        c, condition=attrs.evolve(c.condition, wounds=Wounds(minor=2))))})
    out = dt.debrief((r,), begun.base, after, ("Anna",), True, Dice.scripted([]))
    assert out.timers == () and out.cancel == ()
    after = SimpleNamespace(sides=("xcom", "aliens"), units={"a": SimpleNamespace(side="xcom", record=attrs.evolve(
        c, condition=attrs.evolve(c.condition, wounds=Wounds(minor=1))))})
    out = dt.debrief((r,), begun.base, after, ("Anna",), True, Dice.scripted([]))
    assert out.cancel == ("heal:Anna:1",)
    assert [k.key for k in out.records[0].wounds] == ["heal:Anna:2", "heal:Anna:3"]
    after = SimpleNamespace(sides=("xcom", "aliens"), units={"a": SimpleNamespace(side="xcom", record=attrs.evolve(
        c, condition=attrs.evolve(c.condition, wounds=Wounds(minor=3))))})
    out = dt.debrief((r,), begun.base, after, ("Anna",), True, Dice.scripted([5]))
    assert [(t.days, t.key) for t in out.timers] == [(5, "heal:Anna:4")]


def test_the_squad_pick_is_told_a_mission_breaks_a_course_off(dt, begun):
    """14.2: training needs uninterrupted days; the caveat names the course and the days left."""
    training = attrs.evolve(recruit(), course="perception")
    assert dt.deploy_caveat(training, begun.base, {"train:Sable": 6}) == \
        "going breaks off Sable's course in Per, 6 days left"
    assert dt.deploy_caveat(recruit(), begun.base, {}) is None
    assert dt.deploy_refusal(training, begun.base, {"train:Sable": 6}) is None  # warned, never refused
