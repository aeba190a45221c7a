"""The 34 test vectors of neo-troops section 22, each with scripted dice, checking every number the spec prints.

Dice are given in the order the rules roll them. Where a vector leaves out a die the rules must roll (the
limb-severing roll after a severe wound, a varan's external-equipment roll), the test scripts it and says so.
"""

from __future__ import annotations

import attrs
import pytest

from engine.content import loader, tables
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.neo_troops import care, criticals, damage, melee, movement, order, pools, senses, shooting, unit
from engine.rules.neo_troops.schema import SCHEMA, Weapon

T = tables.load_folder(loader.default_dir(), "neo-troops", SCHEMA)
S = T["settings"]["default"]
W = T["weapons"]
RIFLE, MP, HEAVY = W["plasma_rifle"], W["machine_pistol"], W["heavy_plasma"]


def goon(name: str = "goon", **changes) -> unit.Trooper:
    return unit.build(name, "goons", "goon", T, **changes)


def varan(name: str = "varan", **changes) -> unit.Trooper:
    return unit.build(name, "varans", "varan", T, **changes)


def target(name: str, av: int = 4, **changes) -> shooting.Target:
    return shooting.Target(id=name, av=av, **changes)


def scripted(*faces: int) -> Dice:
    return Dice.scripted(list(faces))


def all_used(dice: Dice) -> None:
    assert dice.scripted_left == 0, "every scripted die must be used"


def n_of(mods: pools.Mods) -> int:
    return pools.count(mods)[0]


def test_tv_n1_target_numbers():
    assert {name: pools.difficulty(T, name) for name in ("simple", "easy", "normal", "hard", "very_hard")} == {
        "simple": 2, "easy": 3, "normal": 4, "hard": 5, "very_hard": 6}


@pytest.mark.parametrize("av, hit", [(4, True), (5, True), (6, False)])  # 6: a varan in decent cover
def test_tv_n2_aimed_snap_shot(av, hit):
    shooter = varan(accuracy=1)
    assert pools.effective_av(5, ["light"], T["cover"], S.av_cap) == 6
    dice = scripted(2, 5, 3)
    fire = shooting.snap(dice, shooter, RIFLE, target("t", av, stationary=True), stationary=True)
    all_used(dice)
    assert fire.pool.n == 3 and fire.pool.faces == (2, 5, 3) and fire.pool.result == 5
    assert fire.hits == {"t": int(hit)}
    word = "hit" if hit else "miss"
    assert fire.roll.formula == f"snap n=1+1 accuracy+1 still=3: 3d6 [2 5 3] best 5 vs AV {av}: {word}"


def test_tv_n3_zero_dice():
    shooter = goon(severe_wounds=1)
    dice = scripted(5, 3)
    fire = shooting.snap(dice, shooter, RIFLE, target("t", 4, cells=RIFLE.long_range + 1), stationary=False)
    all_used(dice)
    assert fire.pool.n == -1 and fire.pool.rule == "lower" and fire.pool.kept == (3,)
    assert fire.hits == {"t": 0}
    assert "n=1-1 long range-1 severe wound=-1: 2d6 [5 3] lower 3 vs AV 4: miss" in fire.roll.formula


@pytest.mark.parametrize("modifier, success", [(2, True), (0, False)])
def test_tv_n4_direct_modifier(modifier, success):
    watcher = goon(perception=1)
    dice = scripted(3, 1)
    test = pools.check(dice, watcher.id, "perception", senses.perception_mods(watcher), 5, modifier)
    all_used(dice)
    assert test.pool.n == 2 and test.pool.result == 3
    assert test.roll.total == 3 + modifier and test.success is success


