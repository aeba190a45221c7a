"""xxxzone campaign: recruits (14.1 through a Barracks), salvage pay at a won debrief (13), the days a
convalescing operative has left; scripted dice, every number checked."""

from __future__ import annotations

from types import SimpleNamespace

import attrs
import pytest

from engine.campaign import decide as d
from engine.campaign.ledger import Ledger
from engine.campaign.seam import NAMES, Order, Outcome
from engine.campaign.state import Campaign, Posting, Running
from engine.campaign.verify import verify
from engine.core.commands import Rejected
from engine.core.dice import Dice, seed_from_int
from engine.rules.xxxzone import basework as bw
from engine.rules.xxxzone.battle import Combatant, Held
from engine.rules.xxxzone.character import Operative
from engine.rules.xxxzone.creator import Kept
from engine.rules.xxxzone.schema import Attributes
from engine.rules.xxxzone.wounds import Condition, Wounds

from tests import test_xxxzone_downtime as downtime_tests

content, dt, begun = downtime_tests.content, downtime_tests.dt, downtime_tests.begun  # the same module fixtures
NONE, recruit = downtime_tests.NONE, downtime_tests.recruit


# -- recruits ---------------------------------------------------------------------------------------------


def test_a_recruit_is_rolled_with_the_campaign_dice_and_joins(dt, begun):
    rs = (recruit(),)
    dice = Dice.scripted([1, 2, 3, 4, 4, 3, 2])  # 1d4+1 each, in 14.1's order: Str Per End Cha Int Agi Lck
    out = dt.order(rs, begun.base, 5, NONE, Order("recruit", "Ash"), dice)
    assert isinstance(out, Outcome) and dice.scripted_left == 0
    assert out.funding == -2 and len(out.records) == 2 and out.records[0] == rs[0]
    ash = out.records[1]
    assert ash.name == "Ash" and ash.attributes == Attributes(strength=2, perception=3, endurance=4, charisma=5,
                                                              intelligence=5, agility=4, luck=3)
    assert [r.total for r in out.rolls] == [2, 3, 4, 5, 5, 4, 3]
    assert out.notes == ("Ash joins the squad (2F): Str 1d4+1: 1+1=2, Per 1d4+1: 2+1=3, End 1d4+1: 3+1=4, "
                         "Cha 1d4+1: 4+1=5, Int 1d4+1: 4+1=5, Agi 1d4+1: 3+1=4, Lck 1d4+1: 2+1=3",)
    assert ash.kit  # the starting kit of 11.5
    assert dt.deploy_refusal(ash, begun.base, NONE) is None


def test_recruit_refusals(dt, begun):
    rs = (recruit(),)
    assert dt.order(rs, begun.base, 1, NONE, Order("recruit", "Ash"), Dice.scripted([])) == Rejected(
        "funding", "a recruit costs 2F; the base has 1F")
    assert dt.order(rs, begun.base, 5, NONE, Order("recruit", "Sable"), Dice.scripted([])).code == "name_taken"
    assert dt.order(rs, begun.base, 5, NONE, Order("recruit", " "), Dice.scripted([])).code == "no_name"
    assert dt.order(rs, None, 5, NONE, Order("recruit", "Ash"), Dice.scripted([])).code == "no_base"
    full = tuple(recruit(f"R{i}") for i in range(30)) + (attrs.evolve(recruit("Gone"), dead=True),)
    assert dt.order(full, begun.base, 5, NONE, Order("recruit", "Ash"), Dice.scripted([])) == Rejected(
        "no_room", "no room: 1 Barracks house 30, and 30 operatives live there")
    assert not any(o.order.kind == "recruit" for o in dt.offers(full, begun.base, 5, NONE))
    # a second Barracks makes room for 30 more (the dead free their beds)
    two = bw.build(dt.book, begun.base, "barracks", next(o.order.where for o in dt.offers((), begun.base, 9, NONE)
                                                            if o.order.what == "barracks"), 5)[0]
    two = bw.finish(two, two.placed[-1].key)
    (offer,) = [o for o in dt.offers(full, two, 5, NONE) if o.order.kind == "recruit"]
    assert offer.order == Order("recruit", "Ash") and offer.cost == 2
    assert offer.label == "Recruit a new operative: Ash (2F)"


