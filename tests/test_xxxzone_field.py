"""xxxzone's field actions on a staged grass field, with scripted dice and every number written out: the spray
and its cone (friend or foe), the med-kit, smoke, C4 and the detonator, the missile's blast, hacking and picking
locks, and cover worn by blasts."""

from __future__ import annotations

import attrs
import pytest

from engine.content import missions
from engine.core import ruleset
from engine.core.commands import Act, Shoot
from engine.core.dice import Dice
from engine.core.model import State
from engine.map.grid import Grid
from engine.rules.xxxzone import referee
from engine.rules.xxxzone.units import Battle

ID = "xxxzone"


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make(ID, content, None)


def stage(rs, placed: dict, tiles: dict | None = None, size: int = 16, side: str = "xcom") -> State:
    """Units by id: (template, side, (x, y)); every side has spotted every other side's units."""
    sc = referee.Scenario(ruleset=ID, units={uid: referee.ScUnit(template=t, side=s, at=list(at))
                                             for uid, (t, s, at) in placed.items()},
                          action=referee.ScAction(actor=next(iter(placed)), target=next(iter(placed))))
    units = referee.units(rs, sc)
    tiles = tiles or {}
    grid = Grid.from_ids([[tiles.get((x, y), "grass") for x in range(size)] for y in range(size)], rs.content.terrain)
    sides = sorted({s for _, s, _ in placed.values()})
    seen = tuple((s, tuple(u for u, (_, o, _) in placed.items() if o != s)) for s in sides)
    return State(ruleset=ID, mission="test", grid=grid, units=units, phase=1, side=side, sides=missions.SIDES,
                 record=Battle(seen=seen))


def record(events, uid):
    return [e.changes["record"] for e in events
            if getattr(e, "unit", "") == uid and "record" in getattr(e, "changes", {})][-1]


# -- spray (6.4) ---------------------------------------------------------------------------------


def spray_field(rs):
    return stage(rs, {"vadin": ("vadin", "xcom", (5, 2)), "johnny": ("johnny", "xcom", (5, 6)),
                      "zhetan": ("zhetan", "aliens", (5, 10)), "drone": ("hover_drone", "aliens", (12, 12)),
                      "boorus": ("boorus", "aliens", (15, 3))})


def test_an_mg_spray_rolls_three_times_at_everyone_in_the_big_cone_friend_or_foe_nearest_first(rs):
    state = spray_field(rs)
    events = rs._command(state, state.units["vadin"], Shoot(unit="vadin", target="zhetan", mode="spray"),
                         Dice.scripted([10, 10, 10, 91, 99, 30] + [50] * 4))
    head = events[0]
    assert head.action == "shoot" and head.outcome == "spray" and head.cell == (5, 10)
    formulas = [r.formula for r in head.rolls]
    # Johnny (friend, D 4, d 3): AdjAcc 105 − 6 − recoil 10 = 89 on every roll; Agi 7
    assert formulas[:3] == ["d100 10 + AdjAcc 89 − Agi 7 = 92 ≤ 100: miss"] * 3
    # the Zhetan (d 7): 105 − 14 − 10 = 81; power armour DR 55; DT 50 + End 7 = 57
    assert formulas[3:6] == ["d100 91 + AdjAcc 81 − Agi 4 = 168, − DR 55 = 113, − DT 57 = 56 ≤ 100: minor wound",
                             "d100 99 + AdjAcc 81 − Agi 4 = 176, − DR 55 = 121, − DT 57 = 64 ≤ 100: minor wound",
                             "d100 30 + AdjAcc 81 − Agi 4 = 107, − DR 55 = 52 ≤ 100: glancing hit"]
    # the drone at 35° off the line is inside the ±45° Big Cone (d 9: 105 − 18 − 10 = 77); the Boorus is not
    assert formulas[6] == "d100 50 + AdjAcc 77 − Agi 7 = 120, − DR 25 = 95 ≤ 100: glancing hit"
    assert "boorus" not in {e.unit for e in events if hasattr(e, "unit")}
    vadin = record(events, "vadin")
    assert vadin.hands[0].rounds == 180 and vadin.turn.ap == state.units["vadin"].record.turn.ap - 6  # drum 200→180
    assert record(events, "zhetan").armour_hp == 4 - 3 and record(events, "drone").armour_hp == 0


