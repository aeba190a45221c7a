"""xxxzone's whole attack action between two battle records: checks, rolls, wounds and riders."""

from __future__ import annotations

import attrs
import pytest

from engine.core.dice import Dice
from engine.rules.xxxzone import battle
from engine.rules.xxxzone.attack import CoverPiece
from engine.rules.xxxzone.character import pregen
from engine.rules.xxxzone.shot import Shot, fire
from engine.rules.xxxzone.wounds import Condition

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()


def at(book, cid, cell, side="squad"):
    return battle.deploy(book, pregen(book, cid), side, cell)


def test_vector_25_as_an_action(book):
    johnny = at(book, "johnny", (0, 0))
    t = attrs.evolve(at(book, "dane", (6, 0), "aliens"), op=attrs.evolve(pregen(book, "dane"), star=""))
    dice = Dice.scripted([70, 20, 90])  # the burst's two rolls, then the Minor wound's Will test
    got = fire(dice, book, johnny, t, Shot(weapon="assault_rifle", mode="burst"))
    assert dice.scripted_left == 0
    assert [h.outcome for h in got.hits] == ["minor", "glancing"]
    assert got.lines[0] == "AdjAcc = 110 − distance 10 − recoil 10 = 90"
    assert got.target.armour_hp == 0 and got.target.condition.wounds.minor == 1
    assert got.shooter.hands[0].rounds == 42 and got.shooter.conspicuous
    assert got.rolls[-1].formula == "d100 90 + Will 39 = 129 > 100: pass"  # Dane's Will without the star


def test_aim_is_used_and_kept_on_the_same_target(book):
    sam = battle.aim(book, at(book, "sam", (0, 0)), "johnny")
    t = at(book, "johnny", (15, 0), "aliens")
    dice = Dice.scripted([90, 70, 80])  # 235 → 200 → 170, 140, 110: Lethal; Fort 105 passes, Will 108 passes
    got = fire(dice, book, sam, t, Shot(weapon="anti_infantry_rifle", mode="shoot"))
    assert got.lines[0] == "AdjAcc = 140 − distance 8 + aim 20 = 152"
    assert got.hits[0].outcome == "lethal" and not got.killed and got.target.condition.wounds.lethal == 1
    assert got.shooter.aim == battle.Aim(target="johnny", stacks=1) and dice.scripted_left == 0
    dead = fire(Dice.scripted([90, 50]), book, sam, t, Shot(weapon="anti_infantry_rifle", mode="shoot"))
    assert dead.killed  # Fort 85: dead at once, no Will test


def test_disabling_shot_caps_and_disables(book):
    sam = at(book, "sam", (0, 0))
    t = at(book, "bruce", (15, 0), "aliens")
    dice = Dice.scripted([100, 100])  # a hit far past Minor; the Minor test passes
    got = fire(dice, book, sam, t, Shot(weapon="anti_infantry_rifle", mode="shoot", disabling=True))
    assert got.hits[0].raw != "minor" and got.hits[0].outcome == "minor"
    assert got.target.disabled == ("assault_rifle",)
    assert "weapon disabled until its Reload AP are spent" in got.lines


def test_the_flare_sets_on_fire(book):
    johnny = attrs.evolve(at(book, "johnny", (0, 0)), hands=(battle.Held(item="flare_gun", rounds=1),))
    t = at(book, "marcel", (4, 0), "aliens")
    dice = Dice.scripted([100, 100, 3])  # Minor or worse; Will; 1d4 burning turns
    got = fire(dice, book, johnny, t, Shot(weapon="flare_gun", mode="shoot"))
    assert got.target.condition.on_fire == 3 and "On Fire" in got.lines
    assert got.shooter.hands[0].rounds == 0


def test_cover_is_hit_and_worn(book):
    bruce = at(book, "bruce", (0, 0))
    t = at(book, "john", (5, 0), "aliens")
    crate = CoverPiece(label="crate", value=20, hp=1, adjacent=True, cell=(4, 0))
    got = fire(Dice.scripted([1]), book, bruce, t, Shot(weapon="assault_rifle", mode="shoot"), (crate,))
    # 1 + 107 - 2 = 106, - 20 = 86: the crate takes it and is destroyed
    assert got.hits[0].outcome == "cover" and got.cover == () and got.target.armour_hp == 1


def test_refusals(book):
    john = at(book, "john", (0, 0))
    far = at(book, "sam", (20, 0), "aliens")
    assert fire(Dice.scripted([]), book, john, far, Shot(weapon="revolver", mode="shoot")).code == "out_of_range"
    out = attrs.evolve(john, condition=Condition(unconscious=True))
    assert fire(Dice.scripted([]), book, out, far, Shot(weapon="revolver", mode="shoot")).code == "cannot_act"


def test_akimbo_spray_empties_both_pistols_and_a_shot_one(book):
    trevor = attrs.evolve(at(book, "trevor", (0, 0)), hands=(battle.Held(item="pistol_9mm", rounds=12),) * 2)
    t = at(book, "john", (5, 0), "aliens")
    spray = fire(Dice.scripted([1, 1]), book, trevor, t, Shot(weapon="pistol_9mm", mode="akimbo_spray"))
    assert [h.rounds for h in spray.shooter.hands] == [6, 6]
    one = fire(Dice.scripted([1]), book, trevor, t, Shot(weapon="pistol_9mm", mode="shoot", hand=1))
    assert [h.rounds for h in one.shooter.hands] == [12, 11]


