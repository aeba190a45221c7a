"""Logs written before xxxzone's records gained fields (the med-kit's uses, Mark Target's mark, a continuing action's
option, the battle's smoke and C4): re-decided today, every event is the one the log holds, byte for byte, because
those fields are `added` on `@lean` records and drop out of the dump and the state hash at their default.

- tests/fixtures/logs/v4-xxxzone: eliminate, public seed 7, 3 phases, simulated at commit 2f9741e (log format 4,
  just before the fields came), whose xxxzone content is v3-content's;
- tests/fixtures/logs/v2-today-xxxzone: an older one, upcast from log format 2."""

import json
from pathlib import Path

import pytest

from engine.content import loader
from engine.core import codec
from engine.core.dice import Dice, Faces
from engine.core.reducer import fold
from engine.log import writer as log
from engine.log.upcast import upgrade
from engine.play.game import build
from engine.rules.xxxzone.actions import Continuing
from engine.rules.xxxzone.units import Battle

FIXTURES = Path(__file__).parent / "fixtures" / "logs"


@pytest.mark.parametrize("name, commands", [("v4-xxxzone", 70), ("v2-today-xxxzone", 53)])
def test_every_event_of_an_older_xxxzone_log_is_decided_again_byte_for_byte(name, commands):
    path = FIXTURES / f"{name}.jsonl"
    header = log.read_header(path)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    records = [upgrade(r, header["version"], header) for r in lines[1:] if r["kind"] == "command"]
    ruleset, state = build(loader.load(FIXTURES / "v3-content"), header)
    faces = Faces(bytes.fromhex((FIXTURES / f"{name}.jsonl.seed").read_text().split()[0]))
    for record in records:
        events = ruleset.decide(state, codec.load_command(record["command"]), Dice(faces, state.dice))
        assert codec.canonical([codec.dump_event(e) for e in events]) == codec.canonical(record["events"]), \
            record["n"]
        state = fold(state, events)
    assert len(records) == commands and state.winner == "draw"
    text = path.read_text(encoding="utf-8")
    assert '"marking"' not in text and '"medkit_used"' not in text and '"charges"' not in text


def test_the_added_fields_show_once_they_are_used():
    assert "charges" not in repr(Battle()) and "smoke" not in codec._conv.unstructure(Battle())
    placed = Battle(charges=(((3, 4), "bruce"),))
    assert "charges=(((3, 4), 'bruce'),)" in repr(placed)
    assert codec._conv.structure(codec._conv.unstructure(placed), Battle) == placed
    assert "option" not in repr(Continuing(action="hack", remaining=3))
    assert codec._conv.unstructure(Continuing(action="hack", remaining=3, option="4,5"))["option"] == "4,5"
