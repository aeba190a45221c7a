"""neo-troops rules beyond the section-22 vectors: the spec's other worked rules and its interpretations, with
scripted dice, and properties of the initiative order."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.content import loader, tables
from engine.core import codec
from engine.core.commands import Rejected
from engine.core.dice import Dice, Faces, seed_from_int
from engine.rules.neo_troops import (care, criticals, damage, loadout, melee, movement, order, panel, pools,
                                     senses, shooting, unit)
from engine.rules.neo_troops.schema import SCHEMA, Weapon

T = tables.load_folder(loader.default_dir(), "neo-troops", SCHEMA)
S = T["settings"]["default"]
W = T["weapons"]
RIFLE = W["plasma_rifle"]


def goon(name: str = "goon", **changes) -> unit.Trooper:
    """The §20.1 goon: Perception 0 (the content's goons carry a sensor visor, Perception 1)."""
    return unit.build(name, "goons", "goon", T, **{"perception": 0, **changes})


def varan(name: str = "varan", **changes) -> unit.Trooper:
    return unit.build(name, "varans", "varan", T, **changes)


def target(name: str, av: int = 4, **changes) -> shooting.Target:
    return shooting.Target(id=name, av=av, **changes)


def run(faces, fn, *args, **kwargs):
    """Call `fn(dice, ...)` with scripted faces, all of which must be used."""
    dice = Dice.scripted(list(faces))
    out = fn(dice, *args, **kwargs)
    assert dice.scripted_left == 0, "every scripted die must be used"
    return out


# -- pools (§1–2) ---------------------------------------------------------------------------------------------


def test_a_pool_roll_shows_every_face_and_the_kept_dice():
    a = run([6, 5, 2, 1], pools.attack, "v", "spray", 2, (("base", 2), ("accuracy", 2)), 4)
    assert a.roll.formula == "spray n=2+2 accuracy=4: 4d6 [6 5 2 1] keep 6,5 vs AV 4: 2 hits"
    assert (a.roll.expr, a.roll.faces, a.roll.total) == ("4d6", (6, 5, 2, 1), 2)
    assert a.pool.discarded == (2, 1)


def test_real_dice_give_a_pool_consecutive_indices_from_its_first():
    dice = Dice(None, script=[3, 3, 3])
    dice.counters["main"] = 7
    a = pools.attack(dice, "v", "spray", 3, (("base", 3),), 4)
    assert a.pool.index == -1 and dice.counters["main"] == 10  # scripted faces have no index, but count


def test_a_tn_above_six_never_succeeds():
    assert not run([6, 6], pools.check, "v", "hopeless", (("base", 2),), 7).success


# -- initiative (§7) ------------------------------------------------------------------------------------------


def test_initiative_ties_go_to_av_then_a_logged_choice_and_the_surprised_go_last_once():
    who = [order.Combatant(id="A", av=4), order.Combatant(id="B", av=5), order.Combatant(id="C", av=4),
           order.Combatant(id="D", av=4, surprised=True)]
    got = run([4, 4, 4, 6, 2], order.roll_initiative, who)
    assert [r.formula for r in got.rolls] == ["initiative 1d6=4", "initiative 1d6=4", "initiative 1d6=4",
                                              "initiative 1d6=6", "tie at 4, AV 4 among A, C: 1d2=2 → C"]
    o = got.order
    assert o.slots == ("B", "C", "A", "D") and o.later == ("D", "B", "C", "A")
    for u in ("B", "C", "A", "D"):
        o = order.done(o, u)
    assert o.cycle == 2 and o.slots == ("D", "B", "C", "A")


def test_a_held_action_is_lost_when_its_slot_comes_round_again():
    o = order.Order(slots=("A", "B", "C"), later=("A", "B", "C"))
    o = order.done(order.done(order.delay(o, "A"), "B"), "C")
    assert o.cycle == 2 and o.up == "A" and o.held == ()
    assert isinstance(order.take_held(o, "A"), Rejected)


def test_only_the_unit_whose_slot_is_up_acts_or_delays():
    o = order.Order(slots=("A", "B"), later=("A", "B"))
    assert order.done(o, "B") == Rejected("not_your_slot", "It is A's slot, not B's")
    assert isinstance(order.delay(o, "B"), Rejected)
    assert isinstance(order.take_held(o, "A"), Rejected)
    o = order.delay(order.done(order.Order(slots=("A", "B", "C"), later=("A", "B", "C")), "A"), "B")
    assert order.take_held(o, "B").code == "no_action_yet"  # it follows a later character's action, not its own


def test_hastening_with_a_held_action_spends_it_and_skips_nothing():
    o = order.delay(order.Order(slots=("A", "B", "C"), later=("A", "B", "C")), "A")
    o = order.hasten(o, "A")
    assert o.held == () and o.skip == ()


def test_a_dead_unit_leaves_the_order_and_the_slot_up_stays_up():
    o = order.done(order.Order(slots=("A", "B", "C"), later=("A", "B", "C")), "A")
    o = order.remove(o, "A")
    assert o.up == "B" and o.slots == ("B", "C")
    assert order.remove(o, "B").up == "C"


OPS = st.lists(st.tuples(st.sampled_from(["done", "delay", "take", "hasten"]), st.integers(0, 5)), max_size=60)


@settings(max_examples=300, deadline=None)
@given(size=st.integers(1, 6), ops=OPS)
def test_every_combatant_acts_once_for_each_of_its_slots(size, ops):
    """Accounting of the order: a unit acts once for every slot of its that passes, except a held action that
    lapsed or is still held, plus the slot it borrowed by hastening (skipped when it comes)."""
    units = tuple("ABCDEF"[:size])
    o = order.Order(slots=units, later=units)
    acted = dict.fromkeys(units, 0)
    passes = dict.fromkeys(units, 0)
    lapsed = dict.fromkeys(units, 0)
    for op, pick in ops:
        before, spent = o, None
        if op == "done":
            acted[o.up] += 1
            passes[o.up] += 1
            o = order.done(o, o.up)
        elif op == "delay":
            passes[o.up] += 1
            before = attrs.evolve(o, held=o.held + (o.up,))  # held from now, even if the cycle ends at once
            o = order.delay(o, o.up)
        elif op == "take" and o.held:
            spent = o.held[pick % len(o.held)]
            got = order.take_held(o, spent)
            if o.last is None:  # nobody has acted since the delay: there is no action to follow yet
                assert got.code == "no_action_yet"
                continue
            acted[spent] += 1
            o = got
        elif op == "hasten":
            spent = units[pick % size]
            got = order.hasten(o, spent)
            if spent in o.skip or spent == o.up:  # not an action it has (the unit up is the one moving)
                assert got.code == ("acting" if spent == o.up else "already_hastened")
                continue
            acted[spent] += 1
            o = got
        passes.update({u: passes[u] + before.skip.count(u) - o.skip.count(u) for u in before.skip if u != spent})
        lapsed.update({u: lapsed[u] + 1 for u in before.held if u not in o.held and u != spent})
        for u in units:
            owed = o.skip.count(u) - o.held.count(u)
            assert acted[u] == passes[u] - lapsed[u] + owed, (u, acted, passes, lapsed, o)
        assert sorted(o.slots) == sorted(units)
        assert all(o.slots.index(u) < o.at for u in o.held)  # a held action never outlives its slot


def test_a_delayed_unit_that_never_takes_its_action_is_the_only_one_that_misses_the_cycle():
    o = order.Order(slots=("A", "B", "C"), later=("A", "B", "C"))
    o = order.delay(o, "A")
    o = order.done(order.done(o, "B"), "C")
    assert o.cycle == 2 and o.slots == ("A", "B", "C")  # A keeps its old slot and acts normally now


# -- movement and actions (§6, §8) ----------------------------------------------------------------------------


def test_run_speed_follows_the_load():
    assert movement.speeds(varan(load_kg=10.0), S) == (10, 30)  # ≤ 25 % and a 4+ battlesuit
    assert movement.speeds(varan(load_kg=10.0, save=3), S) == (10, 20)  # 3+ armour: no light-load bonus
    assert movement.speeds(varan(load_kg=45.0), S) == (10, 15)
    assert movement.speeds(varan(load_kg=60.0), S) == (5, 10)
    assert movement.speeds(varan(limbs_lost=("left_leg",)), S) == (5, 10)
    assert movement.speeds(varan(severe_wounds=1, limbs_lost=("left_leg",)), S) == (2, 5)


def test_each_action_allows_its_own_attacks():
    assert movement.allows("move", "snap", S) is None and movement.allows("run", "melee", S) is None
    assert isinstance(movement.allows("run", "snap", S), Rejected)
    assert isinstance(movement.allows("move", "sustained", S), Rejected)
    assert movement.allows("stationary", "sustained", S) is None
    assert movement.allows("run", "melee", attrs.evolve(S, run_melee=False)) == Rejected(
        "not_in_action", "A run action does not allow melee")
    assert movement.stationary_for_snap("move", 0) and not movement.stationary_for_snap("move", 2)


def test_a_stationary_action_has_no_path_and_the_out_of_action_do_not_move():
    assert isinstance(movement.walk(Dice.scripted([]), varan(), "stationary", [(0, 0), (1, 0)], T), Rejected)
    assert movement.walk(Dice.scripted([]), varan(status="incapacitated"), "move", [(0, 0)], T).code == \
        "out_of_action"


def test_a_passed_agility_test_lets_the_move_go_on():
    walked = run([4, 1, 1], movement.walk, varan(), "move", [(0, 0), (1, 0), (2, 0)], T,
                 obstacles=frozenset({(1, 0)}))
    assert walked.path == ((0, 0), (1, 0), (2, 0)) and not walked.stopped
    assert walked.rolls[0].formula == "agility n=3: 3d6 [4 1 1] best 4 vs TN 4 ✓"
    hard = run([4, 1, 1], movement.walk, varan(), "move", [(0, 0), (1, 0)], T, obstacles=frozenset({(1, 0)}),
               hard=frozenset({(1, 0)}))
    assert hard.stopped and hard.rolls[0].formula.endswith("vs TN 5 ✗")


# -- shooting (§9–14, N-3.5) ----------------------------------------------------------------------------------


def test_spray_takes_the_worst_case_modifiers():
    far = [target("a", stationary=True, pos=(0, 0)), target("b", cells=30, pos=(1, 0))]
    mods = dict(shooting.shot_mods(goon(), RIFLE, far, stationary=True))
    assert mods == {"long range": -1}  # no +1: one target moved; −1: one is at long range
    close = [target("a", adjacent=True, fighter=2), target("b", adjacent=True, fighter=5, surprised=True)]
    assert dict(shooting.shot_mods(goon(), RIFLE, close, False)) == {"dodge": -1}


def test_spray_refuses_snap_only_weapons_too_many_targets_and_a_wide_spread():
    assert run([], shooting.spray, goon(), W["pistol"], [target("a")], False, S).code == "snap_only"
    five = [target(f"t{i}", pos=(i, 0)) for i in range(5)]
    assert run([], shooting.spray, goon(), RIFLE, five, False, S).code == "targets"
    apart = [target("a", pos=(0, 0)), target("b", pos=(3, 0))]
    assert run([], shooting.spray, goon(), RIFLE, apart, False, S).code == "spread"


def test_leftover_spray_dice_hit_the_first_declared_target_they_can():
    hits, given = shooting.assign([6, 6, 5, 2], [target("A", 5), target("B", 6)])
    assert given == {"B": 6, "A": 5} and hits == {"A": 2, "B": 1}


def test_a_weapon_with_several_hits_multiplies_them():
    double = Weapon(name="Shredder", rof=2, hits=2)
    fire = run([5], shooting.snap, goon(), double, target("t"), False)
    assert fire.hits == {"t": 2}


def test_sustained_fire_at_zero_dice_takes_one_target_with_the_lower_of_two():
    weak = goon(severe_wounds=4)
    goons = [target("a", pos=(5, 5)), target("b", pos=(5, 6))]
    fire, _ = run([6, 4], shooting.sustained, weak, W["machine_pistol"], (5, 5), (0, 0), goons, False, S)
    assert fire.pool.n == -1 and fire.given == {"a": 4} and fire.hits == {"a": 1}


def test_sustained_fire_refuses_snap_only_weapons_and_targets_outside_the_area():
    assert run([], shooting.sustained, goon(), W["pistol"], (5, 5), (0, 0), [], False, S).code == "snap_only"
    assert run([], shooting.sustained, goon(), RIFLE, (5, 5), (0, 0), [target("a", pos=(9, 9))], False, S).code \
        == "outside"


def test_covering_fire_attacks_only_enemies_unless_friendly_fire_is_set():
    _, area = run([], shooting.sustained, varan(), RIFLE, (5, 5), (0, 0), [], True, S)
    assert shooting.attacked_by(area, "goons", S) and not shooting.attacked_by(area, "varans", S)
    assert shooting.attacked_by(area, "varans", attrs.evolve(S, friendly_fire=True))


def test_two_weapons_must_be_dual_and_not_big():
    assert shooting.two_weapons(W["machine_pistol"], RIFLE).code == "not_dual"
    assert shooting.two_weapons(W["machine_pistol"], W["pistol"]) == (4, 0, 4)  # ROF_lo 1: no extra die
    assert run([], shooting.spray, goon(), W["machine_pistol"], [target("t")], False, S, second=W["pistol"]).code \
        == "snap_only"  # a pistol cannot spray, not even as the second weapon


def test_an_explosion_rolls_one_die_per_creature_and_two_lower_past_long_range():
    near = run([4, 3], shooting.explosion, "g", [target("a", 4), target("b", 4)], False)
    assert [a.hits for a in near] == [1, 0]
    far = run([6, 3], shooting.explosion, "g", [target("a", 4)], True)
    assert far[0].pool.rule == "lower" and far[0].hits == 0
    assert len(shooting.blast_cells((3, 3), W["grenade"])) == 9
    assert shooting.throw_reach(W["grenade"], S) == 16


# -- melee (§15) ----------------------------------------------------------------------------------------------


def test_surprise_gives_one_superior_die_and_the_defender_no_defence():
    _, mods = melee.attack_mods(goon("a"), None, goon("d", fighter=3), W, S, surprise=True)
    assert dict(mods) == {"base": 1, "superior": 1}


def test_superior_position_is_one_die_at_most():
    weak = goon("d", severe_wounds=1)
    _, mods = melee.attack_mods(goon("a"), W["vibro_spear"], weak, W, S)  # longer reach and a negative defence
    assert dict(mods) == {"base": 1, "superior": 1}


def test_dice_shared_among_targets_before_the_throw():
    a = goon("a", fighter=2, attacks=2)
    shares = [melee.Share(defender=goon("x", fighter=1), attacks=1, skill=2),
              melee.Share(defender=goon("y"), attacks=1, skill=0)]
    got = run([5, 2, 4], melee.strike_many, a, None, shares, W, S)
    assert [x.pool.n for x in got] == [2, 1] and [x.hits for x in got] == [1, 1]
    too_many = [melee.Share(defender=goon("x"), attacks=2, skill=3)]
    assert run([], melee.strike_many, a, None, too_many, W, S).code == "shares"


def test_a_sweep_against_similar_unskilled_targets_throws_once():
    a = goon("a", fighter=1, attacks=3)
    roll, hits = run([6, 5, 1, 4], melee.sweep, a, None, [goon("x"), goon("y")], W, S)
    assert hits == {"x": 2, "y": 1} and roll.formula.endswith("keep 6,5,4 vs x AV 4: 2 hits, y AV 4: 1 hit")
    assert run([], melee.sweep, a, None, [goon("x", fighter=1), goon("y")], W, S).code == "not_similar"


# -- damage, criticals, care (§16–19) -------------------------------------------------------------------------


def test_a_varan_at_zero_is_incapacitated_still_rolls_its_critical_and_a_further_hit_kills():
    v = varan(hp=1)
    h = run([1, 1, 2], damage.hit, v, 0, T)  # save 1, external 1, critical 2 (mapping)
    assert h.target.status == "incapacitated" and h.target.mapping == "damaged"
    h = run([1, 1], damage.hit, h.target, 0, T)  # save 1, external 1: no critical for the dead
    assert h.target.status == "dead" and "killed" in h.effects


def test_a_generic_six_takes_the_target_out():
    h = run([6], criticals.critical, goon(hp=3), T)
    assert h.target.status == "dead"


def test_a_damaged_cloak_shows_the_varan_and_a_second_hit_destroys_it():
    v = run([1], criticals.critical, varan(), T).target
    assert v.cloak == "damaged" and not v.cloaked and senses.tn_for(v, "stationary", False, False, T) == 0
    assert run([], senses.spot, goon(), v, "stationary", (1, 1), T) == senses.Sighting(True, (1, 1))
    assert run([1], criticals.critical, v, T).target.cloak == "destroyed"


def test_the_suit_branch_worsens_the_save_then_destroys_the_armour():
    v = run([3, 5], criticals.critical, varan(), T).target
    assert v.save_now == 5
    v = run([3, 6], criticals.critical, v, T).target
    assert v.save_now is None and damage.save_needed(v.save_now, 0) == ("none", None)


def test_the_suit_branch_damages_an_accessory_or_destroys_a_weapon():
    v = run([3, 1], criticals.critical, varan(), T).target  # one accessory: no random pick
    assert v.part("grapple").state == "damaged"
    crit = run([3, 3, 1], criticals.critical, varan(), T)  # 1d3 among rifle, pistol, plasma cell
    assert crit.target.part("plasma_rifle").state == "destroyed" and crit.target.held == ()


def test_a_massive_wound_can_incapacitate_or_sever_a_limb():
    crit = run([6, 4], criticals.critical, varan(), T)
    assert crit.target.status == "incapacitated" and crit.target.hp == 0 and crit.target.bleeding == 0
    crit = run([6, 1, 5, 2], criticals.critical, varan(), T)  # severe, severed on 5, d4 = 2: right arm
    v = crit.target
    assert v.limbs_lost == ("right_arm",) and v.held == () and v.severe_wounds == 1
    assert crit.effects == ("severe wound, bleeding, right_arm lost, plasma_rifle dropped",)
    leg = run([6, 1, 6, 3], criticals.critical, varan(), T).target
    assert movement.speeds(leg, S) == (2, 5) and dict(movement.agility_mods(leg, W, S))["leg lost"] == -1


def test_several_hits_are_saved_one_by_one():
    got = run([6, 2], damage.hits, goon(save=4, hp=1), 2, 0, T)
    assert [h.saved for h in got] == [True, False] and got[-1].target.status == "dead"


def test_first_aid_needs_an_adjacent_ally_or_the_conscious_patient():
    w = varan(severe_wounds=1, bleeding=0)
    assert care.first_aid(None, varan("ally"), w, False, S).code == "not_adjacent"
    assert care.first_aid(None, goon("enemy"), w, True, S).code == "not_adjacent"
    down = attrs.evolve(w, status="incapacitated")
    assert care.first_aid(None, down, down, False, S).code == "cannot_help"
    assert care.first_aid(None, varan("ally"), varan(), True, S).code == "not_bleeding"
    aid, w = care.first_aid(None, w, w, False, S)
    assert aid.done == 1


def test_repairs_take_their_rolled_actions_and_destroyed_systems_wait():
    v = varan(cloak="damaged")
    repair, _ = run([2], care.start_repair, v, "cloak", S)
    assert repair.needed == 20
    for _ in range(19):
        repair, v = care.repair_action(repair, v)
    assert v.cloak == "damaged"
    repair, v = care.repair_action(repair, v)
    assert repair is None and v.cloak == "working"
    assert run([], care.start_repair, varan(cloak="destroyed"), "cloak", S).code == "not_damaged"
    assert run([], care.start_repair, varan(head_hits=2), "head", S).code == "not_damaged"


def test_regeneration_needs_stopped_bleeding_and_a_hundred_quiet_turns():
    v, rested = varan(hp=0, status="incapacitated"), 0
    for _ in range(99):
        v, rested = care.rest(v, rested, S)
    assert v.status == "incapacitated" and rested == 99
    v, rested = care.rest(v, rested, S)
    assert (v.hp, v.status, rested) == (1, "active", 0)
    assert care.rest(varan(hp=1, bleeding=2), 50, S)[1] == 0


def test_after_the_mission_everything_is_repaired_and_regenerated():
    hurt = varan(hp=1, severe_wounds=1, head_hits=2, cloak="destroyed", limbs_lost=("left_leg",), bleeding=None)
    assert care.after_mission(hurt) == varan()


# -- senses (§4) ----------------------------------------------------------------------------------------------


def test_an_observer_that_ran_tests_at_six_and_a_damaged_head_costs_dice():
    assert senses.tn_for(varan(), "attacked", True, False, T) == 6
    assert dict(senses.perception_mods(goon(perception=2, head_hits=1))) == {"base": 1, "head damage": -1}


# -- the record ---------------------------------------------------------------------------------------------


def test_a_trooper_goes_through_the_log_codec_as_a_unit_record():
    v = varan(bleeding=3, parts=varan().parts[:1], limbs_lost=("left_arm",))
    data = json.loads(json.dumps(codec.dump_record(v)))
    assert data["kind"] == "neo-troops.trooper" and codec.load_record(data) == v


def test_awareness_lasts_until_the_observer_acts_or_the_target_leaves_and_a_cell_until_it_moves():
    v, g = varan(), goon("g")
    aw = senses.noted(senses.Awareness(), g, v.id, run([5], senses.spot, g, v, "moved", (4, 4), T))
    assert aw.seen_by("g", "varan")
    assert not senses.observer_acted(aw, "g").seen_by("g", "varan")
    assert not senses.out_of_sight(aw, "g", "varan").seen_by("g", "varan")
    aw = senses.noted(senses.Awareness(), g, v.id, run([2], senses.spot, g, v, "attacked", (4, 4), T))
    assert aw.known_cell("goons", "varan") == (4, 4) and not aw.seen_by("g", "varan")
    assert senses.target_moved(aw, "varan").known_cell("goons", "varan") is None


def test_the_kernel_turn_names_the_slot_up_and_the_sides_held_units():
    sides = {"A": "varans", "B": "goons", "C": "varans", "D": "varans"}
    o = order.Order(slots=("A", "B", "C", "D"), later=("A", "B", "C", "D"))
    assert order.turn_of(o, sides) == order.Turn(side="varans", units=("A",), label="Initiative 1/4: A")
    o = order.delay(o, "A")
    assert order.turn_of(o, sides).units == ("B",)  # nobody has acted since the delay; A is the other side's
    o = order.done(o, "B")
    t = order.turn_of(o, sides)
    assert (t.side, t.units, t.label) == ("varans", ("C", "A"), "Initiative 3/4: C (holding: A)")
    assert order.turn_of(order.Order(slots=(), later=()), sides).side == ""


def test_a_weapon_fires_from_the_hand_with_its_shots_and_loads_from_an_ammunition_load():
    v = varan()
    assert loadout.shots_left(v, "plasma_rifle") == RIFLE.shots and loadout.ready(v, "plasma_rifle", W, 4) is None
    assert loadout.ready(v, "pistol", W, 1).code == "not_held"
    empty = loadout.spend(v, "plasma_rifle", RIFLE.shots - 3)
    assert loadout.ready(empty, "plasma_rifle", W, 4) == Rejected("no_ammo", "The Plasma rifle needs 4 shots and has 3")
    full = loadout.load(empty, "plasma_rifle", W)
    assert loadout.shots_left(full, "plasma_rifle") == RIFLE.shots and full.part("plasma_cell") is None
    assert loadout.load(full, "plasma_rifle", W).code == "no_load"
    broken = attrs.evolve(v, parts=tuple(attrs.evolve(p, state="destroyed") for p in v.parts))
    assert loadout.ready(broken, "plasma_rifle", W, 1).code == "destroyed"
    grenadier = unit.build("g", "goons", "goon", T, held=("grenade",), shots=(("grenade", 0),))
    assert loadout.load(grenadier, "grenade", W).code == "cannot_load"


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["varan", "goon", "brute"]), count=st.integers(1, 12),
       save_mod=st.integers(-3, 2))
