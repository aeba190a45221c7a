"""xxxzone's battle record: deployment, hands (draw, stow, Akimbo, primed grenades), Aim, reloading, and the
values it hands to the attack."""

from __future__ import annotations

import json

import attrs
import pytest

from engine.core.dice import Dice
from engine.rules.xxxzone import battle
from engine.rules.xxxzone.attack import Attack, resolve
from engine.rules.xxxzone.character import pregen
from engine.rules.xxxzone.wounds import Condition, Wounds

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()


def deployed(book, cid):
    return battle.deploy(book, pregen(book, cid), "squad", (0, 0))


def test_deploy_draws_the_chosen_weapon_loaded(book):
    johnny = deployed(book, "johnny")
    assert johnny.hands == (battle.Held(item="assault_rifle", rounds=45, ammo="mag_7mm"),)
    assert johnny.armour_hp == 2
    assert dict(johnny.magazines) == {"mag_7mm": 4, "shells": 3, "incendiary_shells": 1}
    assert johnny.belt == ("battle_shotgun", "flare_gun", "fire_axe", "popcorn", "popcorn", "frag")


def test_one_hand_or_two_pistols_with_akimbo(book):
    johnny = deployed(book, "johnny")
    assert battle.draw(book, johnny, "frag").code == "hands_full"
    free = battle.stow(book, johnny, "assault_rifle")
    assert free.hands == () and "assault_rifle" in free.belt
    assert battle.draw(book, free, "frag").hands[0].item == "frag"
    trevor = battle.stow(book, deployed(book, "trevor"), "automatic_shotgun")
    trevor = battle.draw(book, trevor, "pistol_9mm")
    trevor = battle.draw(book, trevor, "pistol_9mm")
    assert [h.item for h in trevor.hands] == ["pistol_9mm", "pistol_9mm"]
    assert battle.draw(book, trevor, "baseball_bat").code == "hands_full"
    no_akimbo = attrs.evolve(trevor, op=attrs.evolve(trevor.op, abilities=()), hands=trevor.hands[:1],
                             belt=trevor.belt + ("pistol_9mm",))
    assert battle.draw(book, no_akimbo, "pistol_9mm").code == "hands_full"
    assert battle.draw(book, free, "family_guy").code == "not_carried"


def test_a_primed_grenade_left_in_hand(book):
    dane = battle.stow(book, deployed(book, "dane"), "battle_shotgun")
    dane = battle.draw(book, dane, "frag")
    assert battle.primed_left(dane) == ()
    dane = battle.prime(book, dane, "frag")
    assert battle.primed_left(dane) == ("frag",)
    assert battle.stow(book, dane, "frag").code == "primed"
    assert battle.prime(book, dane, "frag").code == "no_grenade"


def test_aim_stacks_and_is_lost(book):
    sam = deployed(book, "sam")
    assert battle.aim(book, battle.aim(book, sam, "x"), "x").aim.stacks == 1  # no Sniper: one stack
    sniper = attrs.evolve(sam, op=attrs.evolve(sam.op, abilities=("sniper",)))
    stacked = sniper
    for _ in range(5):
        stacked = battle.aim(book, stacked, "x")
    assert stacked.aim.stacks == 3  # 1 + floor(Agi 5 / 2)
    assert battle.aim(book, stacked, "y").aim == battle.Aim(target="y", stacks=1)
    assert battle.after_attack(stacked, "x").aim.stacks == 1  # later shots count as one Aim
    assert battle.after_attack(stacked, "y").aim is None
    cautious = battle.after_move(stacked, (1, 0), quickly=False)
    assert cautious.aim == stacked.aim and not cautious.conspicuous and cautious.facing == (1, 0)
    quick = battle.after_move(stacked, (1, 1), quickly=True)
    assert quick.aim is None and quick.conspicuous


def test_reload(book):
    johnny = deployed(book, "johnny")
    empty = attrs.evolve(johnny, hands=(battle.Held(item="assault_rifle", rounds=2),),
                         disabled=("assault_rifle",))
    full = battle.reload(book, empty, "assault_rifle")
    assert full.hands[0].rounds == 45 and dict(full.magazines)["mag_7mm"] == 3 and full.disabled == ()
    none_left = attrs.evolve(empty, magazines=())
    assert battle.reload(book, none_left, "assault_rifle").code == "no_magazine"
    sam = deployed(book, "sam")
    one = attrs.evolve(sam, hands=(battle.Held(item="anti_infantry_rifle", rounds=3),))
    assert battle.reload(book, one, "anti_infantry_rifle", "loose_7mm").hands[0].rounds == 4


