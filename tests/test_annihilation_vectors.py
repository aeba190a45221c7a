"""annihilation section 23, test vectors TV-A1 to TV-A21 (characters, time, movement, shooting), with scripted dice.

Every number the spec prints is checked. The rules core is imported directly: it is not registered yet.
"""

from __future__ import annotations

import attrs
import pytest

from engine.content import loader, tables
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.annihilation import character as ch, fire, moves
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter, Part, deploy, energy_regen, stamina_effective, tu_turn
from engine.rules.annihilation.inventory import Carried, encumbrance
from engine.rules.annihilation.moves import Step
from engine.rules.annihilation.schema import SCHEMA, STATS


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.of(tables.load_folder(loader.default_dir(), "annihilation", SCHEMA))


def soldier(book: Book, armour: str = "none", skills: dict[str, str] | None = None, **stats: int) -> ch.Character:
    """A military operative with every stat 50 unless given, and the free baseline skills (A-4.4)."""
    held = dict(ch.baseline(book))
    for skill, level in (skills or {}).items():
        held[skill] = book.levels[level].chance
    return ch.Character(id="op", name="Op", stats=ch.Stats(**{s: stats.get(s, 50) for s in STATS}),
                        skills=tuple(held.items()), armour=armour)


def fighter(book: Book, tu_now: int | None = None, energy: int | None = None, **stats: int) -> Fighter:
    f = deploy(book, soldier(book, **stats))
    return attrs.evolve(f, tu_left=f.tu_left if tu_now is None else tu_now,
                        energy=f.energy if energy is None else energy)


def test_tv_a1_stat_roll(book):
    roll = book.roll("stat_roll", Dice.scripted([3, 7, 10, 1, 5, 8, 2]), "op", "time_units")
    assert (roll.faces, roll.total, roll.formula) == ((3, 7, 10, 1, 5, 8, 2), 46, "3+7+10+1+5+8+2+10=46")
    assert book.roll("stat_roll", Dice.scripted([1] * 7), "op", "x").total == 17
    assert book.roll("stat_roll", Dice.scripted([10] * 7), "op", "x").total == 80
    faces = [d % 10 + 1 for d in range(7 * 14)]  # each stat rolls its own seven dice, in order
    stats, rolls = ch.roll_stats(book, Dice.scripted(faces), "op")
    assert [r.purpose for r in rolls] == list(STATS)
    assert [r.total for r in rolls] == [sum(faces[7 * i:7 * i + 7]) + 10 for i in range(14)]
    assert stats.time_units == 1 + 2 + 3 + 4 + 5 + 6 + 7 + 10 and stats.psychic == rolls[-1].total


def test_tv_a2_skill_slots(book):
    assert [ch.skill_slots(book, soldier(book, education=e).stats) for e in (47, 17, 80)] == [11, 4, 20]


def test_tv_a3_skill_purchase(book):
    op = soldier(book, education=50)
    assert ch.skill_slots(book, op.stats) == 12
    assert ch.level_of(book, op.skill("rifles")) == "skilled" and ch.level_of(book, op.skill("fusion")) == "unskilled"
    each = [ch.buy(book, op.stats, op.skills, {k: v})[1] for k, v in
            (("medic", "skilled"), ("rifles", "proficient"), ("fusion", "novice"))]
    assert each == [2, 3 - 2, 1]
    skills, spent = ch.buy(book, op.stats, op.skills, {"medic": "skilled", "rifles": "proficient", "fusion": "novice"})
    assert spent == 4 and ch.skill_slots(book, op.stats) - spent == 8
    bought = attrs.evolve(op, skills=skills)
    assert [ch.level_of(book, bought.skill(k)) for k in ("medic", "rifles", "fusion")] == ["skilled", "proficient",
                                                                                             "novice"]
    assert ch.buy(book, op.stats, op.skills, {"medic": "master", "rifles": "master", "fusion": "master"}) == \
        Rejected("no_slots", "That needs 16 skill slots; Edu 50 gives 12")
    assert ch.buy(book, op.stats, op.skills, {"rifles": "novice"}).code == "not_higher"


def test_tv_a4_diagonal_through_light_vegetation(book):
    f = fighter(book)
    after, prices = moves.walk(book, f, [Step("walk", True, "light_vegetation")] * 3)
    assert [p.tu for p in prices] == [9, 9, 9]
    assert (f.tu_left - after.tu_left, f.energy - after.energy) == (27, 27)


