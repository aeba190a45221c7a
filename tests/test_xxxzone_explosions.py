"""xxxzone section 6.9: throws, scatter, blast rings, status-only explosives, C4, smoke; vectors 34-40."""

from __future__ import annotations

import attrs
import pytest

from engine.core.dice import Dice
from engine.rules.xxxzone import explosions, lines, status
from engine.rules.xxxzone.attack import CoverPiece, Defence
from engine.rules.xxxzone.character import pregen
from engine.rules.xxxzone.modifiers import shooter_of
from engine.rules.xxxzone.wounds import Condition

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()


def scripted(faces):
    return Dice.scripted(list(faces))


def entity(id_, agi, end, dr, hp, cover=()):
    return Defence(id=id_, agility=agi, endurance=end, armour_dr=dr, armour_hp=hp, cover=cover)


def test_v34_missile_explosion_rings(book):
    rings = book.items["missile_explosion"].rings
    assert rings == [3, 5, 6]
    assert [explosions.ring_rolls(rings, d) for d in (0, 3, 4, 5, 6, 7)] == [3, 3, 2, 2, 1, 0]
    bruce = shooter_of(pregen(book, "bruce"), book)
    a = explosions.blast(book, bruce, "missile_explosion")
    assert (a.adj_acc, a.dt, a.penetration) == (115, 10, 1)  # no +15: Bruce's printed Grenadier is Explosives Expert


def test_v35_throw_distance(book):
    dane = shooter_of(pregen(book, "dane"), book)
    assert explosions.throw_acc(book, dane, "frag", 8) == (95, "AdjAcc = 110 − distance 15 = 95")
    assert explosions.throw_acc(book, dane, "frag", 5)[0] == 110
    on = explosions.throw(scripted([10]), book, dane, "frag", 8, (9, 0))
    assert (on.how, on.cell, on.rolls[0].total) == ("on_target", (9, 0), 105)
    dice = scripted([5, 2, 3])
    off = explosions.throw(dice, book, dane, "frag", 8, (9, 0))
    assert off.rolls[0].total == 100 and off.how == "scatter"
    assert off.cell == (11, 0)  # 1d3 = 2 squares, d8 = 3: east
    assert dice.scripted_left == 0
    assert explosions.check_throw(book, dane, "frag", 16, True, True).code == "too_far"
    assert explosions.check_throw(book, dane, "frag", 15, True, True) is None
    assert explosions.check_throw(book, dane, "frag", 4, True, False).code == "pin_in"
    assert explosions.check_throw(book, dane, "frag", 4, False, True).code == "not_drawn"
    assert explosions.check_throw(book, dane, "c4", 4, True, True).code == "not_throwable"


def test_v36_explosion_ring_1(book):
    dane = shooter_of(pregen(book, "dane"), book)
    e1 = entity("e1", 4, 4, 15, 1)
    dice = scripted([60, 25, 97])
    [(who, hits, after)] = explosions.explode(dice, book, dane, "frag", (5, 5), [((5, 5), e1)])
    assert who == "e1" and len(hits) == 3
    assert hits[0].roll.formula == ("d100 60 + AdjAcc 110 − Agi 4 = 166, − DR 15 = 151, − DT 29 = 122, − DT 29 = 93 "
                                    "≤ 100: severe wound")
    assert [(h.roll.total, h.outcome) for h in hits] == [(93, "severe"), (73, "severe"), (116, "lethal")]
    assert "DR 0 (armour broken) = 131" in hits[1].roll.formula and after.armour_hp == 0


