"""annihilation rules beyond the section 23 vectors: recruits, skill tests, experience, promotion, inventory,
harness, lost limbs, healing doses, blasts, ammunition, priming, the motion sensor and the phase procedure."""

from __future__ import annotations

import json

import attrs
import pytest

from engine.content import loader, tables
from engine.core import codec
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.map import hexes as hexmap
from engine.rules.annihilation import character as ch, experience, fire, healing, hits, moves, phase, sheet, space
from engine.rules.annihilation import wounds
from engine.rules.annihilation.armour import ArmourState
from engine.rules.annihilation.blast import spaces_from
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.experience import Veteran
from engine.rules.annihilation.fighter import Fighter, Part, deploy, stamina_effective
from engine.rules.annihilation.inventory import Carried, drop_held, fits, move_price, prime_price, reload_price
from engine.rules.annihilation.moves import Step
from engine.rules.annihilation.schema import SCHEMA, STATS


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.of(tables.load_folder(loader.default_dir(), "annihilation", SCHEMA))


def fighter(book: Book, skills: dict[str, str] | None = None, **stats: int) -> Fighter:
    held = dict(ch.baseline(book))
    for skill, level in (skills or {}).items():
        held[skill] = book.levels[level].chance
    return deploy(book, ch.Character(id="op", name="Op", stats=ch.Stats(**{s: stats.get(s, 50) for s in STATS}),
                                     skills=tuple(held.items())))


def with_settings(book: Book, **changes) -> Book:
    return attrs.evolve(book, settings=attrs.evolve(book.settings, **changes))


def test_a_sectoid_has_health_60_and_its_plasma_skill(book):
    sectoid, rolls = ch.recruit(book, Dice.scripted([5] * 98), "sectoid", "s1", "Sectoid")
    assert len(rolls) == 14 and sectoid.stats.health == 60 and sectoid.stats.accuracy == 45
    assert dict(sectoid.skills) == {"plasma": 30} and sectoid.armour == "none"
    human, _ = ch.recruit(book, Dice.scripted([5] * 98), "human", "h1", "Ann")
    assert human.stats.health == 45
    assert [ch.level_of(book, human.skill(k)) for k in ("rifles", "plasma", "fusion", "medic")] == [
        "skilled", "novice", "unskilled", "unskilled"]


def test_a_skill_test_succeeds_on_its_column_one_chance(book):
    medic = fighter(book, skills={"medic": "skilled"}).character
    assert ch.skill_test(book, Dice.scripted([30]), medic, "medic").total == 1
    missed = ch.skill_test(book, Dice.scripted([31]), medic, "medic")
    assert (missed.total, missed.formula) == (0, "d100 31 > Medic 30% ✗")
    assert ch.skill_test(book, Dice.scripted([1]), medic, "piloting").total == 0  # unskilled always fails


def test_the_end_of_a_mission_rolls_each_stat_and_carries_the_rest(book):
    op = attrs.evolve(fighter(book, accuracy=62).character, uses=attrs.evolve(ch.ZERO, accuracy=5))
    after, rolls = experience.end_mission(book, Dice.scripted([71, 40, 99]), op, experience.Tally(
        attrs.evolve(ch.ZERO, accuracy=23, bravery=12)))
    assert [r.purpose for r in rolls] == ["improve bravery", "improve accuracy", "improve accuracy"]  # order
    assert (after.stats.accuracy, after.uses.accuracy, after.stats.bravery, after.uses.bravery) == (63, 8, 51, 2)


