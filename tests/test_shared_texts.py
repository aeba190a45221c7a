"""A record made by attrs.evolve borrows the texts of the fields it shares by identity with the record it replaces
(records.shown, canon): the borrowed texts are exactly the codec's and repr's, and a changed field is rewritten."""

from types import SimpleNamespace

import attrs

from engine.core import canon, codec, records
from engine.core.events import UnitChanged
from engine.core.model import Unit


@attrs.frozen(slots=False)
class Inner:
    marks: tuple[int, ...]
    name: str = "x"


@records.record("test.shared_texts")
@attrs.frozen(kw_only=True, slots=False)
class Outer:
    inner: Inner
    count: int = 0
    tags: tuple[str, ...] = ()


def _pair():
    old = Outer(inner=Inner(marks=(1, 2, 3)), count=1, tags=("a", "b"))
    records.shown(old)
    canon._record(old)
    new = attrs.evolve(old, inner=attrs.evolve(old.inner, name="y"), count=2)  # no kept texts of its own
    return old, new


def test_a_record_made_by_attrs_evolve_shows_as_its_repr_when_its_old_record_lends_texts():
    old, new = _pair()
    assert records.shown(new, old) == repr(new)
    assert "name='y'" in records.shown(new, old) and "count=2" in repr(new)


def test_a_changed_units_record_is_written_as_the_codec_writes_it_when_the_base_lends_texts():
    old, new = _pair()
    unit = Unit(id="u1", side="xcom", name="U", pos=(1, 1), template="t", race="r", glyph="@", facing=0, hp=1,
                hp_max=1, record=old)
    base = SimpleNamespace(units={unit.id: unit})  # the state decided from: only its units are read
    events = [UnitChanged(unit=unit.id, changes={"record": new}, cause="test")]
    assert canon.events_text(events, base) == codec.canonical([codec.dump_event(e) for e in events])
    assert '"name":"y"' in canon.events_text(events, base)



@attrs.frozen
class Item:
    id: str
    rounds: int = 0


def test_a_tuple_of_values_shows_as_its_repr_from_its_items_kept_texts():
    kit = (Item("rifle", 3), Item("clip"))
    rec = Outer(inner=Inner(marks=(1,)), tags=("a",))
    for value in (kit, kit[:1], (kit[0], ("x", kit[1])), kit[::-1]):
        assert records._nested(value) == repr(value)
    records.shown(rec)
    later = records.evolve(rec, {"count": 5})  # made by `evolve` and never shown: lends its texts once shown
    assert type(later.__dict__[records.SHOWN]) is tuple
    assert records.shown(attrs.evolve(later, tags=()), later) == repr(attrs.evolve(later, tags=()))