def test_v37_ring_2_with_cover(book):
    dane = shooter_of(pregen(book, "dane"), book)
    impact, at = (0, 0), (2, 0)
    pieces = {(1, 0): ("crate", book.cover["half"].value, book.cover["half"].hp)}
    cover = lines.blast_cover(impact, at, pieces)
    assert [(p.label, p.value, p.adjacent) for p in cover] == [("crate", 20, True)]
    e2 = entity("e2", 6, 5, 35, 2, cover)
    far = entity("far", 5, 5, 35, 2)
    dice = scripted([50, 85])
    got = explosions.explode(dice, book, dane, "frag", impact, [(at, e2), ((4, 0), far)])
    assert [who for who, _, _ in got] == ["e2"]  # D = 4 is beyond the rings 1-2-3
    hits, after = got[0][1], got[0][2]
    assert [(h.roll.total, h.outcome) for h in hits] == [(99, "glancing"), (74, "severe")]
    assert "− cover 20 (crate, adjacent) = 134" in hits[0].roll.formula
    assert after.armour_hp == 0


def test_v38_trained_grenadier(book):
    t = entity("t", 5, 5, 35, 2)
    dane = shooter_of(pregen(book, "dane"), book)
    grenadier = attrs.evolve(dane, abilities=frozenset({"grenadier"}))
    [(_, (hit,), _)] = explosions.explode(scripted([40]), book, grenadier, "frag", (0, 0), [((3, 0), t)])  # ring 3
    assert hit.roll.formula == "d100 40 + AdjAcc 125 − Agi 5 = 160, − DR 35 = 125, − DT 30 = 95 ≤ 100: minor wound"
    both = attrs.evolve(dane, abilities=frozenset({"grenadier", "explosives_expert"}))
    [(_, (hit,), _)] = explosions.explode(scripted([40]), book, both, "frag", (0, 0), [((3, 0), t)])
    assert hit.roll.formula.endswith("= 160, − DR 17 (halved) = 143, − DT 25 = 118, − DT 25 = 93 ≤ 100: severe wound")


def test_v39_incendiary_lands_at_the_cover(book):
    johnny = shooter_of(pregen(book, "johnny"), book)
    wall = CoverPiece(label="pillar", value=40, hp=8, adjacent=True, cell=(3, 0))
    t = entity("t", 5, 5, 35, 2, (wall,))
    landing = explosions.throw(scripted([20]), book, johnny, "popcorn", 3, (4, 0), t)
    assert landing.how == "cover" and landing.cell == (3, 0)
    assert landing.rolls[0].formula == ("d100 20 + AdjAcc 110 − Agi 5 = 125, − cover 40 (pillar, adjacent) = 85 "
                                        "≤ 100: lands at the pillar")
    # centred on the pillar's square: the pillar is not between the blast and the target any more
    at_blast = attrs.evolve(t, cover=lines.blast_cover(landing.cell, (4, 0), {(3, 0): ("pillar", 40, 8)}))
    assert at_blast.cover == ()
    dice = scripted([90, 10, 50, 3])  # three rolls at the target next to the impact square, then 1d4 burning turns
    [(_, hits, after)] = explosions.explode(dice, book, johnny, "popcorn", landing.cell, [((4, 0), at_blast)])
    assert [(h.outcome, h.roll.total) for h in hits] == [("hit", 195), ("hit", 115), ("hit", 155)]
    assert "DR" not in hits[0].roll.formula and after.armour_hp == 2  # status-only: armour untouched
    on_fire, roll = status.set_on_fire(dice, book, "t", Condition())
    assert on_fire.on_fire == 3 and dice.scripted_left == 0


def test_v40_flashbang(book):
    assert book.items["flashbang"].rings == [5, 8, 10]
    resist = explosions.flash_resisted(scripted([70]), book, "t", 35)
    assert resist.passed and resist.roll.total == 105
    fail = explosions.flash_resisted(scripted([60]), book, "t", 35)
    assert not fail.passed and fail.roll.total == 95
    c = status.disorient(Condition(), book.settings.flashbang_turns)
    assert c.disoriented == 1


def test_c4_and_the_detonator(book):
    assert explosions.detonate(book, (0, 0), (10, 3), True) is None
    assert explosions.detonate(book, (0, 0), (11, 3), True).code == "out_of_range"
    assert explosions.detonate(book, (0, 0), (1, 1), False).code == "no_detonator"
    cane = shooter_of(pregen(book, "cane"), book)
    a = explosions.blast(book, cane, "c4")
    assert a.dt == 2  # the printed C4 2 of a Grenadier holder (11.4)
    assert book.items["c4"].terrain_radius == 1


