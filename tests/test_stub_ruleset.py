"""The seam, proven: a ruleset that lives only in `tests/stub_ruleset.py` registers itself, plays a whole AI-vs-AI
mission headless, verifies byte for byte, and is drawn by the client, with no change outside its own file."""

from __future__ import annotations

import json

import attrs

import pytest

from engine.core import ruleset
from engine.core.dice import seed_from_int
from engine.play import simulate
from engine.play.verify import verify

import stub_ruleset  # noqa: F401 - registers "d6-stub"
from client_walk import draw_and_walk


def test_the_registry_finds_the_stub():
    assert stub_ruleset.ID in ruleset.available()


@pytest.mark.parametrize("mission", ["eliminate", "defend"])
def test_a_whole_ai_mission_plays_and_verifies(content, tmp_path, mission):
    path = tmp_path / f"{mission}.jsonl"
    game = simulate.run(content, stub_ruleset.ID, mission, seed_from_int(5), path, max_phases=30)
    state = game.state
    game.close()
    assert state.winner is not None, state.ended
    shots = [json.loads(line) for line in path.read_text().splitlines()]
    rolls = [r for rec in shots if rec.get("kind") == "command" for e in rec["events"] for r in e.get("rolls", [])]
    assert {r["purpose"] for r in rolls} <= {"hit", "save"} and rolls  # its own dice, and nothing of xcom-trpg's
    assert all(r["expr"] == "1d6" for r in rolls)
    report = verify(content, path)
    assert report.failure is None, str(report.failure)
    assert report.records == len(shots)


def test_the_client_draws_the_stub_and_plays_a_turn(content, tmp_path):
    """The battle screen at 80×24 shows the stub's map, squad and budget, and a key walks and ends the turn."""
    first, unit, step, moved, _session = draw_and_walk(content, stub_ruleset.ID, tmp_path)
    assert "action 1/1" in first.lower() and unit.name in first
    assert "Wounds  3/3 ████████" in first and "Stamina" not in first  # the stub's own sheet, nothing of xcom's
    assert moved.pos == (unit.pos[0] + step[0], unit.pos[1] + step[1]) and moved.record.actions == 0




def test_audit_stats_tabulates_the_rulesets_own_die(content, tmp_path):
    """The stub names d6 as its audited die: the χ² table has one row per face and five degrees of freedom."""
    from engine.log import audit

    path = tmp_path / "stats.jsonl"
    simulate.run(content, stub_ruleset.ID, "eliminate", seed_from_int(5), path, max_phases=30).close()
    lines = list(audit.stats(path))
    heads = [line for line in lines if " d6, χ² = " in line]
    assert heads and all("on 5 degrees of freedom" in h for h in heads)
    assert not any(" d100, χ²" in line for line in lines)
    rows = lines[lines.index(heads[0]) + 1:lines.index(heads[0]) + 7]
    assert [int(r.split()[0]) for r in rows] == [1, 2, 3, 4, 5, 6]
    counted = sum(int(r.split()[1]) for r in rows)
    assert counted == int(heads[0].split(":")[1].split()[0])


def test_the_rulesets_own_unit_record_is_logged_folded_and_verified(content, tmp_path):
    """`Unit.record` carries the stub's typed numbers and `State.record` its battle's: written by tag, changed whole
    by events, read back strictly, kept through a checkpoint's dump and in the state hash, and re-derived by verify."""
    from engine.core import codec

    path = tmp_path / "records.jsonl"
    game = simulate.run(content, stub_ruleset.ID, "eliminate", seed_from_int(5), path, max_phases=30)
    state = game.state
    game.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    spawned = [e["unit"] for rec in lines if rec.get("kind") == "command" for e in rec["events"] if e["kind"] == "spawned"]
    units = content.rules["xcom-trpg"]["units"]
    assert spawned and all(u["record"] == {"kind": "d6-stub.trooper", "weapon": units[u["template"]].weapon,
                                           "actions": 0, "shots": 0, "saves": 0} for u in spawned)
    shots = sum(u.record.shots for u in state.units.values())
    fired = sum(1 for rec in lines if rec.get("kind") == "command" for e in rec["events"]
                for r in e.get("rolls", []) if r["purpose"] == "hit")
    assert shots == fired > 0
    saves = sum(u.record.saves for u in state.units.values())
    failed = sum(1 for rec in lines if rec.get("kind") == "command" for e in rec["events"]
                 if e["kind"] == "changed" and e["cause"] == "wounded")
    made = sum(1 for rec in lines if rec.get("kind") == "command" for e in rec["events"]
               for r in e.get("rolls", []) if r["purpose"] == "save")
    assert saves == made - failed
    assert state.record == stub_ruleset.Tally(shots=fired)  # the battle's own record (State.record), noted per shot
    again = codec.load_state(json.loads(json.dumps(codec.dump_state(state))), state.grid)
    assert again.units == state.units and again.record == state.record
    assert codec.state_hash(again) == codec.state_hash(state)
    assert codec.state_hash(attrs.evolve(state, record=None)) != codec.state_hash(state)
    assert verify(content, path).failure is None


@pytest.mark.parametrize("data, words", [
    ({"kind": "d6-stub.sniper", "shots": 1}, "unknown unit record 'd6-stub.sniper'"),
    ({"kind": "d6-stub.trooper", "shots": "two"}, "expected an integer"),
    ({"kind": "d6-stub.trooper", "shots": 1, "luck": 3}, "luck"),
    ([1, 2], "not an object"),
])
def test_a_bad_record_in_a_log_is_one_line(data, words):
    from engine.core import codec

    event = {"kind": "changed", "unit": "u1", "changes": {"record": data}, "cause": "x", "rolls": []}
    with pytest.raises(codec.CodecError) as caught:
        codec.load_event(event)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_pools_kept_dice_are_logged_only_when_it_discards_some():
    """`Roll.kept` marks the dice of a pool that count (`4d6 [6 5 2 1] keep 6,5`); a roll that keeps every die writes
    no `kept`, so every older log keeps its bytes."""
    from engine.core import codec
    from engine.core.dice import Roll
    from engine.core.events import Resolved

    pool = Roll(actor="a", purpose="spray", expr="4d6", faces=(6, 5, 2, 1), formula="4d6 [6 5 2 1] keep 6,5 vs AV 4: 2 hits",
                total=2, kept=(0, 1))
    plain = attrs.evolve(pool, kept=())
    event = Resolved(actor="a", action="shoot", rolls=(pool, plain), outcome="hit", text="")
    data = json.loads(json.dumps(codec.dump_event(event)))
    assert data["rolls"][0]["kept"] == [0, 1] and "kept" not in data["rolls"][1]
    assert codec.load_event(data) == event


def test_the_client_follows_the_rulesets_turn_order(content, tmp_path, monkeypatch):
    """An initiative slot or an interrupt (`Turn.units`, `Turn.label`): only the named unit is ready, and the status
    line says whose slot it is in the ruleset's words."""
    from engine.core.ruleset import Turn
    from tui.screens.readout import top_line
    from tui.session import Session

    session = Session.new(content, stub_ruleset.ID, "eliminate", seed_from_int(2), tmp_path / "slots.jsonl")
    first = session.squad()[0]
    assert len(session.ready()) > 1
    monkeypatch.setattr(stub_ruleset.D6Stub, "turn", lambda self, state: Turn(
        side=state.side, units=(first.id,), label=f"Initiative 1/9: {first.name}"))
    assert session.ready() == [first]
    assert f"Initiative 1/9: {first.name} · 1/" in top_line(session, 0)
    session.close()
