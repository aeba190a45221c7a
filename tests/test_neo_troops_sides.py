"""The sides by their names under neo-troops (content/neo-troops/sides.toml): the squad are the Varans, their enemies
the Goons, in the messages, the story, the summary, the audit and the top bar; the other rulesets keep the shared
names (engine.log.story.SIDE_NAMES)."""

from __future__ import annotations


import pytest

import ruleset_folder
from cli_run import run
from engine.log.story import describe, sides_of, turn_name, verdict
from engine.rules.neo_troops.schema import SCHEMA


@pytest.fixture(scope="module")
def neo_log(tmp_path_factory):
    """Two phases of the defence under neo-troops, AI against AI, public seed 2 (a draw at the phase limit)."""
    from engine.content import loader
    from engine.play import simulate
    from engine.core.dice import seed_from_int

    path = tmp_path_factory.mktemp("sides") / "defend.jsonl"
    content = loader.load(rulesets=("neo-troops",))
    simulate.run(content, "neo-troops", "defend", seed_from_int(2), path, max_phases=2, public=2).close()
    return path


def test_neo_troops_names_its_sides_and_the_others_keep_the_shared_names(content):
    neo = sides_of(content, "neo-troops")
    assert (neo.name("xcom"), neo.name("aliens"), neo.name("civilians")) == ("Varans", "Goons", "Civilians")
    assert turn_name("xcom", neo) == "Varan turn" and turn_name("aliens", neo) == "Goon turn"
    assert verdict("xcom", "all hostiles eliminated", neo) == "Varans win — all hostiles eliminated"
    assert verdict("aliens", "the squad is down", neo) == "Goons win — the squad is down"
    for other in ("xcom-trpg", "xxxzone", "annihilation"):
        shared = sides_of(content, other)
        assert (shared.name("xcom"), turn_name("aliens", shared)) == ("X-COM", "Alien turn")
        assert (shared.label("xcom"), shared.foes("xcom")) == ("xcom", "hostiles")  # the readers' ids, as before
        assert verdict("xcom", "done", shared) == "X-COM wins — done"


def test_the_events_are_told_with_the_names(content):
    neo = sides_of(content, "neo-troops")
    spawned = {"kind": "spawned", "unit": {"id": "anna", "name": "Anna", "side": "xcom", "hp": 3}}
    assert describe(spawned, {}, neo) == "Anna (Varans) deploys with 3 HP"
    assert describe({"kind": "side", "side": "aliens"}, {}, neo) == "Goon turn"
    ended = {"kind": "ended", "winner": "aliens", "reason": "the squad is down"}
    assert describe(ended, {}, neo) == "MISSION OVER: Goons win — the squad is down"
    assert describe(ended, {}) == "MISSION OVER: Aliens win — the squad is down"
    assert describe(spawned, {}) == "Anna (xcom) deploys with 3 HP"  # a ruleset without names: its ids, as before


def test_the_story_and_the_audit_of_a_neo_troops_log_name_the_sides(neo_log, capsys):
    code, out, _ = run(["replay", str(neo_log), "--story"], capsys)
    assert code == 0 and "Anna (Varans) deploys with 3 HP" in out and "(xcom)" not in out
    code, out, _ = run(["audit", str(neo_log), "--stats"], capsys)
    assert code == 0
    rows = [line.split()[0] for line in out.splitlines()[2:5]]
    assert rows == ["Goons", "god", "Varans"]  # the table's rows, by side id
    assert "Varans: " in out and "Goons: " in out and "xcom" not in out
    code, out, _ = run(["audit", str(neo_log)], capsys)
    assert code == 0 and "  Varans " in out and "  xcom " not in out


def test_the_summary_names_the_sides(content, neo_log):
    from tui.screens.summary import summary_lines

    lines = summary_lines(neo_log, content)
    assert lines[0] == "MISSION OVER — a draw, nobody wins — phase limit 2 reached"
    rows = [line.split()[0] for line in lines if " · lost " in line and "kills" in line]
    assert rows == ["Varans", "Goons"]  # a row per side, by its name
    stats = lines.index("Dice statistics (rolls on the final branch)")
    assert [line.split()[0] for line in lines[stats + 2:stats + 5]] == ["Goons", "god", "Varans"]


def test_the_trials_table_heads_its_columns_with_the_names(capsys):
    code, out, _ = run(["simulate", "--ruleset", "neo-troops", "--mission", "defend", "--trials", "1",
                        "--difficulty", "normal", "--max-turns", "1"], capsys)
    assert code == 0
    head = out.splitlines()[0]
    assert "Varans wins" in head and "Varans lost" in head and "Goons lost" in head and "X-COM" not in head


def test_a_side_the_sides_table_does_not_know_is_one_located_line(tmp_path):
    root = ruleset_folder.copy(tmp_path, "neo-troops")
    ruleset_folder.edit(root, "neo-troops", "sides.toml", "[aliens]", "[alien]")
    assert ruleset_folder.problems(root, "neo-troops", SCHEMA) == [
        "neo-troops/sides.toml: [alien]: expected a side 'xcom', 'aliens' or 'civilians'"]


@pytest.mark.parametrize("ruleset_id, foes", [("neo-troops", "Goons"), ("xcom-trpg", "hostiles")])
def test_the_top_bar_counts_the_foes_in_sight_by_their_name(content, tmp_path, ruleset_id, foes):
    from engine.core.dice import seed_from_int
    from tui.screens.readout import top_line
    from tui.session import Session

    session = Session.new(content, ruleset_id, "defend", seed_from_int(4), tmp_path / "m.jsonl")
    assert top_line(session, 2, 200).endswith(f" · {foes} in sight 2")
    assert len(top_line(session, 2, 80)) <= 80
    session.close()
