"""xxxzone registered and played end to end: every shared mission AI against AI to its end and verified, its
refusals with their codes, the client's panel and a walk at 80×24, and `xenotac simulate` from the CLI."""

from __future__ import annotations

import contextlib
import io
import json

import attrs
import pytest

from tui.cli import main
from client_walk import draw_and_walk
from engine.core import ruleset
from engine.core.commands import Act, Combo, EndTurn, Move, Reload, Shoot, Throw, Wait
from engine.core.dice import seed_from_int
from engine.play import simulate
from engine.play.game import Game
from engine.play.verify import verify

ID = "xxxzone"
SQUAD = {"johnny", "trevor", "bruce", "cane", "dane", "vadin", "helmut", "sam", "marcel", "john", "vip"}


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_registry_finds_xxxzone():
    assert ID in ruleset.available()
    assert ruleset.kind(ID).audit_dice == (100,)


@pytest.mark.slow
@pytest.mark.parametrize("mission", ["crash", "defend", "eliminate", "terror", "vip"])
def test_a_whole_ai_mission_ends_with_shots_on_both_sides_and_verifies(content, tmp_path, mission):
    path = tmp_path / f"{mission}.jsonl"
    game = simulate.run(content, ID, mission, seed_from_int(3), path)
    state = game.state
    game.close()
    assert state.winner is not None, state.ended
    recs = _records(path)
    shots = [e for r in recs if r.get("kind") == "command" for e in r["events"] if e["kind"] == "resolved"
             and e["action"] == "shoot"]
    sides = {state.units[e["actor"]].side for e in shots}
    assert sides == {"xcom", "aliens"}, sides
    first = next(r for e in shots for r in e["rolls"] if r["expr"] == "1d100" and "AdjAcc" in r["formula"])
    assert first["formula"].startswith(f"d100 {first['faces'][0]} + AdjAcc ")  # the seven steps as written
    report = verify(content, path)
    assert report.failure is None, str(report.failure)
    assert report.records == len(recs)


@pytest.fixture()
def game(content):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), None)
    yield g
    g.close()


def test_the_squad_deploys_with_its_ap_from_the_formula(game):
    state = game.state
    squad = [u for u in state.units.values() if u.side == "xcom"]
    assert {u.id for u in squad} == {"johnny", "trevor", "bruce", "cane", "dane", "vadin"}
    trevor = state.units["trevor"]  # Agi 10*: 6 + ceil(11/2) = 12 AP, and Action Boy's +2
    assert (trevor.record.turn.ap, trevor.record.turn.maximum) == (14, 14)
    johnny = state.units["johnny"]  # Agi 7: 6 + 4 = 10
    assert game.ruleset.budget(state, johnny).label == "AP 10/10"
    assert game.ruleset.budget(state, johnny).walk.cost(johnny.pos, [(johnny.pos[0], johnny.pos[1] - 1)]) == 1
    aliens = {u.template for u in state.units.values() if u.side == "aliens"}
    assert aliens == {"zhetan", "hover_drone", "boorus"}


def _free_step(state, unit):
    for dx, dy in ((0, -1), (1, 0), (-1, 0), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1)):
        cell = (unit.pos[0] + dx, unit.pos[1] + dy)
        if state.grid.inside(cell) and state.grid.walkable[cell[1], cell[0]] and not state.units_at(cell):
            return cell
    raise AssertionError("boxed in")


def test_moving_quickly_costs_one_ap_a_square_and_cautiously_two(game):
    state = game.state
    johnny = state.units["johnny"]
    cell = _free_step(state, johnny)
    assert not isinstance(game.submit(Move(unit="johnny", path=(cell,))), type(None))
    after = game.state.units["johnny"]
    assert after.pos == cell and after.record.turn.ap == 9 and after.record.conspicuous
    back = johnny.pos
    game.submit(Combo(unit="johnny", path=(back,)))
    assert game.state.units["johnny"].record.turn.ap == 7 and game.state.units["johnny"].pos == back