def test_promotion_by_quota_fills_from_the_top_down(book):
    roster = [Veteran(f"s{i}", "squaddie", missions=i, kills=0) for i in range(9)]
    roster.append(Veteran("rook", "rookie", 0, 0, scored=True))
    roster.append(Veteran("idle", "rookie", 0, 0))
    changed, rolls = experience.promote(book, Dice.scripted([]), roster)  # 11 soldiers: 2 sergeants, 1 captain
    assert changed == {"rook": "squaddie", "s8": "sergeant", "s7": "sergeant"} and rolls == []
    tied = [Veteran("a", "squaddie", 3, 1), Veteran("b", "squaddie", 3, 1), Veteran("c", "squaddie", 1, 0),
            Veteran("d", "squaddie", 0, 0), Veteran("e", "squaddie", 0, 0)]
    changed, rolls = experience.promote(book, Dice.scripted([2]), tied)
    assert changed == {"b": "sergeant"} and rolls[0].formula == "d2 2 → b"


def test_promotion_by_odds_rolls_the_ranks_die(book):
    odds = with_settings(book, promotion="odds")
    roster = [Veteran("a", "squaddie", 1, 0), Veteran("b", "sergeant", 1, 0), Veteran("c", "rookie", 1, 0)]
    changed, rolls = experience.promote(odds, Dice.scripted([1, 2]), roster)
    assert changed == {"a": "sergeant"} and [r.expr for r in rolls] == ["1d5", "1d11"]


def test_what_each_place_holds(book):
    heavy = Carried("thunder_hc", "I", "right_hand")
    assert fits(book, [], heavy).code == "too_big"
    assert fits(book, [], attrs.evolve(heavy, place="both_hands")) is None
    assert fits(book, [], Carried("m_17", "D", "belt")).code == "too_big"
    assert fits(book, [], Carried("mpmg_mk20", "G", "strap_1")).code == "too_big"
    assert fits(book, [], Carried("heavy_laser_mk1", "H", "both_straps")) is None
    rifle = Carried("m_17", "D", "strap_1")
    assert fits(book, [rifle], Carried("smg_9mm", "C", "both_straps")).code == "occupied"
    assert fits(book, [rifle], Carried("smg_9mm", "C", "strap_2")) is None


def test_moving_between_two_places_goes_through_a_free_hand(book):
    kit = Carried("medi_kit", "B", "belt")
    assert move_price(book, [kit], kit, "backpack").tu == 4 + 18
    full = [kit, Carried("m_17", "D", "both_hands")]
    assert move_price(book, full, kit, "backpack").code == "hands_full"
    assert move_price(book, [kit], kit, "right_hand").tu == 4
    rifle = Carried("m_17", "D", "right_hand")
    assert move_price(book, [rifle], rifle, "strap_1").tu == 6
    assert move_price(book, [rifle], rifle, "left_hand").tu == 2


def test_priming_and_loading_need_both_hands(book):
    grenade = Carried("hand_grenade", "A", "right_hand")
    assert prime_price(book, [grenade], grenade, 55).tu == 27
    assert prime_price(book, [grenade, Carried("pistol_9mm", "B", "left_hand")], grenade, 55).code == "hands_full"
    laser = Carried("laser_rifle_mk1", "D", "right_hand")
    assert reload_price(book, [laser], laser, Carried("clip:m_17", "A", "belt")).code == "no_reload"
    cannon = Carried("thor_hc", "H", "right_hand", loaded="thor_hc_ap", rounds=3)
    he = Carried("thor_hc_he", "B", "left_hand")
    assert reload_price(book, [cannon, he], cannon, he).tu == 8 + 15  # another type unloads first


def test_big_weapons_fire_only_from_the_harness(book):
    f = fighter(book)
    assert fire.to_hit(book, f, "mk5_ac", "snap", 5).code == "needs_harness"
    assert fire.to_hit(book, f, "mk5_ac", "snap", 5, harness=True, one_handed=True).code == "needs_harness"
    assert fire.to_hit(book, f, "mk5_ac", "snap", 5, harness=True).chance == 50 * 56 // 100 + 5 - 5
    assert fire.to_hit(book, f, "pistol_9mm", "auto", 5).code == "no_mode"


