"""xxxzone abilities in play, with scripted dice and every number: Chi Breath's DR in the targeting panel's odds
(the shot's own set-up, `shot.prepare`), Inspire Allies and Calming Aura."""

from __future__ import annotations

import copy
from collections import Counter

import attrs
import pytest

from engine.core import ruleset
from engine.core.commands import Act, Move, Shoot
from engine.core.dice import Dice
from engine.core.reducer import fold
from engine.rules.xxxzone import shooting
from engine.rules.xxxzone.battle import Aim
from tests.test_xxxzone_field import record, stage

RIFLE = "zhetan_plasma_rifle:shoot"


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def learn(state, uid, *abilities):
    u = state.units[uid]
    op = attrs.evolve(u.record.op, abilities=(*u.record.op.abilities, *abilities))
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=attrs.evolve(u.record, op=op))})


def test_chi_breaths_dr_is_in_the_preview_odds_exactly_as_the_shot_rolls_them(rs):
    state = learn(stage(rs, {"vadin": ("vadin", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (2, 8))}),
                  "vadin", "chi_breath")
    plain = rs.preview_shot(state, "zhetan", "vadin", RIFLE)
    # AdjAcc 100 − Agi 5: faces 1-5 miss (≤ 100); DR 45 takes 6-50 to glancing; DT 40 + End 11 = 51 is past at 51
    assert [r.text for r in plain.lines[:2]] == [" miss 5.0% · glancing 45.0%", " minor 50.0%"]
    assert plain.p_hit == 0.5 and not any(r.label == "Ability DR" for r in plain.lines)
    now = fold(state, rs._command(state, state.units["vadin"], Act(unit="vadin", action="chi_breath"), None))
    now = attrs.evolve(now, side="aliens")
    iron = rs.preview_shot(now, "zhetan", "vadin", RIFLE)
    # + chi breath 20 DR: glancing up to face 70, a wound from 71
    assert [r.text for r in iron.lines[:2]] == [" miss 5.0% · glancing 65.0%", " minor 30.0%"]
    assert iron.p_hit == pytest.approx(0.3) and iron.p_headshot == 0.0
    assert next(r.text for r in iron.lines if r.label == "Ability DR") == " chi breath +20"
    rolled = Counter(rs._command(now, now.units["zhetan"], Shoot(unit="zhetan", target="vadin", mode=RIFLE),
                                 Dice.scripted([face] + [50] * 20))[0].outcome for face in range(1, 101))
    assert rolled == {"miss": 5, "glancing": 65, "minor": 30}
    face_70 = rs._command(now, now.units["zhetan"], Shoot(unit="zhetan", target="vadin", mode=RIFLE),
                          Dice.scripted([70] + [50] * 20))[0].rolls[0]
    assert face_70.formula == "d100 70 + AdjAcc 100 − Agi 5 = 165, − DR 45 + chi breath 20 = 100 ≤ 100: glancing hit"


# -- Inspire Allies (13) ------------------------------------------------------------------------------------


def inspire_field(rs, *failed, trevor_at=(5, 2), **condition):
    """Bruce (Will 42, 9 AP) with Inspire Allies; Trevor (Will 25, 14 AP) D 3 away with these failed tests."""
    state = learn(stage(rs, {"bruce": ("bruce", "xcom", (2, 2)), "trevor": ("trevor", "xcom", trevor_at),
                             "zhetan": ("zhetan", "aliens", (2, 12))}), "bruce", "inspire_allies")
    t = state.units["trevor"]
    cond = attrs.evolve(t.record.condition, will_failed=tuple(failed), **condition)
    c = attrs.evolve(t.record, condition=cond, inspirable=True)
    return attrs.evolve(state, units={**state.units, "trevor": attrs.evolve(t, record=c)})


def with_ap(state, uid, ap):
    u = state.units[uid]
    c = attrs.evolve(u.record, turn=attrs.evolve(u.record.turn, ap=ap))
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=c)})


def inspire(rs, state, faces):
    return rs.decide(state, Act(unit="bruce", action="inspire_allies"), Dice.scripted(faces))


def test_a_stun_from_the_enemys_turn_is_lifted_by_a_passed_re_roll_and_its_lost_ap_come_back(rs):
    # the Severe wound's Will test failed in the aliens' turn (penalty 10 then); Trevor's turn began with 0 AP
    state = with_ap(inspire_field(rs, ("severe", 10, True), stunned=0), "trevor", 0)
    events = inspire(rs, state, [86])
    head = events[0]
    assert head.rolls[0].formula == "d100 86 + Will 25 − wounds 10 = 101 > 100: pass"
    assert head.text == "Bruce Mitchel inspires 1 ally: Trevor McDougal is no longer Stunned (+14 AP)"
    bruce, trevor = record(events, "bruce"), record(events, "trevor")
    assert bruce.turn.ap == 9 - 4 and trevor.turn.ap == 14 and trevor.condition.will_failed == ()


