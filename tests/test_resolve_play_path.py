"""`xenotac resolve` runs the play path: the situation is staged on a small map and decided by the game's own
`decide`, so every refusal the game gives, resolve gives with the same code and reason, and the numbers are the
game's."""

from __future__ import annotations

import json

import pytest

from engine.content import loader
from engine.rules.xcom_trpg.scenario import Scenario, make_units
from engine.core.commands import Rejected, Shoot
from engine.core.dice import Dice
from engine.core.ruleset import make
from engine.play import trials
from tui.cli import main

from test_melee_charisma_weapons import make_unit, world
from engine.rules.xcom_trpg.tables import xcom
from tests.xcom_record import counters, evolved, flags
from engine.rules.xcom_trpg.record import soldier

BURST = loader.load_scenario("docs/scenarios/shoot-burst.toml")


def refereed(content, sc: Scenario, faces=()):
    units, _ = make_units(content, sc, Dice(None, script=[]))
    return make(sc.ruleset, content, None).referee(units, sc.action, Dice.scripted(list(faces)))


def with_unit(sc: Scenario, uid: str, **fields) -> Scenario:
    return evolved(sc, units={**sc.units, uid: evolved(sc.units[uid], **fields)})


def with_action(sc: Scenario, **fields) -> Scenario:
    return evolved(sc, action=evolved(sc.action, **fields))


def test_a_burst_without_stamina_is_refused_as_in_play(content):
    tired = with_unit(BURST, "julia", stamina=0)
    got = refereed(content, tired)
    rs, state = world(content, make_unit(content, "julia", "julia", "xcom", (1, 1), weapon="machine_gun", stamina=0),
                      make_unit(content, "sectoid", "sectoid", "aliens", (17, 1)), size=20)
    played = rs.decide(state, Shoot(unit="julia", target="sectoid", mode="burst"), Dice.scripted([]))
    assert isinstance(got, Rejected) and got.code == "no_stamina"
    assert got == played


@pytest.mark.parametrize("change, code", [
    ({"sectors_between": 40}, "no_line_of_sight"),  # beyond sight, as on any map
    ({"mode": "aimed"}, "unknown_mode"),
    ({"cover": "full", "sectors_between": 1}, "full_cover"),
])
def test_the_games_checks_refuse_with_its_codes(content, change, code):
    got = refereed(content, with_action(BURST, **change))
    assert isinstance(got, Rejected) and got.code == code, got


def test_a_grenade_past_the_throwers_reach_is_out_of_range(content):
    sc = with_action(loader.load_scenario("docs/scenarios/throw.toml"), sectors_between=3)
    got = refereed(content, sc)
    assert got == Rejected("out_of_range", "Target is 16 cells away; Julia throws 10 (Strength×2)")


def test_the_shot_is_the_games_own_decision(content):
    """TV-19's numbers, and what the game adds: the ammunition spent, the turn used."""
    v = refereed(content, BURST, [38, 27, 89, 76, 93])
    assert "HEADSHOT" in v.summary and v.after["sectoid"].status == "dead"
    julia = v.after["julia"]
    burst = xcom(content).weapons["machine_gun"].modes["burst"].shots
    assert soldier(julia).actions == 0 and soldier(julia).ammo == soldier(v.before["julia"]).ammo - burst


def test_trials_refuse_what_the_game_refuses(content):
    got = trials.run(content, with_unit(BURST, "julia", stamina=0), 50, seed=1)
    assert isinstance(got, Rejected) and got.code == "no_stamina"


def test_the_command_line_says_the_refusal_in_one_line(tmp_path, capsys):
    text = open("docs/scenarios/shoot-burst.toml").read().replace("morale = 30", "morale = 30\nstamina = 0")
    path = tmp_path / "tired.toml"
    path.write_text(text)
    assert main(["resolve", str(path)]) != 0
    err = capsys.readouterr().err.strip()
    assert err.startswith("xenotac: refused (no_stamina): ") and "\n" not in err
    assert main(["resolve", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["rejected"]["code"] == "no_stamina"
    assert main(["resolve", str(path), "--trials", "20"]) != 0
    assert "refused (no_stamina)" in capsys.readouterr().err
