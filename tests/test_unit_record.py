"""The kernel's unit and a ruleset's typed record of it: the fields each keeps, the codec, patches in the fold."""

from __future__ import annotations

import json

import attrs
import pytest

from engine.core import codec
from engine.core.events import UnitChanged, UnitSpawned
from engine.core.model import State, Unit
from engine.core.records import Patch
from engine.core.reducer import fold
from engine.rules.xcom_trpg.record import Soldier

KERNEL = ("id", "name", "template", "race", "side", "glyph", "pos", "facing", "hp", "hp_max", "items", "status",
          "record", "z")  # z: the storey, left out of dumps and hashes on the ground
XCOM = ("stamina", "stamina_max", "infinite_stamina", "morale", "morale_max", "concussion", "flags", "counters",
        "stats", "armor", "weapon", "ammo", "magazines", "actions")

OLD_COUNTERS = {"psi_active": 1, "psi_ss": 39, "psi_ss_max": 47, "psi_cd_panic": 2, "psi_boost_agility": 1,
                "psi_boost_agility_turns": 3, "cha_pair:julia": 2, "cha_hostile:muton_1": 4, "cha_immune:anton": 1,
                "cha_demand_retreat": 1, "cha_from:anton": 1, "melee_held_by:sectoid_1": 1, "tranq_age": 0,
                "tranq_wake": 5, "crit_plus": 2, "buff_minus": 3, "bravery_chryssalid_1": 1, "after_stim": 0,
                "found_north_2": 1, "special_hack": 1, "speech_free_phase": 4, "sniper_prone": 1, "rest": 1,
                "trait:xenophobe": 1, "sex:female": 1}


def unit(**changes) -> Unit:
    u = Unit(id="anton", name="Anton", template="anton", race="human", side="xcom", glyph="1", pos=(3, 4), facing=0,
             hp=64, hp_max=64,
             record=Soldier(stats={"strength": 7}, weapon="rifle", ammo=6, stamina=6, stamina_max=6, morale=100,
                            morale_max=100))
    return attrs.evolve(u, **changes)


def state(*units: Unit) -> State:
    return State(ruleset="xcom-trpg", mission="eliminate", grid=None, units={u.id: u for u in units},
                 sides=("xcom", "aliens"))


def test_the_kernel_unit_keeps_no_xcom_numbers_of_the_record():
    names = tuple(a.name for a in attrs.fields(Unit))
    assert names == KERNEL
    assert not set(XCOM) & set(names)
    assert {"stats", "armor", "weapon", "ammo", "magazines", "actions"} <= {a.name for a in attrs.fields(Soldier)}


def test_a_soldier_round_trips_through_the_codec_by_its_tag():
    rec = Soldier(stamina=3, moved=True, bound=("retreat",), psi_cd={"panic": 2}, cha_pair={"julia": 1},
                  tranq_age=0, traits=("xenophobe",), sex="female")
    u = unit(record=rec)
    data = codec._conv.unstructure(u)
    assert data["record"]["kind"] == "xcom-trpg.soldier" and data["record"]["bound"] == ["retreat"]
    back = codec._conv.structure(json.loads(codec.canonical(data)), Unit)
    assert back == u and back.record.bound == ("retreat",) and back.record.tranq_age == 0


def test_a_patch_logs_only_its_fields_and_folds_onto_the_record():
    before = state(unit())
    event = UnitChanged(unit="anton", changes={"hp": 50, "record": Patch("xcom-trpg.soldier", {"stamina": 4})},
                        cause="hit")
    dumped = codec.dump_event(event)
    assert dumped["changes"] == {"hp": 50, "record": {"kind": "xcom-trpg.soldier", "stamina": 4}}
    parsed = codec.load_event(dumped)
    assert parsed.changes["record"] == Patch("xcom-trpg.soldier", {"stamina": 4})
    after = fold(before, [parsed]).units["anton"]
    assert (after.hp, after.record.stamina, after.record.morale) == (50, 4, 100)
    assert codec.state_hash(fold(before, [parsed])) == codec.state_hash(fold(before, [event]))