def test_the_spray_preview_names_the_friend_in_the_cone_and_the_ai_finds_it_worth_nothing(rs):
    state = spray_field(rs)
    got = rs.preview_shot(state, "vadin", "zhetan", "spray")
    assert got.notes == ("the cone catches your own side: Johnny Miller",)
    assert got.p_hit == 0.0 and got.expected_damage < 0
    assert [r.label for r in got.lines] == ["Spray", "Johnny Miller", "Zhetan in Powe", "Hover drone"]
    assert got.lines[1].text.startswith(" 3× wound ") and got.lines[1].text.endswith("% (own)")
    clear = attrs.evolve(state, units={k: v for k, v in state.units.items() if k != "johnny"})
    alone = rs.preview_shot(clear, "vadin", "zhetan", "spray")
    assert alone.notes == () and alone.p_hit > 0.5 and alone.expected_damage > 0


def test_a_spray_cannot_be_watched_with_nor_fired_past_the_weapons_range(rs):
    state = spray_field(rs)
    got = rs._command(state, state.units["vadin"], Act(unit="vadin", action="overwatch", option="spray"), None)
    assert got.code == "spray"
    far = stage(rs, {"marcel": ("helmut", "xcom", (1, 1)), "zhetan": ("zhetan", "aliens", (1, 14))})
    shot = rs._command(far, far.units["marcel"], Shoot(unit="marcel", target="zhetan", mode="spray"), None)
    assert (shot.code, shot.reason) == ("out_of_range", "Zhetan in Power Armour is 12 squares away; the 9mm Machine "
                                                        "Pistol reaches 10")


# -- the med-kit (9) -------------------------------------------------------------------------------


def hurt(state, uid, **condition):
    from engine.rules.xxxzone.wounds import Wounds

    u = state.units[uid]
    wounds = Wounds(**{k: condition.pop(k) for k in ("minor", "severe", "mortal", "lethal") if k in condition})
    c = attrs.evolve(u.record, condition=attrs.evolve(u.record.condition, wounds=wounds, **condition))
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=c)})


def medic_field(rs):
    state = stage(rs, {"helmut": ("helmut", "xcom", (5, 5)), "johnny": ("johnny", "xcom", (6, 5)),
                       "zhetan": ("zhetan", "aliens", (12, 12))})
    return hurt(state, "johnny", severe=2, dying=2)


def test_medic_rolls_3d6_and_stabilises_a_dying_ally_and_a_kit_has_8_uses(rs):
    state = medic_field(rs)
    helmut = state.units["helmut"]
    assert helmut.record.turn.ap == 8 and helmut.record.belt.count("medkit") == 10
    events = rs._command(state, helmut, Act(unit="helmut", action="medkit", target="johnny", option="stabilise"),
                         Dice.scripted([2, 1, 3]))
    head = events[0]
    assert head.text == ("Helmut Hartmann uses a med-kit on Johnny Miller: 3d6: 2+1+3=6 AP; stabilise the Dying; "
                         "79 med-kit uses left")
    assert record(events, "johnny").condition.dying == 0 and record(events, "johnny").condition.wounds.severe == 2
    after = record(events, "helmut")
    assert after.turn.ap == 2 and after.medkit_used == 1 and after.belt.count("medkit") == 10  # MEDIC!: 3 + 11//2