def test_the_kneel_bonus_is_a_house_rule_off_by_default(book):
    f = attrs.evolve(fighter(book), stance="kneeling")
    assert fire.to_hit(book, f, "m_17", "snap", 5).kneel == 0
    assert fire.to_hit(with_settings(book, kneel_bonus=15), f, "m_17", "snap", 5).kneel == 7


def test_a_limb_blown_off_after_eight_wounds(book):
    f = fighter(book, health=200).with_part("left_leg", Part(0, 6))
    hit = wounds.damage(book, Dice.scripted([19, 2]), f, 10, "op")
    legless = hit.fighter
    assert hit.notes == ("left leg blown off",) and (legless.lost, legless.stance) == (("left_leg",), "prone")
    assert moves.stance_price(book, legless, "standing").code == "no_leg"
    crawled, prices = moves.walk(book, legless, [Step("walk")])
    assert prices[0].tu == 8 and legless.energy - crawled.energy == 8  # crawling: twice the walk, drains Energy
    assert moves.walk(book, attrs.evolve(fighter(book), stance="kneeling"), [Step("walk")]) == Rejected(
        "not_standing", "A kneeling character cannot walk")
    assert moves.walk(book, legless, [Step("stairs_up")]).reason == "A prone character cannot go up stairs"
    assert moves.walk(book, attrs.evolve(legless, status="unconscious"), [Step("walk")]).code == "not_now"


def test_healing_doses(book):
    kit = healing.Kit.full(book, "medi_kit")
    down = attrs.evolve(fighter(book, health=40), health=3, stun=20, status="unconscious")
    medic = fighter(book, skills={"medic": "novice"})
    woke = healing.treat(book, Dice.scripted([]), medic, kit, "stimulant", patient=down, patient_at=(1, 1))
    assert (woke.patient.stun, woke.patient.status, woke.healer.tu_left) == (0, "awake", medic.tu_left - 5)
    still = healing.treat(book, Dice.scripted([]), medic, kit, "stimulant", patient=attrs.evolve(down, health=0))
    assert still.patient.status == "unconscious"  # heal them first
    healed = healing.treat(book, Dice.scripted([4]), medic, kit, "heal", patient=attrs.evolve(down, health=38))
    assert healed.patient.health == 40 and healed.rolls[0].formula == "d4 4: Health 38 → 40"  # up to Hth
    assert healing.treat(book, Dice.scripted([]), medic, kit, "heal", patient=down, patient_at=(2, 0)).code == \
        "too_far"
    empty = healing.Kit("bandages", (("bandage", 0),))
    assert healing.treat(book, Dice.scripted([]), medic, empty, "bandage", part="torso").code == "no_dose"


def test_a_pain_killer_suppresses_the_open_torso_wounds_only(book):
    f = attrs.evolve(fighter(book, stamina=50), energy=5).with_part("torso", Part(2, 2))
    assert stamina_effective(book, f) == 40
    done = healing.treat(book, Dice.scripted([]), f, healing.Kit.full(book, "medi_kit"), "pain_killer")
    assert stamina_effective(book, done.patient) == 50 and done.patient.energy == 50
    later = done.patient.with_part("torso", Part(3, 3))  # a torso wound after the dose counts
    assert stamina_effective(book, later) == 45


def test_a_torso_wound_caps_energy_at_the_new_stamina(book):
    f = fighter(book, stamina=50, health=100)
    hit = wounds.damage(book, Dice.scripted([5, 4]), f, 10, "op")  # torso, 4 wounds
    assert hit.fighter.character.stats.stamina == 46 and hit.fighter.energy == 46 - 20