def test_hp_saves_and_parts_stay_within_their_bounds(seed, kind, count, save_mod):
    dice = Dice(Faces(seed_from_int(seed)))
    before = unit.build("x", "a", kind, T)
    for h in damage.hits(dice, before, count, save_mod, T):
        t = h.target
        assert 0 <= t.hp <= t.hp_max
        assert t.status == "active" or t.hp == 0
        assert t.status != "incapacitated" or t.varan
        assert before.status != "dead" or h.rolls == ()  # the dead roll nothing more
        assert t.save_now is None or 2 <= t.save_now <= 7
        assert set(t.held) <= {p.id for p in t.parts if p.kind == "weapon" and p.state != "destroyed"}
        assert t.bleeding is None or (t.varan and t.bleeding >= 0)
        assert all(1 <= f <= int(r.expr.split("d")[1]) for r in h.rolls for f in r.faces)
        before = t


def test_an_explosive_lands_in_sight_within_twice_its_long_range():
    grenade = W["grenade"]
    assert shooting.throw_at(grenade, 8, True, S) is False and shooting.throw_at(grenade, 9, True, S) is True
    assert shooting.throw_at(grenade, 17, True, S).code == "too_far"
    assert shooting.throw_at(grenade, 3, False, S).code == "not_in_sight"