def test_a_med_kit_the_ap_cannot_pay_carries_over_and_treats_at_the_next_turn_start(rs):
    from engine.rules.xxxzone import turns
    from engine.core.reducer import fold

    state = medic_field(rs)
    events = rs._command(state, state.units["helmut"], Act(unit="helmut", action="medkit", target="johnny",
                                                           option="severe"), Dice.scripted([6, 5, 4]))
    assert events[0].outcome == "continuing" and events[0].text.endswith("7 AP to go next turn (treat a Severe wound)")
    helmut = record(events, "helmut")
    assert helmut.turn.ap == 0 and helmut.turn.continuing.remaining == 7
    now = fold(state, events)
    started = turns.begin_side(rs, now, "xcom", Dice.scripted([50] * 10))
    done = next(e for e in started if getattr(e, "action", "") == "medkit")
    assert done.text == ("Helmut Hartmann finishes the med-kit on Johnny Miller; treat a Severe wound, penalty 20 → 0; "
                         "79 med-kit uses left")
    later = fold(now, started)
    assert later.units["helmut"].record.turn.ap == 8 - 7 and later.units["johnny"].record.condition.wounds.severe == 1


def test_without_medic_a_kit_is_one_use_4d6_and_the_refusals_say_why(rs):
    state = stage(rs, {"vadin": ("vadin", "xcom", (5, 5)), "johnny": ("johnny", "xcom", (8, 5))})
    state = hurt(state, "vadin", minor=1)
    vadin = state.units["vadin"]
    assert vadin.record.belt.count("medkit") == 2
    far = rs._command(state, vadin, Act(unit="vadin", action="medkit", target="johnny", option="minor"), None)
    assert far.code == "not_adjacent"
    assert rs._command(state, vadin, Act(unit="vadin", action="medkit", option="cure"), None).code == "not_poisoned"
    events = rs._command(state, vadin, Act(unit="vadin", action="medkit", option="minor"), Dice.scripted([1, 2, 1, 3]))
    assert events[0].text == ("Vadin Smirnov uses a med-kit on itself: 4d6: 1+2+1+3=7 AP; treat a Minor wound, "
                              "penalty 0 → 0; 1 med-kit use left")
    after = record(events, "vadin")
    assert after.belt.count("medkit") == 1 and after.condition.wounds.minor == 0 and after.turn.ap == 9 - 7
    labels = [o.label for o in rs.options(state, vadin) if o.group == "Med-kit"]
    assert labels == ["Med-kit → self: treat a Minor wound (4d6 AP)"]


# -- smoke and concealment (6.9) --------------------------------------------------------------------


def test_a_smoke_bomb_costs_3_ap_lasts_3d3_turns_and_conceals_then_hides(rs):
    from engine.core.commands import EndTurn, Throw
    from engine.core.reducer import fold
    from engine.rules.xxxzone import smoke, turns
    from engine.rules.xxxzone.units import battle

    state = stage(rs, {"dane": ("dane", "xcom", (2, 8)), "zhetan": ("zhetan", "aliens", (12, 8)),
                       "drone": ("hover_drone", "aliens", (9, 8))}, size=20)
    dane = state.units["dane"]
    preview = rs.preview_throw(state, "dane", "smoke_bomb", (10, 8))
    assert preview.hits == () and any(r.text == " 3 AP: draw, throw" for r in preview.lines)
    events = rs._command(state, dane, Throw(unit="dane", item="smoke_bomb", cell=(10, 8)),
                         Dice.scripted([99, 1, 2, 3]))
    head = events[0]
    assert head.text == ("Dane McKinnon throws the Smoke Bomb at 10,8: on target at 10,8; smoke within 5 squares for "
                         "3d3: 1+2+3=6 turns")
    assert record(events, "dane").turn.ap == 9 - 3 and record(events, "dane").belt.count("smoke_bomb") == 2
    now = fold(state, events)
    assert battle(now).smoke == (((10, 8), 5, 6, "xcom"),)
    # from Dane, the line to the drone at 9,8 crosses 5,8 ... 9,8: 5 smoke squares, so hidden; Dane's own square
    # and the first two are clear of the cloud (D > 5 from 10,8)
    assert smoke.level(rs.book, now, dane.pos, (9, 8)) == "hidden"
    assert smoke.level(rs.book, now, (3, 8), (5, 8)) == "concealed"  # only the target's square: 1
    assert rs._command(now, now.units["dane"], Shoot(unit="dane", target="drone", mode="shoot"), None).code == "hidden"
    ended = turns.end_turn(rs, now, "xcom", Dice.scripted([50] * 40))
    assert battle(fold(now, ended)).smoke == (((10, 8), 5, 5, "xcom"),)
    assert EndTurn