def test_a_stun_still_to_come_is_cancelled_and_a_failed_re_roll_changes_nothing_but_the_chance(rs):
    state = inspire_field(rs, ("severe", 0, False), stunned=1)
    passed = record(inspire(rs, state, [76]), "trevor")
    assert passed.condition.stunned == 0 and passed.turn.ap == 14
    failed = inspire(rs, state, [75])
    assert failed[0].rolls[0].formula == "d100 75 + Will 25 = 100 ≤ 100: fail"
    assert failed[0].text == "Bruce Mitchel inspires 1 ally: Trevor McDougal fails again"
    again = record(failed, "trevor")
    assert again.condition.stunned == 1 and again.condition.will_failed == ()  # one re-roll per failed test


def test_an_ally_knocked_out_wakes_and_gets_its_turn(rs):
    state = with_ap(inspire_field(rs, ("minor", 0, True), ("unconscious", 0, True), unconscious=True), "trevor", 0)
    events = inspire(rs, state, [90])
    trevor = record(events, "trevor")
    # the worst first: the Mortal wound's Will test; the Minor one's half AP loss still stands (14 → 7)
    assert not trevor.condition.unconscious and trevor.condition.will_failed == (("minor", 0, True),)
    assert trevor.turn.ap == 7 and "wakes (+7 AP)" in events[0].text


def test_a_minor_wounds_ap_loss_still_to_come_is_lifted(rs):
    state = inspire_field(rs, ("minor", 0, False), minor_fails=1, ap_next="half")
    trevor = record(inspire(rs, state, [80]), "trevor")
    assert (trevor.condition.minor_fails, trevor.condition.ap_next) == (0, "full")


def test_inspire_allies_is_refused_without_the_ability_without_a_failed_test_or_beyond_4_squares(rs):
    state = inspire_field(rs)
    got = inspire(rs, state, [])
    assert (got.code, got.reason) == ("nobody_to_inspire", "No ally within 4 squares failed a Will test since its "
                                                           "last turn")
    far = inspire_field(rs, ("severe", 0, False), trevor_at=(7, 2), stunned=1)  # D 5
    assert inspire(rs, far, []).code == "nobody_to_inspire" and rs.options(far, far.units["bruce"]) == [
        o for o in rs.options(far, far.units["bruce"]) if "Inspire" not in o.label]
    plain = stage(rs, {"bruce": ("bruce", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (2, 12))})
    assert rs.decide(plain, Act(unit="bruce", action="inspire_allies"), None).code == "needs_ability"


def test_the_menu_offers_it_and_the_ai_uses_it_first(rs):
    state = inspire_field(rs, ("severe", 0, False), stunned=1)
    (option,) = [o for o in rs.options(state, state.units["bruce"]) if o.command.action == "inspire_allies"]
    assert option.label == "Inspire Allies (4 AP): Trevor McDougal re-roll a failed Will test"
    assert rs.ai_special(state, state.units["bruce"], [], True) == Act(unit="bruce", action="inspire_allies")


def test_failed_will_tests_are_kept_only_on_a_side_that_can_inspire_and_only_until_its_turn_ends(rs):
    from engine.rules.xxxzone import status
    from engine.rules.xxxzone.wounds import Condition, vitals_of, wound

    book = rs.book
    trevor = stage(rs, {"trevor": ("trevor", "xcom", (5, 2))}).units["trevor"].record
    v = vitals_of(trevor.op, book)
    plain = wound(Dice.scripted([10]), book, v, Condition(), "severe")
    assert plain.condition.stunned == 1 and plain.condition.will_failed == ()
    kept = wound(Dice.scripted([10]), book, attrs.evolve(v, notes_fails=True), Condition(), "severe").condition
    assert kept.will_failed == (("severe", 0, False),)
    begun, ap = status.start_turn(kept, 14)
    assert ap == 0 and begun.will_failed == (("severe", 0, True),)
    ended = status.end_turn(Dice.scripted([]), book, v, begun).condition
    assert ended.will_failed == ()


# -- Melee Charge and Improved Charge (13) ------------------------------------------------------------------


def charger(rs, *abilities):
    state = learn(stage(rs, {"vadin": ("vadin", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (11, 2))}),
                  "vadin", *abilities)
    return state