def test_tv_n5_spray_with_fewer_dice_than_rof():
    shooter = goon(severe_wounds=1)
    goons = [target(f"g{i}", 4, pos=(10 + i, 0)) for i in range(3)]
    dice = scripted(4, 1, 6)
    fire = shooting.spray(dice, shooter, RIFLE, goons, stationary=False, s=S)
    all_used(dice)
    assert fire.pool.n == 3 and fire.pool.base == 4 and fire.pool.kept == (6, 4, 1)
    assert sum(fire.hits.values()) == 2 and fire.pool.missed == 1  # the 4th attack cannot hit
    assert fire.shots == 4


@pytest.mark.parametrize("av, hits", [(5, 1), (4, 3)])
def test_tv_n6_spray_with_surplus_dice(av, hits):
    dice = scripted(6, 2, 4, 4, 1)
    fire = shooting.spray(dice, goon(accuracy=2), MP, [target("t", av)], stationary=False, s=S)
    all_used(dice)
    assert fire.pool.n == 5 and fire.pool.kept == (6, 4, 4) and fire.pool.discarded == (2, 1)
    assert fire.hits == {"t": hits}


def test_tv_n7_spray_at_three_targets():
    covered = pools.effective_av(4, ["light"], T["cover"], S.av_cap)
    targets = [target("A", 4, pos=(5, 0), stationary=True), target("B", covered, pos=(6, 0), stationary=True),
               target("C", 4, pos=(7, 0), stationary=True)]
    dice = scripted(6, 5, 4, 3, 2, 2)
    fire = shooting.spray(dice, varan(accuracy=1), RIFLE, targets, stationary=True, s=S)
    all_used(dice)
    assert covered == 5
    assert fire.pool.n == 6 and fire.pool.kept == (6, 5, 4, 3)
    assert fire.given == {"B": 5, "A": 4, "C": 6}  # the 3 hits nothing
    assert fire.hits == {"A": 1, "B": 1, "C": 1}


def test_tv_n8_armour_value():
    cover = T["cover"]
    assert pools.effective_av(5, ["heavy"], cover, S.av_cap) == 6  # 5 + 2 = 7, capped
    assert pools.effective_av(4, ["light"], cover, S.av_cap) == 5
    assert pools.effective_av(5, [], cover, S.av_cap, unseen=True, unseen_av=S.unseen_av) == 6
    assert pools.effective_av(3, ["light", "heavy"], cover, S.av_cap) == 5  # at most +2, not +3


@pytest.mark.parametrize("fighter, surprised, n", [(3, False, 1), (1, False, 2), (3, True, 3)])
def test_tv_n9_snap_shot_in_melee_range(fighter, surprised, n):
    close = target("t", 4, adjacent=True, cells=1, fighter=fighter, surprised=surprised)
    mods = (("base", 1),) + shooting.shot_mods(goon(accuracy=1), RIFLE, [close], stationary=False)
    assert n_of(mods) == n
    dice = scripted(*range(1, n + 1))
    fire = shooting.snap(dice, goon(accuracy=1), RIFLE, close, stationary=False)
    all_used(dice)
    assert fire.pool.n == n


def test_tv_n10_agility_at_zero_dice():
    heavy = unit.Part(id="heavy_plasma", kind="weapon")
    runner = varan(save=3, load_kg=48.0, parts=varan().parts + (heavy,))
    assert runner.load_fraction == pytest.approx(0.8)
    mods = movement.agility_mods(runner, W, S)
    assert dict(mods) == {"base": 3, "heavy load": -1, "3+ armour": -1, "BIG weapon": -1} and n_of(mods) == 0
    dice = scripted(6, 2)
    path = [(0, 0), (1, 0), (2, 0), (3, 0)]
    walked = movement.walk(dice, runner, "move", path, T, obstacles=frozenset({(2, 0)}))
    all_used(dice)
    assert walked.rolls[0].faces == (6, 2) and walked.rolls[0].total == 2  # the lower: 2 < TN 4
    assert walked.stopped and walked.path == ((0, 0), (1, 0)) and walked.metres == 2


