"""annihilation section 23, test vectors TV-A22 to TV-A42 (geometry, reactions, blasts, armour, wounds, healing,
experience, ranks, physical attacks, throwing, reloading, hit side), with scripted dice."""

from __future__ import annotations

import attrs
import pytest

from engine.content import loader, tables
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.geometry import distance
from engine.rules.annihilation import armour, attacks, blast, character as ch, experience, fire, healing, moves, phase
from engine.rules.annihilation import space, wounds
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter, Part, deploy, stamina_effective
from engine.rules.annihilation.inventory import Carried, reload_price
from engine.rules.annihilation.schema import SCHEMA, STATS


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.of(tables.load_folder(loader.default_dir(), "annihilation", SCHEMA))


def fighter(book: Book, armour_id: str = "none", skills: dict[str, str] | None = None, **stats: int) -> Fighter:
    held = dict(ch.baseline(book))
    for skill, level in (skills or {}).items():
        held[skill] = book.levels[level].chance
    c = ch.Character(id="op", name="Op", stats=ch.Stats(**{s: stats.get(s, 50) for s in STATS}),
                     skills=tuple(held.items()), armour=armour_id)
    return deploy(book, c)


def test_tv_a22_distances():
    assert space.range_distance((0, 0), (5, 3)) == 5 + 3 // 2 == 6
    assert space.blast_distance((0, 0), (5, 3)) == 8
    assert space.range_distance((0, 0), (5, 3), dz=2) == 8  # each level adds 1


def test_tv_a23_reaction_chain(book):
    observer = attrs.evolve(fighter(book, reactions=60), tu_turn=50, tu_left=40)
    actor = attrs.evolve(fighter(book, reactions=55), tu_turn=60, tu_left=30)
    fired_at = []
    for actor_left in (30, 24, 18):
        actor = attrs.evolve(actor, tu_left=actor_left)
        (answer,) = fire.reactions(book, actor, [("obs", observer, "mk2v_assault_rifle", 20)])
        fired_at.append((answer.actor_score, answer.observer_score, answer.fires))
        assert answer.fires
        snap = fire.shot_tu(book, observer, "mk2v_assault_rifle", "snap")
        assert snap == 12
        observer = moves.pay(observer, moves.Price(snap, 0), "snap")
        fired_at.append(observer.tu_left)
    assert fired_at == [(27, 48, True), 28, (22, 33, True), 16, (16, 19, True), 4]
    assert observer.tu_left == 4
    (last,) = fire.reactions(book, attrs.evolve(actor, tu_left=0), [("obs", observer, "mk2v_assault_rifle", 20)])
    assert (last.fires, last.reason) == (False, "4 TU left, snap costs 12")


def test_reactions_fire_in_descending_score_and_say_why(book):
    actor = attrs.evolve(fighter(book, reactions=50), tu_turn=50, tu_left=25)  # 25
    a = attrs.evolve(fighter(book, reactions=40), tu_turn=50, tu_left=50)  # 40
    b = attrs.evolve(fighter(book, reactions=70), tu_turn=50, tu_left=50)  # 70
    c = attrs.evolve(fighter(book, reactions=30), tu_turn=50, tu_left=40)  # 24: too slow
    got = fire.reactions(book, actor, [("a", a, "m_17", 30), ("b", b, "m_17", 30), ("c", c, "m_17", 30),
                                       ("d", b, "m_17", 0)])
    assert [(r.observer, r.fires, r.reason) for r in got] == [
        ("b", True, "reaction 70 > 25"), ("a", True, "reaction 40 > 25"),
        ("d", False, "no loaded weapon with a snap shot"), ("c", False, "reaction 24 ≤ 25")]


def test_tv_a24_mine_falloff(book):
    assert [blast.falloff(100, b, 6) for b in range(7)] == [100, 75, 56, 42, 31, 23, 17]
    mine = book.explosives["land_mine"]
    assert [blast.falloff(mine.damage, b, mine.radius) for b in range(4)] == [200, 150, 0, 0]
    assert blast.side_hit((5, 5), (5, 5), 0, "grenade") == "under"


def test_tv_a25_hand_grenade(book):
    g = book.explosives["hand_grenade"]
    assert [blast.falloff(g.damage, b, g.radius) for b in (0, 1, 2)] == [80, 60, 0]