def test_covering_fire_stops_when_the_firer_is_incapacitated():
    v = varan()
    _, area = run([], shooting.sustained, v, RIFLE, (5, 5), (0, 0), [], True, S)
    assert shooting.area_live(area, v) and not shooting.area_live(area, attrs.evolve(v, status="incapacitated"))


def test_a_spray_then_its_saves_and_criticals_in_order():
    targets = [target("g1", 4, pos=(5, 0)), target("v", 5, pos=(6, 0))]
    troopers = {"g1": goon("g1"), "v": varan("v")}
    fire = run([6, 5, 1, 1], shooting.spray, goon(accuracy=0), RIFLE, targets, False, S)
    assert fire.given == {"v": 5, "g1": 6} and fire.hits == {"g1": 1, "v": 1}
    # the goon has no save and dies; the varan needs 4 - (-1) = 5: rolls 4, then external 2, critical 4
    after, done = run([4, 2, 4], damage.apply, fire.hits, troopers, RIFLE.save_mod, T)
    assert after["g1"].status == "dead" and after["v"].hp == 1
    assert [r.formula for h in done for r in h.rolls] == [
        "save 4+ needs 5: 1d6=4 ✗", "external 1d6=2>=6 ✗", "critical varan 1d6=4 → extra_damage"]