def test_tv_n11_agility_at_negative_dice():
    runner = varan(save=2, load_kg=60.0)
    mods = movement.agility_mods(runner, W, S)
    assert dict(mods) == {"base": 3, "max load": -2, "2+ armour": -2} and n_of(mods) == -1
    dice = scripted(5, 4)
    test = movement.agility(dice, runner, T)
    all_used(dice)
    assert test.pool.rule == "lower" and test.pool.faces == (5, 4) and test.pool.result == 4 and test.success


def test_tv_n12_melee_with_reach():
    attacker, defender = goon("a", fighter=2), goon("d", fighter=3)
    base, mods = melee.attack_mods(attacker, W["vibro_spear"], defender, W, S)
    assert base == 1 and dict(mods) == {"base": 1, "fighter": 2, "superior": 1, "defence": -3} and n_of(mods) == 1
    dice = scripted(5)
    a = melee.strike(dice, attacker, W["vibro_spear"], defender, W, S)
    all_used(dice)
    assert a.pool.result == 5 and a.hits == 1


def test_tv_n13_negative_defence():
    defender = goon("d", severe_wounds=1, parts=(unit.Part(id="heavy_plasma", kind="weapon"),))
    assert melee.defence(defender, W, S) == -2
    attacker = goon("a", fighter=1)
    base, mods = melee.attack_mods(attacker, None, defender, W, S)
    assert dict(mods) == {"base": 1, "fighter": 1, "superior": 1} and n_of(mods) == 3  # −2 is not added
    dice = scripted(1, 3, 4)
    a = melee.strike(dice, attacker, None, defender, W, S)
    all_used(dice)
    assert a.pool.result == 4 and a.hits == 1


def test_tv_n14_two_melee_attacks():
    attacker, defender = goon("a", fighter=1, attacks=2), goon("d", av=5)
    dice = scripted(5, 2, 4)
    a = melee.strike(dice, attacker, None, defender, W, S)
    all_used(dice)
    assert a.pool.n == 3 and a.pool.kept == (5, 4) and a.hits == 1


def test_tv_n15_two_melee_attacks_pool_collapses():
    attacker, defender = goon("a", attacks=2), goon("d", fighter=2)
    dice = scripted(4, 6)
    a = melee.strike(dice, attacker, None, defender, W, S)
    all_used(dice)
    assert a.pool.n == 0 and a.pool.kept == (4,) and a.hits == 1
    assert a.pool.missed == 1  # the second attack cannot hit


@pytest.mark.parametrize("face, saved", [(6, True), (5, False)])
def test_tv_n16_saves_needed_six(face, saved):
    assert damage.save_needed(4, -2) == ("roll", 6)
    dice = scripted(face)
    h = damage.hit(dice, goon(save=4), -2, T)
    all_used(dice)
    assert h.saved is saved and h.rolls[0].total == face
    assert h.target.status == ("active" if saved else "dead")


def test_tv_n16_saves_impossible_and_harmless():
    assert damage.save_needed(5, -2) == ("none", 7)
    assert damage.save_needed(3, 2) == ("harmless", 1)
    dice = scripted()
    h = damage.hit(dice, goon(save=3), 2, T)
    assert h.harmless and h.target == goon(save=3) and h.rolls == ()
    dice = scripted()
    h = damage.hit(dice, goon(save=5), -2, T)
    assert not h.saved and h.rolls == () and h.target.status == "dead"


SMG4 = Weapon(name="SMG", rof=4, long_range=10, small=True, dual=True, shots=40)
SMG2 = Weapon(name="Burst pistol", rof=2, long_range=10, small=True, dual=True, shots=20)