def test_blast_sides_and_reach(book):
    assert hits.round_of(book, "rocket_launcher", "warhammer") == hits.Round(150, 7, "high_explosive", "missile")
    assert hits.round_of(book, "air_powered_gl", "hand_grenade") == hits.Round(80, 1, "high_explosive", "grenade")
    assert hits.round_of(book, "air_powered_gl", "land_mine").code == "no_ammo"
    assert hits.round_of(book, "thor_hc", None).code == "no_ammo"
    rocket = hits.round_of(book, "rocket_launcher", "incendiary_rocket")
    near = fighter(book, health=500)
    victims = [("centre", near, (10, 10)), ("edge", near, (14, 10)), ("out", near, (14, 11))]
    dice = Dice.scripted([5] + [1] * 12 + [5] + [1] * 3)  # location and 1d4 per 10 for each unit hit
    got = hits.blast_on(book, dice, (10, 10), rocket, victims, launched_from=(10, 20))
    assert dice.scripted_left == 0
    assert [(uid, amount, h.side, h.wounding.wounds) for uid, amount, h in got] == [
        ("centre", 120, "rear", 12), ("edge", 37, "left", 3)]
    grenade = hits.round_of(book, "air_powered_gl", "hand_grenade")
    (centre,) = hits.blast_on(book, Dice.scripted([5] + [1] * 8), (10, 10), grenade, victims[:1])
    assert centre[2].side == "under"


def test_multi_level_blasts_are_a_setting(book):
    assert spaces_from(book, (0, 0), (1, 0), dz=1) == 1
    assert spaces_from(with_settings(book, multi_level_blasts=True), (0, 0), (1, 0), dz=1) == 2


def test_priming_and_triggers(book):
    timed = hits.prime(book, "hand_grenade", "squad", turn=3, delay=2)
    assert not hits.goes_off(book, timed, (0, 0), phase_ends=("squad", 4))
    assert not hits.goes_off(book, timed, (0, 0), phase_ends=("aliens", 5))
    assert hits.goes_off(book, timed, (0, 0), phase_ends=("squad", 5))
    assert hits.prime(book, "hand_grenade", "squad", 3, delay=6).code == "bad_delay"
    prox, mine = hits.prime(book, "proximity_grenade", "squad", 3), hits.prime(book, "land_mine", "squad", 3)
    assert hits.goes_off(book, prox, (5, 5), entered=(6, 6)) and not hits.goes_off(book, prox, (5, 5), entered=(7, 5))
    assert hits.goes_off(book, mine, (5, 5), entered=(5, 5)) and not hits.goes_off(book, mine, (5, 5), entered=(5, 6))


def test_the_motion_sensor_finds_movers_within_20(book):
    others = [("near", (10, 0), True), ("still", (5, 5), False), ("far", (18, 6), True), ("edge", (14, 12), True)]
    assert hits.sensed(book, (0, 0), others) == ["near", "edge"]  # (18,6) is 21 away; (14,12) 20


def test_the_start_of_a_phase_in_its_order(book):
    f = attrs.evolve(fighter(book, stamina=50, bravery=40, time_units=60), health=2, stun=5, energy=0,
                     status="unconscious").with_part("right_arm", Part(1, 1))
    after, steps = phase.start(book, f, encumbrance=4)
    assert [s.name for s in steps] == ["bleeding", "stun", "wakes", "energy", "tu"]
    assert (after.health, after.stun, after.status, after.energy, after.tu_turn, after.tu_left) == (
        1, 0, "awake", 25, 56, 56)
    out = attrs.evolve(f, health=1, stun=30)
    asleep, _ = phase.start(book, out, encumbrance=0)
    assert (asleep.status, asleep.tu_left, asleep.tu_turn) == ("unconscious", 0, 60)  # no TUs while out


def test_turning_and_facing(book):
    assert moves.turn_price(book, 0, 3).tu == 3 and moves.turn_price(book, 0, 7).tu == 1
    assert space.facing_towards((0, 0), (5, 5)) == 3 and space.facing_towards((0, 0), (0, -2)) == 0