def test_two_patches_and_a_spawn_in_one_fold_apply_in_order():
    s = state()
    events = [UnitSpawned(unit=unit()),
              UnitChanged(unit="anton", changes={"record": Patch("xcom-trpg.soldier", {"stamina": 2})}, cause="a"),
              UnitChanged(unit="anton", changes={"record": Patch("xcom-trpg.soldier", {"morale": 70})}, cause="b"),
              UnitChanged(unit="anton", changes={"record": Patch("xcom-trpg.soldier", {"stamina": 1})}, cause="c")]
    got = fold(s, events).units["anton"].record
    assert (got.stamina, got.morale, got.stamina_max) == (1, 70, 6)
    later = fold(fold(s, events[:1]), events[1:]).units["anton"].record
    assert later == got


def test_a_record_field_it_does_not_have_is_refused_located():
    bad = {"kind": "changed", "unit": "anton", "changes": {"record": {"kind": "xcom-trpg.soldier", "mana": 3}},
           "cause": "x", "rolls": []}
    with pytest.raises(codec.CodecError, match="no field 'mana'"):
        codec.load_event(bad)
    wrong = {**bad, "changes": {"record": {"kind": "xcom-trpg.soldier", "stamina": "3"}}}
    with pytest.raises(codec.CodecError, match="stamina: expected an integer"):
        codec.load_event(wrong)


def test_older_counters_and_flags_read_into_typed_fields_and_back():
    fields = Soldier.from_fields({"stamina": 5, "morale": 80, "counters": OLD_COUNTERS,
                                  "flags": ["cha_hold_fire", "combo", "moved"]})
    rec = Soldier(**fields)
    assert rec.cha_pair == {"julia": 2} and rec.cha_hostile == {"muton_1": 4} and rec.melee_held_by == {"sectoid_1": 1}
    assert rec.psi_cd == {"panic": 2} and rec.psi_boost == {"agility": 1} and rec.psi_boost_turns == {"agility": 3}
    assert (rec.cha_demand, rec.cha_from, rec.tranq_age, rec.after) == ("retreat", "anton", 0, {"stim": 0})
    assert rec.traits == ("xenophobe",) and rec.sex == "female" and rec.bound == ("hold_fire",)
    assert (rec.moved, rec.combo, rec.concussed, rec.stamina, rec.morale) == (True, True, False, 5, 80)
    assert rec.counters() == {k: v for k, v in OLD_COUNTERS.items() if k != "tranq_age"}  # present at 0: a field
    assert rec.flags() == ("cha_hold_fire", "combo", "moved")
    with pytest.raises(ValueError, match="no xcom-trpg counter 'mana'"):
        Soldier.from_fields({"counters": {"mana": 1}})


def test_records_evolve_copies_a_plain_record_as_attrs_evolve_would():
    from engine.core.records import RECORD_TYPES, evolve, lookup

    lookup("annihilation.fighter")  # every ruleset's records registered
    old = Soldier(stats={"agility": 4}, ammo=6, morale=90)
    new = evolve(old, {"ammo": 5, "moved": True})
    assert new == attrs.evolve(old, ammo=5, moved=True) and repr(new) == repr(attrs.evolve(old, ammo=5, moved=True))
    assert (old.ammo, old.moved, new.ammo, new.moved, new.stats is old.stats) == (6, False, 5, True, True)
    with pytest.raises(TypeError):  # a name the record has not: refused, as attrs.evolve refuses it
        evolve(old, {"no_such_field": 1})
    shipped = {t: c for t, c in RECORD_TYPES.items() if t.split(".")[0] in ("xcom-trpg", "xxxzone", "annihilation",
                                                                         "neo-troops")}
    assert len(shipped) >= 4 and all("__slots__" not in c.__dict__ for c in shipped.values())  # the one-copy path


def test_a_records_repr_from_its_changed_fields_is_its_repr():
    """The state hash reprs a record from the fields changed since the one it was made from (records.shown)."""
    from engine.core.records import evolve, shown

    rec = Soldier(stats={"agility": 4}, ammo=6)
    assert shown(rec) == repr(rec)
    for step in range(30):  # a chain of changes, shown at some links only
        rec = evolve(rec, {"ammo": step, "morale": step * 3} if step % 2 else {"bound": ("x",) * (step % 3)})
        if step % 4 == 0:
            assert shown(rec) == repr(rec)
    rec = evolve(rec, {"psi_cd": {"panic": 2}})
    assert shown(rec) == repr(rec) and "psi_cd={'panic': 2}" in shown(rec)
    assert shown(None) == "None" and shown(attrs.evolve(rec, ammo=1)) == repr(attrs.evolve(rec, ammo=1))
