"""xcom-trpg 4.8: extra turns after the main objectives, from the mission header (never content), and a soldier
confirming its episode end. Scripted play: both sides only end their turns, so `defend`'s hold (to the end of
phase 8) is done as phase 9 begins."""

from __future__ import annotations

import json

from engine.content import missions
from engine.core.commands import Act, EndTurn, Rejected, Wait
from engine.core.dice import seed_from_int
from engine.core.events import MissionEnded
from engine.play.game import Game
from engine.play.verify import verify
from engine.rules.xcom_trpg import episode
from engine.rules.xcom_trpg.downtime import XcomDowntime


def _play(content, tmp_path, extra: int) -> Game:
    return Game.new(content, "xcom-trpg", "defend", seed_from_int(7), tmp_path / "defend.jsonl", extra_turns=extra)


def _end_turns_until(game: Game, done) -> None:
    for _ in range(40):
        if done(game.state):
            return
        got = game.submit(EndTurn(side=game.state.side))
        assert not isinstance(got, Rejected), got
    raise AssertionError("never got there")


def _squad(game: Game) -> list[str]:
    return [u.id for u in game.state.side_units(missions.PLAYER) if u.conscious]


def test_without_extra_turns_the_mission_ends_with_its_objectives_as_before(content, tmp_path):
    game = _play(content, tmp_path, 0)
    assert "extra_turns" not in game.header["mission"]
    _end_turns_until(game, lambda s: s.winner is not None)
    assert (game.state.winner, game.state.ended, game.state.phase) == (missions.PLAYER,
                                                                       "held to the end of phase 8", 9)
    assert episode.of(game.state) is None
    game.close()
    assert verify(content, game.path).failure is None


def test_two_extra_turns_go_on_after_the_objectives_then_end_the_episode(content, tmp_path):
    game = _play(content, tmp_path, 2)
    assert game.header["mission"]["extra_turns"] == 2
    _end_turns_until(game, lambda s: episode.of(s) is not None)
    ep = episode.of(game.state)
    assert (ep.met, ep.last, ep.reason) == (9, 10, "held to the end of phase 8")  # phases 9 and 10: 2 squad turns
    assert (game.state.winner, game.state.side) == (None, missions.PLAYER)
    a, b, *_ = _squad(game)
    entry = [o for o in game.ruleset.options(game.state, game.state.units[a]) if o.command.action == "end_episode"]
    assert [(o.group, o.label) for o in entry] == [("Episode", "Confirm the episode's end")]
    assert entry[0].note.endswith("or after this phase and 1 more")
    assert not isinstance(game.submit(Wait(unit=a)), Rejected)  # the squad still acts
    assert not isinstance(game.submit(Act(unit=a, action="end_episode")), Rejected)
    refused = game.submit(Wait(unit=a))
    assert isinstance(refused, Rejected) and refused.code == "episode_ended"
    assert game.ruleset.options(game.state, game.state.units[a]) == []
    assert not isinstance(game.submit(Wait(unit=b)), Rejected)
    _end_turns_until(game, lambda s: s.phase == 10 and s.side == missions.PLAYER)
    assert game.state.winner is None
    assert isinstance(game.submit(Wait(unit=a)), Rejected)  # a new turn gives it nothing back
    game.submit(EndTurn(side=missions.PLAYER))
    ended = game.submit(EndTurn(side=game.state.side))
    assert [e for e in ended if isinstance(e, MissionEnded)] == [
        MissionEnded(winner=missions.PLAYER, reason="held to the end of phase 8; the extra turns are over")]
    assert game.state.phase == 10
    game.close()
    report = verify(content, game.path)
    assert report.failure is None, str(report.failure)
    assert report.records == len(game.path.read_bytes().splitlines())


def test_the_episode_ends_when_every_standing_soldier_confirmed(content, tmp_path):
    game = _play(content, tmp_path, 2)
    _end_turns_until(game, lambda s: episode.of(s) is not None)
    squad = _squad(game)
    for uid in squad[:-1]:
        assert not isinstance(game.submit(Act(unit=uid, action="end_episode")), Rejected)
    assert game.state.winner is None
    game.submit(Act(unit=squad[-1], action="end_episode"))
    assert (game.state.winner, game.state.ended, game.state.phase) == (
        missions.PLAYER, "held to the end of phase 8; the squad confirmed the episode's end", 9)
    game.close()
    assert verify(content, game.path).failure is None


def test_confirming_before_the_objectives_is_refused(content, tmp_path):
    game = _play(content, tmp_path, 2)
    refused = game.submit(Act(unit=_squad(game)[0], action="end_episode"))
    assert isinstance(refused, Rejected) and refused.code == "episode_running"
    assert [o for o in game.ruleset.options(game.state, game.state.units[_squad(game)[0]])
            if o.command.action == "end_episode"] == []
    game.close()


def test_a_bad_extra_turns_in_a_header_is_one_line(content, tmp_path):
    from engine.log import reading
    from engine.log.writer import LogError

    game = _play(content, tmp_path, 2)
    game.close()
    header = json.loads(game.path.read_bytes().splitlines()[0])
    header["mission"]["extra_turns"] = "two"
    try:
        reading.check_header(header)
    except LogError as exc:
        assert "extra turns" in str(exc)
    else:
        raise AssertionError("accepted")


def test_the_campaign_passes_campaign_toml_s_extra_turns(content):
    from engine.campaign import decide as d
    from engine.campaign.ledger import Ledger

    assert XcomDowntime(content).mission_params() == {"extra_turns": 2}
    book = Ledger.new(content, None, "ep", "xcom-trpg", seed_from_int(5), 5, [])
    for _ in range(10):
        if book.state.offers:
            break
        assert not isinstance(book.submit(d.Advance()), Rejected)
    names = tuple(r.name for r in book.state.living())[:6]
    assert not isinstance(book.submit(d.Deploy(book.state.offers[0].id, names)), Rejected)
    game = book.mission()
    assert game.header["mission"]["extra_turns"] == 2 and game.ruleset.setup.extra_turns == 2


def test_a_ruleset_without_its_own_downtime_adds_nothing_to_a_mission(content):
    from engine.core.ruleset import make

    assert make("xxxzone", content, None).downtime().mission_params() == {}