def test_the_recruit_offer_comes_first_with_the_next_free_name(dt, begun):
    rs = (recruit("Ash"), recruit("Bishop"))
    offers = dt.offers(rs, begun.base, 2, NONE)
    assert offers[0].order == Order("recruit", "Cole")
    assert not any(o.order.kind == "recruit" for o in dt.offers(rs, begun.base, 1, NONE))
    every = tuple(recruit(n) for n in NAMES) + (recruit("Ash 2"),)
    offers = dt.offers(every, begun.base, 2, NONE)
    (late,) = [o for o in offers if o.order.kind == "recruit"]
    assert late.order == Order("recruit", "Bishop 2")
    assert not late.ai and offers[0] != late  # a full roster: the campaign AI's policy recruits no more


def test_a_recruit_is_kept_folded_saved_and_verified(content, tmp_path):
    folder = tmp_path / "rec"
    book = Ledger.new(content, folder, "rec", "xxxzone", seed_from_int(4), 4, [])
    before = len(book.state.records)
    name = next(o.order.who for o in book.downtime.offers(book.state.records, book.state.base, book.state.funding,
                                                          book.state.busy) if o.order.kind == "recruit")
    assert not isinstance(book.submit(d.Give(Order("recruit", name))), Rejected)
    state = book.state
    assert len(state.records) == before + 1 and state.records[-1].name == name
    assert name in [c.record.name for c in book.characters()]
    book.close()
    again = Ledger.open(content, folder)
    assert again.state == state
    again.close()
    assert name in (folder / "roster.toml").read_text()
    assert verify(content, folder).failure is None


# -- salvage ----------------------------------------------------------------------------------------------


def battle(*enemies, squad=()):
    """A final state: the squad's Sable fit, then `enemies` as (name, side, hands, belt, condition)."""
    units = {"sable": SimpleNamespace(side="xcom", record=_combatant("Sable", "xcom", (), (), Condition()))}
    for name, side, hands, belt, cond in enemies:
        units[name.lower()] = SimpleNamespace(side=side, record=_combatant(name, side, hands, belt, cond))
    return SimpleNamespace(sides=("xcom", "aliens"), units=units)


def _combatant(name, side, hands, belt, cond):
    op = Operative(id=name.lower(), name=name, attributes=recruit().attributes, armour="type1")
    return Combatant(op=op, side=side, at=(0, 0), armour_hp=1, condition=cond,
                     hands=tuple(Held(item=i) for i in hands), belt=tuple(belt))


TAKEN = battle(("Grey", "aliens", ["assault_rifle"], ["frag"], Condition(dead=True)),
               ("Drone", "aliens", ["pistol_9mm"], [], Condition(stunned=2)),
               ("Husk", "aliens", ["revolver"], [], Condition(unconscious=True)),
               ("Runner", "aliens", ["battle_shotgun"], ["frag"], Condition()),  # got away fit: nothing to take
               ("Joe", "civilians", ["revolver"], [], Condition(dead=True)))  # not an enemy


def test_a_won_mission_salvages_each_item_of_the_enemies_taken_down(dt, begun):
    dice = Dice.scripted([50, 51, 3, 99])  # Grey's rifle, Grey's frag, Drone's pistol, Husk's revolver
    out = dt.debrief((recruit(),), begun.base, TAKEN, ("Sable",), True, dice)
    assert dice.scripted_left == 0
    assert out.funding == 2 and [r.total for r in out.rolls] == [50, 51, 3, 99]
    assert [r.actor for r in out.rolls] == ["grey", "grey", "drone", "husk"]
    assert out.notes == ("Salvage: Grey's 7mm Assault Rifle: d100 50 ≤ 50: salvaged",
                         "Salvage: Grey's Frag Grenade: d100 51 > 50: lost",
                         "Salvage: Drone's 9mm Semi-Automatic Pistol: d100 3 ≤ 50: salvaged",
                         "Salvage: Husk's 12mm Revolver Pistol: d100 99 > 50: lost",
                         "Salvage: 2 of 4 enemy items, 2 × 1F = 2F")


