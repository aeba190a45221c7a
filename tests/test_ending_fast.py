"""missions.ending skips the verdict after a command that cannot change it (issue 16): on every command of
simulated missions of both rulesets that call it, the skip and the full verdict agree."""

from __future__ import annotations

import pytest

from engine.content import missions
from engine.core.dice import seed_from_int
from engine.core.events import MissionEnded
from engine.core.reducer import fold


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["xxxzone", "neo-troops"])
@pytest.mark.parametrize("mission", ["eliminate", "vip", "defend", "infiltrate", "terror", "crash"])
def test_the_skipped_verdict_agrees_with_the_full_one_on_every_command(content, ruleset, mission, tmp_path,
                                                                       monkeypatch):
    from engine.play import simulate

    if mission not in content.missions:
        pytest.skip(f"no {mission} mission")
    real_ending, real_verdict = missions.ending, missions.verdict
    looked: list[int] = []
    commands: list[int] = []

    def counted(*args):
        looked.append(1)
        return real_verdict(*args)

    def checked(content, setup, state, events):
        got = real_ending(content, setup, state, events)
        full = None if any(isinstance(e, MissionEnded) for e in events) else real_verdict(
            content, setup.mission, setup.spawns, fold(state, events))
        assert got == ([MissionEnded(winner=full[0], reason=full[1])] if full else []), events
        commands.append(1)
        return got

    monkeypatch.setattr(missions, "verdict", counted)
    monkeypatch.setattr(missions, "ending", checked)
    game = simulate.run(content, ruleset, mission, seed_from_int(5), tmp_path / "sim.jsonl", max_phases=12)
    ended = game.state.winner
    game.close()
    assert commands and len(looked) < len(commands), "the skip was never taken"
    assert looked, "the full verdict was never read"
    assert ended is not None
