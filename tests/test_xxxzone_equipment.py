"""Sections 11.1-11.3, 11.5, 6.2, 6.3 and the placeholder weights of section 2: every printed number of every gun,
launcher, melee weapon, thrown or placed item, armour and cover type, as content/xxxzone holds it."""

from __future__ import annotations

import pytest

from test_xxxzone_content import load_book


@pytest.fixture(scope="module")
def book():
    return load_book()


# id: Str, DT, Rec, capacity, reload AP, range, {mode: (AP, rounds, rolls, cone)}, weight (11.1, 11.5, section 2)
GUNS = {
    "assault_rifle": (5, 35, 10, 45, 3, 30, {"shoot": (5, 1, 1, ""), "burst": (6, 3, 2, ""),
                                             "spray": (7, 15, 2, "cone")}, 4.0),
    "battle_shotgun": (4, 30, 15, 6, 3, 8, {"shoot": (4, 1, 1, "")}, 4.0),  # revised: range 8, no cone
    "automatic_shotgun": (6, 25, 10, 12, 5, 8, {"shoot": (4, 1, 1, ""), "burst": (7, 3, 2, "")}, 4.0),
    "pistol_9mm": (3, 35, 12, 12, 2, 10, {"shoot": (3, 1, 1, ""), "burst": (5, 3, 2, ""),
                                          "akimbo_spray": (7, 6, 2, "cone")}, 1.5),
    "machine_pistol_9mm": (4, 35, 12, 24, 2, 10, {"shoot": (3, 1, 1, ""), "burst": (4, 3, 2, ""),
                                                  "spray": (7, 10, 2, "cone")}, 2.0),
    "machine_pistol_5mm": (3, 50, 6, 40, 2, 15, {"burst": (4, 3, 2, ""), "spray": (7, 10, 2, "cone")}, 2.0),
    "revolver": (5, 20, 20, 6, 5, 15, {"shoot": (3, 1, 1, "")}, 1.5),
    "anti_infantry_rifle": (4, 25, 100, 7, 5, 75, {"shoot": (5, 1, 1, "")}, 7.0),
    "family_guy": (8, 50, 10, 200, 9, 40, {"spray": (6, 20, 3, "big")}, 12.0),
    "flare_gun": (1, 60, 3, 1, 5, 25, {"shoot": (3, 1, 1, "")}, 1.5),
    "missile_launcher": (4, 80, 50, 1, 4, 30, {"shoot": (6, 1, 1, "")}, 8.0),
    "bullpup": (3, 35, 8, 20, 3, 25, {"shoot": (4, 1, 1, ""), "burst": (5, 3, 2, "")}, 4.0),  # 11.5 placeholders
    "sap_pistol": (2, 35, 10, 20, 2, 10, {"shoot": (3, 1, 1, "")}, 1.5),
}
# id: Str, DT, AP, blade, weight (11.2; unarmed 6.5)
MELEE = {"fire_axe": (5, 30, 3, True, 2.0), "baseball_bat": (4, 35, 3, False, 1.0),
         "combat_knife": (2, 42, 2, True, 0.5), "claymore": (6, 20, 4, True, 3.0),
         "iron_fist": (4, 40, 2, False, 0.0), "unarmed": (1, 60, 2, False, 0.0)}
# id: Str, DT, rings, effect (11.3)
THROWN = {"frag": (1, 25, [1, 2, 3], "damage"), "incendiary": (1, 25, [1, 2, 3], "on_fire"),
          "popcorn": (1, 25, [1, 2, 3], "on_fire"), "flashbang": (1, 25, [5, 8, 10], "disorient"),
          "smoke_bomb": (1, 90, [], "smoke"), "c4": (5, 7, [1, 2, 3], "damage"),
          "missile_explosion": (0, 15, [3, 5, 6], "damage")}


@pytest.mark.parametrize("wid", sorted(GUNS))
def test_every_gun_and_launcher_has_its_printed_numbers(book, wid):
    w = book.weapons[wid]
    strength, dt, rec, cap, reload, reach, modes, weight = GUNS[wid]
    assert (w.strength, w.dt, w.recoil, w.capacity, w.reload, w.range, w.weight) == (strength, dt, rec, cap, reload,
                                                                                    reach, weight)
    assert {m: (x.ap, x.rounds, x.rolls, x.cone) for m, x in w.modes.items()} == modes


def test_the_special_guns_carry_their_notes(book):
    w = book.weapons
    assert w["anti_infantry_rifle"].scope and w["flare_gun"].untargeted_range == 100
    assert w["flare_gun"].rider == "on_fire" and w["missile_launcher"].explosion == "missile_explosion"
    assert w["pistol_9mm"].modes["akimbo_spray"].akimbo and w["pistol_9mm"].pistol
    assert "incendiary_shells" in w["battle_shotgun"].ammo and book.items["incendiary_shells"].rider == "on_fire"


@pytest.mark.parametrize("wid", sorted(MELEE))
def test_every_melee_weapon_has_its_printed_numbers(book, wid):
    w = book.weapons[wid]
    strength, dt, ap, blade, weight = MELEE[wid]
    assert (w.kind, w.strength, w.dt, w.blade, w.weight) == ("melee", strength, dt, blade, weight)
    assert [m.ap for m in w.modes.values()] == [ap]


@pytest.mark.parametrize("iid", sorted(THROWN))
def test_every_thrown_or_placed_item_has_its_printed_numbers(book, iid):
    i = book.items[iid]
    strength, dt, rings, effect = THROWN[iid]
    assert (i.dt, list(i.rings), i.effect) == (dt, rings, effect)
    assert iid == "missile_explosion" or i.strength == strength


def test_smoke_c4_and_the_detonator(book):
    smoke, c4, det = book.items["smoke_bomb"], book.items["c4"], book.items["detonator"]
    assert (smoke.radius, smoke.duration.text) == (5, "3d3") and c4.kind == "placed" and det.reach == 10


def test_armour_and_cover_types(book):
    assert {a: (book.armour[a].dr, book.armour[a].hp, book.armour[a].weight) for a in ("type1", "type3", "type4")} == {
        "type1": (15, 1, 4.0), "type3": (35, 2, 10.0), "type4": (45, 3, 15.0)}
    assert {k: (c.value, c.hp) for k, c in book.cover.items()} == {"light": (10, 2), "half": (20, 4), "full": (40, 8)}


def test_the_campaign_switch_takes_1_from_every_guns_strength_requirement_never_below_1(book):
    import attrs

    from engine.rules.xxxzone.character import pregen
    from engine.rules.xxxzone.modifiers import Situation, adj_acc, required_strength, shooter_of

    marcel = shooter_of(pregen(book, "marcel"), book)  # Str 1, Acc 110
    relieved = attrs.evolve(book, settings=attrs.evolve(book.settings, gun_strength_relief=1))
    w = book.weapons
    assert [required_strength(book, w[x]) for x in ("revolver", "flare_gun", "combat_knife")] == [5, 1, 2]
    assert [required_strength(relieved, w[x]) for x in ("revolver", "flare_gun", "combat_knife")] == [4, 1, 2]
    at = Situation(distance=3)
    # vector 23: 110 − 2·3 − 25 = 79; relieved, the deficit is 3: − 20 → 84; the knife (melee) keeps its − 10
    assert adj_acc(book, marcel, w["revolver"], at)[0] == 79 and adj_acc(relieved, marcel, w["revolver"], at)[0] == 84
    assert adj_acc(relieved, marcel, w["combat_knife"], Situation(distance=0))[0] == 110 - 10