def test_a_lost_arm_fires_two_handed_weapons_one_handed(book):
    f = attrs.evolve(fighter(book, accuracy=70), lost=("left_arm",))
    assert fire.to_hit(book, f, "m_17", "snap", 5) == Rejected("arm_lost", "That arm is gone: fire it one-handed")
    assert fire.to_hit(book, f, "m_17", "snap", 5, one_handed=True).chance == 42 + 7 - 5 - 10
    assert fire.to_hit(book, f, "pistol_9mm", "snap", 5, arms=("left_arm",)).code == "arm_lost"


def test_fire_burns_under_the_armour_once_a_turn(book):
    f = fighter(book, health=50)
    burned, line, rolls = phase.fire_contact(book, Dice.scripted([5, 3]), f)
    assert (burned.health, burned.part("torso").open, len(rolls)) == (40, 3, 2)
    again, line, rolls = phase.fire_contact(book, Dice.scripted([]), burned)
    assert again == burned and line.text == "already burned this turn"
    nxt, _ = phase.start(book, attrs.evolve(burned, wounds=()), encumbrance=0)
    assert not nxt.burned  # a new turn burns again


def test_nobody_treats_the_dead(book):
    dead = attrs.evolve(fighter(book), status="dead")
    assert healing.treat(book, Dice.scripted([]), fighter(book), healing.Kit.full(book, "medi_kit"), "stimulant",
                         patient=dead).code == "dead"


def test_what_the_hands_held_falls_to_the_floor(book):
    held = [Carried("m_17", "D", "both_hands"), Carried("medi_kit", "B", "belt"), Carried("pistol_9mm", "B", "leg_left")]
    assert [c.place for c in drop_held(held, ("left_hand",))] == ["floor", "belt", "leg_left"]
    assert [c.place for c in drop_held([Carried("pistol_9mm", "B", "right_hand")], ("left_hand",))] == ["right_hand"]


def test_spotting_in_smoke_rolls_senses(book):
    op = fighter(book, senses=44).character
    assert ch.spots(Dice.scripted([44]), op).total == 1 and ch.spots(Dice.scripted([45]), op).formula == \
        "d100 45 > Sns 44 ✗"


def test_a_fighter_is_a_unit_record_that_round_trips_through_the_log(book):
    recruit, _ = ch.recruit(book, Dice.scripted([5] * 98), "human", "h1", "Ann")
    f = attrs.evolve(deploy(book, recruit).with_part("torso", Part(2, 3)), lost=("left_leg",), stance="prone")
    data = json.loads(json.dumps(codec.dump_record(f)))
    assert data["kind"] == "annihilation.fighter" and codec.load_record(data) == f


def test_a_skill_improves_by_use_and_climbs_a_level_at_its_chance(book):
    op = fighter(book, skills={"medic": "skilled"}).character  # 30%
    op = attrs.evolve(op, skills=tuple((k, 49 if k == "medic" else v) for k, v in op.skills), skill_uses=(("medic", 4),))
    after, rolls = experience.end_mission(book, Dice.scripted([77]), op,
                                         experience.Tally(skills=(("medic", 6), ("rifles", 3))))
    assert [r.purpose for r in rolls] == ["improve medic"] and after.skill("medic") == 50
    assert ch.level_of(book, after.skill("medic")) == "proficient"
    assert dict(after.skill_uses) == {"rifles": 3}


def test_the_hex_variant_measures_and_sides_on_hexes(book):
    """Map cells read as odd-r hexes (engine.map.hexes): pointy-topped, odd rows half a hex east."""
    hexes = with_settings(book, grid="hex")
    assert space.between("hex", (0, 0), (3, 0)) == 3 and space.between("square", (0, 0), (3, 0)) == 3
    assert space.between("hex", (0, 0), (2, 1)) == 3 and space.between("square", (0, 0), (2, 1)) == 2
    assert space.between("hex", (0, 0), (3, -1)) == 4 and space.between("hex", (1, 1), (3, -1)) == 3
    east, north_east = 1, 0  # the six facings: NE, E, SE, SW, W, NW
    around = hexmap.neighbours((0, 0))
    assert [space.side_on("hex", east, (0, 0), d) for d in around] == ["front"] * 3 + ["rear"] * 3
    assert [space.side_on("hex", north_east, (0, 0), d) for d in around] == [
        "front", "front", "rear", "rear", "rear", "front"]
    assert space.side_on("hex", east, (0, 0), (0, -2)) == "left" and space.side_on("hex", east, (0, 0),
                                                                                     (0, 2)) == "right"
    assert [space.facing_towards((0, 0), d, "hex") for d in around] == list(range(6))
    assert hits.sensed(hexes, (0, 0), [("a", (20, 0), True), ("b", (20, 1), True)]) == ["a"]


