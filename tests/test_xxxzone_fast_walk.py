"""xxxzone's quick paths (a walk nobody watches is paid square by square without the state after each; the lines of
sight kept per pair of squares) decide exactly what the plain paths decide: every command of AI missions on many
seeds, re-decided with the quick paths off, gives the same events."""

from __future__ import annotations

import json

import pytest

from engine.core import canon, codec
from engine.core.dice import Dice, Faces, seed_from_int
from engine.core.reducer import fold
from engine.log import writer as log
from engine.play import simulate
from engine.play.game import build
from engine.rules.xxxzone import moving, seen


def _plain(monkeypatch) -> None:
    monkeypatch.setattr(moving, "_watched", lambda state, mover: True)  # every walk folds each square
    monkeypatch.setattr(seen, "_LINES", seen._Lines())  # a fresh cache: drawn anew, never held over


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_the_quick_walk_and_lines_decide_what_the_plain_ones_decide(content, tmp_path, seed, monkeypatch):
    path = tmp_path / "m.jsonl"
    simulate.run(content, "xxxzone", "eliminate", seed_from_int(seed), path).close()
    rules, state = build(content, log.read_header(path))
    faces = Faces(log.read_seed(log.seed_path(path)))
    steps = []
    for raw in path.read_bytes().splitlines()[1:]:
        record = json.loads(raw)
        if record["kind"] != "command":
            continue
        command = codec.load_command(record["command"])
        events = rules.decide(state, command, Dice(faces, state.dice))
        assert codec.canonical([codec.dump_event(e) for e in events]) == codec.canonical(record["events"])
        steps.append((state, command, canon.events_text(events)))
        state = fold(state, events)
    walks = sum('"kind":"moved"' in events for _s, _c, events in steps)
    assert walks > 10  # the missions walk: the quick path was taken
    _plain(monkeypatch)
    for state, command, quick in steps:
        assert canon.events_text(rules.decide(state, command, Dice(faces, state.dice))) == quick, command