def test_concealment_takes_20_from_the_shot_and_the_preview(rs):
    from engine.rules.xxxzone.units import battle as rec

    state = stage(rs, {"johnny": ("johnny", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (2, 8))})
    clear = rs.preview_shot(state, "johnny", "zhetan", "shoot")
    smoked = attrs.evolve(state, record=attrs.evolve(rec(state), smoke=(((2, 12), 4, 3, "aliens"),)))
    got = rs.preview_shot(smoked, "johnny", "zhetan", "shoot")
    adj = next(r.text for r in got.lines if r.label == "AdjAcc")
    assert next(r.text for r in clear.lines if r.label == "AdjAcc") == " 100 − Agi 4"  # 110 − 2×5
    assert adj == " 80 − Agi 4"  # the Zhetan's square is in the smoke: one square, concealed
    # the targeting panel names the modifiers that made it, in the log's words
    assert next(r.text for r in clear.lines if r.label == "From") == " Acc 110 − distance 10"
    assert next(r.text for r in got.lines if r.label == "From") == " Acc 110 − distance 10 − concealment 20"


# -- the missile launcher's blast, and cover worn by blasts (6.9, 6.2) --------------------------------


def holding(state, uid, item, rounds):
    from engine.rules.xxxzone.battle import Held

    u = state.units[uid]
    c = attrs.evolve(u.record, hands=(Held(item=item, rounds=rounds),))
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=c)})


def test_the_missile_hits_then_explodes_on_the_target_with_rings_3_5_6(rs):
    state = stage(rs, {"bruce": ("bruce", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (2, 10)),
                       "drone": ("hover_drone", "aliens", (6, 14)), "boorus": ("boorus", "aliens", (9, 10))})
    state = holding(state, "bruce", "missile_launcher", 1)
    events = rs._command(state, state.units["bruce"], Shoot(unit="bruce", target="zhetan", mode="shoot"),
                         Dice.scripted([55, 55, 1, 1, 99, 99, 50, 50] + [99] * 20))
    shot, blast = [e for e in events if getattr(e, "action", "") in ("shoot", "explosion")]
    # d 7: AdjAcc 115 − 14 − 0 = 101; R = 55 + 101 − 4 = 152; power armour DR 55: 97, glancing (HP 4 → 3)
    assert shot.rolls[0].formula == "d100 55 + AdjAcc 101 − Agi 4 = 152, − DR 55 = 97 ≤ 100: glancing hit"
    assert blast.cell == (2, 10) and blast.outcome == "on_target"
    blasts = [r.formula for r in blast.rolls if r.purpose == "Missile Explosion blast"]
    # the Zhetan at D 0: 3 rolls; Explosives Expert: DT 15 − 5 = 10 + End 7 = 17, DR 55 halved to 27
    assert blasts[0] == ("d100 55 + AdjAcc 115 − Agi 4 = 166, − DR 27 (halved) = 139, − DT 17 = 122, − DT 17 = 105, "
                         "− DT 17 = 88 ≤ 100: mortal wound")
    assert blasts[1] == "d100 1 + AdjAcc 115 − Agi 4 = 112, − DR 27 (halved) = 85 ≤ 100: glancing hit"
    # the drone at D 4 (ring 5: 2 rolls), the Boorus at D 7, beyond ring 6: none
    assert sum(1 for r in blast.rolls if r.actor == "bruce" and r.purpose == "Missile Explosion blast") == 3 + 2
    assert "Boorus" not in blast.text and blast.text.startswith("The missile explodes on the target at 2,10: ")
    assert record(events, "bruce").hands[0].rounds == 0