def walk(rs, state, squares):
    path = tuple((2 + i, 2) for i in range(1, squares + 1))
    return fold(state, rs._command(state, state.units["vadin"], Move(unit="vadin", path=path), Dice.scripted([50] * 20)))


def test_melee_charge_makes_the_swing_after_a_run_of_twice_its_ap_free_once_a_turn(rs):
    state = charger(rs, "melee_charge")
    near = attrs.evolve(state, units={**state.units, "zhetan": attrs.evolve(state.units["zhetan"], pos=(7, 2),
                        record=attrs.evolve(state.units["zhetan"].record, at=(7, 2)))})
    ran = walk(rs, near, 4)  # 4 AP moving quickly >= 2 × the Iron Fist's 2 AP
    v = ran.units["vadin"]
    assert v.record.turn.ap == 9 - 4
    assert [m.name for m in rs.shot_modes(ran, v) if "Iron" in m.name] == ["Iron Fist swing (0 AP)"]
    events = rs._command(ran, v, Shoot(unit="vadin", target="zhetan", mode="iron_fist:swing"), Dice.scripted([50] * 20))
    after = record(events, "vadin")
    assert after.turn.ap == 5 and after.turn.charged
    again = fold(ran, events)
    assert [m.name for m in rs.shot_modes(again, again.units["vadin"]) if "Iron" in m.name] == ["Iron Fist swing (2 AP)"]
    short = walk(rs, near, 3)  # 3 AP < 4: no charge
    assert [m.name for m in rs.shot_modes(short, short.units["vadin"]) if "Iron" in m.name] == ["Iron Fist swing (2 AP)"]


def test_improved_charge_takes_10_from_the_dt_when_the_whole_turn_went_into_the_run(rs):
    from engine.rules.xxxzone import shooting

    state = charger(rs, "melee_charge", "improved_charge")
    ran = walk(rs, state, 8)  # 8 of 9 AP: a charge, not a full one
    full = walk(rs, state, 8)
    v = full.units["vadin"]
    full = attrs.evolve(full, units={**full.units, "vadin": attrs.evolve(v, record=attrs.evolve(
        v.record, turn=attrs.evolve(v.record.turn, moved=9)))})  # staged: all 9 AP into the run
    dts = []
    for s in (ran, full):
        shot = shooting.shot_for(rs, s, s.units["vadin"], s.units["zhetan"], "iron_fist", "swing")
        attacks, _ = shooting.plan(rs.book, s.units["vadin"].record, s.units["zhetan"].record, shot, ())
        dts.append((shot.full_charge, attacks[0].dt))
    assert dts[0][0] is False and dts[1] == (True, dts[0][1] - 10)


def test_teamwork_gives_an_ally_with_it_10_at_the_target_a_teamwork_ally_attacked_this_turn(rs):
    from engine.rules.xxxzone import shooting

    state = learn(learn(stage(rs, {"johnny": ("johnny", "xcom", (2, 2)), "cane": ("cane", "xcom", (3, 2)),
                                   "zhetan": ("zhetan", "aliens", (2, 9))}), "johnny", "teamwork"), "cane", "teamwork")

    def cane_acc(s):
        shot = shooting.shot_for(rs, s, s.units["cane"], s.units["zhetan"], *shooting.mode_of(
            rs.book, s.units["cane"].record, "shoot"))
        return shot.teamwork, shooting.plan(rs.book, s.units["cane"].record, s.units["zhetan"].record, shot, ())[0][0]

    alone, before = cane_acc(state)
    shot = rs._command(state, state.units["johnny"], Shoot(unit="johnny", target="zhetan", mode="shoot"),
                       Dice.scripted([1] + [50] * 20))
    assert record(shot, "johnny").turn.teamwork_at == "zhetan"
    together, after = cane_acc(fold(state, shot))
    assert (alone, together) == (False, True) and after.adj_acc == before.adj_acc + 10


