"""Properties of random command sequences (hypothesis).

A sequence is some AI moves to reach the fighting, then a random mix of AI commands, hand-made
moves, turns, waits, shots, end-turns, undos and undo-then-redo. After every step:

- a rejected command changes nothing, not even the log;
- folding a record's events in one batch equals folding them one by one;
- no HP above its maximum, nobody standing in a wall, nothing counted below zero;
- undo returns the state before the command; redoing it gives the same events (in a casual game
  even for dice commands, because the dice counters are part of the state).

And at the end: resuming from the file and `replay --verify` both agree with the live state.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import codec
from engine.ai.planner import Ai
from engine.core.commands import Combo, EndTurn, Face, Move, Rejected, Reload, Shoot, Wait
from engine.core.dice import Dice, seed_from_int
from engine.play.game import Game
from engine.map.grid import NEIGHBOURS
from engine.core.reducer import apply, fold
from engine.play.verify import verify
from engine.rules.xcom_trpg.tables import xcom
from tests.xcom_record import counters, evolved, flags
from engine.rules.xcom_trpg.record import soldier

# -- invariants ----------------------------------------------------------------------------------


def check_state(state, content) -> None:
    grid = state.grid
    for u in state.units.values():
        assert u.hp <= u.hp_max, f"{u.id} has {u.hp} HP of {u.hp_max}"
        assert grid.inside(u.pos), f"{u.id} is off the map at {u.pos}"
        assert grid.walkable[u.pos[1], u.pos[0]], f"{u.id} stands in {grid.tile(u.pos)} at {u.pos}"
        assert 0 <= soldier(u).ammo <= xcom(content).weapons[soldier(u).weapon].ammo, f"{u.id} has {soldier(u).ammo} rounds"
        assert soldier(u).magazines >= 0 and soldier(u).actions >= 0 and all(n > 0 for n in u.items.values()), u
        assert 0 <= u.record.morale <= u.record.morale_max, f"{u.id} has morale {u.record.morale}"
        assert 0 <= u.record.stamina <= u.record.stamina_max, f"{u.id} has stamina {u.record.stamina} of {u.record.stamina_max}"


def check_events(before, events, content):
    """Fold one event at a time, checking every intermediate state; the batch fold must agree."""
    state = before
    for event in events:
        state = apply(state, event)
        check_state(state, content)
    batched = fold(before, events)
    assert codec.dump_state(batched) == codec.dump_state(state)
    assert codec.state_hash(batched) == codec.state_hash(state)
    for stream, n in before.dice.items():
        assert state.dice.get(stream, 0) >= n, "dice counters only move forward"
    return batched


def dumped(events) -> list[dict]:
    return [codec.dump_event(e) for e in events]


# -- the steps -----------------------------------------------------------------------------------

WHO = st.integers(0, 30)  # which unit of the side whose turn it is (modulo their number)
STEP = st.one_of(
    st.just(("ai",)),
    st.tuples(st.just("move"), WHO, st.integers(0, 7), st.integers(1, 3)),
    st.tuples(st.just("combo"), WHO, st.integers(0, 7), st.integers(1, 3)),
    st.tuples(st.just("face"), WHO, st.integers(-1, 8)),
    st.tuples(st.just("wait"), WHO),
    st.tuples(st.just("reload"), WHO),
    st.tuples(st.just("shoot"), WHO, WHO, st.sampled_from(["single", "burst"])),
    st.tuples(st.just("end_turn"), st.booleans()),
    st.just(("undo",)),
    st.just(("redo",)),
    st.just(("ai",)),  # listed twice or thrice: weights, so that play moves on between the random steps
    st.just(("undo",)),
    st.just(("redo",)),
    st.just(("ai",)),
)


@attrs.define
class Done:
    command: object
    events: list
    before: object
    after: object


class Session:
    """A game on disk, the AIs that suggest commands, and the commands on the current branch."""

    def __init__(self, content, path: Path | None, seed: int, casual: bool) -> None:
        self.content = content
        self.game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(seed), path, casual=casual)
        self.ais = {side: Ai(self.game.ruleset, side) for side in self.game.state.sides}
        self.done: list[Done] = []  # mirrors game.history[2:] (the start cannot be undone)
        check_state(self.game.state, content)

    @property
    def state(self):
        return self.game.state

    def pick(self, i: int, side: str | None = None):
        units = self.state.side_units(side or self.state.side)
        return units[i % len(units)] if units else None

    def command(self, step: tuple):
        kind = step[0]
        if kind == "ai":
            return self.ais[self.state.side].next_command(self.state)
        if kind == "end_turn":
            ours = step[1]
            other = next(s for s in self.state.sides if s != self.state.side)
            return EndTurn(side=self.state.side if ours else other)
        unit = self.pick(step[1])
        if unit is None:
            return None
        if kind in ("move", "combo"):
            dx, dy = NEIGHBOURS[step[2]]
            path = tuple((unit.pos[0] + dx * k, unit.pos[1] + dy * k) for k in range(1, step[3] + 1))
            return (Move if kind == "move" else Combo)(unit=unit.id, path=path)
        if kind == "face":
            return Face(unit=unit.id, facing=step[2])
        if kind == "wait":
            return Wait(unit=unit.id)
        if kind == "reload":
            return Reload(unit=unit.id)
        other = next(s for s in self.state.sides if s != self.state.side)
        target = self.pick(step[2], other)
        return None if target is None else Shoot(unit=unit.id, target=target.id, mode=step[3])

    def lines_written(self) -> int | None:
        return self.game.writer.next_line if self.game.writer else None

    def submit(self, command) -> None:
        before, written = self.state, self.lines_written()
        result = self.game.submit(command)
        if isinstance(result, Rejected):
            assert self.state is before and self.lines_written() == written, \
                "a rejected command must change nothing"
            self.ais[before.side].rejected(command, result)
            return
        after = check_events(before, result, self.content)
        assert codec.dump_state(after) == codec.dump_state(self.state)
        self.done.append(Done(command, result, before, self.state))

    def undo(self) -> None:
        before, top = self.state, self.done[-1] if self.done else None
        result = self.game.undo()
        if isinstance(result, Rejected):
            assert self.state is before
            expected = ("nothing_to_undo" if top is None else "mission_over" if before.winner is not None
                        else "dice_rolled")
            assert result.code == expected
            assert expected != "dice_rolled" or (not self.game.casual and any(e.rolls for e in top.events))
            return
        assert top is not None and before.winner is None
        assert self.game.casual or not any(e.rolls for e in top.events), "undo across dice in a strict game"
        assert codec.dump_state(result) == codec.dump_state(top.before)
        self.done.pop()

    def redo(self) -> None:
        """Undo the last command and submit it again: the same events and the same state."""
        if not self.done or self.game.undo_problem() is not None:
            return self.undo()  # checks the refusal
        top = self.done.pop()
        assert not isinstance(self.game.undo(), Rejected)
        again = self.game.submit(top.command)
        assert not isinstance(again, Rejected), again
        assert dumped(again) == dumped(top.events)
        assert codec.dump_state(self.state) == codec.dump_state(top.after)
        self.done.append(Done(top.command, again, top.before, self.state))

    def step(self, step: tuple) -> None:
        if step[0] == "undo":
            self.undo()
        elif step[0] == "redo":
            self.redo()
        else:
            command = self.command(step)
            if command is not None:
                self.submit(command)
        assert len(self.game.history) == 2 + len(self.done)


def last_state_hash(path: Path) -> str:
    lines = path.read_bytes().splitlines()
    return next(json.loads(line)["state"] for line in reversed(lines)
                if json.loads(line)["kind"] in ("command", "undo"))


# -- the properties --------------------------------------------------------------------------------


@pytest.mark.parametrize("casual", [False, True], ids=["strict", "casual"])
@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 5), warmup=st.sampled_from([0, 30, 80, 140, 220, 600]),
       steps=st.lists(STEP, min_size=5, max_size=80))
def test_random_play_replays_to_the_live_state(content, casual, seed, warmup, steps):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        session = Session(content, path, seed, casual)
        for _ in range(warmup):
            session.step(("ai",))
        for step in steps:
            session.step(step)
        session.game.close()
        live = session.state

        resumed = Game.resume(content, path)
        assert codec.dump_state(resumed.state) == codec.dump_state(live)
        assert [e.n for e in resumed.history] == [e.n for e in session.game.history][-len(resumed.history):]
        report = verify(content, path)
        assert report.failure is None, str(report.failure)
        assert report.records == len(path.read_bytes().splitlines())
        assert last_state_hash(path) == codec.state_hash(live)

        # the resumed game carries on exactly like the live one would have
        if live.winner is None:
            command = session.ais[live.side].next_command(live)
            expected = session.game.ruleset.decide(live, command, Dice(session.game.faces, live.dice))
            events = resumed.submit(command)
            assert not isinstance(events, Rejected) and dumped(events) == dumped(expected)
            check_events(live, events, content)
            resumed.close()
            assert verify(content, path).failure is None


@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 5), warmup=st.integers(0, 200), redo_at=st.sets(st.integers(0, 200), max_size=6))
def test_casual_undo_then_redo_gives_identical_events(content, seed, warmup, redo_at):
    """In memory, casual: any command, dice or not, undone and resubmitted gives the same events."""
    session = Session(content, None, seed, casual=True)
    for i in range(warmup):
        session.step(("ai",))
        if i in redo_at:
            session.step(("redo",))  # Session.redo asserts the events and the state


def play_until(session: Session, wanted) -> Done:
    for _ in range(500):
        session.step(("ai",))
        if session.done and wanted(session.done[-1]):
            return session.done[-1]
    raise AssertionError("no such command in 500 AI steps")


def test_casual_redo_of_a_shot_rolls_the_same_dice(content):
    session = Session(content, None, 1, casual=True)
    shot = play_until(session, lambda d: isinstance(d.command, Shoot) and any(e.rolls for e in d.events))
    session.step(("redo",))
    assert dumped(session.done[-1].events) == dumped(shot.events)
    assert codec.dump_state(session.state) == codec.dump_state(shot.after)


def test_strict_undo_of_a_move_then_redo_gives_the_same_state(content):
    session = Session(content, None, 1, casual=False)
    move = play_until(session, lambda d: isinstance(d.command, Move) and not any(e.rolls for e in d.events))
    undone = session.game.undo()
    assert codec.dump_state(undone) == codec.dump_state(move.before)
    again = session.game.submit(move.command)
    assert dumped(again) == dumped(move.events)
    assert codec.dump_state(session.state) == codec.dump_state(move.after)


def test_strict_undo_stops_at_the_last_dice_roll(content):
    session = Session(content, None, 1, casual=False)
    shot = play_until(session, lambda d: any(e.rolls for e in d.events))
    result = session.game.undo()
    assert isinstance(result, Rejected) and result.code == "dice_rolled"
    assert session.state is shot.after


def test_a_whole_mission_keeps_the_invariants(content):
    """One full AI-vs-AI mission in memory, every event folded and checked."""
    session = Session(content, None, 3, casual=False)
    for _ in range(3000):
        if session.state.winner is not None:
            break
        session.step(("ai",))
    assert session.state.winner is not None
    assert any(u.status == "dead" for u in session.state.units.values()), "the mission should see some fighting"
