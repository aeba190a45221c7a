"""Missions: the content that defines them, their objectives won and lost by ordinary commands,
doors, the power source, smoke, the risen dead, difficulty levels, and logs that verify."""

from __future__ import annotations

import shutil

import attrs
import pytest

from engine.content import loader
from engine.content import missions
from engine.core.commands import Act, EndTurn, Move, Rejected, Shoot, Throw
from engine.core.dice import Dice, seed_from_int
from engine.core.events import MissionEnded, Resolved, TileChanged, UnitSpawned
from engine.core.records import Patch
from engine.play.game import Game
from engine.map.grid import NEIGHBOURS, distance
from engine.play.simulate import run
from engine.play.verify import verify
from engine.rules.xcom_trpg.record import soldier
from tests.xcom_record import evolved
from tui.cli import main


def new(content, mission: str, seed: int = 1) -> Game:
    return Game.new(content, "xcom-trpg", mission, seed_from_int(seed), None)


def put(state, side: str | None = None, **units):
    """The state with some units changed (`anton={"pos": (3, 4)}`) and, if given, whose turn it is."""
    changed = dict(state.units)
    for uid, fields in units.items():
        changed[uid] = evolved(changed[uid], **fields)
    return attrs.evolve(state, units=changed, side=side or state.side)


def free_next_to(state, cell, taken=()):
    for dx, dy in NEIGHBOURS:
        c = (cell[0] + dx, cell[1] + dy)
        if state.grid.inside(c) and state.grid.walkable[c[1], c[0]] and not state.units_at(c) and c not in taken:
            return c
    raise AssertionError(f"nowhere to stand next to {cell}")


def ended(events):
    return next(((e.winner, e.reason) for e in events if isinstance(e, MissionEnded)), None)


# -- content --------------------------------------------------------------------------------------


def test_missions_are_files_in_the_missions_folder(content):
    assert set(content.missions) == {"eliminate", "crash", "terror", "vip", "defend", "infiltrate"}
    assert content.missions["eliminate"].enemies == {"sectoid": 6, "muton": 2}  # as it always was


def test_a_difficulty_level_is_the_same_mission_at_another_strength(content):
    veteran = content.missions["crash@veteran"]
    assert veteran.difficulty == "veteran" and veteran.name == "UFO crash site (Veteran)"
    assert sum(veteran.enemies.values()) > sum(content.missions["crash"].enemies.values())
    assert "crash@normal" in content.missions and "crash@nightmare" not in content.missions
    assert "crash@veteran" not in list(content.missions)  # menus list each mission once
    assert content.missions.get("crash@nightmare") is None


def bundle(tmp_path, edit=None):
    folder = tmp_path / "content"
    shutil.copytree(loader.default_dir(), folder)
    if edit:
        edit(folder)
    return folder


def problems_of(folder) -> list[str]:
    with pytest.raises(loader.ContentError) as caught:
        loader.load(folder)
    return caught.value.messages


def test_a_mistake_in_a_mission_file_is_located(tmp_path):
    def edit(folder):
        path = folder / "missions" / "terror.toml"
        path.write_text(path.read_text().replace("civilians = 10", 'civilians = "x"'))

    assert problems_of(bundle(tmp_path, edit)) == ['missions/terror.toml: [terror].civilians: expected integer, got "x"']


@pytest.mark.parametrize("old, new, message", [
    ('zone = "power"', 'zone = "pwoer"',
     "missions/crash.toml: [crash].objectives.power.zone: unknown zone of the alien_ship map 'pwoer' (did you mean 'power'?)"),
    ('generator = "urban"', 'generator = "urbam"',
     "missions/terror.toml: [terror].generator: unknown generator 'urbam' (did you mean 'urban'?)"),
    ('unit = "vip"', 'unit = "nadia"', "missions/vip.toml: [vip].objectives.out.unit: 'nadia' is not in the squad"),
    ("until_phase = 8", "until_phase = 14",
     "missions/defend.toml: [defend].objectives.hold.until_phase: must be below max_phases (14), "
     "or the phase limit ends the mission first"),
    ('kind = "hold"', 'kind = "survive"',
     "missions/defend.toml: [defend].objectives.hold.kind: expected one of eliminate, shut_down, extract, hold, "
     'protect, escape, got "survive"'),
])
def test_mission_cross_references_are_checked(tmp_path, old, new, message):
    def edit(folder):
        for path in (folder / "missions").glob("*.toml"):
            text = path.read_text()
            if old in text:
                path.write_text(text.replace(old, new))

    found = problems_of(bundle(tmp_path, edit))
    assert message in found  # the mission's own file; the other rulesets' forces may have to follow it
    assert all("forces.toml" in m for m in found if m != message), found