def test_tv_a26_blast_membership(book):
    inside = set(blast.cells(book, (10, 10), 2))
    assert (12, 10) in inside and (11, 11) in inside and (12, 11) not in inside
    assert space.blast_distance((10, 10), (12, 11)) == 3 and distance((10, 10), (12, 11)) == 2  # Chebyshev 2, out
    assert [len(space.diamond((0, 0), (n - 1) // 2)) for n in (5, 11, 15)] == [13, 61, 113]
    assert [len(space.hexagon((0, 0), (n - 1) // 2)) for n in (5, 11, 15)] == [19, 91, 169]
    assert [len(space.diamond((0, 0), (b.size - 1) // 2)) for b in book.blasts.values()] == \
        [13, 41, 85, 113, 145, 221, 481]
    rows = [sum(1 for c in inside if c[1] == y) for y in range(8, 13)]
    assert rows == [1, 3, 5, 3, 1]  # the decoded size-5 diagram


def test_tv_a27_old_alien_grenade(book):
    g = book.explosives["old_alien_grenade"]
    assert blast.falloff(g.damage, 4, g.radius) == 28


def test_tv_a28_light_body_armour_worn_down(book):
    state = armour.ArmourState.of(book.armour["light_body_armor"])
    assert (state.av10, state.sv, state.front) == (150, 25, 50)
    table = []
    for _ in range(6):
        av = state.av
        got = armour.hit(state, "front", 40)
        state = got.armour
        table.append((av, got.wear, state.front, state.av10, got.excess, got.through, got.useless))
    assert table == [(15, 10, 40, 140, 0, 25, False), (14, 11, 29, 129, 0, 26, False),
                     (12, 13, 16, 116, 0, 28, False), (11, 14, 2, 102, 0, 29, False),
                     (10, 15, 0, 87, 13, 43, False), (8, 0, 0, 87, 0, 40, True)]


def test_tv_a29_stopped_hit(book):
    state = armour.ArmourState.of(book.armour["heavy_power_armor"])
    got = armour.hit(state, "front", book.weapons["smg_9mm"].damage)
    assert (got.through, got.stopped, got.armour) == (0, True, state)


def test_tv_a30_leg_wounds(book):
    f = fighter(book, time_units=60, stamina=50)
    dice = Dice.scripted([19, 3, 1])
    hit = wounds.damage(book, dice, f, 25, "op")
    assert dice.scripted_left == 0 and (hit.part, hit.wounds) == ("left_leg", 4)
    assert [r.formula for r in hit.rolls] == ["d20 19 → Left leg", "25/10 = 2d4: 3+1 = 4 wounds"]
    after = hit.fighter
    assert (after.health, after.character.stats.stamina) == (25, 46)  # Stamina permanently −4
    nxt, _ = phase.start(book, after, encumbrance=0)
    assert nxt.health == 25 - 4 and nxt.tu_turn == 60 - 20


def test_tv_a31_head_hit(book):
    f = fighter(book, health=48)
    hit = wounds.damage(book, Dice.scripted([2, 2]), f, 17, "op")
    after = hit.fighter
    assert (hit.part, hit.wounds, after.health, after.stun, after.status) == ("head", 2, 31, 60, "unconscious")
    assert hit.notes == ("stun +60", "unconscious")
    later = wounds.damage(book, Dice.scripted([1, 3]), after, 10, "op")
    assert (later.fighter.part("head").total, later.fighter.status) == (5, "dead")


def test_tv_a32_death_threshold(book):
    f = attrs.evolve(fighter(book, bravery=45).with_part("torso", Part(2, 2)), health=-44, status="unconscious")
    dead, steps = phase.start(book, f, encumbrance=0)
    assert (dead.health, dead.status) == (-46, "dead") and steps[-1].name == "death"
    alive, _ = phase.start(book, attrs.evolve(f, health=-43), encumbrance=0)
    assert (alive.health, alive.status) == (-45, "unconscious")


def test_tv_a33_stun_recovery(book):
    f = attrs.evolve(fighter(book, stamina=52), health=30, stun=35, status="unconscious", tu_left=0)
    assert stamina_effective(book, f) == 52
    woke, steps = phase.start(book, f, encumbrance=0)
    assert (woke.stun, woke.status) == (25, "awake") and woke.tu_left == woke.tu_turn > 0
    assert [s.name for s in steps][:2] == ["stun", "wakes"]


def test_bleeding_to_zero_at_the_phase_start_knocks_the_unit_out(book):
    """Section 22 step 4 with A-19.4: Health 5 and 7 open wounds bleed to −2, and the unit falls with no TUs; an
    older bundle (no `bleeding_fells`) kept it on its feet, and its logs still replay so."""
    f = attrs.evolve(fighter(book, bravery=45).with_part("torso", Part(7, 7)), health=5)
    down, steps = phase.start(book, f, encumbrance=0)
    assert (down.health, down.status, down.tu_left) == (-2, "unconscious", 0)
    assert [(s.name, s.text) for s in steps][:2] == [("bleeding", "Health −7 → -2"), ("faints", "Health -2 ≤ 0: unconscious")]
    stunned, steps = phase.start(book, attrs.evolve(f, health=30, stun=40), encumbrance=0)  # Stm_eff 50 − 35: −3
    assert stunned.status == "unconscious" and ("faints", "Stun 37 ≥ Health 23: unconscious") in [
        (s.name, s.text) for s in steps]
    older = attrs.evolve(book, settings=attrs.evolve(book.settings, bleeding_fells=False))
    kept, _ = phase.start(older, f, encumbrance=0)
    assert (kept.health, kept.status) == (-2, "awake")


def test_tv_a34_smoke(book):
    f = fighter(book)
    f, _ = phase.smoke_contact(book, f)  # walks into smoke
    f, _ = phase.smoke_contact(book, f)  # another smoke square the same turn: nothing more
    f, _, _ = phase.end(book, Dice.scripted([]), f, in_smoke=True)
    assert f.stun == 8
    nxt, _ = phase.start(book, f, encumbrance=0, in_smoke=True)  # next phase, still in it
    assert stamina_effective(book, nxt) // 5 == 10 and nxt.stun == max(0, 8 - 10) + 4  # recovery, then smoke


def test_tv_a35_eight_torso_wounds(book):
    f = fighter(book, health=80).with_part("torso", Part(6, 6))
    hit = wounds.damage(book, Dice.scripted([5, 1, 1, 2]), f, 32, "op")
    after = hit.fighter
    assert (after.part("torso").total, after.beyond_saving) == (10, True)
    closed = attrs.evolve(after, wounds=(("torso", Part(0, 10)),), status="awake", stun=0)
    nxt, _ = phase.start(book, closed, encumbrance=0)
    assert nxt.health == closed.health - 1  # internal bleeding with every wound bandaged
    kit = healing.Kit.full(book, "medi_kit")
    healed = healing.treat(book, Dice.scripted([]), nxt, kit, "heal")
    assert healed.patient.health == nxt.health and healed.text == "no effect: eight torso wounds (A-19.5)"


def test_tv_a36_medic_costs(book):
    medic = fighter(book, skills={"medic": "novice"})
    other = fighter(book)
    aid, medi = healing.Kit.full(book, "aid_kit"), healing.Kit.full(book, "medi_kit")
    assert healing.dose_tu(book, medic, aid) == 20 and healing.dose_tu(book, medic, medi) == 5
    hurt = attrs.evolve(other, tu_left=50).with_part("left_arm", Part(3, 3))
    for _ in range(3):
        done = healing.treat(book, Dice.scripted([]), hurt, medi, "bandage", part="left_arm")
        hurt, medi = done.patient, done.kit
    assert hurt.tu_left == 50 - 30 and hurt.part("left_arm") == Part(0, 3) and medi.left("bandage") == 7


def test_tv_a37_stat_improvement(book):
    got = experience.improve(book, Dice.scripted([71, 40]), "op", "accuracy", 62, 23)
    assert (got.value, got.carried, len(got.rolls)) == (63, 3, 2)
    assert [r.formula for r in got.rolls] == ["d100 71 > 62 → 63", "d100 40 ≤ 63, no change"]
    assert experience.improve(book, Dice.scripted([100]), "op", "accuracy", 100, 10).value == 101  # a 100 always


def test_tv_a38_rank_quotas(book):
    assert experience.quotas(book, 24) == {"sergeant": 4, "captain": 2, "colonel": 1, "commander": 0}


def test_tv_a39_physical_attack(book):
    f = attrs.evolve(fighter(book, strength=50), tu_turn=55)
    strike = attacks.physical(book, f, (3, 3), (4, 4))
    assert strike.damage == 50 and strike.chance == 50
    got = armour.hit(armour.ArmourState.of(book.armour["light_body_armor"]), "front", strike.damage)
    assert (got.through, 50 - got.armour.front, 150 - got.armour.av10) == (35, 10, 10)
    assert moves.action_price(book, f, "physical_attack").tu == 11
    assert attacks.physical(book, f, (3, 3), (5, 3)).code == "out_of_reach"


def test_tv_a40_throw(book):
    f = fighter(book, strength=48, throwing=50)
    odds = attacks.throw_odds(book, f, "A", 8)
    assert (odds.reach, odds.chance) == (12, 39)
    assert odds.text == "Trw 50 + skill 5 − range 2×8 16"
    assert attacks.throw_odds(book, f, "C", 8).code == "too_far"  # size C and up: halved to 6
    dice = Dice.scripted([3, 3])
    landed, rolls = attacks.scatter(book, dice, "op", (10, 10), 8)
    assert rolls[1].expr == "1d3" and landed == (13, 10)  # d8 3 = E, d3 3 spaces
    walled, _ = attacks.scatter(book, Dice.scripted([3, 3]), "op", (10, 10), 8, open_cell=lambda c: c[0] < 12)
    assert walled == (11, 10)  # stops at the last open square before the wall


def test_tv_a41_reload_from_belt(book):
    rifle = Carried("mk2v_assault_rifle", "D", "right_hand")
    clip = Carried("clip:mk2v_assault_rifle", "A", "belt")
    price = reload_price(book, [rifle, clip], rifle, clip)
    assert (price.tu, price.text) == (19, "belt_to_hand + load")
    pistol = Carried("pistol_9mm", "B", "left_hand")
    assert reload_price(book, [rifle, clip, pistol], rifle, clip) == Rejected(
        "hands_full", "Loading needs the other hand free for the clip")


def test_tv_a42_hit_side():
    north = 0
    assert space.hit_side(north, (0, 0), (3, 0)) == "right"
    assert space.hit_side(north, (0, 0), (-3, 0)) == "left"
    assert space.hit_side(north, (0, 0), (1, -3)) == "front"
    assert space.hit_side(north, (0, 0), (0, 4)) == "rear"