def test_the_ai_hunkers_down_when_outgunned_next_to_cover_with_no_shot(rs):
    state = stage(rs, {"zhetan": ("zhetan", "aliens", (5, 5)), "johnny": ("johnny", "xcom", (5, 12)),
                       "cane": ("cane", "xcom", (7, 12))}, tiles={(5, 6): "crate"}, side="aliens")
    z = state.units["zhetan"]
    walked = attrs.evolve(state, units={**state.units, "zhetan": attrs.evolve(z, record=attrs.evolve(
        z.record, turn=attrs.evolve(z.record.turn, walked=True)))})
    seen = [walked.units["johnny"], walked.units["cane"]]
    assert rs.ai_special(walked, walked.units["zhetan"], seen, False) == Act(unit="zhetan", action="hunker")
    assert rs.ai_special(walked, walked.units["zhetan"], seen[:1], False) != Act(unit="zhetan", action="hunker")
    bare = stage(rs, {"zhetan": ("zhetan", "aliens", (5, 5)), "johnny": ("johnny", "xcom", (5, 12)),
                      "cane": ("cane", "xcom", (7, 12))}, side="aliens")  # no cover next to it
    z = bare.units["zhetan"]
    bare = attrs.evolve(bare, units={**bare.units, "zhetan": attrs.evolve(z, record=attrs.evolve(
        z.record, turn=attrs.evolve(z.record.turn, walked=True)))})
    assert rs.ai_special(bare, bare.units["zhetan"], seen, False).action == "overwatch"  # nothing to hunker behind


def test_sams_disabling_shot_is_a_firing_mode_capped_at_minor_in_the_odds_and_the_shot(rs):
    state = stage(rs, {"sam": ("sam", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (2, 14))}, size=18)
    sam = state.units["sam"]
    assert [(m.id, m.name) for m in rs.shot_modes(state, sam)] == [
        ("shoot", "7mm Anti-Infantry Rifle shoot (5 AP)"),
        ("shoot+disabling", "7mm Anti-Infantry Rifle Disabling Shot (5 AP)")]
    # AdjAcc 118 − Agi 4, DR 55, DT 25 + End 7 twice: faces 1-41 glancing, 42-73 minor, 74-100 severe ...
    assert rs.preview_shot(state, "sam", "zhetan", "shoot").lines[1].text == " minor 32.0% · severe 27.0%"
    # ... which the declared Disabling Shot records as Minor
    assert rs.preview_shot(state, "sam", "zhetan", "shoot+disabling").lines[1].text == " minor 59.0%"
    events = rs._command(state, sam, Shoot(unit="sam", target="zhetan", mode="shoot+disabling"),
                         Dice.scripted([100] + [99] * 10))
    assert events[0].rolls[0].formula == ("d100 100 + AdjAcc 118 − Agi 4 = 214, − DR 55 = 159, − DT 32 = 127, − DT 32 = "
                                          "95 ≤ 100: severe wound, severe → minor")
    assert record(events, "zhetan").disabled == ("zhetan_plasma_rifle",)
    assert not any("Disabling" in o.label for o in rs.options(state, sam))  # not a mode to watch with


def test_the_ai_is_told_to_creep_cautiously_while_no_enemy_has_spotted_the_unit(rs):
    from engine.rules.xxxzone.units import Battle

    spotted = stage(rs, {"zhetan": ("zhetan", "aliens", (5, 5)), "johnny": ("johnny", "xcom", (5, 12))}, side="aliens")
    assert not rs.budget(spotted, spotted.units["zhetan"]).dash_prefer
    unseen = attrs.evolve(spotted, record=Battle(seen=(("aliens", ("johnny",)),)))  # the squad has not seen it
    budget = rs.budget(unseen, unseen.units["zhetan"])
    assert budget.dash_prefer and budget.dash_fits((5, 5), ((5, 6), (5, 7)))  # 4 AP cautiously of its AP
    assert not budget.dash_fits((5, 5), tuple((5, 5 + i) for i in range(1, 9)))  # too far to creep: it walks


def test_the_hive_queens_sting_leaves_a_wounded_target_lethal_toxic(rs):
    from engine.rules.xxxzone import status
    from engine.rules.xxxzone.battle import vitals

    state = stage(rs, {"queen": ("boorus_queen", "aliens", (5, 5)), "johnny": ("johnny", "xcom", (5, 6))},
                  side="aliens")
    assert [m.name for m in rs.shot_modes(state, state.units["queen"])] == ["Boorus sting swing (3 AP)"]
    events = rs._command(state, state.units["queen"], Shoot(unit="queen", target="johnny", mode="swing"),
                         Dice.scripted([100] + [99] * 10))
    hit = record(events, "johnny")
    assert hit.condition.poison == "lethal_toxic" and "Lethal toxic" in events[0].text
    # section 9: a Severe wound at the end of each of its turns, then the Fort check (+20 poison, −50 toxin)
    after = status.end_turn(Dice.scripted([99, 99, 1]), rs.book, vitals(rs.book, hit), hit.condition)
    assert after.condition.wounds.severe == hit.condition.wounds.severe + 1
    assert after.rolls[-1].purpose == "lethal toxic: Fort to end it" and after.condition.poison == "lethal_toxic"


