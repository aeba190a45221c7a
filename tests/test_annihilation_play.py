"""annihilation, registered and played: every shared mission AI against AI to its end and verified, the client's
battle screen at 80×24, `decide`'s refusals with their codes, reaction fire inside a move, and the CLI."""

from __future__ import annotations

import json
import re

import attrs
import pytest

from client_walk import draw_and_walk
from engine.content import missions
from engine.core import ruleset
from engine.core.commands import Act, Combo, EndTurn, Face, Move, Reload, Shoot, StartMission, Throw, Wait
from engine.core.dice import seed_from_int
from engine.core.events import Moved, Resolved
from engine.core.model import State
from engine.play import simulate
from engine.play.game import Game
from engine.play.verify import verify
from engine.rules.annihilation.soldier import clips_for, gun
from annihilation_book import BOOK

ID = "annihilation"
SEEDS = {"eliminate": 3, "crash": 3, "defend": 4, "terror": 3, "vip": 3}


def test_the_registry_finds_annihilation_and_its_tables(content):
    assert ID in ruleset.available()
    own = content.rules[ID]
    assert len(own["weapons"]) == 53 and own["units"]["sectoid"].race == "sectoid"
    assert set(own["forces"]) == {"crash", "defend", "eliminate", "terror", "vip", "infiltrate"}