def test_tv_a5_mixed_path(book):
    f = fighter(book)
    path = [Step("walk"), Step("walk"), Step("walk", True, "deep_snow"), Step("stairs_up")]
    after, prices = moves.walk(book, f, path)
    assert [p.tu for p in prices] == [4, 4, 14, 8]
    assert (f.tu_left - after.tu_left, f.energy - after.energy) == (30, 30)


def test_tv_a6_energy_gate(book):
    f = fighter(book, tu_now=55, energy=40)
    assert moves.walk(book, f, [Step("climb_up")]) == Rejected("no_energy", "step 1 (climb_up) needs 50 Energy; 40 left")
    after, _ = moves.walk(book, attrs.evolve(f, energy=50), [Step("climb_up")])
    assert (after.tu_left, after.energy) == (5, 0)


def test_tv_a7_stance_chain(book):
    f = fighter(book)
    down = moves.stance_price(book, f, "prone")
    assert (down.tu, down.energy, down.text) == (9, 0, "stand_to_kneel + kneel_to_prone")
    up = moves.stance_price(book, attrs.evolve(f, stance="prone"), "standing")
    assert (up.tu, up.energy, up.text) == (12, 0, "prone_to_kneel + kneel_to_stand")


def test_tv_a8_flying(book):
    f = fighter(book)
    path = [Step("fly", True, "deep_snow")] * 3 + [Step("hover_up")] * 2  # terrain is ignored in flight
    after, prices = moves.walk(book, f, path, flyer=True)
    assert [p.tu for p in prices] == [6, 6, 6, 8, 8]
    assert (f.tu_left - after.tu_left, f.energy - after.energy) == (34, 0)
    assert moves.walk(book, f, path).code == "cannot_fly"


def test_tv_a9_hex_variant(book):
    hexes = attrs.evolve(book, settings=attrs.evolve(book.settings, grid="hex"))
    f = fighter(hexes)
    after, prices = moves.walk(hexes, f, [Step("walk", False, "light_vegetation")] * 3)
    turns = moves.turn_price(hexes, 0, 2)
    assert [p.tu for p in prices] == [7, 7, 7] and turns.tu == 2
    assert f.tu_left - after.tu_left + turns.tu == 23


def tv_a10_load(book) -> list[Carried]:
    return [Carried("mk2v_assault_rifle", "D", "right_hand", "clip:mk2v_assault_rifle", 20),
            Carried("clip:mk2v_assault_rifle", "A", "belt"), Carried("clip:mk2v_assault_rifle", "A", "belt"),
            Carried("westerson_semi_auto_pistol", "B", "leg_right"),
            Carried("hand_grenade", "A", "belt"), Carried("hand_grenade", "A", "belt"),
            Carried("medi_kit", "B", "backpack")]


def test_tv_a10_encumbrance(book):
    assert encumbrance(book, tv_a10_load(book), "light_body_armor", 55) == (16, 11, 5)
    f = deploy(book, soldier(book, "light_body_armor", time_units=60, strength=55), encumbrance=5)
    assert tu_turn(book, f, 5) == 55 and f.tu_left == 55


def test_tv_a11_powered_armour(book):
    assert encumbrance(book, tv_a10_load(book), "medium_power_armor", 40) == (20, 17, 3)
    assert tu_turn(book, fighter(book, time_units=60), 3) == 57


def test_tv_a12_floor_at_zero(book):
    six = [Carried("mk2v_assault_rifle", "D", "right_hand"), Carried("medi_kit", "B", "belt"),
           Carried("hand_grenade", "A", "floor")]  # the floor does not count
    assert encumbrance(book, six, "none", 55) == (6, 11, 0)


def test_tv_a13_leg_wounds(book):
    f = fighter(book, time_units=60).with_part("left_leg", Part(2, 2)).with_part("right_leg", Part(1, 3))
    assert tu_turn(book, f, 5) == 60 - 5 - 15 == 40


def test_tv_a14_percentage_costs(book):
    f = attrs.evolve(fighter(book), tu_turn=55)
    assert fire.shot_tu(book, f, "mk2v_assault_rifle", "snap") == 13
    assert [moves.action_price(book, f, k).tu for k in ("prime", "throw", "motion_sensor", "physical_attack")] == \
        [27, 13, 27, 11]
    assert fire.shot_tu(book, f, "mk2v_assault_rifle", "aimed") == 44
    assert moves.action_price(book, attrs.evolve(f, tu_turn=3), "physical_attack").tu == 1  # max(1, …)


def test_tv_a15_energy_regeneration(book):
    f = fighter(book, energy=12, stamina=50)
    assert energy_regen(book, f) == 37
    assert energy_regen(book, attrs.evolve(f, energy=40)) == 50  # capped at Stm_eff
    hurt = f.with_part("torso", Part(2, 2))
    assert stamina_effective(book, hurt) == 40 and energy_regen(book, hurt) == 32