def test_a_sneak_attack_moves_the_wound_up(book):
    marcel = attrs.evolve(at(book, "marcel", (0, 0)), hands=(battle.Held(item="combat_knife"),))
    t = attrs.evolve(at(book, "johnny", (1, 0), "aliens"), armour_hp=0)
    dice = Dice.scripted([60, 100, 100])  # 60+100-7 = 153, DR 0, DT 47: 106, 59 Severe → Mortal; Will, Fort
    got = fire(dice, book, marcel, t, Shot(weapon="combat_knife", mode="swing", unaware=True))
    assert (got.hits[0].raw, got.hits[0].outcome) == ("severe", "mortal") and dice.scripted_left == 0
    assert not got.shooter.conspicuous  # melee makes no noise


def test_overwatch_fires_at_a_mover_while_stored_ap_last(book):
    from engine.rules.xxxzone import actions, overwatch

    bruce = at(book, "bruce", (0, 0))
    turn = actions.spend(actions.start(9, 9)[0], 2, "move", frozenset(bruce.op.abilities))
    turn, watch = overwatch.declare(book, turn, bruce, "assault_rifle", "shoot")
    assert turn.overwatch == 7 and turn.ended
    mover = at(book, "cane", (7, 0), "aliens")  # Moving Target: -10 and +10 DR against this fire
    assert overwatch.triggered(book, watch, turn, bruce, mover, sees=True)
    assert not overwatch.triggered(book, watch, turn, bruce, mover, sees=False)
    assert not overwatch.triggered(book, watch, turn, bruce, attrs.evolve(mover, at=(40, 0)), sees=True)
    turn, shot = overwatch.react(book, watch, turn, mover)
    assert turn.overwatch == 2 and shot.reaction
    got = fire(Dice.scripted([80, 100]), book, bruce, mover, shot)
    assert got.lines[0] == "AdjAcc = 115 − distance 12 − overwatch 20 − moving target 10 = 73"
    assert "+ moving target 10" in got.hits[0].roll.formula
    assert not overwatch.triggered(book, watch, turn, bruce, mover, sees=True)  # 2 AP left: no more shots
    assert overwatch.react(book, watch, turn, mover).code == "no_ap"
    assert overwatch.declare(book, actions.start(9, 9)[0], bruce, "battle_shotgun", "shoot").code == "not_drawn"


def test_boorus_claws_poison(book):
    from engine.rules.xxxzone.character import enemy

    boorus = battle.deploy(book, enemy(book, "boorus"), "aliens", (1, 0))
    assert boorus.hands[0].item == "boorus_claws"
    johnny = at(book, "johnny", (0, 0))
    got = fire(Dice.scripted([100, 100]), book, boorus, johnny, Shot(weapon="boorus_claws", mode="swing"))
    assert got.hits[0].wound is not None and got.target.condition.poison == "poisoned" and "Poisoned" in got.lines


def test_a_spray_hits_everyone_in_the_cone_friend_or_foe(book):
    from engine.rules.xxxzone.shot import spray

    vadin = at(book, "vadin", (0, 0))
    foe = at(book, "johnny", (13, 0), "aliens")
    friend = at(book, "sam", (10, 3))  # 16.7°: in the Big Cone
    outside = at(book, "john", (0, 10))
    dice = Dice.scripted([1, 1, 1, 1, 1, 1])  # three rolls at each of the two in the cone
    got = spray(dice, book, vadin, [(foe, ()), (friend, ()), (outside, ())], (13, 0),
                Shot(weapon="family_guy", mode="spray"))
    assert dice.scripted_left == 0
    assert [o.target.id for o in got] == ["sam", "johnny"]  # nearest first
    assert got[0].lines[0] == "AdjAcc = 105 − distance 18 − recoil 10 = 77"
    assert all(len(o.hits) == 3 for o in got)
    assert spray(Dice.scripted([]), book, vadin, [(outside, ())], (13, 0),
                 Shot(weapon="family_guy", mode="spray")).code == "empty_cone"
    bruce = at(book, "bruce", (0, 0))
    assert spray(Dice.scripted([]), book, bruce, [(foe, ())], (13, 0),
                 Shot(weapon="assault_rifle", mode="shoot")).code == "no_cone"


def test_unjam_and_put_out(book):
    from engine.rules.xxxzone import status

    jammed = attrs.evolve(at(book, "bruce", (0, 0)), disabled=("assault_rifle",))
    assert battle.unjam(jammed, "assault_rifle").disabled == ()
    assert status.put_out(Condition(on_fire=3)).on_fire == 0


def test_incendiary_shells_set_the_target_on_fire(book):
    johnny = battle.stow(book, at(book, "johnny", (0, 0)), "assault_rifle")
    johnny = battle.draw(book, johnny, "battle_shotgun")
    assert johnny.hands[0] == battle.Held(item="battle_shotgun", rounds=6, ammo="shells")
    # 40 + 104 - Agi 11 = 133, DR 15: 118, DT 31: 87 Minor; then its Will test
    plain = fire(Dice.scripted([40, 100]), book, johnny, at(book, "marcel", (4, 0), "aliens"),
                 Shot(weapon="battle_shotgun", mode="shoot"))
    assert plain.target.condition.on_fire == 0
    johnny = battle.reload(book, johnny, "battle_shotgun", "incendiary_shells")
    assert johnny.hands[0].ammo == "incendiary_shells"
    hot = fire(Dice.scripted([40, 100, 2]), book, johnny, at(book, "marcel", (4, 0), "aliens"),
               Shot(weapon="battle_shotgun", mode="shoot"))
    assert hot.target.condition.on_fire == 2
