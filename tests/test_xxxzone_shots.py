"""xxxzone section 6: the seven-step shot, vectors 12-25 and 27-34 of section 17, with scripted dice."""

from __future__ import annotations

import attrs
import pytest

from engine.core.dice import Dice
from engine.rules.xxxzone import firing, lines
from engine.rules.xxxzone.attack import Attack, CoverPiece, Defence, volley
from engine.rules.xxxzone.character import pregen
from engine.rules.xxxzone.modifiers import (Shooter, Situation, adj_acc, explosive_dt, shooter_of, strength_penalty,
                                            weapon_dt)

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()


def target(agi=5, end=5, dr=35, hp=2, **kw) -> Defence:
    """The standard target T of section 17: Agi 5, End 5, Type3 armour (DR 35, 2 HP)."""
    return Defence(id="t", agility=agi, endurance=end, armour_dr=dr, armour_hp=hp, **kw)


def shoot(faces, attack: Attack, d: Defence):
    dice = Dice.scripted(list(faces))
    hits, after = volley(dice, [attack] * len(faces), d)
    assert dice.scripted_left == 0
    return hits, after


def generic(acc=110) -> Shooter:
    return Shooter(id="s", accuracy=acc, strength=5, perception=5, agility=5)


def acc_of(book, s, weapon, **sit):
    return adj_acc(book, s, book.weapons[weapon], Situation(**sit))[0]


def test_v12_strength_penalty(book):
    assert [strength_penalty(book, 5 + k, 5) for k in range(5)] == [0, 10, 15, 20, 25]
    cases = [("trevor", "automatic_shotgun", 15), ("marcel", "revolver", 25), ("marcel", "combat_knife", 10),
             ("john", "revolver", 15)]
    for cid, weapon, penalty in cases:
        s = shooter_of(pregen(book, cid), book)
        assert strength_penalty(book, book.weapons[weapon].strength, s.strength) == penalty


def test_v13_miss(book):
    acc = acc_of(book, generic(), "assault_rifle", distance=10)
    assert acc == 90
    (hit,), _ = shoot([10], Attack(attacker="s", adj_acc=acc, dt=35), target())
    assert hit.outcome == "miss" and hit.roll.total == 95
    assert hit.roll.formula == "d100 10 + AdjAcc 90 − Agi 5 = 95 ≤ 100: miss"


def test_v14_cover_hit(book):
    wall = CoverPiece(label="pillar", value=book.cover["full"].value, hp=book.cover["full"].hp, adjacent=True)
    (hit,), after = shoot([40], Attack(attacker="s", adj_acc=90, dt=35), target(cover=(wall,)))
    assert hit.outcome == "cover" and hit.cover == 0 and hit.cover_hp == 7
    assert hit.roll.formula == "d100 40 + AdjAcc 90 − Agi 5 = 125, − cover 40 (pillar, adjacent) = 85 ≤ 100: " \
                               "hits the pillar"
    assert after.armour_hp == 2 and after.cover[0].hp == 7


def two_covers(book):
    crate = CoverPiece(label="crate", value=book.cover["half"].value, hp=4, adjacent=False)
    low_wall = CoverPiece(label="low wall", value=book.cover["half"].value, hp=4, adjacent=True)
    return crate, low_wall


def test_v15_minor_with_two_covers(book):
    acc = acc_of(book, generic(), "assault_rifle", distance=8)
    assert acc == 94
    (hit,), after = shoot([95], Attack(attacker="s", adj_acc=acc, dt=35), target(cover=two_covers(book)))
    assert hit.roll.formula == ("d100 95 + AdjAcc 94 − Agi 5 = 184, − cover 10 (crate, half) = 174, "
                                "− cover 20 (low wall, adjacent) = 154, − DR 35 = 119, − DT 40 = 79 ≤ 100: minor wound")
    assert hit.outcome == "minor" and after.armour_hp == 1