def test_a_mission_defined_twice_is_one_message(tmp_path):
    def edit(folder):
        text = (folder / "missions" / "vip.toml").read_text()
        (folder / "missions" / "vip2.toml").write_text(text)

    assert problems_of(bundle(tmp_path, edit)) == ["missions/vip2.toml: [vip]: mission 'vip' is already defined in "
                                                   "missions/vip.toml"]


def test_behaviour_and_factions_are_cross_checked(tmp_path):
    def edit(folder):
        path = folder / "factions.toml"
        path.write_text(path.read_text().replace('behaviour = "cautious"', 'behaviour = "cautous"')
                        .replace('converts = { civilians = "zombie" }', 'converts = { civilians = "zombi" }'))

    assert problems_of(bundle(tmp_path, edit)) == [
        "factions.toml: [sectoids].behaviour: unknown behaviour 'cautous' (did you mean 'cautious'?)",
        "factions.toml: [chryssalids].converts.civilians: unknown unit 'zombi' (did you mean 'zombie'?)"]


def test_an_older_bundle_with_one_missions_file_still_loads(tmp_path):
    def edit(folder):
        shutil.move(folder / "missions" / "eliminate.toml", folder / "missions.toml")
        shutil.rmtree(folder / "missions")
        (folder / "behaviour.toml").unlink()
        (folder / "difficulty.toml").unlink()

    old = loader.load(bundle(tmp_path, edit))
    assert list(old.missions) == ["eliminate"] and old.difficulty == {} and old.behaviour == {}


# -- eliminate, as it was ---------------------------------------------------------------------------


def test_eliminate_deploys_the_same_units_as_before(content):
    state = new(content, "eliminate").state
    assert list(state.units) == ["anton", "julia", "stephen", "laura", "nadia", "viktor",
                                 *(f"sectoid_{n}" for n in range(1, 7)), "muton_1", "muton_2"]
    assert {u.side for u in state.units.values()} == {"xcom", "aliens"}


# -- the power source ---------------------------------------------------------------------------------


def crash_at_power(content):
    game = new(content, "crash")
    (power,) = game.ruleset.setup.spawns["power"]
    spot = free_next_to(game.state, power)
    return game, put(game.state, nadia={"pos": spot}), power


def test_shutting_down_the_power_source_wins_the_crash_site(content):
    game, state, power = crash_at_power(content)
    events = game.ruleset.decide(state, Act(unit="nadia", action="shut_down", cell=power), Dice.scripted([50, 50, 10]))
    resolved = next(e for e in events if isinstance(e, Resolved))
    assert resolved.outcome == "success" and [r.purpose for r in resolved.rolls] == ["attack", "luck check",
                                                                                      "god of random"]
    assert resolved.rolls[0].formula == "intelligence 6*50=300"
    assert TileChanged(pos=power, tile="power_source_off") in events
    assert ended(events) == ("xcom", "objective met: shut down the power source")


def test_a_failed_attempt_ends_the_turn_and_changes_nothing(content):
    game, state, power = crash_at_power(content)
    events = game.ruleset.decide(state, Act(unit="nadia", action="shut_down", cell=power), Dice.scripted([20, 50, 90]))
    assert not any(isinstance(e, TileChanged) for e in events) and ended(events) is None
    after = game.ruleset.decide(state, Act(unit="nadia", action="shut_down", cell=power), Dice.scripted([20, 50, 90]))
    patches = [e.changes["record"].fields for e in after if getattr(e, "unit", None) == "nadia"
               and isinstance(getattr(e, "changes", {}).get("record"), Patch)]
    assert [p["actions"] for p in patches if "actions" in p] == [0]


@pytest.mark.parametrize("who, where, code", [
    ("nadia", (1, 1), "out_of_reach"),
    ("sectoid_1", None, "not_your_turn"),
])
def test_shut_down_is_refused_plainly(content, who, where, code):
    game, state, power = crash_at_power(content)
    result = game.ruleset.decide(state, Act(unit=who, action="shut_down", cell=where or power), Dice.scripted([]))
    assert isinstance(result, Rejected) and result.code == code