def test_tv_a16_aimed_rifle_shot(book):
    f = attrs.evolve(fighter(book, accuracy=60), tu_turn=55)
    odds = fire.to_hit(book, f, "mk2v_assault_rifle", "aimed", 12)
    assert (odds.base, odds.skill, odds.range_pen, odds.chance) == (66, 6, 12, 60)
    assert odds.text == "Acc 60×110% 66 + skill 6 − range 1×12 12"
    assert fire.shot_tu(book, f, "mk2v_assault_rifle", "aimed") == 44
    sighted = fire.to_hit(book, f, "mk2v_assault_rifle", "aimed", 12, sights=1)
    assert (sighted.range_pen, sighted.chance) == (6, 66)
    assert fire.shot_tu(book, f, "mk2v_assault_rifle", "aimed", sights=1) == 54


def test_tv_a17_pistol_snap_at_nine(book):
    f = attrs.evolve(fighter(book, accuracy=50), tu_turn=56)
    got = [fire.to_hit(book, f, "pistol_9mm", "snap", 9, sights=n) for n in (0, 1, 2)]
    assert (got[0].base, got[0].skill) == (30, 5)
    assert [o.range_pen for o in got] == [27, 13, 6] and [o.chance for o in got] == [8, 22, 29]
    assert [fire.shot_tu(book, f, "pistol_9mm", "snap", n) for n in (0, 1, 2)] == [8, 18, 23]


def test_tv_a18_shotgun(book):
    f = attrs.evolve(fighter(book, accuracy=55), tu_turn=50)
    odds = fire.to_hit(book, f, "pump_action_shot_gun", "snap", 4)
    assert (odds.base, odds.skill, odds.range_pen, odds.chance) == (44, 5, 20, 29)
    with_sights = fire.to_hit(book, f, "pump_action_shot_gun", "snap", 4, sights=2)
    assert with_sights.chance == 29  # sights give no reduction, and cost nothing
    assert fire.shot_tu(book, f, "pump_action_shot_gun", "snap", 2) == fire.shot_tu(book, f, "pump_action_shot_gun",
                                                                                     "snap") == 15


def test_tv_a19_one_handed_rifle_with_arm_wounds(book):
    f = fighter(book, accuracy=70).with_part("right_arm", Part(2, 2))
    odds = fire.to_hit(book, f, "m_17", "snap", 5, one_handed=True)
    assert (odds.acc_eff, odds.base, odds.skill, odds.range_pen, odds.one_hand, odds.chance) == (50, 30, 5, 5, 10, 20)
    both = fire.to_hit(book, f.with_part("left_arm", Part(1, 1)), "m_17", "snap", 5)  # two hands: both arms count
    assert (both.acc_eff, both.one_hand) == (40, 0)


def test_tv_a20_sniper_aimed(book):
    f = attrs.evolve(fighter(book, accuracy=55, skills={"sniper_rifles": "proficient"}), tu_turn=55)
    odds = fire.to_hit(book, f, "mk7_sniper_rifle", "aimed", 30, sights=2)
    assert (odds.base, odds.skill, odds.range_pen, odds.chance) == (93, 8, 7, 94)
    assert fire.shot_tu(book, f, "mk7_sniper_rifle", "aimed", sights=2) == 55  # 100%, no sight surcharge
    assert fire.to_hit(book, f, "mk7_sniper_rifle", "snap", 30).range_pen == 30  # only the aimed shot


def test_tv_a21_auto_fire(book):
    f = fighter(book, accuracy=60)
    odds = fire.to_hit(book, f, "mk2v_assault_rifle", "auto", 6)
    assert (odds.base, odds.skill, odds.range_pen, odds.chance) == (15, 6, 6, 15)
    dice = Dice.scripted([12, 80, 3, 44, 16, 15, 99])
    volley = fire.rounds(book, dice, "op", "auto", odds, loaded=20)
    assert dice.scripted_left == 0 and volley.fired == 7 and 20 - volley.fired == 13
    assert [r.total for r in volley.rolls] == [1, 0, 1, 0, 0, 1, 0] and volley.hits == 3
    assert volley.rolls[0].formula == "d100 12 ≤ to-hit 15 (Acc 60×25% 15 + skill 6 − range 1×6 6) hit"
    assert volley.hits * book.weapons["mk2v_assault_rifle"].damage == 3 * 35
    short = fire.rounds(book, Dice.scripted([1, 1]), "op", "auto", odds, loaded=2)  # fewer loaded: those fire
    assert (short.fired, short.hits) == (2, 2)