def test_the_record_feeds_the_attack(book):
    bruce = attrs.evolve(deployed(book, "bruce"), condition=Condition(wounds=Wounds(minor=4)))
    s = battle.shooter(book, bruce)
    assert (s.accuracy, s.wound_penalty, s.strength) == (115, 30, 6)
    t = battle.defence(book, deployed(book, "vadin"))
    assert (t.agility, t.endurance, t.armour_dr, t.armour_hp) == (5, 11, 45, 3)
    hit = resolve(Dice.scripted([100]), Attack(attacker="bruce", adj_acc=75, dt=35), t)
    assert (hit.roll.total, hit.outcome) == (100 + 75 - 5 - 45 - 46, "minor")  # DT 35 + End 11
    assert battle.max_ap(book, bruce) == 9
    assert battle.attacks_with(book, deployed(book, "vadin")) == ("family_guy", "iron_fist", "unarmed")


def test_the_record_goes_through_the_log_codec(book):
    from engine.core import codec

    bruce = battle.aim(book, deployed(book, "bruce"), "x")
    bruce = attrs.evolve(bruce, condition=Condition(wounds=Wounds(minor=2), poison="poisoned"),
                         disabled=("assault_rifle",))
    data = json.loads(json.dumps(codec.dump_record(bruce)))  # as a log line holds it
    assert data["kind"] == "xxxzone.combatant"
    assert codec.load_record(data) == bruce


def test_the_sheet_shows_ap_pools_wounds_armour_hands_and_statuses(book):
    from engine.rules.xxxzone import actions, odds, sheet
    from engine.rules.xxxzone.actions import Continuing

    trevor = deployed(book, "trevor")
    turn = actions.spend(actions.start(14, 14)[0], 4, "move", frozenset(trevor.op.abilities))
    trevor = attrs.evolve(trevor, turn=attrs.evolve(turn, continuing=Continuing(action="use_medkit", remaining=5)),
                          armour_hp=0, condition=Condition(wounds=Wounds(minor=3, severe=1), on_fire=2),
                          aim=battle.Aim(target="zhetan_1", stacks=2))
    got = sheet.sheet(book, trevor)
    rows = {r.label: r for r in got.rows}
    assert rows["AP"].text == " 10/14 " and rows["Pools"].text == " gun 2"
    assert rows["Wounds"].text == " minor 3 · severe 1 · penalty 20"
    assert rows["Armour"].alert == "broken" and rows["Armour"].text == " DR 0 · HP 0/2"
    assert rows["Hand"].text == " Automatic Shotgun 12/12"
    assert got.effects == ("on fire 2", "aiming at zhetan_1 ×2", "Use Med-kit: 5 AP to go")
    assert sheet.budget(trevor) == "AP 10/14"
    lines = sheet.odds_lines(odds.single(Attack(attacker="s", adj_acc=90, dt=35), battle.defence(book, trevor)))
    # R = d100 + 90 - Agi 11; no DR (broken); DT 35 + End 3 = 38
    assert [(r.label, r.text) for r in lines] == [("Miss", " 21.0%"), ("Minor", " 38.0%"), ("Severe", " 38.0%"),
                                                  ("Mortal", " 3.0%")]


def test_interactions_need_adjacency(book):
    from engine.rules.xxxzone import explosions, status

    helmut = battle.stow(book, deployed(book, "helmut"), "machine_pistol_9mm")
    helmut = battle.draw(book, helmut, "medkit")
    dane = battle.stow(book, attrs.evolve(deployed(book, "dane"), at=(1, 1)), "battle_shotgun")
    giver, taker = battle.give(book, helmut, dane, "medkit")
    assert giver.hands == () and taker.hands[0].item == "medkit"
    far = attrs.evolve(dane, at=(2, 0))
    assert battle.give(book, helmut, far, "medkit").code == "not_adjacent"
    assert battle.give(book, helmut, attrs.evolve(deployed(book, "johnny"), at=(1, 0)), "medkit").code == "hands_full"
    assert status.can_treat((0, 0), (1, 1)) is None and status.can_treat((0, 0), (0, 0)) is None
    assert status.can_treat((0, 0), (2, 1)).code == "not_adjacent"
    assert explosions.place_c4((0, 0), (1, 0)) is None and explosions.place_c4((0, 0), (2, 0)).code == "too_far"
