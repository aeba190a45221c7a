"""xcom-trpg melee (5.1, 8.11), charisma (5.5) and the special weapons (8.12), played through the ruleset's
commands with scripted dice, and through `xenotac resolve`."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.ai.planner import Ai
from engine.core.commands import Act, EndTurn, Move, Rejected, Reload, Shoot, Wait
from engine.core.dice import Dice
from engine.core.events import Moved, Resolved
from engine.map.grid import Grid
from engine.core.model import State
from engine.core.reducer import fold
from engine.core.ruleset import make
from engine.rules.xcom_trpg import melee, odds
from engine.rules.xcom_trpg.units import spawn
from engine.rules.xcom_trpg.scenario import Action, Scenario, ScenarioUnit, make_units
from engine.rules.xcom_trpg.tables import xcom
from tests.xcom_record import counters, evolved, flags
from engine.rules.xcom_trpg.record import soldier

ANTON = {"strength": 7, "agility": 4, "intelligence": 6, "bravery": 6, "charisma": 4, "luck": 6, "psionics": 3}
JULIA = {"strength": 5, "agility": 10, "intelligence": 6, "bravery": 5, "charisma": 7, "luck": 2, "psionics": 1}
SCENARIOS = Path(__file__).parent.parent / "docs" / "scenarios"


def make_unit(content, template, uid, side, pos, facing=0, **changes):
    u, _ = spawn(content, xcom(content).rulesets["xcom-trpg"], template, uid, uid.replace("_", " ").title(), side, pos,
                 facing, Dice(None, script=[]), hp=40)
    return evolved(u, **{"actions": 2 if side == "xcom" else 0, **changes})


def world(content, *units, side="xcom", phase=1, size=12):
    grid = Grid.from_ids([["grass"] * size for _ in range(size)], content.terrain)
    state = State(ruleset="xcom-trpg", mission="eliminate", grid=grid, units={u.id: u for u in units},
                  phase=phase, side=side, sides=("xcom", "aliens"))
    return make("xcom-trpg", content, None), state


def play(rs, state, command, faces=()):
    dice = Dice.scripted(list(faces))
    events = rs.decide(state, command, dice)
    assert not isinstance(events, Rejected), events
    assert dice.scripted_left == 0, "every scripted die must be used"
    return fold(state, events), events


def refused(rs, state, command, code):
    result = rs.decide(state, command, Dice.scripted([]))
    assert isinstance(result, Rejected), result
    assert result.code == code, result
    return result


def formulas(events):
    return [r.formula for e in events if isinstance(e, Resolved) for r in e.rolls]


def resolved(events):
    return next(e for e in events if isinstance(e, Resolved))


def pair(content, a_stats=ANTON, b_stats=JULIA, a_tpl="anton", b_tpl="julia", b_side="aliens", **b_changes):
    anton = make_unit(content, a_tpl, "anton", "xcom", (3, 3), stats=dict(a_stats))
    julia = make_unit(content, b_tpl, "julia", b_side, (4, 3), stats=dict(b_stats), **b_changes)
    return world(content, anton, julia)


# -- melee ---------------------------------------------------------------------------------------------


def test_tv01_grab_through_the_action(content):
    rs, state = pair(content)
    after, events = play(rs, state, Act(unit="anton", action="grab", target="julia"), [24, 58, 17, 64])
    assert formulas(events) == ["strength 7*24=168", "luck 6*58=348>=100 ✓", "agility 10*17=170",
                                "luck 2*64=128>=100 ✓"]
    assert resolved(events).text == "Julia slips free" and resolved(events).outcome == "failure"
    assert melee.holder(after.units["julia"]) is None
    assert soldier(after.units["anton"]).actions == 0  # the roll interaction ends the turn


def test_tv01_escape_through_the_action(content):
    """Held Julia escapes with her best of Str/Agi against Anton's Strength: the same numbers, in her order;
    his 168 is below her 170, so he makes no luck check (3.2)."""
    rs, state = pair(content, b_side="xcom")
    held = evolved(state.units["julia"], counters={"melee_held_by:anton": 1}, actions=2)
    state = evolved(state, units={**state.units, "julia": held,
                                       "anton": evolved(state.units["anton"], side="aliens",
                                                             counters={"melee_holding:julia": 1})})
    refused(rs, state, Move(unit="julia", path=((5, 3),)), "held")
    after, events = play(rs, state, Act(unit="julia", action="escape"), [17, 64, 24])
    assert formulas(events) == ["agility 10*17=170", "luck 2*64=128>=100 ✓", "strength 7*24=168"]
    assert melee.holder(after.units["julia"]) is None and not counters(after.units["anton"])
    assert soldier(after.units["julia"]).actions == 0


def test_tv02_arm_wrestling_through_the_action(content):
    rs, state = pair(content)
    after, events = play(rs, state, Act(unit="anton", action="grab", target="julia", option="arm_wrestling"),
                         [66, 20, 93, 48])
    assert [r.total for e in events if isinstance(e, Resolved) for r in e.rolls] == [462, 120, 465, 96]
    assert formulas(events)[2] == "strength 5*93=465"  # Strength only, no agility
    assert resolved(events).outcome == "success"  # she sneezes
    assert melee.holder(after.units["julia"]) == "anton"
    assert after.units["julia"].record.concussion == 0


def test_a_held_unit_cannot_move_until_the_grabber_lets_go(content):
    rs, state = pair(content)
    after, _ = play(rs, state, Act(unit="anton", action="grab", target="julia"), [80, 50, 10])
    assert melee.holder(after.units["julia"]) == "anton"
    turn = evolved(after, side="aliens", units={**after.units,
                                                     "julia": evolved(after.units["julia"], actions=2)})
    refused(rs, turn, Move(unit="julia", path=((5, 3),)), "held")
    # the grabber walks off: the grip is broken
    walk = evolved(after, units={**after.units, "anton": evolved(after.units["anton"], actions=2)})
    later, _ = play(rs, walk, Move(unit="anton", path=((2, 3),)))
    assert melee.holder(later.units["julia"]) is None and "melee_holding:julia" not in counters(later.units["anton"])


@pytest.mark.parametrize("armor,concussion", [("light", 5), ("heavy", 4)])
def test_melee_crit_is_unblockable_and_concusses(content, armor, concussion):
    rs, state = pair(content, armor=armor)
    state = evolved(state, units={**state.units, "anton": evolved(state.units["anton"], morale=40)})
    after, events = play(rs, state, Act(unit="anton", action="grab", target="julia"), [97])
    assert formulas(events) == ["strength 7*97=679 → critical success (96-100)"]  # no counter-roll
    julia = after.units["julia"]
    assert julia.record.concussion == concussion and ("concussed" in flags(julia))
    assert julia.record.morale == 100 - 6  # -30/Bravery 5
    assert after.units["anton"].record.morale == 90 and counters(after.units["anton"])["crit_plus"] == 1
    assert melee.holder(julia) == "anton"


def test_arm_wrestling_crit_deals_no_concussion(content):
    rs, state = pair(content)
    after, _ = play(rs, state, Act(unit="anton", action="grab", target="julia", option="arm_wrestling"), [99])
    assert after.units["julia"].record.concussion == 0


def test_shove_moves_the_target_one_cell_away(content):
    rs, state = pair(content)
    refused(rs, state, Act(unit="anton", action="shove", target="julia", cell=(2, 3)), "no_room")
    after, events = play(rs, state, Act(unit="anton", action="shove", target="julia", cell=(5, 4)), [80, 50, 10])
    assert formulas(events) == ["strength 7*80=560", "luck 6*50=300>=100 ✓", "agility 10*10=100"]
    assert after.units["julia"].pos == (5, 4)
    assert any(isinstance(e, Moved) and e.unit == "julia" for e in events)


def test_melee_reaches_only_the_next_cell(content):
    rs, state = pair(content)
    far = evolved(state.units["julia"], pos=(6, 3))
    refused(rs, evolved(state, units={**state.units, "julia": far}),
            Act(unit="anton", action="grab", target="julia"), "out_of_reach")


def test_melee_options(content):
    rs, state = pair(content)
    labels = [o.label for o in rs.options(state, state.units["anton"]) if o.group == "Melee"]
    assert "Grab Julia" in labels and any(label.startswith("Shove Julia to") for label in labels)
    held = evolved(state, side="aliens", units={**state.units, "julia": evolved(
        state.units["julia"], actions=2, counters={"melee_held_by:anton": 1})})
    assert "Escape from Anton" in [o.label for o in rs.options(held, held.units["julia"])]


# -- charisma ------------------------------------------------------------------------------------------


def resolve(content, units, action, faces):
    sc = Scenario(ruleset="xcom-trpg", units=units, action=action)
    built, _ = make_units(content, sc, Dice(None, script=[]))
    dice = Dice.scripted(faces)
    verdict = make("xcom-trpg", content, None).referee(built, action, dice)
    assert dice.scripted_left == 0
    return verdict


def test_tv06_charisma_crit_then_diminishing(content):
    units = {"julia": ScenarioUnit(race="human", stats=JULIA, hp=50, morale=40),
             "anton": ScenarioUnit(race="human", stats=ANTON, hp=61)}
    v = resolve(content, units, Action(type="persuade", actor="julia", target="anton", demand="retreat",
                                       hostile=True), [97])
    assert [r.formula for r in v.rolls] == ["charisma 7*97=679 → critical success (96-100)"]
    assert v.summary.startswith("Julia persuades Anton")
    julia, anton = v.after["julia"], v.after["anton"]
    assert counters(julia)["crit_plus"] == 1 and julia.record.morale == 90
    assert counters(julia)["cha_pair:anton"] == 1 and counters(anton)["cha_pair:julia"] == 1
    v = resolve(content, units, Action(type="persuade", actor="julia", target="anton", demand="retreat", earlier=1),
                [50, 50, 50, 50])
    assert [r.formula for r in v.rolls] == ["charisma 7*50-100=250", "luck 2*50=100>=100 ✓",
                                            "charisma 4*50+100=300", "luck 6*50=300>=100 ✓"]
    assert v.summary.startswith("Julia fails to persuade Anton") and counters(v.after["anton"])["cha_pair:julia"] == 2


def test_hostility_immunity_yields_only_to_a_crit(content):
    units = {"julia": ScenarioUnit(race="human", stats=JULIA, hp=50),
             "anton": ScenarioUnit(race="human", stats=ANTON, hp=61)}
    v = resolve(content, units, Action(type="persuade", actor="julia", target="anton", demand="retreat", hostile=True),
                [90])
    assert [r.formula for r in v.rolls] == ["charisma 7*90=630"] and "fails" in v.summary


def test_xenophobes_and_xenophiles(content):
    sectoid = {"strength": 3, "agility": 7, "intelligence": 8, "bravery": 4, "charisma": 6, "luck": 6, "psionics": 4}
    units = {"s": ScenarioUnit(race="sectoid", stats=sectoid, hp=30, sex="female"),
             "anton": ScenarioUnit(race="human", stats=ANTON, hp=61, traits=["xenophobe"])}
    v = resolve(content, units, Action(type="persuade", actor="s", target="anton", demand="retreat"), [])
    assert v == Rejected("xenophobe", "Anton is a xenophobe: immune to S's charisma (5.5)")  # as the game refuses
    v = resolve(content, units, Action(type="persuade", actor="anton", target="s", demand="retreat"), [])
    assert v.code == "xenophobe" and "never negotiates" in v.reason
    units["anton"] = ScenarioUnit(race="human", stats=ANTON, hp=61, traits=["xenophile"], sex="male")
    v = resolve(content, units, Action(type="persuade", actor="s", target="anton", demand="retreat", earlier=2), [50, 50, 50])
    assert [r.formula for r in v.rolls][0::2] == ["charisma 6*50=300", "charisma 4*50=200"]  # no ±200
    units["s"] = ScenarioUnit(race="sectoid", stats=sectoid, hp=30, sex="male")
    v = resolve(content, units, Action(type="persuade", actor="s", target="anton", demand="retreat", earlier=2), [50, 50, 50, 50])
    assert [r.formula for r in v.rolls][0::2] == ["charisma 6*50-200=100", "charisma 4*50+200=400"]


def persuasion(content, demand, faces=(80, 60, 10)):
    julia = make_unit(content, "julia", "julia", "xcom", (3, 3))
    sectoid = make_unit(content, "sectoid", "s", "aliens", (3, 6), facing=0)
    rs, state = world(content, julia, sectoid)
    after, events = play(rs, state, Act(unit="julia", action="persuade", target="s", option=demand), faces)
    return rs, after, events


def test_a_won_demand_binds_the_next_turn_hold_fire(content):
    rs, after, events = persuasion(content, "hold_fire")
    assert formulas(events) == ["charisma 7*80=560", "luck 2*60=120>=100 ✓", "charisma 3*10=30"]
    assert counters(after.units["s"])["cha_demand_hold_fire"] == 1
    assert counters(after.units["s"])["cha_pair:julia"] == counters(after.units["julia"])["cha_pair:s"] == 1
    turn, _ = play(rs, after, EndTurn(side="xcom"))
    assert ("cha_hold_fire" in flags(turn.units["s"])) and "cha_demand_hold_fire" not in counters(turn.units["s"])
    refused(rs, turn, Shoot(unit="s", target="julia"), "persuaded")
    play(rs, turn, Move(unit="s", path=((3, 7),)))
    # the AI does not get stuck on its refused shot: its turn still ends
    ai, state = Ai(rs, "aliens"), turn
    for _ in range(20):
        command = ai.next_command(state)
        result = rs.decide(state, command, Dice.scripted([]))
        if isinstance(result, Rejected):
            ai.rejected(command, result)
            continue
        state = fold(state, result)
        if isinstance(command, EndTurn):
            break
    assert state.side == "xcom" and state.units["julia"].hp == 40


def test_retreat_allows_only_moving_away(content):
    rs, after, _ = persuasion(content, "retreat")
    turn, _ = play(rs, after, EndTurn(side="xcom"))
    refused(rs, turn, Move(unit="s", path=((3, 5),)), "persuaded")
    refused(rs, turn, Shoot(unit="s", target="julia"), "persuaded")
    play(rs, turn, Move(unit="s", path=((3, 7), (3, 8))))
    play(rs, turn, Wait(unit="s"))


def test_surrender_and_drop_item(content):
    rs, after, _ = persuasion(content, "surrender")
    turn, _ = play(rs, after, EndTurn(side="xcom"))
    s = turn.units["s"]
    assert soldier(s).weapon == "unarmed" and soldier(s).actions == 0 and ("cha_surrender" in flags(s))
    rs, after, _ = persuasion(content, "drop_item")
    turn, _ = play(rs, after, EndTurn(side="xcom"))
    assert turn.units["s"].items == {} and soldier(turn.units["s"]).actions == 2


def test_crit_failure_makes_it_immune_for_the_episode(content):
    rs, after, events = persuasion(content, "retreat", faces=[3])
    assert counters(after.units["s"])["cha_immune:julia"] == 1 and counters(after.units["julia"])["crit_minus"] == 1
    again = evolved(after, units={**after.units, "julia": evolved(after.units["julia"], actions=2)})
    refused(rs, again, Act(unit="julia", action="persuade", target="s", option="retreat"), "immune")


def test_an_attacker_is_immune_to_its_victims_charisma_but_to_a_crit(content):
    julia = make_unit(content, "julia", "julia", "xcom", (3, 3))
    s = make_unit(content, "sectoid", "s", "aliens", (3, 6), counters={"cha_hostile:julia": 1})
    rs, state = world(content, julia, s, phase=2)
    after, events = play(rs, state, Act(unit="julia", action="persuade", target="s", option="retreat"), [90])
    assert formulas(events) == ["charisma 7*90=630"] and resolved(events).outcome == "failure"
    after, events = play(rs, state, Act(unit="julia", action="persuade", target="s", option="retreat"), [98])
    assert resolved(events).outcome == "success"
    # three phases later the grudge is old: an ordinary contest
    after, events = play(rs, evolved(state, phase=4),
                         Act(unit="julia", action="persuade", target="s", option="retreat"), [80, 60, 10])
    assert len(formulas(events)) == 3


def test_a_shot_marks_the_shooter_as_attacking_in_earnest(content):
    julia = make_unit(content, "julia", "julia", "xcom", (3, 3))
    s = make_unit(content, "sectoid", "s", "aliens", (3, 5))
    rs, state = world(content, julia, s, phase=3)
    after, _ = play(rs, state, Shoot(unit="julia", target="s"), [50, 60])
    assert counters(after.units["julia"])["cha_hostile:s"] == 3


def test_who_cannot_persuade(content):
    c = make_unit(content, "chryssalid", "c", "xcom", (3, 3))
    s = make_unit(content, "sectoid", "s", "aliens", (3, 5))
    rs, state = world(content, c, s)
    refused(rs, state, Act(unit="c", action="persuade", target="s", option="retreat"), "defends_only")
    julia = make_unit(content, "julia", "julia", "xcom", (3, 3))
    s = make_unit(content, "sectoid", "s", "aliens", (3, 5), counters={"buff_plus": 4})
    rs, state = world(content, julia, s)
    refused(rs, state, Act(unit="julia", action="persuade", target="s", option="retreat"), "immune")
    c = make_unit(content, "chryssalid", "c", "aliens", (3, 5))
    rs, state = world(content, julia, c)
    refused(rs, state, Act(unit="julia", action="persuade", target="c", option="surrender"), "against_nature")
    labels = [o.label for o in rs.options(state, state.units["julia"]) if o.group == "Charisma"]
    assert labels == ["Retreat → C", "Hold fire → C"]  # a chryssalid has claws and nothing to drop


# -- tranquilizer (8.12.4, D-5) --------------------------------------------------------------------------


def darts_at(content, target="snakeman", armor=None, phase=4, size=12, **shooter):
    julia = make_unit(content, "julia", "julia", "xcom", (3, 3), **{"weapon": "tranquilizer_pistol", "ammo": 1,
                                                                    "magazines": 1, **shooter})
    extra = {"armor": armor} if armor else {}
    t = make_unit(content, target, "t", "aliens", (3, 5), facing=4, **extra)
    return world(content, julia, t, phase=phase, size=size)


def run_phases(rs, state, until):
    seen = {}
    while state.phase < until:
        state, _ = play(rs, state, EndTurn(side=state.side))
        if state.side == "xcom":
            seen[state.phase] = state.units["t"].status
    return state, seen


@pytest.mark.parametrize("face,wake", [(50, 9), (97, 11)])
def test_d5_dart_timeline(content, face, wake):
    rs, state = darts_at(content)
    faces = [face, 60] if face < 96 else [face]
    after, events = play(rs, state, Shoot(unit="julia", target="t"), faces)
    assert formulas(events)[0].startswith(f"agility 12*{face}")  # +2 Agility
    assert after.units["t"].hp == 40 and soldier(after.units["julia"]).ammo == 0  # no HP damage
    assert counters(after.units["t"])["tranq_wake"] == wake - 4
    state, _ = play(rs, after, EndTurn(side="xcom"))
    assert soldier(state.units["t"]).actions == 2  # phase 4: nothing yet
    state, _ = play(rs, state, EndTurn(side="aliens"))
    state, _ = play(rs, state, EndTurn(side="xcom"))
    assert state.phase == 5 and soldier(state.units["t"]).actions == 1  # clouded mind
    state, seen = run_phases(rs, state, wake + 1)
    assert seen[6] == "unconscious" and seen[wake - 1] == "unconscious" and seen[wake] == "active"
    assert not any(k.startswith("tranq_") for k in counters(state.units["t"]))


def test_darts_need_a_bare_spot_and_a_living_target(content):
    rs, state = darts_at(content, target="muton")
    refused(rs, state, Shoot(unit="julia", target="t"), "no_effect")
    rs, state = darts_at(content, target="cyberdisk")
    refused(rs, state, Shoot(unit="julia", target="t"), "no_effect")
    rs, state = darts_at(content, size=24)
    far = evolved(state.units["t"], pos=(3, 19))  # 16 cells: 4 sectors of 5, so 3 sectors between (1.3)
    refused(rs, evolved(state, units={**state.units, "t": far}), Shoot(unit="julia", target="t"), "out_of_range")


@pytest.mark.parametrize("kind,face,bonus,left", [(1, 50, -80, 5), (2, 50, 40, 5), (1, 97, -80, 7)])
def test_sectoid_drug_table(content, kind, face, bonus, left):
    rs, state = darts_at(content, target="sectoid", counters={"tranq_loaded": kind})
    t = evolved(state.units["t"], counters={"psi_ss": 10})
    state = evolved(state, units={**state.units, "t": t})
    after, _ = play(rs, state, Shoot(unit="julia", target="t"), [face, 60] if face < 86 else [face])
    got = counters(after.units["t"])
    assert got["tranq_psi_bonus"] == bonus and got["tranq_psi_left"] == left
    assert "tranq_wake" not in got  # no sedation for a sectoid
    assert got["psi_ss"] == (25 if kind == 2 else 10) and got.get("tranq_addicted", 0) == (kind == 2)


@pytest.mark.parametrize("face,kind", [(42, 1), (43, 2)])
def test_quick_reload_picks_a_random_dart(content, face, kind):
    rs, state = darts_at(content, ammo=0)
    after, events = play(rs, state, Reload(unit="julia"), [face])
    julia = after.units["julia"]
    assert formulas(events) == [f"dart 1d100={face}"]
    assert soldier(julia).ammo == 1 and counters(julia)["tranq_loaded"] == kind and soldier(julia).magazines == 0
    assert counters(julia)["tranq_thio"] == (4 if kind == 1 else 5) and soldier(julia).actions == 1


def test_careful_reload_takes_two_actions_over_turns(content):
    rs, state = darts_at(content, ammo=0, actions=1)
    after, _ = play(rs, state, Act(unit="julia", action="reload_careful", option="phenobarbital"))
    julia = after.units["julia"]
    assert soldier(julia).ammo == 0 and counters(julia)["tranq_found"] == 2 and soldier(julia).actions == 0
    nxt = evolved(after, units={**after.units, "julia": evolved(julia, actions=2)})
    labels = [o.label for o in rs.options(nxt, nxt.units["julia"])]
    assert "Load the phenobarbital dart" in labels and "Find a thioridazine dart" in labels
    done, _ = play(rs, nxt, Act(unit="julia", action="reload_careful", option="phenobarbital"))
    julia = done.units["julia"]
    assert soldier(julia).ammo == 1 and counters(julia)["tranq_loaded"] == 2 and counters(julia)["tranq_pheno"] == 4
    assert "tranq_found" not in counters(julia) and soldier(julia).actions == 1


def test_tranquilizer_preview_counts_the_dose(content):
    rs, state = darts_at(content)
    preview = rs.preview_shot(state, "julia", "t", "single")
    assert 0.4 < preview.p_hit < 0.6  # the luck check of Luck 2: 50 of 100 faces pass, less crit failures


# -- sniper rifle (8.12.5) -------------------------------------------------------------------------------


def sniping(content, target="sectoid", facing=0, distance=5, **changes):
    nadia = make_unit(content, "nadia", "nadia", "xcom", (3, 2 + distance), facing=0, **changes)
    t = make_unit(content, target, "t", "aliens", (3, 2), facing=facing)
    return world(content, nadia, t)


def test_normal_shot_has_minus_3_agility(content):
    rs, state = sniping(content, facing=0)
    _, events = play(rs, state, Shoot(unit="nadia", target="t"), [50, 50])
    assert formulas(events) == ["agility 6*50=300", "luck 6*50=300>=100 ✓"]


def test_sniper_shot_torso_with_a_dodge_from_afar(content):
    rs, state = sniping(content, facing=4)  # it faces the sniper
    after, events = play(rs, state, Shoot(unit="nadia", target="t", mode="sniper"), [50, 50, 30])
    assert formulas(events) == ["agility 12*50=600", "luck 6*50=300>=100 ✓", "agility 14*30=420"]
    assert after.units["t"].hp == 40 - 14
    nadia = after.units["nadia"]
    assert nadia.record.stamina == state.units["nadia"].record.stamina - 1 and soldier(nadia).actions == 0 and soldier(nadia).ammo == 3


def test_sniper_dodge_even_point_blank_with_plus_2_luck(content):
    rs, state = sniping(content, facing=4, distance=1)
    _, events = play(rs, state, Act(unit="nadia", action="snipe", target="t", option="torso"), [50, 50, 50, 50])
    assert formulas(events)[2:] == ["agility 14*50=700", "luck 8*50=400>=100 ✓"]
    assert resolved(events).outcome == "dodged"


@pytest.mark.parametrize("part,face,outcome,hp", [
    ("arm", 66, "miss", 40), ("arm", 67, "hit", 26), ("leg", 90, "hit", 26),
    ("head", 74, "miss", 40), ("head", 75, "headshot", None)])  # a sectoid's head needs 75
def test_sniper_part_rolls(content, part, face, outcome, hp):
    rs, state = sniping(content, facing=0)  # it looks away: no dodge
    after, events = play(rs, state, Act(unit="nadia", action="snipe", target="t", option=part), [50, 50, face])
    assert formulas(events)[2].startswith(f"{part} 1d100={face}")
    assert resolved(events).outcome == outcome
    assert (after.units["t"].status == "dead") if hp is None else after.units["t"].hp == hp


def test_sniper_head_needs_90_on_a_human_and_deals_42_through_heavy_armour(content):
    shooter = dict(JULIA)
    units = {"nadia": ScenarioUnit(race="human", stats=shooter, weapon="sniper_rifle", hp=50),
             "b": ScenarioUnit(race="human", stats=ANTON, armor="heavy", hp=61)}
    action = Action(type="shoot", actor="nadia", target="b", mode="sniper", part="head", target_sees_actor=False)
    v = resolve(content, units, action, [50, 60, 89])
    assert v.after["b"].hp == 61 and "head roll failed" in v.summary
    v = resolve(content, units, action, [50, 60, 90])
    assert [r.formula for r in v.rolls] == ["agility 13*50=650", "luck 2*60=120>=100 ✓", "head 1d100=90>=90 ✓"]
    assert v.after["b"].hp == 61 - 42
    units["b"] = ScenarioUnit(race="human", stats=ANTON, armor="medium", hp=61)
    assert resolve(content, units, action, [50, 60, 95]).after["b"].status == "dead"


def test_sniper_shot_never_crits(content):
    rs, state = sniping(content, facing=0)
    after, events = play(rs, state, Act(unit="nadia", action="snipe", target="t", option="torso"), [99, 50])
    assert formulas(events)[0] == "agility 12*99=1188" and "crit_plus" not in counters(after.units["nadia"])
    after, events = play(rs, state, Act(unit="nadia", action="snipe", target="t", option="torso"), [2, 50])
    assert formulas(events)[0] == "agility 12*2=24" and after.units["t"].hp == 26  # no crit failure either


def test_prone_saves_the_stamina_until_it_moves(content):
    rs, state = sniping(content, facing=0, stamina=0)
    refused(rs, state, Shoot(unit="nadia", target="t", mode="sniper"), "no_stamina")
    prone, _ = play(rs, state, Act(unit="nadia", action="prone"))
    assert counters(prone.units["nadia"])["sniper_prone"] == 1 and soldier(prone.units["nadia"]).actions == 1
    refused(rs, prone, Shoot(unit="nadia", target="t", mode="sniper"), "no_actions")  # 2 actions
    ready = evolved(prone, units={**prone.units, "nadia": evolved(prone.units["nadia"], actions=2)})
    after, _ = play(rs, ready, Shoot(unit="nadia", target="t", mode="sniper"), [50, 50])
    assert after.units["nadia"].record.stamina == 0
    moved, _ = play(rs, ready, Move(unit="nadia", path=((4, 7),)))
    assert "sniper_prone" not in counters(moved.units["nadia"])


def test_sniper_options_and_preview(content):
    rs, state = sniping(content, facing=0)
    options = {o.label: o for o in rs.options(state, state.units["nadia"]) if o.group == "Sniper"}
    assert {"Go prone", "Snipe T: torso", "Snipe T: head"} <= set(options)
    p_torso, dmg, _ = odds.sniper_odds(content, xcom(content).rulesets["xcom-trpg"], state.units["nadia"],
                                       state.units["t"], xcom(content).weapons["sniper_rifle"],
                                       xcom(content).weapons["sniper_rifle"].modes["sniper"], "torso",
                                       target_sees=False, cover=0)
    assert p_torso == pytest.approx(0.84) and dmg == pytest.approx(0.84 * 14)  # luck 6: faces 17-100
    p_head, _, kill = odds.sniper_odds(content, xcom(content).rulesets["xcom-trpg"], state.units["nadia"],
                                       state.units["t"], xcom(content).weapons["sniper_rifle"],
                                       xcom(content).weapons["sniper_rifle"].modes["sniper"], "head",
                                       target_sees=False, cover=0)
    assert kill == pytest.approx(0.84 * 0.26)
    preview = rs.preview_shot(state, "nadia", "t", "sniper")
    assert preview.p_hit == pytest.approx(0.84)


# -- PP2-BS, pistols, biometric lock, heavy weapons ------------------------------------------------------


def shooter_at(content, template, weapon=None, target="sectoid", **changes):
    extra = {"weapon": weapon, "ammo": xcom(content).weapons[weapon].ammo} if weapon else {}
    s = make_unit(content, template, "a", "xcom", (3, 3), **extra, **changes)
    t = make_unit(content, target, "t", "aliens", (3, 4), facing=0)
    return world(content, s, t)


def test_pp2_bs_gives_its_owner_plus_3_agility_plus_1_luck(content):
    rs, state = shooter_at(content, "zmey")
    _, events = play(rs, state, Shoot(unit="a", target="t"), [50, 30])
    assert formulas(events) == ["agility 11*50=550", "luck 5*30=150>=100 ✓"]
    rs, state = shooter_at(content, "julia", "pp2_bs")
    _, events = play(rs, state, Shoot(unit="a", target="t"), [50, 60])
    assert formulas(events) == ["agility 10*50=500", "luck 2*60=120>=100 ✓"]


def test_pp2_bs_burst_costs_no_stamina(content):
    rs, state = shooter_at(content, "zmey")
    after, events = play(rs, state, Shoot(unit="a", target="t", mode="burst"), [50, 30, 50, 30, 50, 30])
    assert len(formulas(events)) == 6 and after.units["a"].record.stamina == state.units["a"].record.stamina


def test_d2_rsh12_through_a_real_shot(content):
    rs, state = shooter_at(content, "anton", "rsh_12", stats=dict(ANTON, strength=5, agility=8))
    _, events = play(rs, state, Shoot(unit="a", target="t"), [50, 50])
    assert formulas(events)[0] == "agility 8*50-100=300"
    rs, state = shooter_at(content, "anton", "casull_454", stats=dict(ANTON, strength=6))
    _, events = play(rs, state, Shoot(unit="a", target="t"), [50, 50])
    assert formulas(events)[0] == "strength 6*50-150=150"


def test_alien_weapons_refuse_human_hands(content):
    rs, state = shooter_at(content, "anton", "plasma_rifle")
    refused(rs, state, Shoot(unit="a", target="t"), "biometric_lock")
    s = make_unit(content, "sectoid", "s", "aliens", (3, 3))
    a = make_unit(content, "anton", "t", "xcom", (3, 4))
    rs, state = world(content, s, a, side="aliens")
    state = evolved(state, units={**state.units, "s": evolved(s, actions=2)})
    play(rs, state, Shoot(unit="s", target="t"), [50, 50])


def test_grenade_launcher_blasts_and_super_heavy_fires_twice(content):
    rs, state = shooter_at(content, "stephen", "grenade_launcher", target="muton")
    after, events = play(rs, state, Shoot(unit="a", target="t"), [50, 50])
    assert after.units["t"].status == "dead"  # 60 through medium armour (ignore 2): 40 - 60 is below -5
    assert soldier(after.units["a"]).ammo == 0 and resolved(events).cell == (3, 4)
    pod = make_unit(content, "sectopod", "p", "aliens", (3, 3))
    a = make_unit(content, "anton", "t", "xcom", (3, 5), hp=100, hp_max=100)
    rs, state = world(content, pod, a, side="aliens")
    state = evolved(state, units={**state.units, "p": evolved(pod, actions=2)})
    after, events = play(rs, state, Shoot(unit="p", target="t"), [50, 50, 50, 50])
    assert [r.purpose for r in resolved(events).rolls] == ["attack 1", "luck check", "attack 2", "luck check"]
    assert after.units["t"].hp == 100 - 2 * 28  # light armour, ignore 2


def test_shove_and_arm_wrestling_referees(content):
    units = {"anton": ScenarioUnit(race="human", stats=ANTON, hp=61),
             "julia": ScenarioUnit(race="human", stats=JULIA, hp=50)}
    v = resolve(content, units, Action(type="shove", actor="anton", target="julia"), [80, 50, 10])
    assert [r.formula for r in v.rolls][2] == "agility 10*10=100" and v.summary == "Anton shoves Julia"
    v = resolve(content, units, Action(type="grab", actor="anton", target="julia", mode="arm_wrestling"),
                [66, 20, 93, 48])
    assert v.summary == "Anton grabs Julia" and counters(v.after["julia"])["melee_held_by:anton"] == 1
    v = resolve(content, units, Action(type="grab", actor="anton", target="julia"), [98])
    assert v.after["julia"].record.concussion == 5 and counters(v.after["anton"])["crit_plus"] == 1


# -- xenotac resolve on the example scenarios -------------------------------------------------------------


@pytest.mark.parametrize("name,dice,expected", [
    ("grab.toml", "24,58,17,64", "Julia slips free"),
    ("escape.toml", "17,64,24", "Julia breaks free from Anton"),
    ("persuade.toml", "97", "Julia persuades Anton: fall back"),
    ("sniper.toml", "50,60,92", "SNIPER HEADSHOT"),
    ("tranquilizer.toml", "50,60", "phenobarbital dart"),
])
def test_resolve_scenarios(name, dice, expected, capsys):
    from tui.cli import main

    code = main(["resolve", str(SCENARIOS / name), "--dice", dice])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "") and expected in out, out