def test_decide_refuses_with_codes(game):
    rs, state = game.ruleset, game.state
    dice = None
    johnny = state.units["johnny"]
    far = tuple((johnny.pos[0], johnny.pos[1] - i) for i in range(1, 12))
    cases = {
        "no_ap": Move(unit="johnny", path=far),
        "not_adjacent": Move(unit="johnny", path=((johnny.pos[0] + 3, johnny.pos[1]),)),
        "not_your_turn": Wait(unit="zhetan_1"),
        "unknown_unit": Wait(unit="nobody"),
        "not_spotted": Shoot(unit="johnny", target="zhetan_1", mode="assault_rifle:shoot"),
        "no_mode": Shoot(unit="johnny", target="zhetan_1", mode="flamethrower"),
        "full": Reload(unit="johnny"),
        "not_carried": Throw(unit="johnny", item="flashbang", cell=johnny.pos),
        "unknown_action": Act(unit="johnny", action="dance"),
        "no_target": Act(unit="johnny", action="aim", target="zhetan_1"),
    }
    for code, command in cases.items():
        got = rs.decide(state, command, dice)
        assert getattr(got, "code", None) == code, (code, got)
        assert got.reason and got.reason[0].isupper()
    assert rs.decide(state, EndTurn(side="aliens"), dice).code == "not_your_turn"
    hunker = game.submit(Act(unit="johnny", action="hunker"))
    assert game.state.units["johnny"].record.hunkered and game.state.units["johnny"].record.turn.ended
    assert rs.decide(game.state, Wait(unit="johnny"), dice).code == "turn_over"
    assert hunker


def test_overwatch_stores_the_ap_left_and_fires_inside_the_movers_command(game):
    """A watcher with its AP stored fires at an enemy moving in its sight, as events of the mover's Move."""
    rs = game.ruleset
    got = game.submit(Act(unit="johnny", action="overwatch", option="assault_rifle:shoot"))
    johnny = game.state.units["johnny"]
    assert johnny.record.turn.overwatch == 10 and johnny.record.watch.mode == "shoot"
    # stage an enemy two squares from the watcher, on its turn, and walk it one square in the open
    zhetan = game.state.units["zhetan_1"]
    start = next((x, y) for x, y in [(johnny.pos[0] + dx, johnny.pos[1] - 3) for dx in range(-3, 4)]
                 if game.state.grid.walkable[y, x] and not game.state.units_at((x, y))
                 and game.state.grid.walkable[y - 1, x] and not game.state.units_at((x, y - 1))
                 and game.state.grid.sees(johnny.pos, (x, y - 1), 20))
    staged = attrs.evolve(game.state, side="aliens", units={
        **game.state.units, zhetan.id: attrs.evolve(zhetan, pos=start, record=attrs.evolve(
            zhetan.record, at=start, turn=attrs.evolve(zhetan.record.turn, ap=9)))})
    from engine.core.dice import Dice
    events = rs.decide(staged, Move(unit="zhetan_1", path=((start[0], start[1] - 1),)), Dice.scripted([50] * 40))
    shots = [e for e in events if getattr(e, "action", "") == "shoot"]
    assert shots and shots[0].actor == "johnny" and "overwatch 20" in shots[0].text
    watcher = next(e for e in events if getattr(e, "unit", "") == "johnny" and "record" in getattr(e, "changes", {}))
    assert watcher.changes["record"].turn.overwatch == 5  # 10 stored, one 5-AP shot
    assert got