def test_v16_hunkered_glancing(book):
    (hit,), after = shoot([95], Attack(attacker="s", adj_acc=94, dt=35),
                          target(cover=two_covers(book), hunkered=True))
    assert "− cover 40 (low wall, adjacent, hunkered ×2) = 134" in hit.roll.formula
    assert hit.outcome == "glancing" and hit.roll.total == 99 and after.armour_hp == 1


def test_v17_glancing_at_exactly_100(book):
    (hit,), after = shoot([50], Attack(attacker="s", adj_acc=90, dt=35), target())
    assert hit.outcome == "glancing" and hit.roll.total == 100 and after.armour_hp == 1


def test_v18_broken_armour(book):
    (hit,), after = shoot([50], Attack(attacker="s", adj_acc=90, dt=35), target(hp=0))
    assert "DR 0 (armour broken) = 135" in hit.roll.formula and hit.roll.total == 95
    assert hit.outcome == "minor" and after.armour_hp == 0


def test_v19_severe(book):
    cane = shooter_of(pregen(book, "cane"), book)
    acc = acc_of(book, cane, "battle_shotgun", distance=4)
    assert acc == 107
    dt, _ = weapon_dt(book, cane.abilities, book.weapons["battle_shotgun"])
    (hit,), _ = shoot([88], Attack(attacker="cane", adj_acc=acc, dt=dt), target(end=7))
    assert [s.split("= ")[-1].split(" ")[0] for s in hit.roll.formula.split(", ")] == ["190", "155", "118", "81"]
    assert hit.outcome == "severe"


def test_v20_lethal_revised_mortal_original(book):
    sam = shooter_of(pregen(book, "sam"), book)
    value, shown = adj_acc(book, sam, book.weapons["anti_infantry_rifle"], Situation(distance=14, aims=1))
    assert value == 152 and shown == "AdjAcc = 140 − distance 8 + aim 20 = 152"
    attack = Attack(attacker="sam", adj_acc=value, dt=25)
    (hit,), _ = shoot([90], attack, target())
    assert hit.roll.formula.endswith("= 237, − DR 35 = 202, − DT 30 = 172, − DT 30 = 142, − DT 30 = 112 > 100: "
                                     "lethal wound")
    assert hit.outcome == "lethal"
    (old,), _ = shoot([90], attrs.evolve(attack, revised=False), target())
    assert old.outcome == "mortal" and old.roll.total == 142


def test_v21_mortal(book):
    acc = acc_of(book, generic(), "assault_rifle", distance=2, aims=1)
    assert acc == 126
    (hit,), after = shoot([100], Attack(attacker="s", adj_acc=acc, dt=35), target(agi=3, end=3, dr=15, hp=1))
    assert hit.roll.total == 94 and "= 223, − DR 15 = 208, − DT 38 = 170, − DT 38 = 132, − DT 38 = 94" in \
        hit.roll.formula
    assert hit.outcome == "mortal" and after.armour_hp == 0


def test_v22_scope_too_close(book):
    sam = shooter_of(pregen(book, "sam"), book)
    value, shown = adj_acc(book, sam, book.weapons["anti_infantry_rifle"], Situation(distance=3, aims=1))
    assert value == 125 and "scope too close 35" in shown
    (hit,), _ = shoot([80], Attack(attacker="sam", adj_acc=value, dt=25), target())
    assert hit.outcome == "mortal" and hit.roll.total == 75


def test_dead_eye_aims_without_the_scope(book):
    sam = attrs.evolve(shooter_of(pregen(book, "sam"), book), abilities=frozenset({"dead_eye"}))
    rifle = book.weapons["anti_infantry_rifle"]
    assert adj_acc(book, sam, rifle, Situation(distance=3, aims=1, use_scope=False))[0] == 140 - 6 + 20
    plain = shooter_of(pregen(book, "sam"), book)
    assert adj_acc(book, plain, rifle, Situation(distance=3, aims=1, use_scope=False))[0] == 140 - 6