def wake_field(rs, inspire_wake=True):
    """Helmut (MEDIC!, 8 AP) beside Johnny (Will 28), knocked out by a Mortal wound; Bruce (Inspire Allies) D 2 away."""
    from tests.test_xxxzone_field import hurt

    state = learn(stage(rs, {"helmut": ("helmut", "xcom", (5, 5)), "johnny": ("johnny", "xcom", (6, 5)),
                             "bruce": ("bruce", "xcom", (5, 7)), "zhetan": ("zhetan", "aliens", (12, 12))}),
                  "bruce", "inspire_allies")
    state = hurt(state, "johnny", mortal=1, unconscious=True)
    j = state.units["johnny"]
    state = attrs.evolve(state, units={**state.units, "johnny": attrs.evolve(
        j, record=attrs.evolve(j.record, inspirable=True))})
    if not inspire_wake:
        rs = copy.copy(rs)
        rs.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, inspire_wake=False))
    return rs, state


def test_inspire_allies_re_rolls_the_med_kits_failed_wake_up_test(rs):
    rs, state = wake_field(rs)
    treat = Act(unit="helmut", action="medkit", target="johnny", option="mortal")
    events = rs._command(state, state.units["helmut"], treat, Dice.scripted([1, 1, 1, 72]))
    assert events[0].rolls[-1].formula == "d100 72 + Will 28 = 100 ≤ 100: fail"
    johnny = record(events, "johnny")
    assert johnny.condition.unconscious and johnny.condition.wounds.mortal == 0
    assert johnny.condition.will_failed == (("unconscious", 0, False),)
    now = fold(state, events)
    (option,) = [o for o in rs.options(now, now.units["bruce"]) if o.command.action == "inspire_allies"]
    assert option.label == "Inspire Allies (4 AP): Johnny Miller re-roll a failed Will test"
    again = inspire(rs, now, [73])
    assert again[0].rolls[0].formula == "d100 73 + Will 28 = 101 > 100: pass"
    assert again[0].text == "Bruce Mitchel inspires 1 ally: Johnny Miller wakes"
    woke = record(again, "johnny")
    assert not woke.condition.unconscious and woke.condition.will_failed == ()
    assert record(again, "bruce").turn.ap == 9 - 4


def test_a_failed_wake_up_is_not_kept_for_inspire_under_older_content(rs):
    old, state = wake_field(rs, inspire_wake=False)
    treat = Act(unit="helmut", action="medkit", target="johnny", option="mortal")
    events = old._command(state, state.units["helmut"], treat, Dice.scripted([1, 1, 1, 72]))
    johnny = record(events, "johnny")
    assert johnny.condition.unconscious and johnny.condition.will_failed == ()
    assert inspire(old, fold(state, events), []).code == "nobody_to_inspire"


def test_the_ai_aims_when_its_ap_pay_one_shot_but_not_two(rs):
    """Aim before the shot when the AP left allow one shot and the aim (2 AP) but not two shots; never when two
    shots fit, nor twice on the same turn (ai.special)."""
    state = stage(rs, {"zhetan": ("zhetan", "aliens", (5, 5)), "johnny": ("johnny", "xcom", (5, 12))}, side="aliens")
    z = state.units["zhetan"]
    mode = next(m for m in rs.shot_modes(state, z) if m.usable)
    weapon, mode_id = shooting.mode_of(rs.book, z.record, mode.id)
    cost = rs.book.weapons[weapon].modes[mode_id].ap

    def with_ap(ap, aim=None):
        turn = attrs.evolve(z.record.turn, ap=ap, gun=0)
        unit = attrs.evolve(z, record=attrs.evolve(z.record, turn=turn, aim=aim))
        return attrs.evolve(state, units={**state.units, "zhetan": unit}), unit

    seen = [state.units["johnny"]]
    got_state, unit = with_ap(cost + 2)
    assert rs.ai_special(got_state, unit, seen, True) == Act(unit="zhetan", action="aim", target="johnny")
    got_state, unit = with_ap(2 * cost)  # two shots are worth more than one aimed one
    assert rs.ai_special(got_state, unit, seen, True) is None
    got_state, unit = with_ap(cost + 1)  # no AP for the aim and the shot
    assert rs.ai_special(got_state, unit, seen, True) is None
    got_state, unit = with_ap(cost + 2, aim=Aim(target="johnny"))  # aimed already: now the shot
    assert rs.ai_special(got_state, unit, seen, True) is None
