"""Issue 14, bad input: what a formula, a mission, a roster or a command line may ask for is bounded.

Each test is a finding turned into a regression test; tests/test_hostile.py runs every reader on every file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.content import loader
from engine.content.formula import Formula, FormulaError
from engine.core import codec
from engine.core.dice import seed_from_int
from engine.log import writer as log
from engine.play import roster
from engine.core.creation import Draft
from engine.play.game import Game, check_header
from engine.play.simulate import run
from engine.play.verify import verify
from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
STATS = {"strength": (0, 30)}


@pytest.mark.parametrize("text, problem", [
    ("strength / 0", "divides by zero"), ("10 / strength", "may divide by zero: strength can be 0"),
    ("10 / (strength - 3)", "may divide by zero"), ("1000000000d1000000000", "at most 100 dice of at most 1000 sides"),
    ("1d100000", "at most 100 dice"), ("9" * 5000, "characters; at most"), ("99999999", "is above 1000000"),
    ("(" * 30 + "1" + ")" * 30, "nested more than"), ("strength * strength * strength * 1000000", "past 1000000000")])
def test_a_formula_that_would_fail_in_play_is_refused(text, problem):
    with pytest.raises(FormulaError) as caught:
        Formula.parse(text).bounds(STATS)
    assert problem in str(caught.value)


@pytest.mark.parametrize("text, low, high", [("(strength - 1) * 10 + 1d10", -9, 300), ("10 * 1d100", 10, 1000),
                                             ("max(1, strength / 3)", 1, 10), ("50 * max(0, 7 - strength)", 0, 350),
                                             ("100 / (strength + 1)", 3, 100)])
def test_a_sane_formula_has_the_bounds_it_can_reach(text, low, high):
    lo, hi = Formula.parse(text).bounds(STATS)
    assert (int(lo), round(hi)) == (low, high)


def edited(tmp_path: Path, file: str, old: str, new: str) -> Path:
    root = tmp_path / "content"
    shutil.copytree(loader.default_dir(), root)
    text = (root / file).read_text(encoding="utf-8")
    assert old in text
    (root / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


@pytest.mark.parametrize("file, old, new, message", [
    ("xcom-trpg/rulesets.toml", 'hp = "(strength - 1) * 10 + 1d10"', 'hp = "strength / 0"',
     "xcom-trpg/rulesets.toml: [xcom-trpg].hp: divides by zero"),
    ("xcom-trpg/rulesets.toml", 'stamina = "strength"', 'stamina = "12 / strength"',
     "xcom-trpg/rulesets.toml: [xcom-trpg].stamina: may divide by zero"),
    ("xcom-trpg/rulesets.toml", 'god_of_random = "10 * 1d100"', 'god_of_random = "10 * strength"',
     "xcom-trpg/rulesets.toml: [xcom-trpg].god_of_random: the god of random rolls bare, with no stats: 'strength'"),
    ("missions/eliminate.toml", "max_phases = ", "max_phases = 0 #",
     "missions/eliminate.toml: [eliminate].max_phases: expected 1 to 1000, got 0"),
    ("missions/eliminate.toml", "sectoid = 6", "sectoid = 1000000",
     "missions/eliminate.toml: [eliminate].enemies.sectoid: expected 0 to 200, got 1000000"),
    ("xcom-trpg/units.toml", "strength = 7", "strength = -3", ".stats.strength: expected 0 to 100, got -3"),
    ("xcom-trpg/weapons.toml", "damage = ", "damage = -5 #", ".damage: expected 0 to 10000, got -5"),
    ("xcom-trpg/weapons.toml", "ammo = ", "ammo = -1 #", ".ammo: expected 0 to 1000, got -1"),
    ("difficulty.toml", "aggression_percent = ", "aggression_percent = 0 #", ".aggression_percent: expected 1 to 1000"),
])
def test_content_check_bounds_what_content_may_ask(tmp_path, capsys, file, old, new, message):
    root = edited(tmp_path, file, old, new)
    assert main(["content", "check", str(root)]) == 2
    out, err = capsys.readouterr()
    assert any(message in line for line in out.splitlines()), out
    assert err.count("\n") == 1


def test_the_shipped_content_and_every_fixture_stay_within_bounds():
    loader.load()
    for folder in (ROOT / "tests" / "fixtures" / "logs").glob("*-content"):
        loader.load(folder)


# -- the roster and a log's squad ----------------------------------------------------------------------


def test_a_hand_edited_roster_character_of_strength_a_million_is_refused(content, tmp_path, capsys):
    numbers = roster.parse_numbers(content, "xcom-trpg", Draft(), "str=7,agi=6,int=5,bra=6,cha=4,luck=6,psi=2")
    ch, _rolls = roster.create(content, "xcom-trpg", Draft(name="Anna", picks={"race": "human"}, numbers=numbers),
                               roster.dice_for(seed_from_int(1)))
    roster.save(tmp_path / "roster.toml", [ch])
    path = tmp_path / "roster.toml"
    path.write_text(path.read_text().replace("strength = 7", "strength = 1000000"))
    assert main(["--saves", str(tmp_path), "roster"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "character[0].stats.strength: 1000000 is outside 1 to 10" in err
    header = {"ruleset": "xcom-trpg", "content_sha256": content.sha_for("xcom-trpg"),
              "mission": {"id": "eliminate", "map_seed": 1, "max_phases": 5,
                          "squad": [{**json.loads(json.dumps(roster.to_header([ch])[0])), "hp": 10**9}]}}
    with pytest.raises(log.LogError, match="line 1: the header's squad: character\\[0\\].hp"):
        check_header(content, header)


# -- the command line --------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (["simulate", "--trials", "10000000"], "at most 10000 trials"), (["map", "--count", "1000000"], "at most 100 maps"),
    (["simulate", "--max-turns", "100000"], "at most 1000 phases"), (["simulate", "--jobs", "100000"], "at most 256"),
    (["resolve", "x.toml", "--trials", "100000000"], "at most 100000 trials"),
    (["simulate", "--seed", "9" * 5000], "at most 18 digits"), (["simulate", "--seed", "9" * 19], "a seed is at most")])
def test_counts_have_sane_upper_bounds(argv, message, capsys):
    with pytest.raises(SystemExit) as caught:
        main(argv)
    err = capsys.readouterr().err
    assert caught.value.code == 2 and err.count("\n") == 1 and message in err


@pytest.fixture(scope="module")
def long_log(tmp_path_factory, content) -> Path:
    path = tmp_path_factory.mktemp("long") / "m.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(2), path, public=2).close()
    return path


def test_audit_of_a_record_out_of_range_says_so(long_log, capsys):
    n = len(long_log.read_bytes().splitlines())
    for extra in ([], ["--explain"]):
        assert main(["audit", str(long_log), "--record", "9999", *extra]) == 2
        err = capsys.readouterr().err
        assert err == f"xenotac: --record 9999 is out of range: the log has lines 1 to {n}\n"


@pytest.mark.parametrize("command", [["replay", "{}", "--story"], ["audit", "{}"]])
def test_a_closed_pipe_ends_quietly(long_log, command):
    argv = [sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())",
            *[a.format(long_log) for a in command]]
    child = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.readline()  # `| head -1`
    child.stdout.close()
    _out, err = child.communicate(timeout=60)
    assert (child.returncode, err) == (0, b"")


@pytest.mark.parametrize("garbage", [b"[" * 100_000, b"9" * 5000, b"{" * 3000], ids=["brackets", "digits", "braces"])
@pytest.mark.parametrize("command", [["replay", "{}", "--verify"], ["audit", "{}"], ["replay", "{}", "--story"]])
def test_garbage_after_a_log_is_one_line_naming_it(long_log, tmp_path, capsys, garbage, command):
    path = tmp_path / "g.jsonl"
    path.write_bytes(long_log.read_bytes() + garbage + b"\n")
    n = len(path.read_bytes().splitlines())
    code = main([a.format(path) for a in command])
    err = capsys.readouterr().err
    assert code in (1, 2) and err.count("\n") == 1 and f"line {n}" in err, err


# -- the AI's marks and memory in the log ---------------------------------------------------------------


def test_a_malformed_ai_mark_or_memory_is_named(long_log, tmp_path, content):
    lines = long_log.read_bytes().splitlines()
    for kind, edit in (("command", lambda r: r.update(ai="yes")),
                       ("checkpoint", lambda r: r["ai"]["aliens"].update(looked={"shape": [1, 1], "runs": [5]}))):
        k = next(i for i, raw in enumerate(lines) if json.loads(raw)["kind"] == kind and json.loads(raw).get("ai"))
        record = json.loads(lines[k])
        edit(record)
        changed = lines[:k] + [codec.canonical(record).encode()] + lines[k + 1:]
        path = tmp_path / f"{kind}.jsonl"
        path.write_bytes(b"".join(raw + b"\n" for raw in changed))
        assert verify(content, path).failure.line == k + 1


def test_resume_names_a_malformed_ai_memory(content, tmp_path):
    path = tmp_path / "m.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(2), path)
    while b'"kind":"checkpoint"' not in path.read_bytes():
        game.ai_step()
    game.close()
    lines = path.read_bytes().splitlines()
    record = json.loads(lines[-1])
    record["ai"]["xcom"]["memory"] = [["x"]]
    lines[-1] = codec.canonical(record).encode()
    path.write_bytes(b"".join(raw + b"\n" for raw in lines))
    with pytest.raises(log.LogError, match=f"line {len(lines)}: malformed record"):
        Game.resume(content, path)