def test_v23_revolver_with_strength_penalty(book):
    marcel = shooter_of(pregen(book, "marcel"), book)
    value, shown = adj_acc(book, marcel, book.weapons["revolver"], Situation(distance=3))
    assert value == 79 and shown == "AdjAcc = 110 − distance 6 − strength 25 = 79"
    (hit,), _ = shoot([75], Attack(attacker="marcel", adj_acc=value, dt=20), target(agi=4, end=4, dr=15, hp=1))
    assert hit.roll.formula.endswith("= 150, − DR 15 = 135, − DT 24 = 111, − DT 24 = 87 ≤ 100: severe wound")
    assert hit.outcome == "severe"


def test_v24_wound_penalty_on_attack(book):
    bruce = shooter_of(pregen(book, "bruce"), book, wound_penalty=30)
    assert acc_of(book, bruce, "assault_rifle", distance=5) == 75
    (hit,), _ = shoot([70], Attack(attacker="bruce", adj_acc=75, dt=35), target())
    assert hit.outcome == "minor" and hit.roll.total == 65


def test_v25_burst_with_recoil(book):
    johnny = shooter_of(pregen(book, "johnny"), book)
    ready = firing.Readiness(drawn=("assault_rifle",), loaded={"assault_rifle": 45})
    assert firing.check(book, johnny, "assault_rifle", "burst", 5, ready) is None
    rolls = firing.rolls(book, johnny, "assault_rifle", "burst", Situation(distance=5), dt=35)
    assert [a.adj_acc for a, _ in rolls] == [90, 90] and rolls[0][1] == "AdjAcc = 110 − distance 10 − recoil 10 = 90"
    dice = Dice.scripted([70, 20])
    (first, second), after = volley(dice, [a for a, _ in rolls], target())
    assert (first.roll.total, first.outcome, first.armour_hp) == (80, "minor", 1)
    assert (second.roll.total, second.outcome, second.armour_hp) == (70, "glancing", 0)
    assert after.armour_hp == 0
    assert firing.rounds_after(book, "assault_rifle", "burst", 45) == 42


def test_v27_very_steady_aim(book):
    johnny = attrs.evolve(shooter_of(pregen(book, "johnny"), book), abilities=frozenset({"very_steady_aim"}))
    rolls = firing.rolls(book, johnny, "assault_rifle", "burst", Situation(distance=5, aims=1, aimed_before=True), 35)
    assert [a.adj_acc for a, _ in rolls] == [110 - 10 + 20, 110 - 10 + 20 - 10]


def test_repeated_shots_take_recoil_per_earlier_action(book):
    trevor = shooter_of(pregen(book, "trevor"), book)
    assert acc_of(book, trevor, "pistol_9mm", distance=4, earlier_actions=1) == 110 - 8 - 12
    steady = attrs.evolve(trevor, abilities=frozenset({"steady_aim"}))
    assert acc_of(book, steady, "pistol_9mm", distance=4, earlier_actions=2) == 110 - 8 - 2 * 9


def test_v28_akimbo_spray(book):
    trevor = shooter_of(pregen(book, "trevor"), book)
    ready = firing.Readiness(drawn=("pistol_9mm", "pistol_9mm"), loaded={"pistol_9mm": 12})
    assert firing.check(book, trevor, "pistol_9mm", "akimbo_spray", 4, ready) is None
    mode = book.weapons["pistol_9mm"].modes["akimbo_spray"]
    assert (mode.ap, firing.rounds_after(book, "pistol_9mm", "akimbo_spray", 12), mode.rolls) == (7, 6, 2)
    rolls = firing.rolls(book, trevor, "pistol_9mm", "akimbo_spray", Situation(distance=4), dt=35)
    assert rolls[0][0].adj_acc == 90
    (hit,), _ = shoot([66], rolls[0][0], target(end=3, dr=15, hp=1))
    assert hit.roll.formula.endswith("= 151, − DR 15 = 136, − DT 38 = 98 ≤ 100: minor wound")
    alone = firing.Readiness(drawn=("pistol_9mm",), loaded={"pistol_9mm": 12})
    assert firing.check(book, trevor, "pistol_9mm", "akimbo_spray", 4, alone).code == "no_pair"