def test_a_blast_stopped_by_a_crate_wears_it_on_the_map_until_it_breaks(rs):
    from engine.core.commands import Throw
    from engine.core.reducer import fold
    from engine.rules.xxxzone.units import battle

    state = stage(rs, {"dane": ("dane", "xcom", (5, 2)), "zhetan": ("zhetan", "aliens", (5, 9))},
                  tiles={(5, 8): "crate"})
    # a throw at the square next to the crate: the Zhetan's adjacent crate lies between it and the blast
    events = rs._command(state, state.units["dane"], Throw(unit="dane", item="frag", cell=(5, 7)),
                         Dice.scripted([99, 1, 3, 99] + [99] * 10))
    blast = [r for r in events[0].rolls if r.purpose in ("Frag Grenade blast", "cover damage")]
    # ring 1 (D 2 from 5,7 is ring 2: 2 rolls): d100 1 + 110 − Agi 4 = 107, − cover 20 = 87: the crate, 1d4 = 3
    assert blast[0].formula == "d100 1 + AdjAcc 110 − Agi 4 = 107, − cover 20 (crate, adjacent) = 87 ≤ 100: hits the crate"
    # the second roll, 99: 205, − cover 20 = 185, − DR 55 = 130, − DT 25 + End 7 = 98: Minor (Toughness ignores it)
    assert blast[1].formula.endswith("= 185, − DR 55 = 130, − DT 32 = 98 ≤ 100: minor wound")
    assert blast[2].formula == "1d4: 3"  # the rolls first, then what each took from the cover
    now = fold(state, events)
    assert battle(now).cover_hp() == {(5, 8): 1}  # a crate's 4 HP less 3


# -- C4 and the Detonator (6.9) ------------------------------------------------------------------------


def test_c4_is_placed_for_1_ap_and_the_detonator_in_hand_sets_it_off_with_full_damage_to_terrain(rs):
    from engine.core.reducer import fold
    from engine.rules.xxxzone.units import battle

    state = stage(rs, {"dane": ("dane", "xcom", (5, 5)), "zhetan": ("zhetan", "aliens", (5, 7))},
                  tiles={(6, 6): "crate", (4, 7): "door"}, size=20)
    dane = state.units["dane"]
    labels = [o.label for o in rs.options(state, dane) if o.group == "Explosives"]
    assert labels == ["Place C4 here (1 AP)"]  # the crate next to it is not a square to stand a charge on
    assert rs._command(state, dane, Act(unit="dane", action="place_c4", cell=(5, 8)), None).code == "too_far"
    placed = rs._command(state, dane, Act(unit="dane", action="place_c4", cell=(5, 6)), None)
    assert placed[0].text == "Dane McKinnon places C4 at 5,6 (1 AP)"
    now = fold(state, placed)
    assert battle(now).charges == (((5, 6), "dane"),) and now.units["dane"].record.belt.count("c4") == 1
    assert rs._command(now, now.units["dane"], Act(unit="dane", action="detonate"), None).code == "no_detonator"
    # Dane walks off (staged) with the Detonator drawn: D 10 from the charge is in reach, 11 is not
    dane = now.units["dane"]
    c = attrs.evolve(dane.record, at=(5, 16), hands=(attrs.evolve(dane.record.hands[0], item="detonator",
                                                                       rounds=0),))
    far = attrs.evolve(now, units={**now.units, "dane": attrs.evolve(dane, pos=(5, 16), record=c)})
    too_far = attrs.evolve(far, units={**far.units, "dane": attrs.evolve(far.units["dane"], pos=(5, 17))})
    assert rs._command(too_far, too_far.units["dane"], Act(unit="dane", action="detonate"), None).code == "out_of_range"
    events = rs._command(far, far.units["dane"], Act(unit="dane", action="detonate"), Dice.scripted([60, 25, 97]
                                                                                                   + [99] * 10))
    boom = next(e for e in events if getattr(e, "action", "") == "detonate")
    # the Zhetan at D 1: ring 1, 3 rolls; C4 DT 7 + End 7 = 14; power armour DR 55
    assert boom.rolls[0].formula == ("d100 60 + AdjAcc 110 − Agi 4 = 166, − DR 55 = 111, − DT 14 = 97 ≤ 100: "
                                     "minor wound")
    after = fold(far, events)
    assert after.grid.tile((6, 6)) == "rubble"  # the crate's 4 HP all gone to C4's full terrain damage
    assert after.grid.tile((4, 7)) == "door_open" and battle(after).charges == ()
    assert after.units["dane"].record.turn.ap == far.units["dane"].record.turn.ap - 1