# -- doors --------------------------------------------------------------------------------------------


def a_door(content):
    for seed in range(1, 30):
        game = new(content, "eliminate", seed)
        grid = game.state.grid
        doors = [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.tile((x, y)) == "door"]
        for door in doors:
            if distance(game.state.units["stephen"].pos, door) < 3:
                continue
            try:
                spot = free_next_to(game.state, door)
            except AssertionError:
                continue
            return game, put(game.state, anton={"pos": spot}), door
    raise AssertionError("no door in thirty maps")


def test_a_door_opens_and_closes_for_one_action_each(content):
    from engine.core.reducer import fold

    game, state, door = a_door(content)
    assert not state.grid.transparent[door[1], door[0]]
    events = game.ruleset.decide(state, Act(unit="anton", action="open", cell=door), Dice.scripted([]))
    assert events[0] == TileChanged(pos=door, tile="door_open") and events[1].changes == {"record": Patch("xcom-trpg.soldier", {"actions": 1})}
    state = fold(state, events)
    assert state.grid.transparent[door[1], door[0]]
    again = game.ruleset.decide(state, Act(unit="anton", action="open", cell=door), Dice.scripted([]))
    assert isinstance(again, Rejected) and again.reason.endswith("already open")
    closed = game.ruleset.decide(state, Act(unit="anton", action="close", cell=door), Dice.scripted([]))
    assert closed[0] == TileChanged(pos=door, tile="door") and closed[1].changes == {"record": Patch("xcom-trpg.soldier", {"actions": 0})}


def test_a_door_cannot_close_on_someone_or_open_from_afar(content):
    from engine.core.reducer import fold

    game, state, door = a_door(content)
    state = put(state, julia={"pos": door})
    state = fold(state, game.ruleset.decide(state, Act(unit="anton", action="open", cell=door), Dice.scripted([])))
    blocked = game.ruleset.decide(state, Act(unit="anton", action="close", cell=door), Dice.scripted([]))
    assert isinstance(blocked, Rejected) and blocked.code == "doorway_blocked"
    far = game.ruleset.decide(state, Act(unit="stephen", action="close", cell=door), Dice.scripted([]))
    assert isinstance(far, Rejected) and far.code == "out_of_reach"
    unknown = game.ruleset.decide(state, Act(unit="anton", action="dance", cell=door), Dice.scripted([]))
    assert isinstance(unknown, Rejected) and unknown.code == "unknown_action"


# -- the VIP, the zone to hold, the civilians ------------------------------------------------------------


def test_the_vip_in_the_extraction_point_wins(content):
    game = new(content, "vip")
    goal = game.ruleset.setup.spawns["extraction"][0]
    start = free_next_to(game.state, goal, taken=game.ruleset.setup.spawns["extraction"])
    state = put(game.state, vip={"pos": start, "actions": 2})
    events = game.ruleset.decide(state, Move(unit="vip", path=(goal,)), Dice.scripted([]))
    assert ended(events) == ("xcom", "Envoy Marek reached the extraction point")


def test_the_vip_dead_loses(content):
    game = new(content, "vip")
    state = put(game.state, vip={"status": "dead"})
    assert missions.verdict(content, game.ruleset.setup.mission, game.ruleset.setup.spawns, state) == \
        ("aliens", "Envoy Marek is dead")


def test_holding_to_the_end_of_the_phase_wins(content):
    game = new(content, "defend")
    assert all(game.state.units[u].pos in game.ruleset.setup.spawns["hold"] for u in content.missions["defend"].squad)
    until = content.missions["defend"].objectives["hold"].until_phase
    state = attrs.evolve(game.state, phase=until, side="aliens")
    events = game.ruleset.decide(state, EndTurn(side="aliens"), Dice(game.faces, state.dice))
    assert ended(events) == ("xcom", f"held to the end of phase {until}")


def test_the_zone_is_lost_when_the_aliens_outnumber_the_squad_in_it(content):
    game = new(content, "defend")
    zone = game.ruleset.setup.spawns["hold"]
    outside = game.ruleset.setup.spawns["aliens"]
    state = game.state
    squad = content.missions["defend"].squad
    state = put(state, "aliens", **{uid: {"pos": outside[i]} for i, uid in enumerate(squad)},
                muton_1={"pos": zone[0]}, muton_2={"pos": zone[1], "actions": 2})
    target = free_next_to(state, zone[1])
    assert target in zone
    events = game.ruleset.decide(state, Move(unit="muton_2", path=(target,)), Dice.scripted([]))
    assert ended(events) == ("aliens", "the zone is overrun")