@pytest.mark.parametrize("accuracy, faces, kept", [(1, (6, 5, 4, 3, 3, 2, 1), 7), (3, (6, 6, 5, 4, 3, 3, 2, 1, 1), 8)])
def test_tv_n17_two_weapons_rof_4_and_4(accuracy, faces, kept):
    assert shooting.two_weapons(SMG4, SMG4) == (8, 2, 8)
    dice = scripted(*faces)
    fire = shooting.spray(dice, goon(accuracy=accuracy), SMG4, [target("t", 4)], False, S, second=SMG4)
    all_used(dice)
    assert fire.pool.n == len(faces) and len(fire.pool.kept) == kept and fire.pool.missed == 8 - kept
    assert fire.shots == 8


@pytest.mark.parametrize("accuracy, n, kept", [(0, 5, 5), (1, 6, 6), (2, 7, 6)])
def test_tv_n18_two_weapons_rof_4_and_2(accuracy, n, kept):
    assert shooting.two_weapons(SMG4, SMG2) == (6, 1, 6)
    dice = scripted(*[4] * n)
    fire = shooting.spray(dice, goon(accuracy=accuracy), SMG4, [target("t", 4)], False, S, second=SMG2)
    all_used(dice)
    assert fire.pool.n == n and len(fire.pool.kept) == kept and fire.hits == {"t": kept}  # at most 6 hits


def test_tv_n19_switching_weapons():
    away = shooting.switch(("plasma_rifle",), "heavy_plasma", "away", W)
    assert away == shooting.Switch(("heavy_plasma",), -1)
    shooter = varan(accuracy=1)
    dice = scripted(*[3] * 6)
    fire = shooting.spray(dice, shooter, HEAVY, [target("t", 4)], False, S, extra=(("switch", away.dice),))
    assert fire.pool.n == 6 and fire.pool.rule == "all"
    drop = shooting.switch(("plasma_rifle",), "heavy_plasma", "drop", W)
    assert drop == shooting.Switch(("heavy_plasma",), 0, "plasma_rifle")
    dice = scripted(*[3] * 7)
    fire = shooting.spray(dice, shooter, HEAVY, [target("t", 4)], False, S, extra=(("switch", drop.dice),))
    all_used(dice)
    assert fire.pool.n == 7 and len(fire.pool.kept) == 6
    assert shooting.switch(("plasma_rifle",), "pistol", "keep", W) == shooting.Switch(("plasma_rifle", "pistol"), 0)
    assert shooting.switch(("pistol", "pistol"), "grenade", "away", W).dice == -1
    assert shooting.switch(("pistol", "pistol"), "grenade", "drop", W) == shooting.Switch(("pistol", "grenade"), 0,
                                                                                            "pistol")
    assert isinstance(shooting.switch(("pistol", "pistol"), "grenade", "keep", W), Rejected)


def test_tv_n20_combined_weapons():
    weapons = dict(W, rifle=Weapon(name="Rifle", rof=3, weight_kg=12.0), launcher=Weapon(name="Launcher",
                                                                                          weight_kg=9.0))
    combos = [("rifle", "launcher")]
    assert shooting.combined_mods("rifle", weapons, combos, S) == (("combined", -1),)
    assert shooting.combined_mods("launcher", weapons, combos, S) == (("combined", -1),)
    extra = shooting.combined_mods("rifle", weapons, combos, S)
    mods = (("base", 1),) + shooting.shot_mods(varan(accuracy=1), weapons["rifle"], [target("t", stationary=True)],
                                               True, extra)
    assert n_of(mods) == 2
    assert shooting.switch(("rifle",), "launcher", "away", weapons, combos) == shooting.Switch(("launcher",), 0)


