"""xxxzone section 13: every ability with an effect in battle, each shown to change what the rules decide.

Abilities that act only between battles (battle = false) are recorded on the character for the campaign.
"""

from __future__ import annotations

import attrs
import pytest

from engine.core.dice import Dice
from engine.rules.xxxzone import abilities as ab
from engine.rules.xxxzone import actions, explosions, status
from engine.rules.xxxzone.attack import Attack, Defence, resolve
from engine.rules.xxxzone.character import derive, pregen, weapons_of
from engine.rules.xxxzone.modifiers import Shooter, Situation, adj_acc, max_aims, recoil, weapon_dt, explosive_dt
from engine.rules.xxxzone.wounds import Condition, Vitals, wound

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()

BASE = Shooter(id="s", accuracy=110, strength=5, perception=6, agility=6)


def having(*names: str) -> Shooter:
    return attrs.evolve(BASE, abilities=frozenset(names))


def acc(book, s, weapon="assault_rifle", **sit):
    return adj_acc(book, s, book.weapons[weapon], Situation(**{"distance": 5, **sit}))[0]


def fresh(ap=10):
    return actions.start(ap, ap)[0]


def op_with(book, *names):
    return attrs.evolve(pregen(book, "johnny"), abilities=names)


# Each battle ability -> the test below that shows its effect.
COVERED = {
    "melee_charge": "test_melee_charge", "improved_charge": "test_melee_charge",
    "steady_aim": "test_recoil_abilities", "very_steady_aim": "test_recoil_abilities",
    "strong_back": "test_carrying", "herculean_back": "test_carrying", "atlas_strong": "test_carrying",
    "iron_fist": "test_bare_hands", "chi_strike_palm": "test_bare_hands",
    "toughness": "test_toughness_and_resistance", "improved_toughness": "test_toughness_and_resistance",
    "poison_resistance": "test_toughness_and_resistance", "walking_shooting": "test_pools",
    "aqualad": "test_pools", "chi_breath": "test_chi_breath", "run_and_gun": "test_pools",
    "action_boy": "test_stats", "shadow_attack": "test_stealth_abilities", "quick_draw": "test_pools",
    "silent_attack": "test_stealth_abilities", "action_reload": "test_pools", "sneak_attack": "test_stealth_abilities",
    "moving_target": "test_defences", "akimbo": "test_pools", "femme_fatale": "test_dt_abilities",
    "teamwork": "test_accuracy_abilities", "mark_target": "test_accuracy_abilities",
    "inspire_allies": "test_inspire_allies", "authority_aura": "test_civilian_auras",
    "calming_aura": "test_civilian_auras", "medic": "test_medic", "hacker": "test_hack_and_lock",
    "combat_surgeon": "test_dt_abilities", "lockpicker": "test_hack_and_lock",
    "tactical_scouting": "test_tactical_scouting", "grenadier": "test_explosive_abilities",
    "explosives_expert": "test_explosive_abilities", "dead_eye": "test_aim_abilities",
    "lions_eye": "test_aim_abilities", "guardian": "test_accuracy_abilities", "sniper": "test_aim_abilities",
    "eagles_eye": "test_aim_abilities", "grim_reapers_sprint": "test_pools", "bloody_mess": "test_dt_abilities",
    "executioner": "test_accuracy_abilities", "engineering": "test_defences", "disabling_shot": "test_defences",
}


def test_every_battle_ability_is_covered(book):
    battle = {aid for aid, a in book.abilities.items() if a.battle}
    assert set(COVERED) == battle
    assert all(name in globals() for name in COVERED.values())


def test_melee_charge(book):
    charger = frozenset({"melee_charge", "improved_charge"})
    turn = actions.spend(fresh(6), 4, "move", charger)
    assert ab.charge_ready(turn, 2, charger) and not ab.charge_ready(turn, 3, charger)
    assert not ab.full_charge(turn, charger)
    turn = actions.spend(turn, 2, "move", charger)
    assert ab.full_charge(turn, charger)
    axe = book.weapons["fire_axe"]
    assert weapon_dt(book, charger, axe, full_charge=True)[0] == 20
    assert not ab.charge_ready(turn, 2, frozenset())


def test_recoil_abilities(book):
    rifle = book.weapons["assault_rifle"]
    assert recoil(book, having("steady_aim"), rifle, Situation(distance=5, multi=True)) == 7
    vsa = having("very_steady_aim")
    assert recoil(book, vsa, rifle, Situation(distance=5, multi=True, aimed_before=True)) == 0
    assert recoil(book, vsa, rifle, Situation(distance=5, multi=True, aimed_before=True, roll_index=1)) == 10
    assert recoil(book, vsa, rifle, Situation(distance=5, multi=True)) == 10