def _shots(path) -> dict[str, int]:
    out: dict[str, int] = {}
    units = {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for e in rec.get("events", []):
            if e["kind"] == "spawned":
                units[e["unit"]["id"]] = e["unit"]["side"]
            if e["kind"] == "resolved" and e["action"] in ("shoot", "reaction fire"):
                out[units[e["actor"]]] = out.get(units[e["actor"]], 0) + 1
    return out


@pytest.mark.slow
@pytest.mark.parametrize("mission", sorted(SEEDS))
def test_a_whole_ai_mission_ends_with_shots_on_both_sides_and_verifies(content, tmp_path, mission):
    path = tmp_path / f"{mission}.jsonl"
    game = simulate.run(content, ID, mission, seed_from_int(SEEDS[mission]), path)
    state = game.state
    game.close()
    assert state.winner in ("xcom", "aliens", "draw"), state.ended
    assert 1 <= state.phase <= content.missions[mission].max_phases
    shots = _shots(path)
    assert shots.get("xcom", 0) > 0 and shots.get("aliens", 0) > 0, shots
    report = verify(content, path)
    assert report.failure is None, str(report.failure)
    rolls = [r for line in path.read_text().splitlines() for e in json.loads(line).get("events", [])
             for r in e.get("rolls", [])]
    assert {r["expr"] for r in rolls} >= {"1d100", "1d20", "7d10+10"}  # to-hit, hit location, the aliens' stats


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()


def test_the_squad_deploys_pre_made_and_the_sectoids_roll_their_stats(game):
    state = game.state
    anton, sectoid = state.units["anton"], state.units["sectoid_1"]
    f = anton.record.fighter
    assert f.character.stats.time_units == 56 and f.health == 48 and anton.hp == 48
    # rifle D 4 + two clips A 2 + grenade A 1 + light body armour 4 = 11 boxes, relief 44/5 = 8
    assert f.tu_turn == 56 - 3 and f.tu_left == 53
    held = gun(anton.record, BOOK)
    assert held.id == "mk2v_assault_rifle" and held.rounds == 20 and len(clips_for(anton.record, held.id)) == 2
    s = sectoid.record.fighter
    assert s.health == 60 and s.armour.av == 0 and s.character.skill("plasma") == 30  # Skilled
    rolled = game.state.units["sectoid_1"].record.fighter.character.stats.env()
    assert all(17 <= rolled[k] <= 80 for k in rolled if k != "health")


def test_walking_pays_tu_and_energy_by_section_9(game, content):
    state = game.state
    ways = [(0, -1), (1, 0), (-1, 0), (0, 1), (1, -1), (-1, -1)]
    anton, path = next((u, p) for u in state.side_units("xcom") for d in ways
                       if len(p := _free_line(state, u.pos, d, 3)) == 3)
    budget = game.ruleset.budget(state, anton)
    base = 4 if anton.pos[0] == path[0][0] or anton.pos[1] == path[0][1] else 6
    cost = sum(base + int(budget.walk.extra[y, x]) for x, y in path)  # 4 or 6 TU a step, plus the ground's
    assert budget.walk.currency == "TU" and budget.walk.cost(anton.pos, path) == cost and cost >= 12
    result = game.submit(Move(unit=anton.id, path=path))
    assert not hasattr(result, "code"), result
    moved = game.state.units[anton.id]
    f = anton.record.fighter
    assert moved.pos == path[-1] and moved.record.fighter.tu_left == f.tu_left - cost
    assert moved.record.fighter.energy == f.energy - cost  # walking drains Energy as it costs TU


def _free_line(state: State, start, step, n):
    out, here = [], start
    for _ in range(n):
        here = (here[0] + step[0], here[1] + step[1])
        if not state.grid.inside(here) or not state.grid.walkable[here[1], here[0]] or state.units_at(here):
            break
        out.append(here)
    return tuple(out)


def test_a_walk_onto_a_friend_is_refused_naming_the_friend(game):
    """A walk onto a friend ends on the square before it; with only the friend's square, there is none: the
    refusal says who stands there, not that the walk is empty."""
    rs, state = game.ruleset, game.state
    anton = state.units["anton"]
    friend = next(u for u in state.side_units("xcom") if u.id != anton.id)
    beside = next(c for c in state.grid.neighbours(anton.pos) if state.grid.walkable[c[1], c[0]] and not
                  state.units_at(c))
    state = attrs.evolve(state, units={**state.units, friend.id: attrs.evolve(friend, pos=beside)})
    got = rs.decide(state, Move(unit="anton", path=(beside,)), None)
    assert got.code == "blocked" and got.reason == f"{friend.name} stands at {beside[0]},{beside[1]}"


def test_decide_refuses_with_codes_and_reasons(game):
    rs, state = game.ruleset, game.state
    anton = state.units["anton"]
    dice = None
    assert rs.decide(state, StartMission(), dice).code == "already_started"
    assert rs.decide(state, Move(unit="sectoid_1", path=((0, 0),)), dice).code == "not_your_turn"
    assert rs.decide(state, Move(unit="anton", path=()), dice).code == "empty_path"
    far = (anton.pos[0] + 3, anton.pos[1])
    got = rs.decide(state, Move(unit="anton", path=(far,)), dice)
    assert got.code == "not_adjacent" and "is not next to" in got.reason
    got = rs.decide(state, Shoot(unit="anton", target="sectoid_1", mode="snap"), dice)
    assert got.code == "no_line_of_sight" and got.reason == "Anton cannot see Sectoid 1"
    got = rs.decide(state, Reload(unit="anton"), dice)
    assert got == type(got)("full", "The Mk. IIV Assault Rifle is full (20/20)")
    assert rs.decide(state, Act(unit="anton", action="dance"), dice).code == "unknown_action"
    assert rs.decide(state, Act(unit="anton", action="stance", option="standing"), dice).code == "same_stance"
    got = rs.decide(state, Throw(unit="julia", item="hand_grenade", cell=anton.pos), dice)
    assert got.code == "no_item" and got.reason == "Julia carries no Hand Grenade"
    assert rs.decide(state, EndTurn(side="aliens"), dice).code == "not_your_turn"
    assert rs.decide(state, Combo(unit="anton", path=(far,)), dice).code == "unknown_command"
    turned = rs.decide(state, Face(unit="anton", facing=4), dice)  # four 45° steps, 1 TU each
    assert turned[0].changes["record"].fighter.tu_left == 53 - 4 and turned[0].changes["facing"] == 4
    game.submit(Wait(unit="anton"))
    assert rs.decide(game.state, Move(unit="anton", path=(far,)), dice).code == "done"
    assert not rs.budget(game.state, game.state.units["anton"]).can_act


def test_kneeling_is_an_act_option_at_its_section_9_2_price(game):
    rs, state = game.ruleset, game.state
    options = rs.options(state, state.units["julia"])
    kneel = next(o for o in options if o.command.option == "kneeling")
    prone = next(o for o in options if o.command.option == "prone")
    assert (kneel.label, prone.label) == ("Kneel (4 TU)", "Lie prone (9 TU)")  # 4 + 5 through kneeling
    before = state.units["julia"].record.fighter.tu_left
    game.submit(kneel.command)
    after = game.state.units["julia"].record.fighter
    assert after.stance == "kneeling" and after.tu_left == before - 4
    assert rs.decide(game.state, Move(unit="julia", path=_free_line(game.state, game.state.units["julia"].pos,
                                                                      (0, -1), 1)), None).code == "not_standing"


def _face_off(game, gap=6, sectoid_tu=None):
    """Anton and Sectoid 1 in sight of each other on open ground, `gap` squares apart in a column."""
    state = game.state
    grid = state.grid
    for x in range(2, grid.width - 2):
        for y in range(2, grid.height - gap - 2):
            col = [(x, y + i) for i in range(gap + 1)]
            if all(grid.walkable[c[1], c[0]] and grid.transparent[c[1], c[0]] and not state.units_at(c) for c in col):
                units = dict(state.units)
                units["anton"] = attrs.evolve(units["anton"], pos=col[-1], facing=0)
                s = units["sectoid_1"]
                f = s.record.fighter
                f = attrs.evolve(f, tu_left=f.tu_left if sectoid_tu is None else sectoid_tu)
                units["sectoid_1"] = attrs.evolve(s, pos=col[0], facing=4,
                                                  record=attrs.evolve(s.record, fighter=f))
                for uid, u in units.items():
                    if u.side == "aliens" and uid != "sectoid_1":  # the others spent theirs: only it may react
                        units[uid] = attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(
                            u.record.fighter, tu_left=0)))
                return attrs.evolve(state, units=units), col
    raise AssertionError("no open column")


