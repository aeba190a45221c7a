"""annihilation whole actions: a shot paid, rolled and applied (TV-A16, TV-A21 end to end), blast rounds, and a
physical attack (TV-A39 end to end)."""

from __future__ import annotations

import attrs
import pytest

from engine.content import loader, tables
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.annihilation import actions, character as ch
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter, Part, deploy
from engine.rules.annihilation.inventory import HANDS, Carried, grip, move_price
from engine.rules.annihilation.schema import SCHEMA, STATS

RIFLE = Carried("mk2v_assault_rifle", "D", "both_hands", "clip:mk2v_assault_rifle", 20)


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.of(tables.load_folder(loader.default_dir(), "annihilation", SCHEMA))


def fighter(book: Book, armour: str = "none", facing: int = 0, **stats: int) -> Fighter:
    c = ch.Character(id=stats.pop("uid", "op"), name="Op", stats=ch.Stats(**{s: stats.get(s, 50) for s in STATS}),
                     skills=ch.baseline(book), armour=armour)
    return deploy(book, c, facing=facing)


def test_tv_a21_auto_fire_end_to_end(book):
    shooter = attrs.evolve(fighter(book, accuracy=60), tu_turn=55, tu_left=55)
    target = fighter(book, "light_body_armor", uid="x", health=200)  # faces N; the shooter stands to its south
    faces = [12, 80, 3, 44, 16, 15, 99] + [5, 1, 1] + [5, 1, 1] + [5, 1, 1]  # 7 rounds, then 3 hits' wounds
    dice = Dice.scripted(faces)
    got = actions.shoot(book, dice, shooter, RIFLE, target, (10, 16), (10, 10), "auto")
    assert dice.scripted_left == 0
    assert (got.hits, got.gun.rounds, got.actor.tu_left) == (3, 13, 55 - 55 * 45 // 100)
    assert got.lines[0] == "35 on rear: 35 − AV 15 = 20; wear SV 25 − 15 = 10, rear 30 → 20, AV10 150 → 140"
    assert got.lines[2].endswith("rear 9 → 0, AV10 129 → 116; excess 4 → 27")  # the rear gives out
    assert got.target.health == 200 - 20 - 21 - 27 and got.target.armour.rear == 0


def test_tv_a16_the_aimed_shot_costs_and_rolls_once(book):
    shooter = attrs.evolve(fighter(book, accuracy=60), tu_turn=55, tu_left=54)
    target = fighter(book, uid="x")
    missed = actions.shoot(book, Dice.scripted([67]), shooter, RIFLE, target, (0, 0), (12, 0), "aimed", sights=1)
    assert (missed.hits, missed.actor.tu_left, missed.target, missed.gun.rounds) == (0, 0, target, 19)
    assert missed.rolls[0].formula == "d100 67 > to-hit 66 (Acc 60×110% 66 + skill 6 − range 1×12/2 6) miss"
    hit = actions.shoot(book, Dice.scripted([66, 5, 1, 1, 1]), shooter, RIFLE, target, (0, 0), (12, 0), "aimed",
                        sights=1)
    assert (hit.hits, hit.target.health, hit.target.part("torso").open) == (1, 50 - 35, 3)


def test_a_shot_needs_its_tus_before_anything_is_rolled(book):
    shooter = attrs.evolve(fighter(book), tu_turn=55, tu_left=43)
    got = actions.shoot(book, Dice.scripted([]), shooter, RIFLE, fighter(book, uid="x"), (0, 0), (12, 0), "aimed")
    assert got == Rejected("no_tu", "the aimed shot costs 44 TU; 43 left")
    empty = attrs.evolve(RIFLE, rounds=0)
    assert actions.shoot(book, Dice.scripted([]), shooter, empty, fighter(book), (0, 0), (1, 0), "snap").code == "empty"


def test_blast_rounds_go_off_on_the_target_or_scatter(book):
    shooter = attrs.evolve(fighter(book, accuracy=80), tu_turn=60, tu_left=60)
    launcher = Carried("rocket_launcher", "H", "both_hands", "warhammer", 1)
    hit = actions.shoot(book, Dice.scripted([1]), shooter, launcher, fighter(book), (0, 0), (8, 0), "snap")
    assert (hit.blasts, hit.gun.rounds, hit.target.health) == (((8, 0),), 0, 50)
    missed = actions.shoot(book, Dice.scripted([100, 5, 2]), shooter, launcher, fighter(book), (0, 0), (8, 0), "snap")
    assert missed.blasts == ((8, 2),) and [r.purpose for r in missed.rolls][1:] == ["scatter direction",
                                                                                      "scatter distance"]


def test_tv_a39_physical_attack_end_to_end(book):
    attacker = attrs.evolve(fighter(book, strength=50), tu_turn=55, tu_left=55)
    target = fighter(book, "light_body_armor", uid="x", health=100)
    got = actions.punch(book, Dice.scripted([50, 5, 1, 1, 1]), attacker, target, (5, 4), (5, 5))
    assert got.actor.tu_left == 44 and got.hits == 1
    assert (got.target.health, got.target.armour.front, got.target.armour.av10) == (65, 40, 140)
    assert got.rolls[0].formula == ("d100 50 ≤ to-hit 50 (Acc 50 + skill 0; damage Str 50 + Wp 0 = 50) hit")
    missed = actions.punch(book, Dice.scripted([51]), attacker, target, (5, 4), (5, 5))
    assert (missed.hits, missed.target) == (0, target)


def test_tv_a40_a_throw_lands_or_scatters(book):
    thrower = attrs.evolve(fighter(book, strength=48, throwing=50), tu_turn=55, tu_left=55)
    grenade = Carried("hand_grenade", "A", "right_hand")
    on = actions.throw(book, Dice.scripted([39]), thrower, grenade, (0, 0), (8, 0))
    assert (on.landed, on.actor.tu_left) == ((8, 0), 55 - 13)
    off = actions.throw(book, Dice.scripted([40, 5, 3]), thrower, grenade, (0, 0), (8, 0))
    assert off.landed == (8, 3) and off.rolls[0].formula == "d100 40 > to-hit 39 (Trw 50 + skill 5 − range 2×8 16) " \
                                                           "misses"
    assert actions.throw(book, Dice.scripted([]), thrower, attrs.evolve(grenade, place="belt"), (0, 0),
                         (8, 0)).code == "not_in_hand"
    assert actions.throw(book, Dice.scripted([]), thrower, grenade, (0, 0), (13, 0)).code == "too_far"


def test_the_targeting_panel_shows_each_mode_it_can_pay_for(book):
    shooter = attrs.evolve(fighter(book, accuracy=60), tu_turn=55, tu_left=30)
    target = fighter(book, facing=0, uid="x")
    got = actions.preview(book, shooter, RIFLE, target, (10, 16), (10, 10))  # from the south: the target's rear
    assert [(m.mode, m.chance, m.rounds, m.tu, m.tu_after, m.side) for m in got] == [  # aimed (44 TU) is too dear
        ("auto", 15, 7, 24, 6, "rear"), ("burst", 21, 3, 19, 11, "rear"), ("snap", 36, 1, 13, 17, "rear")]
    assert got[1].expected_hits == pytest.approx(3 * 0.21)


def test_tv_a41_reloading_puts_the_clip_in_the_weapon(book):
    f = attrs.evolve(fighter(book), tu_turn=55, tu_left=20)
    rifle = Carried("mk2v_assault_rifle", "D", "right_hand")
    clip = Carried("clip:mk2v_assault_rifle", "A", "belt", rounds=20)
    after, carried = actions.reload(book, f, [rifle, clip], rifle, clip)
    assert after.tu_left == 1 and carried == [attrs.evolve(rifle, loaded="clip:mk2v_assault_rifle", rounds=20)]
    assert actions.reload(book, f, [rifle, clip], rifle, Carried("clip:m_17", "A", "belt", rounds=30)).code == \
        "wrong_ammo"
    cannon = Carried("thor_hc", "H", "right_hand", loaded="thor_hc_ap", rounds=5)
    he = Carried("thor_hc_he", "B", "left_hand", rounds=12)
    after, carried = actions.reload(book, attrs.evolve(f, tu_left=30), [cannon, he], cannon, he)
    assert after.tu_left == 30 - 8 - 15
    assert carried == [Carried("thor_hc_ap", "B", "floor", rounds=5), attrs.evolve(cannon, loaded="thor_hc_he",
                                                                                  rounds=12)]


def test_a_grenade_launcher_loads_one_grenade_at_a_time(book):
    f = attrs.evolve(fighter(book), tu_turn=55, tu_left=55)
    gl = Carried("air_powered_gl", "F", "right_hand", loaded="hand_grenade", rounds=5)
    g = Carried("hand_grenade", "A", "left_hand")
    _, carried = actions.reload(book, f, [gl, g], gl, g)
    assert carried[-1].rounds == 6
    assert actions.reload(book, f, [carried[-1], g], carried[-1], g).code == "full"
    mine = Carried("land_mine", "B", "left_hand")
    assert actions.reload(book, f, [gl, mine], gl, mine).code == "wrong_ammo"


def test_the_motion_sensor_costs_half_the_turn(book):
    f = attrs.evolve(fighter(book), tu_turn=55, tu_left=55)
    after, found = actions.sense(book, f, Carried("motion_sensor", "B", "left_hand"), (0, 0),
                                 [("a", (3, 3), True), ("b", (3, 3), False)])
    assert (after.tu_left, found) == (28, ["a"])
    assert actions.sense(book, f, Carried("motion_sensor", "B", "belt"), (0, 0), []).code == "not_in_hand"


def test_tv_a19_the_hands_holding_the_gun_decide_one_handed_use(book):
    shooter = attrs.evolve(fighter(book, accuracy=70), tu_turn=60, tu_left=60).with_part("right_arm", Part(2, 2))
    m17 = Carried("m_17", "D", "right_hand", "clip:m_17", 30)
    got = actions.shoot(book, Dice.scripted([21]), shooter, m17, fighter(book, uid="x"), (0, 0), (5, 0), "snap")
    assert got.rolls[0].formula == "d100 21 > to-hit 20 (Acc 50×60% 30 + skill 5 − range 1×5 5 − one-handed 10) miss"
    both = actions.preview(book, shooter, attrs.evolve(m17, place="both_hands"), fighter(book), (0, 0), (5, 0))
    assert [m.chance for m in both if m.mode == "snap"] == [30 + 5 - 5]  # two hands: no penalty, same Acc_eff 50
    assert actions.shoot(book, Dice.scripted([]), shooter, attrs.evolve(m17, place="belt"), fighter(book), (0, 0),
                         (5, 0), "snap").code == "not_in_hand"


def test_a_strapped_weapon_fires_once_gripped(book):
    rifle = Carried("m_17", "D", "strap_1", "clip:m_17", 30)
    assert grip(book, [rifle], rifle, HANDS).tu == 1
    held = attrs.evolve(rifle, gripped=HANDS)
    assert grip(book, [held], held, HANDS).code == "hands_full" and grip(book, [held], held, ()).tu == 1
    assert grip(book, [rifle], rifle, ()).code == "not_gripped"
    assert grip(book, [rifle, Carried("pistol_9mm", "B", "left_hand")], rifle, HANDS).code == "hands_full"
    kit = Carried("medi_kit", "B", "belt")
    assert move_price(book, [held, kit], kit, "right_hand").code == "occupied"  # gripped hands are taken
    shooter = attrs.evolve(fighter(book, accuracy=60), tu_turn=60, tu_left=60)
    assert actions.shoot(book, Dice.scripted([]), shooter, rifle, fighter(book), (0, 0), (5, 0), "snap").code == \
        "not_in_hand"
    got = actions.shoot(book, Dice.scripted([100]), shooter, held, fighter(book), (0, 0), (5, 0), "snap")
    assert got.gun.rounds == 29 and got.gun.place == "strap_1"