def test_a_chryssalid_kill_rises_as_a_zombie(content):
    game = new(content, "terror")
    state = game.state
    c = state.units["chryssalid_1"]
    spot = free_next_to(state, c.pos)
    state = put(state, "aliens", chryssalid_1={"actions": 2}, civilian_1={"pos": spot, "hp": 5})
    events = game.ruleset.decide(state, Shoot(unit="chryssalid_1", target="civilian_1"), Dice.scripted([50, 60]))
    risen = next(e for e in events if isinstance(e, UnitSpawned))
    assert (risen.unit.id, risen.unit.side, risen.unit.pos) == ("zombie_1", "aliens", spot)
    assert risen.unit.hp == state.units["civilian_1"].hp_max and risen.rolls == ()
    assert any(isinstance(e, Resolved) and e.action == "convert" and e.text == "Civilian 1 rises as Zombie 1"
               for e in events)


def test_too_many_civilians_lost_loses_the_terror_site(content):
    game = new(content, "terror")
    dead = {f"civilian_{n}": {"status": "dead"} for n in range(1, 8)}
    state = put(game.state, **dead)
    assert missions.verdict(content, game.ruleset.setup.mission, game.ruleset.setup.spawns, state) == \
        ("aliens", "only 3 civilians left alive, 4 needed")
    found = {s.id: (s.state, s.detail) for s in missions.statuses(content, game.ruleset.setup.mission,
                                                                    game.ruleset.setup.spawns, game.state)}
    assert found == {"clear": ("open", "0/6 down"), "civilians": ("open", "10 alive, 4 needed")}


def test_civilians_are_friends_of_the_squad_and_prey_of_the_aliens():
    assert not missions.hostile("xcom", "civilians") and missions.hostile("aliens", "civilians")
    assert missions.hostile("xcom", "aliens")


# -- smoke ---------------------------------------------------------------------------------------------


def test_a_grenade_leaves_smoke_that_blocks_sight_and_clears_in_two_phases(content):
    from engine.core.reducer import fold

    game = new(content, "eliminate", 2)
    state = game.state
    anton = state.units["anton"]
    grid = state.grid
    cell = next((x, y) for y in range(grid.height) for x in range(grid.width)
                if distance(anton.pos, (x, y)) == 4 and grid.tile((x, y)) == "grass" and grid.sees(anton.pos, (x, y), 20)
                and all(grid.tile((x + dx, y + dy)) == "grass" for dx, dy in NEIGHBOURS))
    events = game.ruleset.decide(state, Throw(unit="anton", item="hand_grenade", cell=cell), Dice.scripted([50, 50]))
    smoke = {e.pos for e in events if isinstance(e, TileChanged) and e.tile == "smoke"}
    assert smoke == {cell} | {(cell[0] + dx, cell[1] + dy) for dx, dy in NEIGHBOURS}
    state = fold(state, events)
    assert not state.grid.transparent[cell[1], cell[0]] and state.grid.walkable[cell[1], cell[0]]
    for expected in ("smoke_thin", "grass"):
        for side in ("xcom", "aliens"):
            events = game.ruleset.decide(state, EndTurn(side=side), Dice(game.faces, state.dice))
            state = fold(state, events)
        assert state.grid.tile(cell) == expected
    assert state.grid.transparent[cell[1], cell[0]]


# -- difficulty ------------------------------------------------------------------------------------------


def test_a_harder_level_fields_more_and_better_aliens(content):
    normal, hard = new(content, "crash").state, new(content, "crash@veteran").state
    count = lambda s: sum(u.side == "aliens" for u in s.units.values())  # noqa: E731
    assert count(hard) > count(normal)
    assert soldier(hard.units["sectoid_1"]).stats["agility"] == soldier(normal.units["sectoid_1"]).stats["agility"] + 1
    assert soldier(hard.units["anton"]).stats == soldier(normal.units["anton"]).stats


# -- every mission type logs, verifies and resumes ----------------------------------------------------