def test_a_shot_writes_the_to_hit_formula_and_pays_its_tu(game):
    rs = game.ruleset
    state, col = _face_off(game, sectoid_tu=0)  # it spent its TUs: no opportunity fire before the shot
    preview = rs.preview_shot(state, "anton", "sectoid_1", "snap")
    # Acc 58 × 60% = 34, skill (rifles Skilled, the baseline, +10%) 5, range 1 × 6 = 6 → 33
    rows = {r.label: r.text for r in preview.lines}  # every mode at once (issue 12), the chosen one marked
    assert rows["▸Snap "] == "  33% ×1 13 TU → 40 " and preview.distance == 6  # 25% of 53, no turn
    assert rows[" Aimed"] == "  62% ×1 42 TU → 11 " and rows[" Burst"] == "  19% ×3 18 TU → 35 "
    assert rows[""] == " Acc 58×60% 34 + skill 5 − range 1×6 6 "
    assert rows["Side"] == " front AV 0: 35 → 35, D 6 "  # the sectoid faces south, at Anton
    assert preview.p_hit == pytest.approx(0.33) and preview.expected_damage == pytest.approx(0.33 * 35)
    from engine.core.dice import Dice

    dice = Dice.scripted([20, 10, 2, 3, 1] + [99] * 20)  # d100 20 hits; d20 10 the torso; 35 damage: 3d4 wounds
    events = rs.decide(state, Shoot(unit="anton", target="sectoid_1", mode="snap"), dice)
    shot = next(e for e in events if isinstance(e, Resolved) and e.action == "shoot")
    first = shot.rolls[0]
    assert first.expr == "1d100" and "to-hit 33 (Acc 58×60% 34 + skill 5 − range 1×6 6)" in first.formula
    changed = next(e for e in events if getattr(e, "unit", None) == "anton" and hasattr(e, "changes"))
    assert changed.changes["record"].fighter.tu_left == 40 and gun(changed.changes["record"], BOOK).rounds == 19
    hurt = next(e for e in events if getattr(e, "unit", None) == "sectoid_1" and hasattr(e, "changes"))
    assert hurt.changes["hp"] == 60 - 35  # no armour: all 35 through
    wounds = shot.rolls[2]
    assert wounds.formula == "35/10 = 3d4: 2+3+1 = 6 wounds" and "d20 10 →" in shot.rolls[1].formula


def test_opportunity_fire_answers_a_step_inside_the_movers_own_command(game):
    """A-14.9: the sectoid, full TU, out-scores Anton after his step and snaps at him in Anton's Move's events;
    the log gives both scores."""
    from engine.core.dice import Dice

    rs = game.ruleset
    state, col = _face_off(game, gap=8)
    step = (col[-2],)
    events = rs.decide(state, Move(unit="anton", path=step), Dice.scripted([99] * 20))  # every snap misses
    assert isinstance(events[0], Moved) and events[0].path == step
    shot = next(e for e in events if isinstance(e, Resolved))
    sectoid = state.units["sectoid_1"].record.fighter
    anton = state.units["anton"].record.fighter
    theirs = sectoid.character.stats.reactions * sectoid.tu_left // sectoid.tu_turn
    mine = anton.character.stats.reactions * (anton.tu_left - 4) // anton.tu_turn
    assert shot.actor == "sectoid_1" and shot.action == "reaction fire" and shot.mode == "snap"
    assert f"(reaction {theirs} > {mine})" in shot.text and theirs > mine
    assert shot.rolls[0].expr == "1d100"