def test_explosions_damage_cover(book):
    dane = shooter_of(pregen(book, "dane"), book)
    assert explosions.cover_damage(scripted([3]), book, dane).total == 3
    grenadier = attrs.evolve(dane, abilities=frozenset({"grenadier"}))
    assert explosions.cover_damage(scripted([]), book, grenadier).total == 4


def test_smoke(book):
    roll = explosions.smoke_turns(scripted([1, 2, 3]), book, "dane")
    assert roll.total == 6 and roll.expr == "3d3"
    assert [explosions.concealment(book, n) for n in (0, 1, 2, 3)] == ["none", "concealed", "concealed", "hidden"]
    assert book.items["smoke_bomb"].radius == 5


def test_a_blast_stopped_by_cover_wears_it_by_1d4(book):
    dane = shooter_of(pregen(book, "dane"), book)
    crate = CoverPiece(label="crate", value=40, hp=4, adjacent=True, cell=(1, 0))
    t = entity("t", 6, 5, 35, 2, (crate,))
    dice = scripted([1, 3, 1, 2])  # ring 2: 1+110-6 = 105, -40 = 65: the crate, 1d4 = 3; again, 1d4 = 2: gone
    [(_, hits, after)] = explosions.explode(dice, book, dane, "frag", (0, 0), [((2, 0), t)])
    assert dice.scripted_left == 0 and [h.outcome for h in hits] == ["cover", "cover"]
    assert hits[0].wear.total == 3 and hits[0].cover_hp == 1 and hits[1].cover_hp == 0 and after.cover == ()
    assert explosions.c4_terrain((0, 0), [(1, 1), (2, 0), (0, 1)]) == ((1, 1), (0, 1))


def test_blast_effects_per_entity(book):
    from engine.rules.xxxzone.attack import Hit
    from engine.rules.xxxzone.wounds import vitals_of

    dane = shooter_of(pregen(book, "dane"), book)
    johnny = vitals_of(pregen(book, "johnny"), book)
    t = entity("johnny", 7, 5, 35, 2)
    dice = scripted([90, 90, 90])  # ring 1: three rolls, all hit
    [(_, hits, _)] = explosions.explode(dice, book, dane, "flashbang", (0, 0), [((0, 0), t)])
    assert [h.outcome for h in hits] == ["hit"] * 3
    flash = explosions.effects(scripted([70, 60, 80]), book, "flashbang", hits, johnny, Condition())
    assert [r.total for r in flash.rolls] == [105, 95, 115] and flash.condition.disoriented == 1
    fire = explosions.effects(scripted([2]), book, "popcorn", hits, johnny, Condition())
    assert fire.condition.on_fire == 2 and len(fire.rolls) == 1  # already burning: one count
    bare = entity("johnny", 7, 5, 35, 0)  # 97+110-7 = 200, no armour, DT 30: 170, 140, 110
    [(_, frag_hits, _)] = explosions.explode(scripted([97, 1, 1]), book, dane, "frag", (0, 0), [((0, 0), bare)])
    assert frag_hits[0].outcome == "lethal"
    dead = explosions.effects(scripted([1]), book, "frag", frag_hits, johnny, Condition())
    assert dead.condition.dead and len(dead.rolls) == 1  # Fort failed; the later rolls change nothing
    miss = Hit(roll=hits[0].roll, outcome="miss", armour_hp=2, raw="miss")
    landed = explosions.missile_impact(scripted([1, 5]), "bruce", miss, (10, 10))
    assert landed.how == "scatter" and landed.cell == (10, 11)
    wall = CoverPiece(label="wall", value=40, hp=8, adjacent=True, cell=(9, 10))
    stopped = Hit(roll=hits[0].roll, outcome="cover", cover=0, armour_hp=2, raw="cover")
    assert explosions.missile_impact(scripted([]), "bruce", stopped, (10, 10), (wall,)).cell == (9, 10)