# -- hacking (7, 13) -----------------------------------------------------------------------------------


def test_dane_hacks_the_power_source_with_3d10_exploding_ap_and_d100_plus_hack_over_100(content):
    from engine.core.commands import Act as A
    from engine.core.dice import seed_from_int
    from engine.core.reducer import fold
    from engine.play.game import Game
    from engine.rules.xxxzone import turns

    game = Game.new(content, ID, "crash", seed_from_int(5), None)
    rs, state = game.ruleset, game.state
    power = rs.setup.spawns["power"][0]
    spot = next((power[0] + dx, power[1] + dy) for dx, dy in ((0, 1), (1, 0), (-1, 0), (0, -1), (1, 1), (-1, -1))
                if state.grid.walkable[power[1] + dy, power[0] + dx] and not state.units_at((power[0] + dx,
                                                                                           power[1] + dy)))
    dane = state.units["dane"]
    dane = attrs.evolve(dane, pos=spot, record=attrs.evolve(dane.record, at=spot))
    state = attrs.evolve(state, units={**state.units, "dane": dane})
    assert any(o.label.startswith("Hack the power source") for o in rs.options(state, dane))
    johnny = state.units["johnny"]
    assert rs._command(state, johnny, A(unit="johnny", action="hack", cell=power), None).code == "needs_ability"
    unplugged = attrs.evolve(dane, record=attrs.evolve(dane.record, belt=tuple(
        i for i in dane.record.belt if i != "portable_computer")))  # 11.3: the field hack needs the computer
    got = rs._command(state, unplugged, A(unit="dane", action="hack", cell=power), None)
    assert (got.code, got.reason) == ("no_computer", "A field hack needs a portable computer connected to the machine")
    # 3d10!: 10 explodes into 4, then 3 and 2: 19 AP, more than Dane's 9; 10 carried over
    events = rs._command(state, dane, A(unit="dane", action="hack", cell=power), Dice.scripted([10, 4, 3, 2]))
    assert events[0].outcome == "continuing"
    assert events[0].text.endswith(f": {events[0].rolls[0].formula} AP; 10 AP to go next turn")
    assert events[0].rolls[0].total == 19
    now = fold(state, events)
    assert now.units["dane"].record.turn.continuing.remaining == 10
    # next turn (9 AP) pays 9 of the 10: still going; the one after, the attempt: d100 51 + Hack 50 = 101 > 100
    first = turns.begin_side(rs, now, "xcom", Dice.scripted([50] * 30))
    now = fold(now, first)
    assert now.units["dane"].record.turn.continuing.remaining == 1
    second = turns.begin_side(rs, now, "xcom", Dice.scripted([51] + [50] * 30))
    done = next(e for e in second if getattr(e, "action", "") == "hack")
    assert done.text == ("Dane McKinnon finishes the hack at 24,16; the power source shuts down "
                         "(d100 51 + Hack 50 = 101 > 100: pass)") and done.outcome == "success"
    after = fold(now, second)
    assert after.grid.tile(power) == "power_source_off" and after.units["dane"].record.turn.ap == 8
    game.close()