def test_a_grenade_is_drawn_primed_and_thrown_for_4_ap_and_its_blast_rolls_per_ring(game):
    from engine.core.dice import Dice

    rs, state = game.ruleset, game.state
    johnny = state.units["johnny"]
    zhetan = state.units["zhetan_1"]
    spot = next((x, y) for x, y in [(johnny.pos[0] + dx, johnny.pos[1] - 5) for dx in range(-4, 5)]
                if state.grid.walkable[y, x] and not state.units_at((x, y)) and state.grid.sees(johnny.pos, (x, y), 20))
    staged = attrs.evolve(state, units={**state.units, zhetan.id: attrs.evolve(
        zhetan, pos=spot, record=attrs.evolve(zhetan.record, at=spot))})
    preview = rs.preview_throw(staged, "johnny", "frag", spot)
    assert 0 < preview.p_land <= 1 and [h for h, _ in preview.hits] == ["zhetan_1"]
    assert preview.hits[0][1].text.startswith(" 3 rolls")  # D = 0 from the impact: ring a, three rolls
    events = rs.decide(staged, Throw(unit="johnny", item="frag", cell=spot, target="zhetan_1"),
                       Dice.scripted([99] + [50] * 60))
    thrown = next(e for e in events if getattr(e, "action", "") == "throw")
    assert thrown.outcome == "on_target" and thrown.cell == spot
    blasts = [r for r in thrown.rolls if r.purpose == "Frag Grenade blast"]
    assert len(blasts) == 3 and all(r.formula.startswith("d100 50 + AdjAcc 110") for r in blasts)
    after = next(e.changes["record"] for e in events if getattr(e, "unit", "") == "johnny" and "record" in e.changes)
    assert after.turn.ap == 6 and "frag" not in after.belt


def test_the_preview_gives_every_outcome_exactly(game):
    from fractions import Fraction

    from engine.rules.xxxzone import shooting
    from engine.rules.xxxzone.attack import Attack, Defence

    d = Defence(id="t", agility=5, endurance=5, armour_dr=35, armour_hp=2)
    first, wound, worth = shooting.odds((Attack(attacker="a", adj_acc=98, dt=35),), d)
    chances = dict(first)
    # R = d100 + 98 - 5: miss for faces 1-7, DR 35 leaves glancing to face 42, DT 40 each tier
    assert chances == {"miss": Fraction(7, 100), "glancing": Fraction(35, 100), "minor": Fraction(40, 100),
                       "severe": Fraction(18, 100)}
    assert wound == Fraction(58, 100) and worth == Fraction(40 + 36, 100)


@pytest.mark.slow
def test_the_client_draws_the_panel_and_budget_and_a_key_walks(content, tmp_path):
    first, unit, step, moved, _session = draw_and_walk(content, ID, tmp_path)
    assert unit.name in first and f"AP {unit.record.turn.ap}/{unit.record.turn.maximum}" in first
    assert "Armour" in first and "Wounds" in first
    assert moved.pos == (unit.pos[0] + step[0], unit.pos[1] + step[1])
    assert moved.record.turn.ap == unit.record.turn.ap - 1


@pytest.mark.slow
def test_simulate_runs_from_the_cli(tmp_path):
    path = tmp_path / "cli.jsonl"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["simulate", "--ruleset", ID, "--seed", "3", "--out", str(path)])
    assert (code, err.getvalue()) == (0, "")
    lines = out.getvalue().splitlines()
    assert lines[0] == f"log:        {path}" and lines[1].startswith("winner:")
    assert _records(path)[0]["ruleset"] == ID


def test_the_throw_picker_counts_come_from_the_belt_not_unit_items(content, tmp_path):
    from engine.core.ruleset import Throwable

    game = Game.new(content, ID, "eliminate", seed_from_int(2), tmp_path / "t.jsonl")
    johnny = attrs.evolve(game.state.units["johnny"], items={})  # the kernel's mirror left out
    assert game.ruleset.throwables(game.state, johnny) == [
        Throwable("popcorn", '"Popcorn" Incendiary Grenade', 2), Throwable("frag", "Frag Grenade", 1)]
    game.close()


def test_the_hive_queen_leads_the_boorus_on_the_terror_mission(content):
    g = Game.new(content, ID, "terror", seed_from_int(5), None)
    try:
        aliens = sorted(u.template for u in g.state.units.values() if u.side == "aliens")
    finally:
        g.close()
    # forces.toml after the balance pass (docs/rules-notes.md, xxxzone "Balance pass"): one Zhetan, one Boorus
    assert aliens == ["boorus", "boorus_queen", "hover_drone", "hover_drone", "zhetan"]