def test_range_distance_and_diamond_blasts(game):
    rs, state = game.ruleset, game.state
    assert rs.distance((0, 0), (4, 3)) == 4 + 1 and rs.distance((0, 0), (5, 5)) == 7
    area = rs.blast(state, "hand_grenade", (10, 10))
    assert sorted(area) == sorted([(10, 9), (9, 10), (10, 10), (11, 10), (10, 11)])  # radius 1
    assert rs.name("clip:mk2v_assault_rifle") == "Mk. IIV Assault Rifle clip"
    modes = rs.shot_modes(state, state.units["anton"])
    assert [m.id for m in modes] == ["snap", "aimed", "burst", "auto"] and all(m.usable for m in modes[:1])
    assert modes[1].name == "Aimed"  # its numbers are the targeting panel's


def test_the_sheet_shows_tu_energy_and_the_kit(game):
    rs, state = game.ruleset, game.state
    sheet = rs.sheet(state, state.units["anton"])
    rows = {r.label: r.text for r in sheet.rows}
    assert rows["TU"] == " 53/53 " and rows["Health"] == " 48/48 " and rows["Energy"] == " 62/62 "
    assert rows["Armour"] == " AV 15 · F50 L40 R40 B30 U30 " and "Stun" not in rows  # section 18's five sides
    assert state.units["anton"].items == {"hand_grenade": 1}
    assert sheet.kind == "Human" and sheet.kit[0] == "Mk. IIV Assault Rifle 20/20 +2 clips"
    assert sheet.kit == ("Mk. IIV Assault Rifle 20/20 +2 clips", "Fire TU: Snap 13 Aimed 42 Burst 18 Auto 23",
                         "Belt: Hand Grenade×1")  # each mode's share of 53
    assert rs.budget(state, state.units["anton"]).label == "TU 53/53"


def test_the_roster_uses_its_own_forces_and_the_vip(content):
    rs = ruleset.make(ID, content, None)
    vip = rs.roster("vip")
    assert [m.uid for m in vip if m.side == missions.PLAYER][-1] == "vip"
    hard = rs.roster("eliminate@hard")
    assert hard == rs.roster("eliminate") and sum(m.side == missions.ALIENS for m in hard) == 6  # 5 + a leader
    terror = rs.roster("terror")
    assert sum(m.side == missions.CIVILIANS for m in terror) == 10
    assert rs.roster("nowhere") is None


def test_the_client_draws_the_panel_and_a_key_walks(content, tmp_path):
    first, unit, step, moved, session = draw_and_walk(content, ID, tmp_path)
    f = unit.record.fighter
    assert re.search(rf"TU +{f.tu_left}/{f.tu_turn} ", first) and unit.name in first
    assert f"TU {f.tu_left}/{f.tu_turn}  move" not in first and f"Move {f.tu_left} TU" in first  # TU said once
    assert "Energy" in first and "Stamina" not in first
    assert moved.pos == (unit.pos[0] + step[0], unit.pos[1] + step[1])
    cost = 4 if 0 in step else 6
    assert moved.record.fighter.tu_left == f.tu_left - cost - int(
        session.ruleset.budget(session.state, moved).walk.extra[moved.pos[1], moved.pos[0]])





def test_xenotac_simulate_runs_annihilation_from_the_cli(tmp_path, capsys):
    from tui.cli import main

    path = tmp_path / "cli.jsonl"
    code = main(["simulate", "--ruleset", ID, "--seed", "3", "--out", str(path)])
    out = capsys.readouterr().out
    assert code == 0 and f"log:        {path}" in out and "winner:" in out
    assert main(["replay", str(path), "--verify"]) == 0


def test_a_bundle_without_its_folder_lists_no_annihilation_mission():
    from pathlib import Path

    from engine.content import loader
    from engine.play import catalog

    old = loader.load(Path(__file__).resolve().parent / "fixtures" / "logs" / "v1-content")
    assert not any(old.rules[ID].values())
    assert catalog.missions_for(old, ID) == [] and ID not in catalog.rulesets(old)