# -- civilians' Dying countdown (9) ------------------------------------------------------------------------


def test_a_dying_civilian_counts_down_at_the_end_of_the_squads_turn_and_dies_at_its_end(rs):
    from engine.core.reducer import fold
    from engine.rules.xxxzone import turns

    state = stage(rs, {"johnny": ("johnny", "xcom", (2, 2)), "civ": ("civilian", "civilians", (8, 8)),
                       "zhetan": ("zhetan", "aliens", (14, 14))})
    state = hurt(state, "civ", mortal=1, dying=2)

    class Setup:  # the phase limit is all end_turn reads of the mission
        max_phases = 20

    rs.setup, before = Setup(), rs.setup
    try:
        first = turns.end_turn(rs, state, "xcom", Dice.scripted([1, 3] + [50] * 40))  # it sees the Zhetan: panics
        now = fold(state, first)
        assert now.units["civ"].record.condition.dying == 1 and now.units["civ"].status != "dead"
        now = attrs.evolve(now, side="xcom")
        second = turns.end_turn(rs, now, "xcom", Dice.scripted([50] * 40))
        assert fold(now, second).units["civ"].status == "dead"
        assert any("Dying countdown ran out" in e.cause for e in second if getattr(e, "unit", "") == "civ")
    finally:
        rs.setup = before


# -- the abilities' own actions (13) and putting out a fire (9) ---------------------------------------------


def test_mark_target_gives_allies_20_until_the_marker_loses_focus(rs):
    from engine.core.reducer import fold

    state = stage(rs, {"bruce": ("bruce", "xcom", (2, 2)), "johnny": ("johnny", "xcom", (4, 2)),
                       "zhetan": ("zhetan", "aliens", (4, 8))})
    before = next(r.text for r in rs.preview_shot(state, "johnny", "zhetan", "shoot").lines if r.label == "AdjAcc")
    assert before == " 100 − Agi 4"  # 110 − 2×5
    labels = [o.label for o in rs.options(state, state.units["bruce"]) if o.group == "Abilities"]
    assert labels == ["Mark Target → Zhetan in Power Armour (4 AP): allies +20"]
    events = rs.decide(state, Act(unit="bruce", action="mark_target", target="zhetan"), Dice.scripted([50] * 10))
    now = fold(state, events)
    assert now.units["bruce"].record.marking == "zhetan" and now.units["bruce"].record.turn.ap == 9 - 4
    after = next(r.text for r in rs.preview_shot(now, "johnny", "zhetan", "shoot").lines if r.label == "AdjAcc")
    assert after == " 120 − Agi 4"
    assert next(r.text for r in rs.preview_shot(now, "johnny", "zhetan", "shoot").lines if r.label == "From") == \
        " Acc 110 − distance 10 + marked 20"
    shot = rs.decide(now, Shoot(unit="johnny", target="zhetan", mode="shoot"), Dice.scripted([50] * 10))
    assert shot[0].rolls[0].formula.startswith("d100 50 + AdjAcc 120 − Agi 4 = 166")
    own = next(r.text for r in rs.preview_shot(now, "bruce", "zhetan", "shoot").lines if r.label == "AdjAcc")
    assert own == " 105 − Agi 4"  # the marker's own shots: 115 − 2×5, no bonus
    hunker = rs.decide(now, Act(unit="bruce", action="hunker"), Dice.scripted([50] * 10))
    assert fold(now, hunker).units["bruce"].record.marking == ""  # anything but moving or attacking it
    assert rs.decide(state, Act(unit="johnny", action="mark_target", target="zhetan"), None).code == "needs_ability"