def test_carrying(book):
    d = derive(op_with(book, "strong_back", "herculean_back"), book)
    assert (d.carry, d.max_capacity) == (95, 225)
    assert actions.move_cost(book, "cautiously", frozenset({"atlas_strong"}), burden="overloaded",
                             atlas_overload=True) == 6


def test_bare_hands(book):
    assert "iron_fist" in weapons_of(op_with(book, "iron_fist"), book)
    assert weapon_dt(book, frozenset({"chi_strike_palm"}), book.weapons["unarmed"])[0] == 50
    target = Vitals(id="t", willpower=30, fortitude=30, fortitude_poison=50, max_ap=9)
    kept = ab.chi_strike(Dice.scripted([71]), book, target, Condition(), 0)
    assert kept.condition == Condition()
    hit = ab.chi_strike(Dice.scripted([70, 2]), book, target, Condition(), 0)
    assert (hit.condition.stunned, hit.condition.disoriented) == (2, 3)
    assert [r.total for r in hit.rolls] == [100, 2]


def test_toughness_and_resistance(book):
    d = derive(op_with(book, "toughness", "improved_toughness", "poison_resistance"), book)
    assert (d.toughness, d.improved_toughness, d.fortitude_poison) == (8, 3, 35 + 35)
    v = Vitals(id="v", willpower=50, fortitude=40, fortitude_poison=75, max_ap=9, toughness=1)
    assert wound(Dice.scripted([]), book, v, Condition(), "minor").rolls == ()


def test_pools(book):
    turn = actions.spend(fresh(), 4, "move", frozenset({"run_and_gun", "quick_draw", "action_reload"}))
    assert (turn.gun, turn.draw, turn.reload) == (2, 4, 4)
    turn = actions.spend(fresh(), 4, "gun", frozenset({"walking_shooting"}))
    assert turn.move == 2
    assert actions.killed(fresh(), 5, frozenset({"grim_reapers_sprint"})).move == 5
    assert actions.spend(fresh(), 3, "gun", frozenset({"akimbo"}), hand="left").right == 3
    assert actions.spend(fresh(), 3, "gun", frozenset(), hand="left").right == 0
    assert actions.move_cost(book, "swim", frozenset({"aqualad"})) == 1


def test_chi_breath(book):
    rooted = actions.do(book, fresh(), "chi_breath", frozenset({"chi_breath"}))
    assert rooted.ap == 6 and rooted.rooted
    assert actions.spend(rooted, 1, "move", frozenset()).code == "rooted"
    moved = actions.spend(fresh(), 1, "move", frozenset())
    assert actions.do(book, moved, "chi_breath", frozenset({"chi_breath"})).code == "moved"
    assert ab.defence_dr(book, frozenset(), chi_breath=True) == (("chi breath", 20),)
    assert ab.defence_dr(book, frozenset(), chi_breath=True, penetration=2) == ()
    assert acc(book, BASE, "combat_knife", distance=0, chi_breath_melee=True) == 110 - 20
    assert acc(book, BASE, distance=0, chi_breath_melee=True) == 110  # guns are not slowed


def test_stats(book):
    assert derive(op_with(book, "action_boy"), book).action_points == 12
    assert derive(op_with(book, "action_boy", "action_boy"), book).action_points == 14


def test_stealth_abilities(book):
    sneaky = derive(op_with(book, "shadow_attack", "silent_attack", "sneak_attack"), book)
    assert sneaky.sneak == 35 + 30
    assert acc(book, having("shadow_attack"), unaware=True) == 110 - 10 + 10
    assert weapon_dt(book, frozenset({"silent_attack"}), book.weapons["assault_rifle"], suppressed=True)[0] == 30
    assert ab.sneak_shift(frozenset({"sneak_attack"}), melee=True, unaware=True) == 1
    assert ab.sneak_shift(frozenset({"sneak_attack"}), melee=False, unaware=True) == 0


def test_defences(book):
    mover = frozenset({"moving_target"})
    assert ab.defence_dr(book, mover, reaction_to_move=True) == (("moving target", 10),)
    assert ab.defence_dr(book, mover) == ()
    assert acc(book, BASE, reaction=True, target_moving_target=True) == 110 - 10 - 20 - 10
    assert ab.defence_dr(book, frozenset(), mechanical=True, attacker=frozenset({"engineering"})) == \
        (("engineering", -5),)
    drone = Defence(id="drone", agility=5, endurance=0, armour_dr=20, armour_hp=1,
                    extra_dr=ab.defence_dr(book, frozenset(), mechanical=True, attacker=frozenset({"engineering"})))
    hit = resolve(Dice.scripted([50]), Attack(attacker="dane", adj_acc=100, dt=35), drone)
    assert "− DR 20 − engineering 5 = 130" in hit.roll.formula
    capped = resolve(Dice.scripted([100]), Attack(attacker="sam", adj_acc=200, dt=25, cap="minor"), drone)
    assert capped.outcome == "minor"  # Disabling Shot