@pytest.mark.parametrize("mission", ["crash", "terror", "vip", "defend", "terror@veteran"])
def test_an_ai_mission_of_every_type_verifies_and_resumes(content, mission, tmp_path):
    path = tmp_path / "m.jsonl"
    game = run(content, "xcom-trpg", mission, seed_from_int(3), path, max_phases=12)
    final = game.state
    game.close()
    report = verify(content, path)
    assert report.failure is None and report.records > 20
    resumed = Game.resume(content, path)
    assert resumed.state == final and resumed.state.tiles_changed == final.tiles_changed
    resumed.close()


def test_simulate_with_a_difficulty_writes_that_mission_to_the_log(tmp_path, capsys):
    out = tmp_path / "d.jsonl"
    assert main(["simulate", "--mission", "defend", "--difficulty", "easy", "--seed", "2", "--max-turns", "3",
                 "--out", str(out)]) == 0
    assert '"id":"defend@easy"' in out.read_text().splitlines()[0]
    assert main(["simulate", "--mission", "defend@easy", "--difficulty", "easy"]) == 2
    assert "already names a difficulty" in capsys.readouterr().err


# -- simulate --trials ------------------------------------------------------------------------------------


def test_trials_report_win_rate_phases_and_casualties_with_intervals(capsys):
    import json

    assert main(["simulate", "--trials", "3", "--mission", "defend", "--difficulty", "easy", "--max-turns", "4",
                 "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    (row,) = report["results"]
    assert (row["mission"], row["difficulty"], row["trials"]) == ("defend", "easy", 3)
    assert sum(row["wins"].values()) == 3 and report["confidence"] == 0.95
    rate = row["win_rate"]
    assert 0 <= rate["low"] <= rate["value"] <= rate["high"] <= 1
    assert row["phases"]["low"] <= row["phases"]["mean"] <= row["phases"]["high"] and row["phases"]["mean"] <= 4
    assert set(row["casualties"]) == {"xcom", "aliens"}
    assert err.startswith("3 missions in ")


def test_trials_as_a_table_for_every_level_of_a_mission(capsys):
    assert main(["simulate", "--trials", "1", "--mission", "crash", "--max-turns", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["mission", "difficulty", "trials", "X-COM"]
    assert [ln.split()[1] for ln in lines[1:5]] == ["easy", "normal", "veteran", "impossible"]
    assert lines[5].startswith("95% intervals")
    assert lines[7].startswith("pace — goals: first attack by phase 3 and the end by phase 15 (medians), at most 10%")
    assert [ln.split()[:2] for ln in lines[9:]] == [["crash", level] for level in ("easy", "normal", "veteran",
                                                                                   "impossible")]


def test_trials_print_the_pace_against_its_goals(capsys):
    import json

    args = ["simulate", "--trials", "3", "--mission", "eliminate", "--difficulty", "normal", "--max-turns", "3"]
    assert main([*args, "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["results"]
    pace = row["pace"]
    assert pace["end"]["median"] <= 3 and pace["timeouts"]["share"] == row["wins"]["draw"] / 3
    assert main(args) == 0
    line = capsys.readouterr().out.splitlines()[-1].split()
    attack = pace["first_attack"]["median"]
    assert line[:3] == ["eliminate", "normal", "never" if attack is None else f"{attack:g}"]
    assert line[4:] == [f"{pace['end']['median']:g}", "✓", f"{100 * pace['timeouts']['share']:.0f}%",
                        "✓" if pace["timeouts"]["met"] else "✗"]


def test_the_first_attack_is_the_first_shot_or_throw_between_the_sides(content, tmp_path):
    import json

    from engine.core.dice import seed_from_int
    from engine.play import balance, simulate

    for seed in (3, 4):
        game = simulate.run(content, "xcom-trpg", "eliminate@normal", seed_from_int(seed), tmp_path / f"{seed}.jsonl",
                            max_phases=4)
        game.close()
        phase, first, sides = 1, None, {}
        for line in (tmp_path / f"{seed}.jsonl").read_text().splitlines()[1:]:
            for event in json.loads(line).get("events", []):
                if event["kind"] == "spawned":
                    sides[event["unit"]["id"]] = event["unit"]["side"]
                elif event["kind"] == "phase":
                    phase = event["phase"]
                elif (first is None and event["kind"] == "resolved" and event["action"] in ("shoot", "throw")
                      and sides[event["actor"]] != sides.get(event["target"], "")):
                    first = phase
        assert balance.play(content, "xcom-trpg", "eliminate", "normal", seed, 4).first_attack == first


def test_pace_medians_count_missions_without_an_attack_as_never():
    from engine.play.balance import Outcome, pace

    def outcome(first, phases, timed_out=False):
        return Outcome("m", "normal", 1, "draw" if timed_out else "xcom", phases, {}, first, timed_out)

    figures = pace([outcome(2, 10), outcome(None, 30, True), outcome(4, 14), outcome(None, 20)])
    assert figures["first_attack"] == {"median": None, "goal": 3, "met": False}  # 2, 4, never, never
    assert figures["end"] == {"median": 17, "goal": 15, "met": False}
    assert figures["timeouts"] == {"share": 0.25, "goal": 0.1, "met": False}
    figures = pace([outcome(1, 9), outcome(3, 12), outcome(None, 8)])
    assert figures["first_attack"]["median"] == 3 and figures["first_attack"]["met"]
    assert figures["end"]["median"] == 9 and figures["timeouts"]["met"]


def test_a_stealth_missions_pace_wants_a_quiet_approach_not_an_early_attack(content):
    from engine.content.models import Pace
    from engine.play.balance import Outcome, pace

    def outcome(first, phases=12):
        return Outcome("m", "normal", 1, "xcom", phases, {}, first)

    # A stealth mission's goals (a mission file's `pace` table). infiltrate.toml does not carry them: any byte of a
    # mission file is in the content hash of its logs, and a log played before would no longer verify.
    stealth = Pace(first_attack=0, quiet_until=6, end=20)
    assert content.missions["crash"].pace == Pace()
    quiet = pace([outcome(8), outcome(None), outcome(11)], stealth)  # 8, 11, never: the median 11
    assert quiet["first_attack"] == {"median": 11, "goal": None, "quiet_until": 6, "met": True}
    assert pace([outcome(None), outcome(None), outcome(2)], stealth)["first_attack"]["met"]  # never is best
    early = pace([outcome(2), outcome(5), outcome(None)], stealth)  # found on the way in: 5 < 6
    assert early["first_attack"] == {"median": 5, "goal": None, "quiet_until": 6, "met": False}
    assert pace([outcome(11)])["first_attack"] == {"median": 11, "goal": 3, "met": False}  # a fight's goal


def test_a_mission_left_by_an_exit_is_judged_by_a_stealth_missions_pace(content):
    """infiltrate's goals come from its objectives' kind (`escape`), not from its file, so its old logs still verify."""
    from engine.content.models import Pace
    from engine.play.balance import STEALTH, goals

    assert goals(content.missions["infiltrate"]) == STEALTH == Pace(first_attack=0, quiet_until=6, end=20)
    assert goals(content.missions["infiltrate@veteran"]) == STEALTH
    assert goals(content.missions["crash"]) == goals(content.missions["terror"]) == Pace()
    own = attrs.evolve(content.missions["infiltrate"], pace=Pace(end=25))
    assert goals(own) == Pace(end=25)  # a mission file's own table wins


def test_trials_are_the_same_in_one_process_or_two(content):
    from engine.play.balance import run_trials

    one = run_trials(content, "xcom-trpg", ["vip"], ["normal"], 2, 5, max_phases=3)
    two = run_trials(content, "xcom-trpg", ["vip"], ["normal"], 2, 5, max_phases=3, jobs=2)
    assert one == two


def test_the_hold_panel_counts_only_the_hostiles_the_squad_sees(content):
    """The defend counter ("N hostiles in") tells of the aliens the squad sees in the zone, never of an unseen one;
    the verdict still counts everyone."""
    game = new(content, "defend")
    zone = game.ruleset.setup.spawns["hold"]
    state = put(game.state, "aliens", muton_1={"pos": zone[0]})
    setup = game.ruleset.setup
    hold = lambda seen: next(s for s in missions.statuses(content, setup.mission, setup.spawns, state, seen)
                             if s.objective.kind == "hold")
    assert hold(None).detail.endswith(", 1 hostiles in")
    assert hold(frozenset({"muton_1"})).detail.endswith(", 1 hostiles in")
    assert hold(frozenset()).detail == f"phase {state.phase}/{setup.mission.objectives['hold'].until_phase}"