def test_the_unit_panel_shows_systems_and_criticals_taken():
    hurt = varan(hp=2, cloak="damaged", armour_hits=1, severe_wounds=1, bleeding=4, limbs_lost=("left_arm",))
    got = panel.sheet(hurt, S)
    rows = {r.label: r for r in got.rows}
    assert rows["HP"].text == " 2/3 " and rows["Save"].text == " 5+ " and rows["AV"].text == " 5 "
    assert rows["Systems"].text == " cloak damaged · mapping · head " and rows["Systems"].alert
    assert rows["Speed"].text == " move 5 m · run 10 m "
    assert got.effects == ("severe wound ×1", "bleeding 4/10", "armour damaged", "left_arm lost")
    assert "Systems" not in {r.label for r in panel.sheet(goon(), S).rows}


def test_the_targeting_panel_gives_the_exact_hits_and_unsaved_hits():
    rows, p_any, mean = panel.odds_rows(1, (("base", 1), ("accuracy", 1), ("still", 1)), 4, 4, 0)
    assert [r.text for r in rows] == [" n=1+1 accuracy+1 still=3 vs AV 4 ", " 0: 12.5% · 1: 87.5% ",
                                      " 0: 56.2% · 1: 43.8% "]
    assert p_any == pytest.approx(7 / 16) and mean == pytest.approx(7 / 16)