def test_v29_mg_spray(book):
    vadin = shooter_of(pregen(book, "vadin"), book)
    rolls = firing.rolls(book, vadin, "family_guy", "spray", Situation(distance=12), dt=50)
    assert [a.adj_acc for a, _ in rolls] == [71, 71, 71]
    dice = Dice.scripted([30, 91, 99])
    hits, after = volley(dice, [a for a, _ in rolls], target(hp=1))
    assert [(h.roll.total, h.outcome) for h in hits] == [(96, "miss"), (67, "minor"), (55, "severe")]
    assert "− DR 0 (armour broken) = 165, − DT 55 = 110, − DT 55 = 55" in hits[2].roll.formula and after.armour_hp == 0
    assert firing.rounds_after(book, "family_guy", "spray", 200) == 180


def test_v30_overwatch_and_moving_target(book):
    bruce = shooter_of(pregen(book, "bruce"), book)
    value, shown = adj_acc(book, bruce, book.weapons["assault_rifle"],
                           Situation(distance=6, reaction=True, target_moving_target=True))
    assert value == 73 and shown == "AdjAcc = 115 − distance 12 − overwatch 20 − moving target 10 = 73"
    mover = target(agi=7, extra_dr=(("moving target", book.settings.moving_target_dr),))
    (hit,), after = shoot([80], Attack(attacker="bruce", adj_acc=value, dt=35), mover)
    assert "− DR 35 + moving target 10 = 101" in hit.roll.formula
    assert (hit.roll.total, hit.outcome, after.armour_hp) == (61, "minor", 1)
    guardian = attrs.evolve(bruce, abilities=frozenset({"guardian"}))
    assert acc_of(book, guardian, "assault_rifle", distance=6, reaction=True) == 115 - 12


def test_v31_melee(book):
    helmut = shooter_of(pregen(book, "helmut"), book)
    ready = firing.Readiness(drawn=("combat_knife",))
    assert firing.check(book, helmut, "combat_knife", "swing", 0, ready) is None
    assert firing.check(book, helmut, "combat_knife", "swing", 1, ready).code == "not_adjacent"
    acc = acc_of(book, helmut, "combat_knife", distance=0)
    dt, _ = weapon_dt(book, helmut.abilities, book.weapons["combat_knife"])
    (hit,), _ = shoot([60], Attack(attacker="helmut", adj_acc=acc, dt=dt), target(agi=4, end=4, dr=15, hp=1))
    assert hit.roll.formula == ("d100 60 + AdjAcc 105 − Agi 4 = 161, − DR 15 = 146, − DT 46 = 100 ≤ 100: minor wound")


def test_v32_sneak_attack(book):
    marcel = shooter_of(pregen(book, "marcel"), book)
    acc = acc_of(book, marcel, "combat_knife", distance=0, unaware=True)
    assert acc == 100  # 110 - 10 (Str 1 against the knife's 2)
    attack = Attack(attacker="marcel", adj_acc=acc, dt=42, shift=1)
    (hit,), _ = shoot([60], attack, target())
    assert (hit.roll.total, hit.raw, hit.outcome) == (73, "minor", "severe")
    (graze,), _ = shoot([30], attack, target())  # 30+100-5 = 125 → 90: glancing, moved up
    assert (graze.raw, graze.outcome) == ("glancing", "minor")
    (mortal,), _ = shoot([100], attrs.evolve(attack, adj_acc=200), target())
    assert (mortal.raw, mortal.outcome) == ("lethal", "lethal")  # no further than Mortal: Lethal stays


def test_v33_disabling_shot(book):
    sam = shooter_of(pregen(book, "sam"), book)
    acc = acc_of(book, sam, "anti_infantry_rifle", distance=14, aims=1)
    (hit,), _ = shoot([90], Attack(attacker="sam", adj_acc=acc, dt=25, cap="minor"), target())
    assert (hit.raw, hit.outcome, hit.wound) == ("lethal", "minor", "minor")
    (miss,), _ = shoot([1], Attack(attacker="sam", adj_acc=50, dt=25, cap="minor"), target())
    assert miss.wound is None


