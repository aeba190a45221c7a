"""xcom-trpg morale, turns, stamina and field interactions: TV-05, TV-08, TV-16, TV-20, TV-21, TV-22,
episode buffs (3.5), concussion (8.5), consumables (6.4, 9), rest, passive movement, item search
and special formulas. Dice are scripted; every number the spec prints is checked."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content import loader
from engine.core.commands import Act, Combo, EndTurn, Move, Rejected, Shoot
from engine.core.dice import Dice, DiceExhausted, Faces, seed_from_int
from engine.core.events import Moved, PhaseStarted, Resolved, SideStarted, UnitChanged
from engine.play.game import Game
from engine.map.grid import Grid
from engine.core.reducer import fold
from engine.core.ruleset import make
from engine.rules.xcom_trpg import buffs, combat, consumables, search, tokens
from engine.rules.xcom_trpg.damage import Ledger, apply_hits, fallen
from engine.rules.xcom_trpg.scenario import Action, Scenario, ScenarioUnit, make_units
from engine.rules.xcom_trpg import tables
from engine.rules.xcom_trpg.tables import xcom
from tests.xcom_record import counters, evolved, flags
from engine.rules.xcom_trpg.record import soldier

ROOT = Path(__file__).resolve().parent.parent
ANTON = {"strength": 7, "agility": 4, "intelligence": 6, "bravery": 6, "charisma": 4, "luck": 6, "psionics": 3}


@attrs.frozen
class Arena:
    ruleset: object
    state: object

    def do(self, command, faces=()):
        """Decide with exactly these dice; returns (events, new arena)."""
        dice = Dice.scripted(list(faces))
        events = self.ruleset.decide(self.state, command, dice)
        assert not isinstance(events, Rejected), events
        assert dice.scripted_left == 0, "every scripted die must be used"
        return events, Arena(self.ruleset, fold(self.state, events))

    def refuse(self, command) -> Rejected:
        result = self.ruleset.decide(self.state, command, Dice.scripted([]))
        assert isinstance(result, Rejected), result
        return result

    def unit(self, uid):
        return self.state.units[uid]


def arena(content, picture: str, cast: dict[str, str], *, side: str = "xcom", mission: str = "crash",
          zones: dict[str, tuple] | None = None, leader: str = "", cells_per_sector: int = 5, **changes) -> Arena:
    """The mission's units on a drawn map (`.` grass, `#` wall); letters place units, the rest are dead.
    `cells_per_sector=1` draws a worked example stated in sectors one character per sector."""
    game = Game.new(content, "xcom-trpg", mission, seed_from_int(1), None)
    rows = [row.strip() for row in picture.strip().splitlines()]
    grid = Grid.from_ids([["wall" if ch == "#" else "grass" for ch in row] for row in rows], content.terrain)
    where = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            for uid in cast.get(ch, "").split():
                where[uid] = (x, y)
    if not any(uid.startswith("sectoid") for uid in where):  # a hostile far off, so the mission goes on
        where["sectoid_2"] = (len(rows[-1]) - 1, len(rows) - 1)
    units = {}
    for uid, unit in game.state.units.items():
        if uid in where:
            unit = evolved(unit, pos=where[uid], status="active", actions=2 if unit.side == side else 0,
                                **changes.get(uid, {}))
        else:
            unit = evolved(unit, pos=(0, 0), status="dead")
        units[uid] = unit
    setup = game.ruleset.setup
    setup = evolved(setup, spawns={"xcom": (), "aliens": (), **(zones or {})},
                         mission=evolved(setup.mission, leader=leader))
    rules = evolved(xcom(content).rulesets["xcom-trpg"], cells_per_sector=cells_per_sector)
    scaled = tables.evolve(content, rulesets={**xcom(content).rulesets, "xcom-trpg": rules})
    return Arena(make("xcom-trpg", scaled, setup), evolved(game.state, grid=grid, units=units, side=side))


def changed(events, uid, field):
    return [e.changes[field] for e in events if isinstance(e, UnitChanged) and e.unit == uid and field in e.changes]


def causes(events, uid):
    return [e.cause for e in events if isinstance(e, UnitChanged) and e.unit == uid]


# -- TV-05: bravery -------------------------------------------------------------------------------------


def referee(content, units, action, faces):
    sc = Scenario(ruleset="xcom-trpg", units=units, action=action)
    built, _ = make_units(content, sc, Dice(None, script=[]))
    dice = Dice.scripted(faces)
    verdict = make("xcom-trpg", content, None).referee(built, action, dice)
    assert dice.scripted_left == 0
    return verdict


CHRYSSALID = {"strength": 6, "agility": 8, "intelligence": 3, "bravery": 9, "charisma": 1, "luck": 4, "psionics": 1}


def test_tv05_bravery_against_a_chryssalid(content):
    units = {"anton": ScenarioUnit(race="human", stats=ANTON, hp=61, morale=70),
             "chryssalid": ScenarioUnit(race="chryssalid", stats=CHRYSSALID, hp=50)}
    v = referee(content, units, Action(type="bravery", actor="anton", monster="chryssalid"), [52, 3])
    assert [r.formula for r in v.rolls] == ["bravery 6*52=312", "god 10*3=30"]
    assert v.rolls[1].crit is None  # the god's 3 is no crit
    assert v.after["anton"].record.morale == 70  # not scared: no -20
    lost = referee(content, units, Action(type="bravery", actor="anton", monster="chryssalid"), [10, 50])
    assert lost.after["anton"].record.morale == 50 and "terrified" in lost.summary
    crit = referee(content, units, Action(type="bravery", actor="anton", monster="chryssalid"), [2])
    assert crit.after["anton"].record.morale == 0 and counters(crit.after["anton"])["crit_minus"] == 1  # -50 crit, no -20


def test_bravery_is_not_asked_of_a_sectoid_meeting_a_human(content):
    units = {"anton": ScenarioUnit(race="sectoid", stats=ANTON, hp=30),
             "b": ScenarioUnit(race="human", stats=ANTON, hp=30)}
    v = referee(content, units, Action(type="bravery", actor="anton", monster="b"), [])
    assert v.rolls == [] and "need not check" in v.summary


def test_bravery_on_first_sight_once_per_monster(content):
    # crash has no chryssalid: a sectoid of the mission is made one for the test
    a = arena(content, """
        ..........
        ...A......
        ..........
        ######.###
        ......S...
    """, {"A": "anton", "S": "sectoid_1"}, sectoid_1={"race": "chryssalid"})
    assert not a.state.grid.sees((3, 1), (6, 4), 20) and not a.state.grid.sees((4, 1), (6, 4), 20)
    _, a = a.do(Move(unit="anton", path=((4, 1),)))  # still out of sight: no roll
    # he steps where he sees through the gap: 6*30=180 vs god 10*50=500 -> scared, -20
    events, a = a.do(Move(unit="anton", path=((5, 2),)), [30, 50])
    check = next(e for e in events if isinstance(e, Resolved) and e.action == "bravery")
    assert [r.formula for r in check.rolls] == ["bravery 6*30=180", "god 10*50=500"]
    assert a.unit("anton").record.morale == 80 and "terrified by Sectoid 1 (bravery check lost)" in causes(events, "anton")
    # never again for this pair: another step rolls nothing
    a = Arena(a.ruleset, evolved(a.state, units={**a.state.units, "anton": evolved(a.unit("anton"), actions=2)}))
    events, a = a.do(Move(unit="anton", path=((6, 2),)), [])
    assert not [e for e in events if isinstance(e, Resolved)]


# -- TV-08: panic, a kill and a speech ------------------------------------------------------------------


def test_tv08_panic_kill_speech_and_no_check_next_turn(content):
    a = arena(content, """
        ......
        .JA.S.
        ......
    """, {"J": "julia", "A": "anton", "S": "sectoid_1"}, side="aliens", leader="stephen",
        julia={"morale": 28})
    events, a = a.do(EndTurn(side="aliens"), [34, 60])  # panic check 34 > 28; 60: she does nothing
    panic = [e for e in events if isinstance(e, Resolved) and e.action == "panic"]
    assert panic[0].rolls[0].formula == "panic 1d100=34" and panic[0].outcome == "panic"
    assert soldier(a.unit("julia")).actions == 0
    ledger = Ledger(a.state.units)  # she pushes the sectoid off the roof (narrative): it dies
    ledger.set("sectoid_1", "falls off the roof", status="dead")
    fallen(ledger, a.ruleset.rules, "julia", a.unit("sectoid_1"), "dead")
    a = Arena(a.ruleset, fold(a.state, ledger.events))
    assert a.unit("julia").record.morale == 38
    events, a = a.do(Act(unit="anton", action="speech"))
    assert a.unit("julia").record.morale == 42 and soldier(a.unit("anton")).actions == 1
    assert "Anton's encouraging speech (+4)" in causes(events, "julia")
    assert a.unit("anton").record.morale == 100  # the speaker gains nothing (and is at 100 anyway)
    _, a = a.do(EndTurn(side="xcom"))
    _, a = a.do(EndTurn(side="aliens"))  # no dice: 42 >= 40, no panic check
    assert a.state.side == "xcom" and soldier(a.unit("julia")).actions == 2


def test_leader_speech_is_doubled_and_free_once_per_phase(content):
    a = arena(content, """
        .......#.
        .AJ....#.
        .......#L
    """, {"A": "anton", "J": "julia", "L": "laura"}, julia={"morale": 30}, laura={"morale": 30})
    # crash's leader is its first soldier, Anton: Charisma 4*2 = 8, free
    events, a = a.do(Act(unit="anton", action="speech"))
    assert a.unit("julia").record.morale == 38 and soldier(a.unit("anton")).actions == 2
    assert a.unit("laura").record.morale == 30  # behind the wall: she hears nothing
    assert counters(a.unit("anton"))["speech_free_phase"] == a.state.phase
    events, a = a.do(Act(unit="anton", action="speech"))  # the second costs an action
    assert a.unit("julia").record.morale == 46 and soldier(a.unit("anton")).actions == 1
    events, a = a.do(Act(unit="anton", action="speech"))
    assert a.refuse(Act(unit="anton", action="speech")).code == "no_actions"


def test_speech_needs_a_listener(content):
    a = arena(content, """
        A......J
    """, {"A": "anton", "J": "julia"}, leader="julia")
    assert a.refuse(Act(unit="anton", action="speech")).code == "nobody_listens"
    assert not [o for o in a.ruleset.options(a.state, a.unit("anton")) if o.command.action == "speech"]


# -- 3.5: crit tokens and episode buffs --------------------------------------------------------------------


def third_token(content, counter: str, face: int, **unit_changes):
    a = arena(content, "A.J", {"A": "anton", "J": "julia"}, anton={"counters": {counter: 2}, **unit_changes})
    before = a.state
    ledger = Ledger(before.units)
    ledger.set("anton", "critical token", **{counter: ledger.get("anton", counter) + 1})
    dice = Dice.scripted([face])
    events = tokens.after(a.ruleset, before, ledger.events, dice)
    assert dice.scripted_left == 0
    return events, fold(before, ledger.events + events)


@pytest.mark.parametrize("face, effect", [(57, 1), (58, 2), (99, 3), (100, 4)])
def test_heroic_inspiration_by_roll_mod_4(content, face, effect):
    events, state = third_token(content, "crit_plus", face)
    roll = events[0].rolls[0]
    assert roll.formula == f"heroic inspiration 1d100={face}, mod 4 = {face % 4} → effect {effect}"
    anton = state.units["anton"]
    assert counters(anton)["buff_plus"] == effect
    luck = combat.effective_stat(anton, "luck")
    assert luck == (12 if effect == 1 else 6)
    assert combat.effective_stat(anton, "agility", dodge=True) == (7 if effect == 3 else 4)
    assert combat.effective_stat(anton, "luck", dodge=True) == {1: 12, 3: 7}.get(effect, 6)
    assert combat.effective_stat(anton, "agility") == 4  # only on a dodge
    assert buffs.immune_to_minds(anton) == (effect == 4)


@pytest.mark.parametrize("face, effect", [(1, 1), (2, 2), (3, 3), (4, 4)])
def test_depression_by_roll_mod_4(content, face, effect):
    events, state = third_token(content, "crit_minus", face, morale=80)
    anton = state.units["anton"]
    assert counters(anton)["buff_minus"] == effect
    assert combat.effective_stat(anton, "luck") == (1 if effect == 1 else 6)
    assert combat.effective_stat(anton, "charisma") == (1 if effect == 2 else 4)
    assert (anton.record.morale_max, anton.record.morale) == ((50, 50) if effect == 3 else (100, 80))


def test_buffs_exclude_each_other_and_later_tokens_do_nothing(content):
    a = arena(content, "A.J", {"A": "anton", "J": "julia"},
              anton={"counters": {"crit_plus": 3, "buff_plus": 1, "crit_minus": 2}})
    ledger = Ledger(a.state.units)
    ledger.set("anton", "critical token", crit_minus=ledger.get("anton", "crit_minus") + 1)
    assert tokens.after(a.ruleset, a.state, ledger.events, Dice.scripted([])) == []


def test_three_actions_and_the_ultracombo_and_one_action(content):
    a = arena(content, """
        .....
        .A.J.
        .....
    """, {"A": "anton", "J": "julia"}, side="aliens",
        anton={"counters": {"buff_plus": buffs.THREE_ACTIONS}}, julia={"counters": {"buff_minus": buffs.ONE_ACTION}})
    _, a = a.do(EndTurn(side="aliens"))
    assert soldier(a.unit("anton")).actions == 3 and soldier(a.unit("julia")).actions == 1
    assert a.refuse(Combo(unit="julia", path=((3, 2),))).code == "no_combo"
    _, a = a.do(Combo(unit="anton", path=((1, 2), (0, 2))))  # 2 sectors for 1 stamina, 2 actions left
    assert soldier(a.unit("anton")).actions == 2 and a.unit("anton").record.stamina == a.unit("anton").record.stamina_max - 1


def test_a_concussion_overrides_the_third_action(content):
    a = arena(content, "A.J", {"A": "anton", "J": "julia"}, side="aliens",
              anton={"counters": {"buff_plus": buffs.THREE_ACTIONS}, "flags": ("concussed",)})
    _, a = a.do(EndTurn(side="aliens"))
    assert soldier(a.unit("anton")).actions == 1


# -- concussion (8.5, 6.2) -----------------------------------------------------------------------------------


def test_concussion_heavy_armour_one_action_knock_out_waking_and_medkit(content, rules):
    a = arena(content, """
        .....
        .AV..
        .....
    """, {"A": "anton", "V": "viktor"}, side="aliens", viktor={"armor": "heavy", "hp": 20})
    viktor = a.unit("viktor")
    assert combat.concussion_taken(content, 25, viktor) == 20  # heavy armour -20%
    ledger = Ledger(a.state.units)
    hit = combat.Outcome([], [combat.Hit("viktor", 0, 21)], "hit", "", {})
    apply_hits(ledger, rules, "sectoid_1", hit, pellets=False)
    a = Arena(a.ruleset, fold(a.state, ledger.events))
    assert a.unit("viktor").status == "unconscious"  # 21 concussion > 20 HP
    assert a.unit("viktor").record.morale == 100 - 4  # 30/7 = 4 (rounded first)
    _, a = a.do(EndTurn(side="aliens"))
    assert a.unit("viktor").status == "unconscious"  # still 21 > 20
    # Anton's medkit (adjacent) clears it all; Viktor comes round at the next phase, with 2 actions
    events, a = a.do(Act(unit="anton", action="use", option="medkit", target="viktor"))
    assert a.unit("viktor").record.concussion == 0 and a.unit("anton").items.get("medkit", 0) == 0
    assert "Medkit: concussion treated" in causes(events, "viktor")
    _, a = a.do(EndTurn(side="xcom"))
    _, a = a.do(EndTurn(side="aliens"))
    assert a.unit("viktor").status == "active" and soldier(a.unit("viktor")).actions == 2


def test_concussion_gives_one_action_next_turn(content, rules):
    a = arena(content, ".A.", {"A": "anton"}, side="aliens")
    ledger = Ledger(a.state.units)
    apply_hits(ledger, rules, "sectoid_1", combat.Outcome([], [combat.Hit("anton", 0, 5)], "hit", "", {}),
               pellets=False)
    a = Arena(a.ruleset, fold(a.state, ledger.events))
    _, a = a.do(EndTurn(side="aliens"))
    assert soldier(a.unit("anton")).actions == 1 and a.unit("anton").record.concussion == 5


# -- stamina (6.4), TV-16 and the XS-076-2 ------------------------------------------------------------------


def test_tv16_heavy_armour_str3_and_the_stimulant(content):
    stats = dict(ANTON, strength=3)
    unit = make_units(content, Scenario(ruleset="xcom-trpg", units={"laura": ScenarioUnit(
        race="human", stats=stats, armor="heavy", hp=30)}, action=Action(type="special", actor="laura")),
        Dice(None, script=[]))[0]["laura"]
    assert (unit.record.stamina_max, unit.record.stamina) == (0, 0)
    assert combat.effective_stat(unit, "strength") == 1  # 3/3, permanently while worn
    a = arena(content, ".L.", {"L": "laura"}, laura={"stats": stats, "armor": "heavy", "stamina": 0,
                                                      "stamina_max": 0, "morale": 60, "hp": 30})
    events, a = a.do(Act(unit="laura", action="use", option="xs_076_2"))
    laura = a.unit("laura")
    assert (laura.record.stamina, laura.record.stamina_max) == (2, 0)  # 2 above the cap
    assert combat.effective_stat(laura, "strength") == 3  # the penalty is lifted
    assert (laura.hp, laura.record.morale, soldier(laura).actions) == (24, 100, 1)
    assert "XS-076-2 stimulant: -6 HP (no wound)" in causes(events, "laura")
    assert "XS-076-2 stimulant: morale to maximum" in causes(events, "laura")


def test_xs_after_effect_at_the_end_of_the_second_turn_after(content):
    a = arena(content, ".L.", {"L": "laura"}, laura={"morale": 60})
    _, a = a.do(Act(unit="laura", action="use", option="xs_076_2"))
    assert a.unit("laura").record.morale == 100
    _, a = a.do(EndTurn(side="xcom"))  # the injection turn ends: nothing
    _, a = a.do(EndTurn(side="aliens"))  # turn 1 after
    _, a = a.do(EndTurn(side="xcom"))
    assert a.unit("laura").record.morale == 100
    _, a = a.do(EndTurn(side="aliens"))  # turn 2 after
    assert a.unit("laura").record.morale == 100
    events, a = a.do(EndTurn(side="xcom"))  # ... ends: -30
    assert a.unit("laura").record.morale == 70 and "XS-076-2 stimulant after-effect" in causes(events, "laura")
    _, a = a.do(EndTurn(side="aliens"))
    _, a = a.do(EndTurn(side="xcom"))
    assert a.unit("laura").record.morale == 70  # once


def test_xs_can_knock_out(content):
    a = arena(content, ".LA", {"L": "laura", "A": "anton"}, laura={"hp": 5})
    events, a = a.do(Act(unit="laura", action="use", option="xs_076_2"))
    assert a.unit("laura").status == "unconscious" and a.unit("laura").hp == -1


def test_ration_stops_at_the_maximum_and_medkit_reaches_the_next_cell_only(content):
    a = arena(content, "JA.V", {"J": "julia", "A": "anton", "V": "viktor"},
              julia={"stamina": 3}, viktor={"stamina": 0})
    _, a = a.do(Act(unit="julia", action="use", option="field_ration"))
    assert a.unit("julia").record.stamina == a.unit("julia").record.stamina_max == 4  # Str 5 - light armour 1
    assert soldier(a.unit("julia")).actions == 1  # no roll: the turn goes on
    assert a.refuse(Act(unit="julia", action="use", option="field_ration")).code == "no_item"
    assert a.refuse(Act(unit="anton", action="use", option="medkit", target="viktor")).code == "out_of_reach"
    assert a.refuse(Act(unit="viktor", action="use", option="field_ration", target="anton")).code == "self_only"
    assert a.refuse(Act(unit="anton", action="use", option="banana")).code == "unknown_item"


def test_rest_gives_two_next_turn(content):
    a = arena(content, ".A.", {"A": "anton"}, anton={"stamina": 3})
    events, a = a.do(Act(unit="anton", action="rest"))
    assert soldier(a.unit("anton")).actions == 0
    _, a = a.do(EndTurn(side="xcom"))
    _, a = a.do(EndTurn(side="aliens"))
    assert a.unit("anton").record.stamina == 5 and "rest" not in counters(a.unit("anton"))


@pytest.mark.parametrize("how", ["hurt", "dodged"])
def test_rest_is_cancelled_by_damage_or_a_dodge(content, how):
    a = arena(content, ".A.", {"A": "anton"}, anton={"stamina": 3})
    _, a = a.do(Act(unit="anton", action="rest"))
    _, a = a.do(EndTurn(side="xcom"))
    ledger = Ledger(a.state.units)
    events = []
    if how == "hurt":
        ledger.set("anton", "wounded", hp=a.unit("anton").hp - 3)
    else:
        from engine.core.dice import Roll
        events.append(Resolved(actor="sectoid_1", action="shoot", target="anton", outcome="dodged", text="",
                               rolls=(Roll(actor="anton", purpose="dodge", expr="1d100", faces=(50,),
                                           formula="agility 4*50=200", total=200),)))
    events += ledger.events
    extra = consumables.after(a.ruleset, a.state, events, Dice.scripted([]))
    assert [e.cause for e in extra] == [f"rest broken: {'it was hurt' if how == 'hurt' else 'it dodged'}"]
    a = Arena(a.ruleset, fold(a.state, events + extra))
    _, a = a.do(EndTurn(side="aliens"))
    assert a.unit("anton").record.stamina == 3


# -- TV-20: passive movement -----------------------------------------------------------------------------


def test_tv20_passive_movement(content):
    # A1..A5 are the cells (1,1)..(5,1); Julia carries the bucket (a field ration), Anton and Stephen wait at A4
    a = arena(content, """
        .......
        .J..A..
        .......
    """, {"J": "julia", "A": "anton stephen"}, julia={"items": {"field_ration": 1}})
    a3, a4, a5 = (3, 1), (4, 1), (5, 1)
    _, a = a.do(Move(unit="julia", path=((2, 1), a3)))  # A1 -> A3
    assert a.refuse(Act(unit="anton", action="carry", target="julia", cell=a5)).code == "not_together"
    _, a = a.do(Move(unit="anton", path=(a3,)))  # A4 -> A3
    events, a = a.do(Act(unit="anton", action="carry", target="julia", cell=a4))  # both to A4, his turn ends
    assert [e.unit for e in events if isinstance(e, Moved)] == ["anton", "julia"]
    assert a.unit("julia").pos == a.unit("anton").pos == a4 and soldier(a.unit("anton")).actions == 0
    assert a.refuse(Act(unit="anton", action="carry", target="julia", cell=a5)).code == "no_actions"
    # Stephen cannot move Julia and Anton at once
    assert a.refuse(Act(unit="stephen", action="carry", target="julia", cell=a5,
                        targets=("anton",))).code == "one_at_a_time"
    _, a = a.do(Act(unit="stephen", action="carry", target="julia", cell=a5))  # both to A5
    assert a.unit("julia").pos == a.unit("stephen").pos == a5 and a.unit("anton").pos == a4
    assert soldier(a.unit("stephen")).actions == 0
    assert a.unit("julia").items == {"field_ration": 1}  # the bucket stays hers: take needs consent or a roll


def test_taking_an_item_from_a_hostile_is_a_strength_contest(content):
    a = arena(content, "AS", {"A": "anton", "S": "sectoid_1"})
    sectoid = a.unit("sectoid_1")
    best = max(soldier(sectoid).stats["strength"], soldier(sectoid).stats["agility"])
    events, a = a.do(Act(unit="anton", action="take", target="sectoid_1", option="alien_grenade"), [60, 50, 10])
    rolls = next(e for e in events if isinstance(e, Resolved)).rolls
    stat = "strength" if soldier(sectoid).stats["strength"] >= soldier(sectoid).stats["agility"] else "agility"
    assert [r.formula for r in rolls] == ["strength 7*60=420", "luck 6*50=300>=100 ✓",
                                          f"{stat} {best}*10={best * 10}"]
    assert a.unit("anton").items["alien_grenade"] == 1 and "alien_grenade" not in a.unit("sectoid_1").items
    assert soldier(a.unit("anton")).actions == 0


# -- TV-21: phase end ---------------------------------------------------------------------------------------


def test_tv21_the_counter_roll_closes_the_phase(content):
    a = arena(content, """
        ....J
        .....
        .....
        .....
        S....
    """, {"J": "julia", "S": "sectoid_1"}, side="aliens", julia={"facing": 5}, cells_per_sector=1)
    phase = a.state.phase
    sectoid = a.unit("sectoid_1")
    # the last alien attacks Julia; her dodge is part of the same record, in phase N
    events, a = a.do(Shoot(unit="sectoid_1", target="julia"), [50, 60, 90, 70])
    shot = next(e for e in events if isinstance(e, Resolved))
    assert [r.actor for r in shot.rolls] == ["sectoid_1", "sectoid_1", "julia", "julia"]
    assert shot.outcome == "dodged" and a.state.phase == phase and sectoid
    events, a = a.do(EndTurn(side="aliens"))
    assert isinstance(events[0], PhaseStarted) and events[0].phase == phase + 1
    assert any(isinstance(e, SideStarted) and e.side == "xcom" for e in events)
    assert soldier(a.unit("julia")).actions == 2  # the Vanguard's side takes its first turn of phase N+1


# -- TV-22 and 4.7: special formulas; 4.6: item search ---------------------------------------------------------


def test_tv22_special_formula_in_the_game(content):
    a = arena(content, "..A#", {"A": "anton"}, zones={"hold": ((3, 0),)})
    assert [o.label for o in a.ruleset.options(a.state, a.unit("anton")) if o.command.action == "special"] == [
        "Decode the navigation console"]
    events, a = a.do(Act(unit="anton", action="special", option="decode"), [50, 40, 20])
    special = next(e for e in events if isinstance(e, Resolved))
    assert [r.formula for r in special.rolls] == ["intelligence+psionics 9*50=450", "luck 6*40=240>=100 ✓",
                                                  "god 10*20=200"]
    assert special.outcome == "success" and soldier(a.unit("anton")).actions == 0
    assert counters(a.unit("anton"))["special_decode"] == 1
    far = arena(content, "A..#", {"A": "anton"}, zones={"hold": ((3, 0),)})
    assert far.refuse(Act(unit="anton", action="special", option="decode")).code == "out_of_reach"
    assert far.refuse(Act(unit="anton", action="special", option="pipe")).code == "unknown_formula"


def test_the_power_source_still_shuts_down(content):
    a = arena(content, ".A..", {"A": "anton"}, zones={"power": ((2, 0),)})
    grid = a.state.grid.with_tiles({(2, 0): "power_source"})
    a = Arena(a.ruleset, evolved(a.state, grid=grid))
    events, a = a.do(Act(unit="anton", action="shut_down", cell=(2, 0)), [50, 40, 20])
    assert next(e for e in events if isinstance(e, Resolved)).rolls[0].formula == "intelligence 6*50=300"
    assert a.state.grid.tile((2, 0)) == "power_source_off"


def test_search_finds_removes_and_crits(content):
    a = arena(content, "..A#", {"A": "anton julia"}, zones={"hold": ((3, 0),)})
    # anton luck 6: 6*3+70 = 88 -> medkit (80-109)
    events, a = a.do(Act(unit="anton", action="search"), [70])
    found = next(e for e in events if isinstance(e, Resolved))
    assert found.rolls[0].formula == "search luck 6*3+70=88" and found.outcome == "found"
    assert a.unit("anton").items["medkit"] == 2 and soldier(a.unit("anton")).actions == 0
    assert counters(a.unit("anton"))["found_hold_1"] == 1
    # Julia (luck 2) rolls 70 = 76: field ration; a crit success picks the best left (xs), a crit failure nothing
    rows = [r.item for _, r in search.left(a.ruleset, a.state, "hold")]
    assert rows == ["field_ration", "xs_076_2"]
    events, b = a.do(Act(unit="julia", action="search"), [97])
    assert b.unit("julia").items.get("xs_076_2") == 1 and b.unit("julia").record.morale == 100
    assert counters(b.unit("julia"))["crit_plus"] == 1
    events, c = a.do(Act(unit="julia", action="search"), [4])
    assert next(e for e in events if isinstance(e, Resolved)).outcome == "nothing"
    assert counters(c.unit("julia"))["crit_minus"] == 1 and c.unit("julia").record.morale == 50
    events, d = a.do(Act(unit="julia", action="search"), [30])  # 2*3+30 = 36: below every row
    assert next(e for e in events if isinstance(e, Resolved)).outcome == "nothing"


def test_search_only_where_the_mission_says(content):
    a = arena(content, "A..#", {"A": "anton"}, zones={"hold": ((3, 0),)})
    assert a.refuse(Act(unit="anton", action="search")).code == "nothing_to_search"
    assert not [o for o in a.ruleset.options(a.state, a.unit("anton")) if o.command.action == "search"]


def test_menu_offers_items_rest_and_carry(content):
    a = arena(content, "....\n.A..\n....\n....", {"A": "anton julia"}, anton={"stamina": 2})
    labels = [o.label for o in a.ruleset.options(a.state, a.unit("anton"))]
    assert "Medkit → yourself (1 left)" in labels and "Medkit → Julia (1 left)" in labels
    assert "Rest (+2 stamina next turn)" in labels
    assert sum(label.startswith("Help Julia to") for label in labels) == 8


# -- resolve scenarios ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, dice, expected", [
    ("bravery", "52,3", "Anton keeps a cool head at the sight of Chryssalid"),
    ("search", "70", "Anton searches: finds medkit"),
    ("special", "50,40,20", "Anton: (strength+intelligence) special formula succeeds"),
])
def test_scenario_files_resolve(name, dice, expected, capsys):
    from tui.cli import main

    code = main(["resolve", str(ROOT / "docs" / "scenarios" / f"{name}.toml"), "--dice", dice, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["summary"] == expected


# -- content ---------------------------------------------------------------------------------------------------


def test_items_content_is_cross_checked(tmp_path):
    import shutil

    shutil.copytree(loader.default_dir(), tmp_path / "c")
    units = tmp_path / "c" / "xcom-trpg/units.toml"
    units.write_text(units.read_text().replace("medkit = 1 }", "medkitt = 1 }", 1))
    crash = tmp_path / "c" / "missions" / "crash.toml"
    crash.write_text(crash.read_text().replace('item = "medkit"', 'item = "medikit"')
                     .replace("max_phases = 30\n", 'max_phases = 30\nleader = "vip"\n')
                     .replace("min = 40, max = 79", "min = 80, max = 79") +
                     '\n[crash.formulas.x]\ntext = "X"\nstats = ["wits"]\nzone = "engine"\n')
    with pytest.raises(loader.ContentError) as err:
        loader.load(tmp_path / "c")
    messages = err.value.messages
    assert "xcom-trpg/units.toml: [anton].items.medkitt: unknown item 'medkitt' (did you mean 'medkit'?)" in messages
    assert "missions/crash.toml: [crash].search.hold.loot[1].item: unknown item 'medikit' (did you mean 'medkit'?)" \
        in messages
    assert "missions/crash.toml: [crash].formulas.x.stats: unknown stat 'wits'" in messages
    assert "missions/crash.toml: [crash].leader: 'vip' is not in the squad" in messages
    assert "missions/crash.toml: [crash].search.hold.loot[0]: min 80 is above max 79" in messages
    assert "missions/crash.toml: [crash].formulas.x.zone: unknown zone of the alien_ship map 'engine'" in messages


# -- properties ------------------------------------------------------------------------------------------------


COMMANDS = st.lists(st.tuples(st.sampled_from(["speech", "use", "rest", "carry", "end", "search", "hurt", "crit"]),
                              st.integers(0, 7), st.integers(0, 7)), max_size=25)


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(steps=COMMANDS, seed=st.integers(0, 3))
def test_morale_and_stamina_stay_in_range(content, steps, seed):
    a = arena(content, """
        ......
        .AJ...
        .LV.#.
        ......
    """, {"A": "anton", "J": "julia stephen", "L": "laura", "V": "viktor"}, zones={"hold": ((4, 2),)},
        laura={"stamina": 0, "morale": 10}, julia={"morale": 3})
    faces = Faces(seed_from_int(seed))
    ids = ["anton", "julia", "stephen", "laura", "viktor"]
    state = a.state
    for kind, i, j in steps:
        uid = ids[i % len(ids)]
        unit = state.units[uid]
        if kind == "end":
            command = EndTurn(side=state.side)
        elif kind == "use":
            items = sorted(k for k in unit.items if k in xcom(content).items)
            if not items:
                continue
            command = Act(unit=uid, action="use", option=items[j % len(items)], target=ids[j % len(ids)])
        elif kind == "carry":
            command = Act(unit=uid, action="carry", target=ids[j % len(ids)],
                          cell=(unit.pos[0] + j % 3 - 1, unit.pos[1] + 1))
        elif kind == "hurt":
            ledger = Ledger(state.units)
            apply_hits(ledger, a.ruleset.rules, "sectoid_1", combat.Outcome(
                [], [combat.Hit(uid, j, i)], "hit", "", {}), pellets=False)
            state = fold(state, ledger.events)
            continue
        elif kind == "crit":
            ledger = Ledger(state.units)
            token = "crit_minus" if j % 2 else "crit_plus"
            ledger.set(uid, "token", **{token: ledger.get(uid, token) + 1})
            extra = tokens.after(a.ruleset, state, ledger.events, Dice(faces, state.dice))
            state = fold(state, ledger.events + extra)
            continue
        else:
            command = Act(unit=uid, action=kind)
        try:
            events = a.ruleset.decide(state, command, Dice(faces, state.dice))
        except DiceExhausted:  # pragma: no cover - seeded dice never run out
            raise
        if not isinstance(events, Rejected):
            state = fold(state, events)
        for u in state.units.values():
            assert 0 <= u.record.morale <= u.record.morale_max, (u.id, u.record.morale)
            assert u.record.stamina >= 0, (u.id, u.record.stamina)


def test_the_shot_preview_counts_the_dodge_buff_like_the_shot_does(content):
    """Heroic inspiration 3 (+3 Agility, +1 Luck on every dodge) lowers the previewed hit chance."""
    from engine.rules.xcom_trpg import odds
    from engine.rules.xcom_trpg.units import spawn as _spawn

    rules = xcom(content).rulesets["xcom-trpg"]
    shooter, _ = _spawn(content, rules, "anton", "anton", "Anton", "xcom", (0, 0), 0, Dice(None, script=[]), hp=60)
    target, _ = _spawn(content, rules, "julia", "julia", "Julia", "aliens", (5, 0), 0, Dice(None, script=[]), hp=50)
    weapon = xcom(content).weapons[soldier(shooter).weapon]
    mode = weapon.modes["single"]
    plain = odds.shot_odds(content, rules, shooter, target, weapon, mode, between=4, target_sees=True, cover=0)
    buffed = evolved(target, counters={"buff_plus": 3})
    inspired = odds.shot_odds(content, rules, shooter, buffed, weapon, mode, between=4, target_sees=True, cover=0)
    assert inspired[0] < plain[0]


def test_the_menu_offers_to_take_a_neighbours_item(content):
    from engine.rules.xcom_trpg.units import spawn as _spawn
    from engine.map.grid import Grid
    from engine.core.model import State
    from engine.core.ruleset import make

    rules = xcom(content).rulesets["xcom-trpg"]
    anton, _ = _spawn(content, rules, "anton", "anton", "Anton", "xcom", (3, 3), 0, Dice(None, script=[]), hp=60)
    julia, _ = _spawn(content, rules, "julia", "julia", "Julia", "xcom", (4, 3), 0, Dice(None, script=[]), hp=50)
    anton = evolved(anton, actions=2)
    grid = Grid.from_ids([["grass"] * 8 for _ in range(8)], content.terrain)
    state = State(ruleset="xcom-trpg", mission="test", grid=grid, units={"anton": anton, "julia": julia}, phase=1,
                  side="xcom", sides=("xcom", "aliens"))
    rs = make("xcom-trpg", content, None)
    takes = [o for o in rs.options(state, anton) if o.command.action == "take"]
    assert {o.command.option for o in takes} == {i for i, n in julia.items.items() if n}
    assert all(o.label.startswith("Take Julia's ") and o.note == "handed over: 1 action" for o in takes)
    events = rs.decide(state, takes[0].command, Dice(None, script=[]))
    assert not isinstance(events, Rejected)