def test_dt_abilities(book):
    knife = book.weapons["combat_knife"]
    assert weapon_dt(book, frozenset({"femme_fatale"}), knife, vs_human=True)[0] == 37
    assert weapon_dt(book, frozenset({"combat_surgeon"}), knife, vs_human=True)[0] == 32
    assert weapon_dt(book, frozenset({"combat_surgeon"}), book.weapons["baseball_bat"], vs_human=True)[0] == 35
    assert weapon_dt(book, frozenset({"bloody_mess"}), knife)[0] == 40


def test_accuracy_abilities(book):
    assert acc(book, having("teamwork"), teamwork=True) == 110
    assert acc(book, BASE, teamwork=True) == 100
    assert acc(book, BASE, marked=True) == 120
    assert acc(book, having("executioner"), target_wounded=True) == 110
    assert acc(book, having("guardian"), reaction=True) == 100
    assert actions.do(book, fresh(), "mark_target", frozenset({"mark_target"})).ap == 6


def test_inspire_allies(book):
    allies = [("a", (4, 0), True), ("b", (5, 0), True), ("c", (1, 1), False)]
    assert ab.inspired((0, 0), allies) == ("a",)
    assert actions.do(book, fresh(), "inspire_allies", frozenset({"inspire_allies"})).ap == 6


def test_civilian_auras(book):
    # No civilians exist in the kernel yet: the auras are recorded, Calming Aura's 4-AP action is in the table.
    assert actions.do(book, fresh(), "calming_aura", frozenset({"calming_aura"})).ap == 6
    assert actions.do(book, fresh(), "calming_aura", frozenset()).code == "needs_ability"
    assert book.abilities["authority_aura"].battle


def test_medic(book):
    d = derive(pregen(book, "helmut"), book)
    assert d.medkit_uses == 8 and derive(op_with(book), book).medkit_uses == 1
    assert status.medkit_cost(Dice.scripted([1, 1, 1]), book, "h", frozenset({"medic"})).total == 3


def test_hack_and_lock(book):
    dane = derive(pregen(book, "dane"), book)
    got = ab.hack(Dice.scripted([51]), book, "dane", dane.hack)
    assert got.passed and got.roll.formula == "d100 51 + Hack 50 = 101 > 100: pass"
    assert not ab.hack(Dice.scripted([60]), book, "dane", dane.hack, security=10).passed
    assert ab.hack(Dice.scripted([]), book, "johnny", None).code == "needs_ability"
    picker = derive(op_with(book, "lockpicker"), book)
    assert ab.pick_lock(Dice.scripted([26]), book, "johnny", picker.locksmith).passed  # 26 + 75
    assert ab.pick_lock(Dice.scripted([]), book, "johnny", None).code == "needs_ability"


def test_tactical_scouting(book):
    assert ab.scouted(45, 0) == "armour DR 45, penetration category 0 needed"
    assert actions.do(book, fresh(), "tactical_scouting", frozenset({"tactical_scouting"})).ap == 6


def test_explosive_abilities(book):
    assert explosions.blast(book, having("grenadier"), "frag").adj_acc == 125
    assert explosive_dt(book, frozenset({"explosives_expert"}), book.items["frag"]) == (20, 1)
    assert explosions.cover_damage(Dice.scripted([]), book, having("grenadier")).total == 4


def test_aim_abilities(book):
    assert max_aims(book, having("sniper")) == 4 and max_aims(book, BASE) == 1
    assert acc(book, having("sniper"), aims=3) == 110 - 10 + 60
    assert acc(book, BASE, aims=3) == 110 - 10 + 20
    eagle = having("eagles_eye")
    assert acc(book, eagle, distance=10, aims=1) == 110 - 8 + 20  # the first Per 6 squares are free
    assert acc(book, eagle, distance=10) == 110 - 20
    lion = having("lions_eye")
    assert acc(book, lion, aims=1, concealed=True, lion_ignores=True) == 110 - 10 + 20
    assert acc(book, lion, concealed=True, lion_ignores=True) == 110 - 10 - 20
    dead = having("dead_eye")
    sniper_rifle = "anti_infantry_rifle"
    assert acc(book, dead, sniper_rifle, distance=3, aims=1, use_scope=False) == 110 - 6 + 20


def test_mark_target_focus(book):
    assert ab.mark_holds(True, "move", "", "z1") and ab.mark_holds(True, "attack", "z1", "z1")
    assert not ab.mark_holds(True, "attack", "z2", "z1")
    assert not ab.mark_holds(True, "reload", "", "z1") and not ab.mark_holds(False, "move", "", "z1")
