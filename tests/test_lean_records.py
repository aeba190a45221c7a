"""A whole unit record whose later-added fields (`added()`, `@lean`) are back at their default is logged without
them: read back, it must still set those fields to their default, not be taken for a patch of the others."""

from __future__ import annotations

import attrs
import pytest

from engine.core import codec
from engine.core.dice import seed_from_int
from engine.core.events import UnitChanged
from engine.core.records import Patch
from engine.core.reducer import fold
from engine.play.game import Game
from engine.rules.annihilation.soldier import Soldier


@pytest.fixture(scope="module")
def state(content, tmp_path_factory):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path_factory.mktemp("lean") / "g.jsonl")
    yield g.state
    g.close()


def _worn(state, **fields):
    anton = state.units["anton"]
    return attrs.evolve(state, units={**state.units, "anton": attrs.evolve(
        anton, record=attrs.evolve(anton.record, **fields))})


def _read(event):
    return codec.load_event(codec.dump_event(event))


@pytest.mark.parametrize("fields", [{"harness": True}, {"moved": 7}, {"harness": True, "moved": 3}])
def test_a_whole_record_at_its_added_defaults_folds_as_written(state, fields):
    before = _worn(state, **fields)
    whole = attrs.evolve(before.units["anton"].record, **{k: attrs.fields_dict(Soldier)[k].default for k in fields})
    event = UnitChanged(unit="anton", changes={"record": whole}, cause="taken off")
    logged = codec.dump_event(event)["changes"]["record"]
    assert not set(fields) & set(logged)  # the bytes: the defaults are left out, as every older log has them
    live, read = fold(before, [event]), fold(before, [_read(event)])
    assert read.units["anton"].record == whole == live.units["anton"].record
    assert codec.state_hash(read) == codec.state_hash(live)


def test_a_patch_of_an_added_field_is_still_a_patch(state):
    before = _worn(state, harness=True)
    tally = attrs.evolve(before.units["anton"].record.tally, hits=2)
    event = _read(UnitChanged(unit="anton", changes={"record": Patch(Soldier.record_kind, {"tally": tally})},
                              cause="uses"))
    assert type(event.changes["record"]) is Patch
    after = fold(before, [event]).units["anton"].record
    assert after.harness and after.tally.hits == 2 and after.kit == before.units["anton"].record.kit


def test_a_patch_of_every_older_field_is_refused_when_written(state):
    rec = state.units["anton"].record
    patch = Patch(Soldier.record_kind, {"fighter": rec.fighter, "kit": rec.kit, "done": True})
    with pytest.raises(codec.CodecError, match="whole record"):
        codec.dump_event(UnitChanged(unit="anton", changes={"record": patch}, cause="x"))


def test_the_state_hash_writes_a_lean_record_as_its_own_repr_through_every_change(state):
    """`records.shown` writes only the fields changed since the record a record was made from (`records.evolve`);
    a `@lean` record's added fields drop out while at their default, and come back when set."""
    from engine.core import records

    rec = state.units["anton"].record
    assert records.shown(rec) == repr(rec) and "moved=" not in repr(rec)
    walked = records.evolve(rec, {"moved": 3})
    assert records.shown(walked) == repr(walked) and "moved=3" in records.shown(walked)
    back = records.evolve(walked, {"moved": 0, "harness": True})
    assert records.shown(back) == repr(back)
    assert "moved=" not in records.shown(back) and "harness=True" in records.shown(back)
    assert records.shown(rec) == repr(rec)  # the first one's own fields, as before
    assert type(back.__dict__.get(records.SHOWN)) is list  # written from the kept field reprs, not repr'd whole
