"""engine/core/canon.py writes recomputed events byte for byte as the codec does (`codec.canonical` of
`codec.dump_event`), however the records were made, and hands what it does not know to the codec."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from engine.core import canon, codec, records
from engine.core.events import UnitChanged
from engine.core.model import Unit, replace, with_fields
from engine.core.records import Patch
from engine.core.ruleset import available
from engine.play import verify, verify_fast
from engine.play.catalog import missions_for
from engine.core.dice import seed_from_int
from engine.play.simulate import run

FIXTURES = Path(__file__).parent / "fixtures" / "logs"


def codec_text(events) -> str:
    return codec.canonical([codec.dump_event(e) for e in events])


@pytest.mark.parametrize("ruleset", available())
def test_every_recomputed_event_of_a_mission_is_written_as_the_codec_writes_it(content, ruleset, tmp_path,
                                                                                monkeypatch):
    if not missions_for(content, ruleset):
        pytest.skip(f"{ruleset} has no mission to play")
    mission = sorted(missions_for(content, ruleset))[0]
    path = tmp_path / "ai.jsonl"
    run(content, ruleset, mission, seed_from_int(3), path, max_phases=6).close()
    seen: list[int] = []
    decide = verify_fast.Job._decide

    def held(self, base, command):
        events, state = decide(self, base, command)
        assert canon.events_text(events) == codec_text(events)
        seen.append(len(events))
        return events, state

    monkeypatch.setattr(verify_fast.Job, "_decide", held)
    assert verify.verify(content, path).failure is None
    assert len(seen) > 20 and sum(seen) > len(seen)


@pytest.mark.parametrize("ruleset", available())
def test_every_state_of_a_mission_is_written_as_a_checkpoint_writes_it(content, ruleset, tmp_path, monkeypatch):
    """canon.state_text, from the texts kept on units and records, is the codec's dump byte for byte, and every
    checkpoint the game wrote is proved on the quick pass's own reading of it (none parsed whole)."""
    if not missions_for(content, ruleset):
        pytest.skip(f"{ruleset} has no mission to play")
    mission = sorted(missions_for(content, ruleset))[-1]
    path = tmp_path / "ai.jsonl"
    run(content, ruleset, mission, seed_from_int(4), path, max_phases=6).close()
    states: list[Any] = []
    decide = verify_fast.Job._decide

    def held(self, base, command):
        events, state = decide(self, base, command)
        states.append(state)
        assert canon.state_text(state) == codec.canonical(codec.dump_state(state))
        return events, state

    def parsed(*_args):
        raise AssertionError("a checkpoint the game wrote was parsed whole")

    monkeypatch.setattr(verify_fast.Job, "_decide", held)
    monkeypatch.setattr(verify_fast.Job, "_checkpoint", parsed)
    assert verify_fast.verify(content, path) is not None
    assert len(states) > 64 and b'"kind":"checkpoint"' in path.read_bytes()
    for state in states[::7]:  # again, from the texts now kept, and with a unit lifted off the ground
        assert canon.state_text(state) == codec.canonical(codec.dump_state(state))
        uid = next(iter(state.units))
        lifted = with_fields(state, {"units": {**state.units, uid: replace(state.units[uid], {"z": 1})}})
        assert canon.state_text(lifted) == codec.canonical(codec.dump_state(lifted))


@attrs.frozen(kw_only=True)
class Inner:
    a: int
    b: tuple[str, ...] = ()


@records.record("test-canon.thing")
@records.lean
@attrs.frozen(kw_only=True, slots=False)
class Thing:
    name: str
    inner: Inner
    weight: float = 1.5
    tags: dict[str, Any] = attrs.Factory(dict)
    late: int = records.added(0)


def changed(value) -> UnitChanged:
    return UnitChanged(unit="u", changes={"record": value}, cause="test")