def test_v34_missile(book):
    bruce = shooter_of(pregen(book, "bruce"), book)
    acc = acc_of(book, bruce, "missile_launcher", distance=20)
    assert acc == 75
    t = target(agi=5, end=6, dr=45, hp=3)
    (direct,), t = shoot([55], Attack(attacker="bruce", adj_acc=acc, dt=80), t)
    assert (direct.roll.total, direct.outcome, t.armour_hp) == (80, "glancing", 2)
    dt, penetration = explosive_dt(book, bruce.abilities, book.items["missile_explosion"])
    assert (dt, penetration) == (10, 1)
    blast = Attack(attacker="bruce", adj_acc=bruce.accuracy, dt=dt, penetration=penetration, explosion=True)
    (first,), t = shoot([55], blast, t)
    assert first.roll.formula.endswith("= 165, − DR 22 (halved) = 143, − DT 16 = 127, − DT 16 = 111, − DT 16 = 95 "
                                       "≤ 100: mortal wound")
    assert first.outcome == "mortal" and t.armour_hp == 1


def test_out_of_range_and_other_refusals(book):
    john = shooter_of(pregen(book, "john"), book)
    ready = firing.Readiness(drawn=("revolver",), loaded={"revolver": 6})
    assert firing.check(book, john, "revolver", "shoot", 16, ready).reason == \
        "the target is 16 squares away; the 12mm Revolver Pistol reaches 15"
    assert firing.check(book, john, "revolver", "burst", 3, ready).code == "no_mode"
    assert firing.check(book, john, "assault_rifle", "shoot", 3, ready).code == "not_drawn"
    assert firing.check(book, john, "revolver", "shoot", 3, attrs.evolve(ready, burdened=True)).code == "burdened"
    assert firing.check(book, john, "revolver", "shoot", 3, attrs.evolve(ready, loaded={"revolver": 0})).code == \
        "no_ammo"
    assert firing.check(book, john, "revolver", "shoot", 3,
                        attrs.evolve(ready, disabled=("revolver",))).code == "disabled"


def test_cover_on_the_line_of_fire(book):
    pieces = {(1, 0): ("sandbag", 20, 4), (4, 0): ("crate", 20, 4), (7, 0): ("low wall", 20, 4)}
    got = lines.cover_between((0, 0), (8, 0), pieces)
    assert [(p.label, p.adjacent) for p in got] == [("crate", False), ("low wall", True)]  # the sandbag is fired over
    near = lines.cover_between((0, 0), (2, 0), {(1, 0): ("crate", 20, 4)})
    assert [(p.label, p.adjacent) for p in near] == [("crate", True)]  # adjacent to both: it counts
    assert lines.between((0, 0), (8, 3)) == 7


def test_cones(book):
    assert lines.in_cone((0, 0), (10, 0), (10, 4), "cone", 30)  # 21.8°
    assert not lines.in_cone((0, 0), (10, 0), (10, 5), "cone", 30)  # 26.6°
    assert lines.in_cone((0, 0), (10, 0), (10, 10), "big", 40)  # 45°
    assert not lines.in_cone((0, 0), (10, 0), (40, 0), "big", 30)  # beyond range


def test_dt_after_abilities(book):
    knife = book.weapons["combat_knife"]
    assert weapon_dt(book, frozenset({"bloody_mess", "combat_surgeon"}), knife, vs_human=True)[0] == 42 - 2 - 10
    assert weapon_dt(book, frozenset({"chi_strike_palm"}), book.weapons["iron_fist"])[0] == 30
    assert weapon_dt(book, frozenset({"combat_surgeon"}), knife, vs_human=False)[0] == 42


def test_the_flare_gun_at_a_square(book):
    assert firing.check_square(book, "flare_gun", 100) is None
    assert firing.check_square(book, "flare_gun", 101).code == "out_of_range"
    assert firing.check_square(book, "assault_rifle", 5).code == "needs_target"
    johnny = shooter_of(pregen(book, "johnny"), book)
    ready = firing.Readiness(drawn=("flare_gun",), loaded={"flare_gun": 1})
    assert firing.check(book, johnny, "flare_gun", "shoot", 26, ready).code == "out_of_range"  # targeted: 25