def test_a_mission_counts_uses_by_event(book):
    tally = experience.Tally()
    for event, skill in [("fire", "rifles"), ("fire", "rifles"), ("physical_attack", None), ("throw",
                         "thrown_explosives"), ("hard_march", None), ("skill_test", "medic"), ("wounded", None)]:
        tally = experience.count(book, tally, event, skill)
    assert (tally.stats.accuracy, tally.stats.strength, tally.stats.throwing, tally.stats.time_units,
            tally.stats.stamina, tally.stats.bravery, tally.stats.education) == (3, 1, 1, 1, 1, 1, 0)
    assert tally.skills == (("medic", 1), ("rifles", 2), ("thrown_explosives", 1))


def test_the_unit_panel_rows(book):
    f = attrs.evolve(fighter(book, health=48, stamina=50), armour=ArmourState.of(book.armour["light_body_armor"]),
                     tu_turn=55, tu_left=40, stun=12, facing=2).with_part("left_leg", Part(3, 4))
    got = {r.label: (r.text, r.alert) for r in sheet.rows(book, f)}
    assert got["TU"] == (" 40/55 ", "") and got["Energy"] == (" 50/50 ", "")
    assert got["Stance"] == (" standing, facing E ", "") and got["Left leg"] == (" 3 open / 4 ", "bleeding")
    assert got["Bleeding"] == (" −3 Health a turn ", "") and got["Armour"] == (" AV 15 · front 50 left 40 right 40 rear 30 under 30 ", "")


def test_the_unconscious_treat_nobody(book):
    out = attrs.evolve(fighter(book), status="unconscious")
    assert healing.treat(book, Dice.scripted([]), out, healing.Kit.full(book, "medi_kit"), "heal").code == "not_now"


def test_a_strapped_bag_holds_four_boxes_at_backpack_costs(book):
    bag = Carried("strap_bag", "D", "strap_2")
    kit, clip, grenade = (Carried("medi_kit", "B", "bag"), Carried("clip:m_17", "A", "bag"),
                          Carried("hand_grenade", "A", "belt"))
    assert fits(book, [kit, clip], kit) == Rejected("bag_full", "Strapped bags: 1 of 0 boxes taken")
    assert fits(book, [bag, kit, clip], attrs.evolve(grenade, place="bag")) is None  # 2 + 1 + 1 = 4
    assert move_price(book, [bag, kit, clip, grenade], grenade, "bag").tu == 4 + 18
    full = [bag, kit, clip, Carried("hand_grenade", "A", "bag"), grenade]
    assert move_price(book, full, grenade, "bag").code == "bag_full"
    assert move_price(book, [bag, kit], kit, "left_hand").tu == 8


def test_a_lost_arms_hand_holds_nothing(book):
    pistol = Carried("pistol_9mm", "B", "belt")
    assert move_price(book, [pistol], pistol, "left_hand", lost=("left_arm",)).code == "arm_lost"
    assert move_price(book, [pistol], pistol, "right_hand", lost=("left_arm",)).tu == 4
    kit = Carried("medi_kit", "B", "belt")
    rifle = Carried("m_17", "D", "right_hand")
    assert move_price(book, [kit, rifle], kit, "backpack", lost=("left_arm",)).code == "hands_full"