def test_chi_breath_gives_20_dr_roots_the_unit_and_is_refused_after_moving(rs):
    from engine.core.commands import Move

    state = stage(rs, {"vadin": ("vadin", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (2, 8))})
    v = state.units["vadin"]
    op = attrs.evolve(v.record.op, abilities=(*v.record.op.abilities, "chi_breath"))
    state = attrs.evolve(state, units={**state.units, "vadin": attrs.evolve(v, record=attrs.evolve(v.record, op=op))})
    events = rs._command(state, state.units["vadin"], Act(unit="vadin", action="chi_breath"), None)
    c = record(events, "vadin")
    assert c.chi_breath and c.turn.rooted and c.turn.ap == 9 - 4
    from engine.rules.xxxzone import shooting

    iron = attrs.evolve(state, units={**state.units, "vadin": attrs.evolve(state.units["vadin"], record=c)})
    plain_dr = shooting.plan(rs.book, state.units["zhetan"].record, v.record, shooting.shot_for(
        rs, state, state.units["zhetan"], v, "zhetan_plasma_rifle", "shoot"), ())[1].extra_dr
    iron_dr = shooting.plan(rs.book, iron.units["zhetan"].record, c, shooting.shot_for(
        rs, iron, iron.units["zhetan"], iron.units["vadin"], "zhetan_plasma_rifle", "shoot"), ())[1].extra_dr
    assert plain_dr == () and iron_dr == (("chi breath", 20),)
    moved = rs._command(state, state.units["vadin"], Move(unit="vadin", path=((3, 2),)), Dice.scripted([50] * 5))
    walked = attrs.evolve(state, units={**state.units, "vadin": attrs.evolve(state.units["vadin"], pos=(3, 2),
                                                                               record=record(moved, "vadin"))})
    assert rs._command(walked, walked.units["vadin"], Act(unit="vadin", action="chi_breath"), None).code == "moved"


def test_a_burning_unit_puts_itself_out_for_2_ap(rs):
    state = stage(rs, {"johnny": ("johnny", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (2, 8))})
    assert rs._command(state, state.units["johnny"], Act(unit="johnny", action="put_out_fire"), None).code == \
        "not_on_fire"
    state = hurt(state, "johnny", on_fire=3)
    assert [o.label for o in rs.options(state, state.units["johnny"]) if "fire" in o.label] == \
        ["Put the fire out (2 AP)"]
    events = rs._command(state, state.units["johnny"], Act(unit="johnny", action="put_out_fire"), None)
    assert record(events, "johnny").condition.on_fire == 0 and record(events, "johnny").turn.ap == 10 - 2


def test_a_stun_breaks_the_med_kit_still_to_pay_and_older_content_keeps_it(rs):
    import copy

    from engine.core.reducer import fold

    state = medic_field(rs)
    started = rs._command(state, state.units["helmut"], Act(unit="helmut", action="medkit", target="johnny",
                                                            option="severe"), Dice.scripted([6, 5, 4]))
    now = attrs.evolve(fold(state, started), side="aliens")
    assert now.units["helmut"].record.turn.continuing.remaining == 7

    def shot(ruleset):
        # AdjAcc 110 − 2·6 = 98: d100 90 + 98 − Agi 4 = 184, − DR 35 = 149, − DT 44 (40 + End 4) = 105, 61: Severe;
        # the Will test 10 + Will 39 = 49 fails: Stunned
        return ruleset._command(now, now.units["zhetan"], Shoot(unit="zhetan", target="helmut",
                                                                mode="zhetan_plasma_rifle:shoot"),
                                Dice.scripted([90, 10] + [50] * 10))

    events = shot(rs)
    assert events[0].outcome == "severe" and events[0].rolls[1].formula == "d100 10 + Will 39 = 49 ≤ 100: fail"
    helmut = record(events, "helmut")
    assert helmut.condition.stunned == 1 and helmut.turn.continuing is None  # the treatment is lost
    old = copy.copy(rs)
    old.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, status_breaks=False))
    kept = record(shot(old), "helmut")
    assert kept.condition.stunned == 1 and kept.turn.continuing.remaining == 7