@pytest.mark.parametrize("abilities, chance, note", [
    (("loot_drops",), 70, " (Loot Drops: Sable)"), (("loot_drops", "more_loot"), 85, " (More Loot: Sable)")])
def test_loot_drops_and_more_loot_raise_the_chance(dt, begun, abilities, chance, note):
    dice = Dice.scripted([chance, chance + 1, 1, 100])
    out = dt.debrief((recruit(abilities=abilities),), begun.base, TAKEN, ("Sable",), True, dice)
    assert out.funding == 2
    assert out.notes[0] == f"Salvage: Grey's 7mm Assault Rifle: d100 {chance} ≤ {chance}{note}: salvaged"
    assert out.notes[1] == f"Salvage: Grey's Frag Grenade: d100 {chance + 1} > {chance}{note}: lost"


def test_a_lost_mission_salvages_nothing_and_the_dead_bring_no_luck(dt, begun):
    out = dt.debrief((recruit(),), begun.base, TAKEN, ("Sable",), False, Dice.scripted([]))
    assert out.funding == 0 and out.rolls == () and out.notes == ()
    # Loot Drops counts only for one who came home: Vex stayed at the base
    out = dt.debrief((recruit(), recruit("Vex", ["loot_drops"])), begun.base, TAKEN, ("Sable",), True,
                     Dice.scripted([60, 60, 60, 60]))
    assert out.funding == 0 and out.notes[-1] == "Salvage: 0 of 4 enemy items, 0 × 1F = 0F"


# -- days left ----------------------------------------------------------------------------------------------


def test_a_convalescing_refusal_says_the_days_left(content, dt, begun):
    state = battle()
    wounded = SimpleNamespace(sides=state.sides, units={"sable": SimpleNamespace(side="xcom", record=attrs.evolve(
        state.units["sable"].record, condition=Condition(wounds=Wounds(minor=1, severe=1))))})
    dice = Dice.scripted([4, 3, 5, 1, 7])  # Minor 1d6 = 4; Severe 4d8 = 3+5+1+7 = 16
    out = dt.debrief((recruit(),), begun.base, wounded, ("Sable",), False, dice)
    # the campaign sets the timers on day 5: the Severe comes due on day 21; on day 9 it has 12 days left
    c = Campaign(ruleset="xxxzone", day=9, records=out.records, base=begun.base, begun=True,
                 timers=tuple(Running(t, 5 + t.days) for t in out.timers),
                 offers=(Posting("m1", "eliminate", 8, 12),))
    assert c.busy == {"heal:Sable:1": 0, "heal:Sable:2": 12}
    rules = d.Rules(dt, ("eliminate",), lambda m: 6)
    assert d.deploy_refusal(c, d.Deploy("m1", ("Sable",)), rules) == \
        "Sable is convalescing, 12 days left: 1 Severe Wound to heal"
    assert dt.deploy_refusal(out.records[0], begun.base, {"heal:Sable:2": 1}) == \
        "Sable is convalescing, 1 day left: 1 Severe Wound to heal"
    # the longest of two serious wounds is the one to wait for
    two = attrs.evolve(out.records[0], wounds=out.records[0].wounds + (Kept(tier="mortal", key="heal:Sable:9"),))
    assert dt.deploy_refusal(two, begun.base, {"heal:Sable:2": 12, "heal:Sable:9": 20}) == \
        "Sable is convalescing, 20 days left: 1 Severe Wound, 1 Mortal Wound to heal"
    assert dt.deploy_refusal(two, begun.base, NONE) == "Sable is convalescing: 1 Severe Wound, 1 Mortal Wound to heal"