def test_a_record_made_from_another_is_written_as_new():
    first = Thing(name="é\n\"x\"", inner=Inner(a=1, b=("p", "q")), tags={"k": [1, None, True]})
    later = records.evolve(first, {"late": 3})
    latest = records.evolve(later, {"inner": attrs.evolve(first.inner, a=2), "late": 0})
    for rec in (first, later, latest, later, first):  # the kept texts are the same whichever is written first
        assert canon.event_text(changed(rec)) == codec.canonical(codec.dump_event(changed(rec)))
    assert '"late"' not in canon.event_text(changed(latest))  # an `added` field at its default is left out


def test_a_patch_is_written_and_refused_as_the_codec_does():
    patch = Patch("test-canon.thing", {"late": 2, "inner": Inner(a=5)})
    assert canon.event_text(changed(patch)) == codec.canonical(codec.dump_event(changed(patch)))
    whole = Patch("test-canon.thing", {"name": "n", "inner": Inner(a=1), "weight": 2.0, "tags": {}})
    with pytest.raises(codec.CodecError, match="log the whole record"):
        canon.event_text(changed(whole))


@attrs.frozen(kw_only=True)
class Wider(Inner):
    c: int = 7


def test_what_it_does_not_know_goes_to_the_codec():
    odd = [Thing(name="n", inner=Inner(a=1), tags={1: "a"}),  # a key that is not text
           Thing(name="n", inner=Inner(a=1), weight=float("inf")),  # no finite number
           Thing(name="n", inner=Wider(a=1))]  # cattrs writes it as the class declared: without `c`
    for rec in odd:
        assert canon.event_text(changed(rec)) == codec.canonical(codec.dump_event(changed(rec)))
    assert '"c"' not in canon.event_text(changed(odd[-1]))


def test_every_other_kind_of_event_is_written_as_cattrs_writes_it():
    """canon's own writer of the rarer events (a tag, then each field in order) against codec's cattrs path,
    past the few it holds to the codec itself: a tile's storey left out only on the ground, a spawned unit whole."""
    from engine.core.dice import Roll
    from engine.core.events import MissionEnded, PhaseStarted, Resolved, SideStarted, TileChanged, UnitSpawned

    roll = Roll(actor="a", purpose="shot", expr="1d100", faces=(33,), formula="d100 33", total=33, crit=None,
                stream="main", index=4)
    unit = Unit(id="u\u00e9", side="xcom", name="U \"1\"", pos=(1, 2), template="t", race="r", glyph="@", facing=0,
                hp=1, hp_max=1, record=Thing(name="n", inner=Inner(a=1)), z=2)
    events = [Resolved(actor="a", action="shoot", target=None, cell=(3, 4), mode="auto", rolls=(roll, roll),
                       outcome="miss", text="a misses"),
              Resolved(actor="a", action="panic", rolls=(), outcome="calm", text="é"),
              TileChanged(pos=(1, 2), tile="floor"), TileChanged(pos=(1, 2), tile="floor", z=1, rolls=(roll,)),
              SideStarted(side="aliens"), PhaseStarted(phase=3, rolls=(roll,)), UnitSpawned(unit=unit),
              MissionEnded(winner="xcom", reason="all dead")]
    for _ in range(canon.CHECKED + 2):  # the first few of a class are compared with the codec: then trusted
        for event in events:
            whole = codec.dump_event(event) if event.kind == "tile" else codec._tagged(event)
            assert canon.event_text(event) == codec.canonical(whole)
    assert '"z"' not in canon.event_text(events[2]) and '"z":1' in canon.event_text(events[3])


def test_a_record_evolved_from_one_never_written_lends_its_texts():
    first = Thing(name="n", inner=Inner(a=1, b=("p",)))
    canon._record(first)
    folded = records.evolve(first, {"late": 4})  # a patch folded: its texts are the first's, bar one, not yet joined
    later = attrs.evolve(folded, name="m")  # made otherwise: it takes the texts of the fields `folded` holds
    assert canon._record(later, folded) == codec.canonical(codec.dump_record(later))
    assert canon._record(folded) == codec.canonical(codec.dump_record(folded))
