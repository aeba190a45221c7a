"""The `xenotac` command, run in-process through tui.cli.main.

Success exits 0; bad input prints exactly one line on stderr and exits 2; a failed verification
exits 1. A traceback is never the answer.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from engine.core import codec
from engine.log import writer as log
from engine.core.commands import Rejected
from engine.core.dice import seed_from_int
from engine.play.game import Game
from tui.cli import main
from cli_run import run

SCENARIO = """\
ruleset = "xcom-trpg"

[units.anton]
race = "human"
stats = { strength = 7, agility = 4, intelligence = 6, bravery = 6, charisma = 4, luck = 6, psionics = 3 }
weapon = "shotgun"
hp = 61

[units.muton]
race = "muton"
stats = { strength = 9, agility = 6, intelligence = 3, bravery = 7, charisma = 2, luck = 4, psionics = 1 }
armor = "medium"
hp = 75

[action]
type = "shoot"
actor = "anton"
target = "muton"
sectors_between = 2
target_sees_actor = true
cover = "none"
"""


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> tuple[Path, str]:
    """`xenotac simulate --seed 1 --out m.jsonl`, once: the log and what it printed."""
    path = tmp_path_factory.mktemp("sim") / "m.jsonl"
    out, err = io.StringIO(), io.StringIO()  # capsys is function-scoped: capture by hand
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["simulate", "--seed", "1", "--out", str(path)])
    assert (code, err.getvalue()) == (0, "")
    return path, out.getvalue()


# -- simulate, replay --verify, audit -------------------------------------------------------------


def test_simulate_reports_the_mission(simulated):
    path, out = simulated
    lines = out.splitlines()
    assert lines[0] == f"log:        {path}"
    recs = records(path)
    ended = next(e for r in recs if r["kind"] == "command" for e in r["events"] if e["kind"] == "ended")
    assert lines[1] == f"winner:     {ended['winner']} ({ended['reason']})"
    phase = max(e["phase"] for r in recs if r["kind"] == "command" for e in r["events"] if e["kind"] == "phase")
    assert lines[2] == f"phases:     {phase}"
    assert re.fullmatch(r"xcom:\s+\d+ standing, \d+ unconscious, \d+ dead", lines[3])
    assert re.fullmatch(r"aliens:\s+\d+ standing, \d+ unconscious, \d+ dead", lines[4])
    faces = sum(len(roll["faces"]) for r in recs if r["kind"] == "command" for e in r["events"]
                for roll in e["rolls"] if roll["index"] >= 0)
    assert lines[5] == f"dice rolled: {faces}" and faces > 100


def test_simulate_writes_the_log_its_seed_and_the_reveal(simulated):
    path, _out = simulated
    recs = records(path)
    assert recs[0]["kind"] == "header" and recs[0]["mission"]["id"] == "eliminate"
    assert recs[-1] == {**recs[-1], "kind": "reveal", "seed": seed_from_int(1).hex()}
    assert recs[0]["seed_public"] == 1  # --seed 1: anyone can foresee these dice, and the header says so
    lines = path.read_bytes().splitlines()
    seed_file = log.seed_path(path)  # the seed, the header's hash, and now the last line and its hash
    assert seed_file.read_text().splitlines() == [
        seed_from_int(1).hex(), f"header {log.line_hash(lines[0])}", f"end {len(lines)} {log.line_hash(lines[-1])}"]
    assert seed_file.stat().st_mode & 0o777 == 0o600


def test_replay_verify_of_the_simulated_log(simulated, capsys):
    path, _out = simulated
    n = len(path.read_bytes().splitlines())
    assert run(["replay", str(path), "--verify"], capsys) == (
        0, f"verified {n} records\npublic seed 1: anyone could foresee these dice\n", "")


def test_audit_of_the_simulated_log(simulated, capsys):
    path, _out = simulated
    code, out, err = run(["audit", str(path)], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(f"{path} · mission eliminate · ruleset xcom-trpg · seed commitment ")
    assert lines[1] == "public seed 1: anyone could foresee these dice"
    assert re.match(r"line 2 · phase 1 · mission start: hit points rolled", lines[2])
    assert re.search(r"\n  Anton\s+hp\s+hp \(7-1\)\*10\+\d+=\d+\n", out)  # the formula, filled in
    # the statistics count every d100 on the (only) branch
    stats = lines[lines.index("Dice statistics (rolls on the final branch)") + 2:]
    rows = {row.split()[0]: int(row.split()[1]) for row in stats}
    d100 = sum(len(roll["faces"]) for r in records(path) if r["kind"] == "command" for e in r["events"]
               for roll in e["rolls"] if roll["expr"] == "1d100")
    assert set(rows) == {"xcom", "aliens"} and sum(rows.values()) == d100


def test_audit_of_one_unit_and_one_record(simulated, capsys):
    path, _out = simulated
    code, out, _err = run(["audit", str(path), "--unit", "anton"], capsys)
    assert code == 0
    rolls = [ln for ln in out.split("\nDice statistics")[0].splitlines() if ln.startswith("  ")]
    assert len(rolls) > 3 and all(ln.split()[0] == "Anton" for ln in rolls)
    code, out, _err = run(["audit", str(path), "--record", "2"], capsys)
    assert code == 0
    assert [ln.split(" · ")[0] for ln in out.splitlines() if ln.startswith("line ")] == ["line 2"]


def test_replay_tells_the_story(simulated, capsys):
    path, _out = simulated
    code, out, err = run(["replay", str(path), "--story"], capsys)
    assert (code, err) == (0, "")
    assert re.match(r"line 2: Anton \(xcom\) deploys with \d+ HP", out)
    assert "MISSION OVER" in out


# -- determinism --------------------------------------------------------------------------------


def test_the_same_seed_gives_a_byte_identical_log(simulated, tmp_path, capsys):
    path, _out = simulated
    again = tmp_path / "again.jsonl"
    assert run(["simulate", "--seed", "1", "--out", str(again)], capsys)[0] == 0
    assert again.read_bytes() == path.read_bytes()
    assert log.seed_path(again).read_bytes() == log.seed_path(path).read_bytes()


def test_another_seed_gives_another_mission(simulated, tmp_path, capsys):
    other = tmp_path / "other.jsonl"
    assert run(["simulate", "--seed", "2", "--max-turns", "3", "--out", str(other)], capsys)[0] == 0
    assert records(other)[0]["seed_commitment"] != records(simulated[0])[0]["seed_commitment"]
    assert records(other)[1]["events"] != records(simulated[0])[1]["events"]


def test_the_same_seed_and_commands_give_the_same_bytes(simulated, tmp_path, content):
    """Feed the logged commands (undos included, had there been any) to a new game: same file. The AI's
    commands it gives again itself, as it remembers what it saw (its memory is in the checkpoints)."""
    path, _out = simulated
    copy = tmp_path / "copy.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(1), copy, public=1)
    for record in records(path)[2:]:  # after the header and the start
        if record["kind"] == "command" and record.get("ai"):
            while isinstance(game.ai_step(), Rejected):
                pass
            assert game.history[-1].n == record["n"]
        elif record["kind"] == "command":
            assert not isinstance(game.submit(codec.load_command(record["command"])), Rejected)
        elif record["kind"] == "undo":
            assert not isinstance(game.undo(), Rejected)
    game.close()
    assert copy.read_bytes() == path.read_bytes()


def test_a_short_mission_with_max_turns(tmp_path, capsys):
    path = tmp_path / "short.jsonl"
    code, out, _err = run(["simulate", "--seed", "4", "--max-turns", "2", "--out", str(path)], capsys)
    assert code == 0 and "phases:     2" in out
    assert run(["replay", str(path), "--verify"], capsys)[0] == 0


def test_simulate_without_out_writes_into_the_save_folder(tmp_path, capsys):
    saves = tmp_path / "saves"
    code, out, _err = run(["--saves", str(saves), "simulate", "--seed", "5", "--max-turns", "1"], capsys)
    assert code == 0
    assert [p.name for p in saves.glob("*.jsonl")] == ["eliminate-sim-5.jsonl"]
    assert out.startswith(f"log:        {saves / 'eliminate-sim-5.jsonl'}\n")


# -- resolve ---------------------------------------------------------------------------------------


@pytest.fixture
def scenario(tmp_path) -> Path:
    path = tmp_path / "shotgun.toml"
    path.write_text(SCENARIO)
    return path


def test_resolve_with_the_dice_rolled(scenario, capsys):
    code, out, err = run(["resolve", str(scenario), "--dice", "88,93,10,44,76,6,10"], capsys)
    assert (code, err) == (0, "")
    assert "agility 4*88=352" in out and "luck 6*93=558>=100 ✓" in out
    assert "Anton → Muton: HIT" in out


def test_resolve_json_and_trials(scenario, capsys):
    code, out, _err = run(["resolve", str(scenario), "--dice", "88,93,10,44,76,6,10", "--json"], capsys)
    assert code == 0 and json.loads(out)["units"]["muton"]["hp"] < 75
    code, out, _err = run(["resolve", str(scenario), "--trials", "200", "--json", "--seed", "3"], capsys)
    odds = json.loads(out)["units"]
    assert code == 0 and 0 < odds["muton"]["p_hit"] < 1
    assert run(["resolve", str(scenario), "--trials", "200", "--json", "--seed", "3"], capsys)[1] == out


# -- bad input: one line on stderr, exit 2 ----------------------------------------------------------


def one_line_exit_2(argv: list[str], capsys) -> str:
    code, out, err = run(argv, capsys)
    assert "Traceback" not in out + err
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err.strip()


@pytest.mark.parametrize("argv, expected", [
    (["simulate", "--mission", "eliminat"], "unknown mission 'eliminat' (did you mean 'eliminate'?)"),
    (["simulate", "--ruleset", "xcom-trgp"], "unknown ruleset 'xcom-trgp' (did you mean 'xcom-trpg'?)"),
    (["simulate", "--seed", "abc"], "a seed is a whole number, got 'abc'"),
    (["simulate", "--seed", "-3"], "a seed cannot be negative"),
    (["simulate", "--max-turns", "0"], "expected a number of at least 1, got 0"),
    (["resolve", "x.toml", "--dice", "88,x"], "dice are comma-separated whole numbers, got '88,x'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_bad_arguments(argv, expected, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    saves = ["--saves", str(tmp_path / "saves")]
    assert expected in one_line_exit_2(saves + argv, capsys)
    assert list(tmp_path.iterdir()) == [], "bad input must not write anything"


@pytest.mark.parametrize("command", [["replay", "{}", "--verify"], ["replay", "{}"], ["replay", "{}", "--story"],
                                     ["audit", "{}"]])
def test_a_missing_log(command, tmp_path, capsys):
    missing = tmp_path / "missing.jsonl"
    argv = [a.format(missing) for a in command]
    assert one_line_exit_2(argv, capsys) == f"xenotac: {missing}: no such file"


@pytest.mark.parametrize("command", [["replay", "{}", "--verify"], ["replay", "{}"], ["replay", "{}", "--story"],
                                     ["audit", "{}"]])
def test_a_directory_as_the_log(command, tmp_path, capsys):
    argv = [a.format(tmp_path) for a in command]
    assert one_line_exit_2(argv, capsys) == f"xenotac: {tmp_path}: is a directory, not a log"


def test_simulate_refuses_to_overwrite_or_write_into_a_directory(simulated, tmp_path, capsys):
    path, _out = simulated
    before = path.read_bytes()
    assert "already exists" in one_line_exit_2(["simulate", "--seed", "1", "--out", str(path)], capsys)
    assert path.read_bytes() == before
    assert "is a directory" in one_line_exit_2(["simulate", "--out", str(tmp_path)], capsys)


@pytest.mark.parametrize("text, expected", [
    (SCENARIO.replace("sectors_between = 2", 'sectors_between = "two"'),
     'shotgun.toml: [action].sectors_between: expected integer, got "two"'),
    (SCENARIO.replace('race = "muton"', 'race = "mutn"'),
     "shotgun.toml: [units.muton].race: unknown race 'mutn' (did you mean 'muton'?)"),
    (SCENARIO.replace('type = "shoot"', 'type = "stab"'),
     'shotgun.toml: [action].type: expected one of shoot, throw, psi, persuade, grab, escape, shove, search, special, bravery, initiation, got "stab"'),
    (SCENARIO.replace('target = "muton"', 'target = "mutton"'),
     "shotgun.toml: [action].target: unknown unit 'mutton' (did you mean 'muton'?)"),
    (SCENARIO.replace("[action]", "[action"), "shotgun.toml: Expected ']' at the end of a table declaration"),
], ids=["wrong_type", "unknown_race", "bad_literal", "unknown_unit", "toml_syntax"])
def test_resolve_a_malformed_scenario(text, expected, tmp_path, capsys):
    path = tmp_path / "shotgun.toml"
    path.write_text(text)
    assert one_line_exit_2(["resolve", str(path)], capsys).startswith(f"xenotac: {expected}")


@pytest.mark.parametrize("text, expected", [
    (SCENARIO.replace('weapon = "shotgun"\n', 'weapon = "shotgun"\nweapn = 1\n'),
     "shotgun.toml: [units.anton]: unknown key 'weapn' (did you mean 'weapon'?)"),
    (SCENARIO.replace("hp = 61", 'hp = "lots"'), 'shotgun.toml: [units.anton].hp: expected integer, got "lots"'),
], ids=["unknown_key", "wrong_type"])
def test_resolve_locates_unit_keys_like_the_toml_tables(text, expected, tmp_path, capsys):
    path = tmp_path / "shotgun.toml"
    path.write_text(text)
    assert one_line_exit_2(["resolve", str(path)], capsys) == f"xenotac: {expected}"


def test_resolve_a_missing_scenario_or_a_directory(tmp_path, capsys):
    assert one_line_exit_2(["resolve", str(tmp_path / "no.toml")], capsys) == f"xenotac: {tmp_path / 'no.toml'}: no such file"
    assert "is a directory" in one_line_exit_2(["resolve", str(tmp_path)], capsys)


def test_resolve_names_the_roll_that_ran_out_of_dice(scenario, capsys):
    err = one_line_exit_2(["resolve", str(scenario), "--dice", "88"], capsys)
    assert err == "xenotac: no scripted die left for anton's luck check (1d100); 1 were given"


def test_resolve_refuses_a_die_that_is_not_a_face(scenario, capsys):
    err = one_line_exit_2(["resolve", str(scenario), "--dice", "88,101"], capsys)
    assert "101" in err and "anton's luck check" in err and "1d100" in err


def test_resolve_refuses_dice_with_trials(scenario, capsys):
    assert "do not mix" in one_line_exit_2(["resolve", str(scenario), "--dice", "1", "--trials", "5"], capsys)


@pytest.mark.parametrize("data", [b"garbage\n", b"\xff\xfe\n", b"[1, 2]\n"], ids=["text", "binary", "array"])
def test_a_file_that_is_not_a_log(data, tmp_path, capsys):
    path = tmp_path / "not-a-log.jsonl"
    path.write_bytes(data)
    assert one_line_exit_2(["audit", str(path)], capsys).startswith("xenotac: line 1: ")
    code, out, err = run(["replay", str(path), "--verify"], capsys)
    assert (code, out) == (1, "") and err.startswith("FAILED at line 1: ") and err.count("\n") == 1


@pytest.mark.parametrize("data", [b"", b'{"a": 1}\n'], ids=["empty", "not_a_log"])
def test_the_story_of_a_file_that_is_not_a_log(data, tmp_path, capsys):
    path = tmp_path / "not-a-log.jsonl"
    path.write_bytes(data)
    one_line_exit_2(["replay", str(path), "--story"], capsys)


def test_a_failed_verification_exits_1_with_one_line(simulated, tmp_path, capsys):
    path = tmp_path / "m.jsonl"
    data = simulated[0].read_bytes()
    path.write_bytes(data.replace(b'"faces":[', b'"faces":[1,', 1))  # an extra die in line 2
    log.seed_path(path).write_bytes(log.seed_path(simulated[0]).read_bytes())
    code, out, err = run(["replay", str(path), "--verify"], capsys)
    assert (code, out) == (1, "") and err.startswith("FAILED at line 2: ") and err.count("\n") == 1


def test_an_unrevealed_log_without_its_seed_fails_verification(tmp_path, capsys):
    path = tmp_path / "live.jsonl"
    assert run(["simulate", "--max-turns", "1", "--out", str(path)], capsys)[0] == 0  # a secret seed
    lines = path.read_bytes().splitlines(keepends=True)
    assert json.loads(lines[-1])["kind"] == "reveal"
    path.write_bytes(b"".join(lines[:-1]))  # as if the mission were still running
    log.seed_path(path).unlink()
    code, _out, err = run(["replay", str(path), "--verify"], capsys)
    assert code == 1 and "--seed-file" in err


def test_an_unrevealed_log_of_a_public_seed_verifies_from_its_header(tmp_path, capsys):
    """`--seed N` makes a public seed: the header says which, so anyone can check (and foresee) the dice."""
    path = tmp_path / "live.jsonl"
    assert run(["simulate", "--seed", "6", "--max-turns", "3", "--out", str(path)], capsys)[0] == 0
    lines = path.read_bytes().splitlines(keepends=True)
    cut = next(i for i in range(len(lines) // 2, len(lines)) if json.loads(lines[i])["kind"] == "command")
    path.write_bytes(b"".join(lines[:cut]))
    log.seed_path(path).unlink()
    code, out, _err = run(["replay", str(path), "--verify"], capsys)
    assert code == 0 and out.splitlines() == [
        f"verified {cut} records", "public seed 6: anyone could foresee these dice",
        f"unfinished: the mission has not ended; the log stops at line {cut}"]