def test_the_same_seed_gives_the_same_bytes(content, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    simulate.run(content, ID, "eliminate", seed_from_int(8), a, max_phases=2).close()
    simulate.run(content, ID, "eliminate", seed_from_int(8), b, max_phases=2).close()
    assert a.read_bytes() == b.read_bytes()
    ended = [e for line in a.read_text().splitlines() for e in json.loads(line).get("events", [])
             if e["kind"] == "ended"]
    assert ended and (ended[-1]["reason"] == "phase limit 2 reached" or ended[-1]["winner"] != "draw")


def test_section_22_bleeds_the_wounded_at_their_sides_phase_start(game):
    """A-19.3, §22: a sectoid with 6 open wounds loses 6 Health when the aliens' phase starts; its TUs refresh."""
    from engine.rules.annihilation.fighter import Part
    from engine.rules.annihilation.turns import begin_side

    rs, state = game.ruleset, game.state
    s = state.units["sectoid_1"]
    f = s.record.fighter.with_part("torso", Part(open=6, total=6))
    f = attrs.evolve(f, health=30, tu_left=0)
    units = dict(state.units)
    units["sectoid_1"] = attrs.evolve(s, hp=30, record=attrs.evolve(s.record, fighter=f))
    events = begin_side(rs, attrs.evolve(state, units=units), "aliens", None)
    change = next(e for e in events if getattr(e, "unit", None) == "sectoid_1")
    after = change.changes["record"].fighter
    stm = f.character.stats.stamina - 5 * 6  # five Stamina an open torso wound
    assert change.changes["hp"] == 24 and after.tu_left == after.tu_turn == f.character.stats.time_units
    assert change.cause.startswith("start of phase (bleeding: Health −6 → 24; ")
    assert after.energy == min(max(0, stm), f.energy + max(0, stm) // 2)


def test_a_thrown_grenade_lands_and_blasts_its_diamond(game):
    """A-14.11: d100 ≤ Trw + skill − 2 × D lands it; A-17.5: 80 at the centre, 60 a square off (3/4)."""
    from engine.core.dice import Dice

    rs = game.ruleset
    state, col = _face_off(game, gap=5, sectoid_tu=0)
    anton = state.units["anton"]
    preview = rs.preview_throw(state, "anton", "hand_grenade", col[0])
    assert preview.p_land == pytest.approx((60 + 6 - 2 * 5) / 100)  # Trw 60 + 10% skill − 2 × 5
    cost = 4 + 53 // 2 + 53 // 4  # belt to hand, prime 50%, throw 25%
    assert preview.lines[1].text == f" {cost} (belt to hand + prime + throw) "
    events = rs.decide(state, Throw(unit="anton", item="hand_grenade", cell=col[0]),
                       Dice.scripted([10, 10, 2, 3, 1, 4, 2, 3, 1, 4] + [1] * 10))
    thrown = next(e for e in events if isinstance(e, Resolved) and e.action == "throw")
    assert thrown.cell == col[0] and thrown.outcome == "on target"
    boom = next(e for e in events if isinstance(e, Resolved) and e.action == "blast")
    assert boom.text.startswith(f"Hand Grenade goes off at {col[0][0]},{col[0][1]}: Sectoid 1 80 → ")
    me = next(e for e in events if getattr(e, "unit", None) == "anton" and hasattr(e, "changes"))
    assert me.changes["record"].fighter.tu_left == 53 - cost
    assert not rs.throwables(state, attrs.evolve(anton, record=me.changes["record"]))


def test_opportunity_fire_comes_before_a_stance_change(game):
    """A-14.9 step 4: for a non-move action the observer fires first, scored with the actor's TUs after it paid."""
    from engine.core.dice import Dice

    rs = game.ruleset
    state, _col = _face_off(game, gap=8)
    events = rs.decide(state, Act(unit="anton", action="stance", option="kneeling"), Dice.scripted([99] * 20))
    shot = events[0]
    assert isinstance(shot, Resolved) and shot.actor == "sectoid_1" and "reacts to Anton changing stance (reaction" in shot.text
    last = events[-1]
    assert last.unit == "anton" and last.changes["record"].fighter.stance == "kneeling"
    assert last.changes["record"].fighter.tu_left == 53 - 4


def test_the_throw_picker_counts_come_from_the_kit_not_unit_items(game):
    from engine.core.ruleset import Throwable

    anton = attrs.evolve(game.state.units["anton"], items={})  # the kernel's mirror left out
    assert game.ruleset.throwables(game.state, anton) == [Throwable("hand_grenade", "Hand Grenade", 1)]
    julia = game.state.units["julia"]
    assert game.ruleset.throwables(game.state, julia) == [] and julia.record is not None
