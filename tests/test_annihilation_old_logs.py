"""A log written before annihilation's `Carried` gained `doses` and `primed` (tests/fixtures/logs/v2-annihilation,
eliminate, public seed 7, one turn, with the content of v3-content): re-decided today, every event is the one the
log holds, byte for byte, because a record's `added` fields drop out of its dump and repr while they hold their
default (engine.core.records)."""

import json
from pathlib import Path

from engine.content import loader
from engine.core import codec
from engine.core.dice import Dice, Faces
from engine.core.reducer import fold
from engine.log import writer as log
from engine.log.upcast import upgrade
from engine.play.game import build
from engine.rules.annihilation.inventory import Carried

FIXTURES = Path(__file__).parent / "fixtures" / "logs"


def test_every_event_of_the_older_log_is_decided_again_byte_for_byte():
    path = FIXTURES / "v2-annihilation.jsonl"
    header = log.read_header(path)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    records = [upgrade(r, header["version"], header) for r in lines[1:] if r["kind"] == "command"]
    ruleset, state = build(loader.load(FIXTURES / "v3-content"), header)
    faces = Faces(bytes.fromhex(lines[-1]["seed"]))
    kits = 0
    for record in records:
        events = ruleset.decide(state, codec.load_command(record["command"]), Dice(faces, state.dice))
        assert codec.canonical([codec.dump_event(e) for e in events]) == codec.canonical(record["events"]), \
            record["n"]
        kits += sum('"kit"' in json.dumps(e) for e in record["events"])
        state = fold(state, events)
    assert len(records) == 26 and kits > 20 and state.winner == "draw"
    assert '"doses"' not in path.read_text(encoding="utf-8")


def test_added_fields_drop_out_of_the_dump_and_the_repr_only_while_they_hold_their_default():
    clip = Carried("clip:mk2v_assault_rifle", "A", "belt", rounds=20)
    assert repr(clip) == ("Carried(id='clip:mk2v_assault_rifle', size='A', place='belt', loaded=None, rounds=20, "
                          "gripped=())")
    assert codec._conv.unstructure(clip) == {"id": "clip:mk2v_assault_rifle", "size": "A", "place": "belt",
                                             "loaded": None, "rounds": 20, "gripped": []}
    kit = Carried("medi_kit", "B", "belt", doses=(("heal", 9),), primed=3)
    assert repr(kit).endswith("gripped=(), doses=(('heal', 9),), primed=3)")
    assert codec._conv.unstructure(kit)["doses"] == [["heal", 9]] and codec._conv.unstructure(kit)["primed"] == 3
    assert codec._conv.structure(codec._conv.unstructure(clip), Carried) == clip