def test_tv_n21_sustained_fire():
    goons = [target(f"g{i}", 4, pos=(9 + i % 3, 4 + i // 3)) for i in range(6)]
    dice = scripted(4, 2, 6, 5)
    fire, area = shooting.sustained(dice, varan(accuracy=2), RIFLE, (10, 5), (10, 0), goons, True, S)
    all_used(dice)
    assert fire.pool.n == 4 and fire.roll.formula.startswith("sustained n=min(4, 4+2 accuracy=6)=4: 4d6 [4 2 6 5]")
    assert fire.given == {"g0": 4, "g1": 2, "g2": 6, "g3": 5}
    assert sum(fire.hits.values()) == 3 and fire.shots == 4
    assert len(area.cells) == 9
    assert shooting.area_dice(area, "entered", False, S) == 1
    dice = scripted(3)
    assert shooting.follow_up(dice, area, target("g7", 4), 1).hits == 0  # a 7th goon walks in
    dice = scripted(4)
    assert shooting.follow_up(dice, area, target("g1", 4), shooting.area_dice(area, "ended_inside", False, S)).hits == 1
    assert shooting.area_dice(area, "left", False, S) == 0
    dice = scripted(1, 1, 1)
    fire, _ = shooting.sustained(dice, varan(accuracy=0, severe_wounds=1), RIFLE, (10, 5), (10, 0), goons, True, S)
    all_used(dice)
    assert fire.pool.n == 3 and set(fire.hits) == {"g0", "g1", "g2"}


def test_tv_n22_running_into_fire():
    dice = scripted(1, 1, 1, 1)
    _, area = shooting.sustained(dice, varan(), RIFLE, (10, 5), (10, 0), [], True, S)
    assert shooting.runs_closer(area, (10, 9), (10, 6)) and not shooting.runs_closer(area, (10, 4), (10, 6))
    k = shooting.area_dice(area, "entered", True, S)
    assert k == 2
    dice = scripted(4, 5)
    a = shooting.follow_up(dice, area, target("g", 4), k)
    all_used(dice)
    assert a.pool.faces == (4, 5) and a.hits == 2  # each saved separately (damage.hits)


def test_tv_n23_move_budget():
    v = varan()
    assert movement.speeds(v, S) == (10, 20)
    assert movement.path_m([(0, 0), (1, 0), (2, 0), (3, 0), (4, 1)], S) == 9
    assert movement.path_m([(i, 0) for i in range(6)], S) == 10
    four_diagonal = [(i, i) for i in range(5)]
    assert movement.path_m(four_diagonal, S) == 12
    assert movement.walk(scripted(), v, "move", four_diagonal, T) == Rejected(
        "too_far", "12 m is past the move budget of 10 m")
    run = [(i, i) for i in range(7)] + [(7, 6)]
    assert movement.path_m(run, S) == 20 and movement.walk(scripted(), v, "run", run, T).metres == 20
    straight = [(i, 0) for i in range(9)]
    rough = frozenset({(1, 0), (2, 0)})
    assert movement.path_m(straight, S, rough) == 20 and len(straight) - 1 == 8
    assert isinstance(movement.walk(scripted(), v, "run", straight + [(9, 0)], T, difficult=rough), Rejected)


def test_tv_n24_distance_conversions():
    assert movement.range_cells((0, 0), (5, 0)) == 5 and movement.range_m((0, 0), (5, 0), S) == 10
    assert movement.range_cells((0, 0), (10, 0)) == 10 and movement.range_m((0, 0), (10, 0), S) == 20
    assert RIFLE.long_range == 25 and RIFLE.long_range * S.step_m == 50
    assert movement.range_cells((0, 0), (12, 8)) == 16 and movement.range_m((0, 0), (12, 8), S) == 32


def test_tv_n25_severe_wound():
    wounded = varan(accuracy=1, fighter=2, severe_wounds=1)
    assert movement.speeds(wounded, S) == (5, 10)
    mods = (("base", 1),) + shooting.shot_mods(wounded, RIFLE, [target("t", stationary=True)], True)
    assert n_of(mods) == 2
    assert melee.defence(wounded, W, S) == 1


def test_tv_n26_generic_critical_extra_damage():
    brute = unit.build("brute", "goons", "brute", T)
    assert brute.hp == 2 and brute.save == 5
    dice = scripted(3, 4)  # save 3 < 5, critical 4
    h = damage.hit(dice, brute, 0, T)
    all_used(dice)
    assert not h.saved and h.target.hp == 0 and h.target.status == "dead"
    assert [r.purpose for r in h.rolls] == ["save", "critical (generic)"]  # no second critical


def test_tv_n26_generic_critical_component():
    brute = unit.build("brute", "goons", "brute", T)
    dice = scripted(3, 2, 1)  # save 3, critical 2 (component), 1d5 = 1: its held weapon
    h = damage.hit(dice, brute, 0, T)
    all_used(dice)
    assert h.target.hp == 1 and h.target.held == () and h.target.part("plasma_rifle").state == "destroyed"
    assert h.rolls[-1].formula == "random component 1d5=1 → plasma_rifle"


def test_tv_n27_varan_head_hits():
    v = varan(accuracy=2)
    assert (v.hp, v.save_now) == (3, 4)
    dice = scripted(2, 3, 5)  # save 2 fails, external 3, critical 5
    v = damage.hit(dice, v, 0, T).target
    all_used(dice)
    assert v.hp == 2 and v.head == "damaged" and v.accuracy_now == 0
    still = [target("t", stationary=True)]
    assert n_of((("base", 1),) + shooting.shot_mods(v, RIFLE, still, True)) == 1
    dice = scripted(1, 1, 5)  # save 1 fails; the external roll (1, not in the vector); critical 5
    v = damage.hit(dice, v, 0, T).target
    all_used(dice)
    assert v.hp == 1 and v.head == "destroyed" and v.head_hits == 2
    dice = scripted(4, 6)
    fire = shooting.snap(dice, v, RIFLE, still[0], True)
    assert fire.pool.n == 0 and fire.pool.rule == "lower" and fire.pool.result == 4


def test_tv_n28_massive_wound_and_first_aid():
    dice = scripted(6, 2, 1)  # critical 6, reroll 2; the limb roll 1 (not in the vector): nothing severed
    crit = criticals.critical(dice, varan(), T)
    all_used(dice)
    w = crit.target
    assert w.severe_wounds == 1 and w.bleeding == 0 and "severe wound, bleeding" in crit.effects
    ally = varan("ally")
    aid = None
    for _ in range(3):  # the ally's next three slots, each followed by the wounded varan's own turn
        got = care.first_aid(aid, ally, w, adjacent=True, s=S)
        assert not isinstance(got, Rejected)
        aid, w = got
        w = care.own_turn_ends(w, S)
    assert aid is None and w.bleeding is None
    for _ in range(20):
        w = care.own_turn_ends(w, S)
    assert w.status == "active"


def test_tv_n28_interrupted_first_aid_restarts():
    w = varan(severe_wounds=1, bleeding=0)
    ally = varan("ally")
    aid = None
    for _ in range(2):
        aid, w = care.first_aid(aid, ally, w, True, S)
    assert aid.done == 2
    aid = care.other_action(aid, "ally")
    aid, w = care.first_aid(aid, ally, w, True, S)
    assert aid.done == 1 and w.bleeding == 0


def test_tv_n28_bleeding_kills_at_the_end_of_the_tenth_own_turn():
    w = varan(severe_wounds=1, bleeding=0)
    for _ in range(9):
        w = care.own_turn_ends(w, S)
    assert w.status == "active" and w.bleeding == 9
    assert care.own_turn_ends(w, S).status == "dead"


def test_tv_n29_second_massive_wound():
    v = varan(severe_wounds=1, tables_rolled=("massive",), bleeding=3)
    dice = scripted(6)
    crit = criticals.critical(dice, v, T)
    all_used(dice)  # no reroll
    assert crit.target.status == "dead" and crit.effects == ("massive again: killed",)


def test_tv_n30_external_equipment():
    v = varan()
    dice = scripted(5, 6)  # save 5 ≥ 4, external 6 (one external item: no random pick)
    h = damage.hit(dice, v, 0, T)
    all_used(dice)
    assert h.saved and h.target.hp == 3 and h.target.part("bio_scanner").state == "damaged"
    dice = scripted(5, 6)
    h = damage.hit(dice, h.target, 0, T)
    assert h.target.part("bio_scanner").state == "destroyed"


def test_tv_n31_perception():
    v, g = varan(), goon(perception=0)
    assert senses.tn_for(v, "moved", False, False, T) == 5
    dice = scripted(5)
    seen = senses.spot(dice, g, v, "moved", (3, 3), T)
    assert seen.noticed and seen.roll.formula == "perception of varan n=1: 1d6 [5] vs TN 5 ✓"
    assert senses.spot(scripted(), g, v, "stationary", (3, 3), T) == senses.Sighting(False, None)
    dice = scripted(4)
    seen = senses.spot(dice, g, v, "stationary", (3, 3), T, searching=True)
    assert seen.roll.formula.endswith("vs TN 6 ✗") and not seen.noticed
    dice = scripted(2)
    seen = senses.spot(dice, g, v, "attacked", (3, 3), T)
    all_used(dice)
    assert not seen.noticed and seen.known_cell == (3, 3) and seen.roll.formula.endswith("vs TN 3 ✗")
    assert pools.effective_av(v.av, ["heavy"], T["cover"], S.av_cap, unseen=True, unseen_av=S.unseen_av) == 6


def test_tv_n32_hastening():
    v, g = varan(fighter=0), goon()
    foes = [order.Foe(id="goon", pos=(1, 0)), order.Foe(id="far", pos=(5, 0))]
    assert order.hasteners((0, 0), foes) == ("goon",)
    dice = scripted(5)
    a = melee.strike(dice, g, None, v, W, S)
    all_used(dice)
    assert a.pool.n == 1 and a.hits == 1 and order.run_cancelled([a])
    dice = scripted(2, 1, 4)  # the hit: save 2 fails, external 1, critical 4 (+1 damage)
    h = damage.hit(dice, v, 0, T)
    all_used(dice)
    assert h.target.hp == 1
    o = order.Order(slots=("varan", "goon", "x"), later=("varan", "goon", "x"))
    o = order.hasten(o, "goon")
    o = order.done(o, "varan")
    assert o.up == "x"  # the goon skips its next regular slot
    o = order.done(o, "x")
    assert (o.cycle, o.up) == (2, "varan")
    assert order.done(o, "varan").up == "goon"


def test_tv_n33_delaying():
    o = order.Order(slots=("A", "B", "C"), later=("A", "B", "C"))
    o = order.delay(o, "A")
    assert o.up == "B" and o.held == ("A",)
    o = order.done(o, "B")
    o = order.take_held(o, "A")
    assert o.up == "C" and o.held == ()
    o = order.done(o, "C")
    assert o.cycle == 2 and o.slots == ("B", "A", "C") and o.up == "B"


def test_tv_n34_running_past():
    path = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)]
    foes = [order.Foe(id="g1", pos=(2, 1)), order.Foe(id="g2", pos=(5, -1)),
            order.Foe(id="asleep", pos=(3, 1), surprised=True)]
    assert order.run_past(path, foes, S) == (("g1", 1), ("g2", 4))
    runner = varan(fighter=0)
    for name in ("g1", "g2"):
        dice = scripted(5)
        a = melee.strike(dice, goon(name), None, runner, W, S)
        all_used(dice)
        assert a.pool.n == 1 and a.hits == 1
    assert order.run_past(path, foes, S, hastened=("g1",)) == (("g2", 4),)
    assert order.run_past(path, foes, attrs.evolve(S, run_past_attacks=False)) == ()


def test_every_vector_has_a_test():
    names = {name for name in globals() if name.startswith("test_tv_n")}
    assert {int(n.split("_")[2][1:]) for n in names} == set(range(1, 35))