def test_an_area_attacks_each_entry_and_those_that_stay_but_not_those_that_leave():
    _, area = run([], shooting.sustained, varan(), RIFLE, (5, 5), (5, 0), [], True, S)
    walk_in = [(5, 9), (5, 8), (5, 7), (5, 6)]
    assert shooting.crossings(area, "goons", walk_in, False, S) == [(3, 1)]
    assert shooting.crossings(area, "goons", walk_in, True, S) == [(3, 2)]  # ran in, ending closer to the firer
    assert shooting.crossings(area, "goons", [(5, 5)], False, S) == [(0, 1)]  # stayed inside
    assert shooting.crossings(area, "goons", [(5, 5), (5, 6), (5, 7)], False, S) == []  # walked out
    through = [(3, 5), (4, 5), (5, 5), (6, 5), (7, 5), (7, 4), (6, 4)]
    assert shooting.crossings(area, "goons", through, False, S) == [(1, 1), (6, 1)]  # in, out, in again
    assert shooting.crossings(area, "varans", walk_in, False, S) == []  # only enemies


def test_the_gms_calls_are_settings():
    loaded = varan(parts=varan().parts + (unit.Part(id="heavy_plasma", kind="weapon"),))
    assert dict(movement.agility_mods(loaded, W, S))["BIG weapon"] == -1
    assert "BIG weapon" not in dict(movement.agility_mods(loaded, W, attrs.evolve(S, big_penalty=0)))
    never = dict(T, settings={"default": attrs.evolve(S, sever_on=7)})
    assert run([6, 1, 6], criticals.critical, varan(), never).target.limbs_lost == ()
    quick = attrs.evolve(S, bleed_turns=2)
    assert care.own_turn_ends(care.own_turn_ends(varan(bleeding=0), quick), quick).status == "dead"
    assert movement.speeds(varan(load_kg=10.0), attrs.evolve(S, light_run=2.0)) == (10, 40)


def test_a_damaged_mapping_system_cuts_a_varan_off_its_sides_sightings():
    a, b, c = varan("a"), varan("b", mapping="damaged"), varan("c")
    known = senses.pooled([a, b, c], {"a": frozenset({"g1"}), "b": frozenset({"g2"}), "c": frozenset()})
    assert known == {"a": frozenset({"g1"}), "b": frozenset({"g2"}), "c": frozenset({"g1"})}
    assert senses.ally_shown(a, False) and not senses.ally_shown(b, False) and senses.ally_shown(b, True)
    goons = senses.pooled([goon("x"), goon("y")], {"x": frozenset({"v"})})
    assert goons == {"x": frozenset({"v"}), "y": frozenset({"v"})}  # no mapping system: the side shares
