"""Audit: the disputed-roll derivation, dice statistics, the timeline, and every released log format."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
from pathlib import Path

import pytest

from engine.log import audit
from engine.core import codec, records
from engine.content import loader
from engine.log import writer as log
from engine.core.dice import seed_from_int
from engine.play.simulate import run
from engine.play.timeline import Timeline
from engine.play.game import Game
from engine.play.verify import verify
from tui.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "logs"


@pytest.fixture(scope="module")
def mission(tmp_path_factory, content) -> Path:
    path = tmp_path_factory.mktemp("audit") / "m.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(2), path).close()
    return path


def first_shot(timeline: Timeline) -> int:
    return next(n for n in timeline.commands
                if any(e["kind"] == "resolved" and e["action"] == "shoot" for e in timeline.records[n]["events"]))


def test_explain_shows_a_derivation_anyone_can_recompute(content, mission):
    timeline = Timeline(content, mission)
    n = first_shot(timeline)
    lines = timeline.explain(n)
    seed = bytes.fromhex(re.search(r"Seed: ([0-9a-f]{64})", "\n".join(lines)).group(1))
    assert hashlib.sha256(seed).hexdigest() == timeline.header["seed_commitment"]
    rolls = [r for e in timeline.records[n]["events"] for r in e["rolls"]]
    derivations = [line for line in lines if "HMAC-SHA256(seed" in line]
    assert len(derivations) == sum(len(r["faces"]) for r in rolls)
    for line, roll in zip(derivations, rolls):
        message, digest = re.search(r'"(.+?)"\) = ([0-9a-f]{64})', line).groups()
        assert hmac.digest(seed, message.encode(), "sha256").hex() == digest
        assert f"index {roll['index']}:" in line
    faces = [int(m) for m in re.findall(r"mod 100 \+ 1 = (\d+)", "\n".join(lines))]
    assert faces == [f for r in rolls for f in r["faces"]]
    assert "THE LOG SAYS" not in "\n".join(lines)


def test_explain_names_where_every_number_came_from(content, mission):
    timeline = Timeline(content, mission)
    text = "\n".join(timeline.explain(first_shot(timeline)))
    assert re.search(r"from: agility \d+: [\w ]+'s frame \(units\.toml \[\w+\]\.stats\.agility\)", text)
    assert "from: passes at 100: rulesets.toml [xcom-trpg].luck_threshold" in text
    assert "races.toml [sectoid].crit_range_min" in text or "crit_success_min" in text


def test_explain_from_the_command_line(mission, capsys):
    assert main(["audit", str(mission), "--record", "2", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Record 2: start" in out and "rulesets.toml [xcom-trpg].hp" in out
    assert main(["audit", str(mission), "--explain"]) == 2
    assert "--explain needs --record N" in capsys.readouterr().err


def test_a_changed_die_face_shows_in_the_explanation(content, mission, tmp_path):
    timeline = Timeline(content, mission)
    n = first_shot(timeline)
    copy = tmp_path / "edited.jsonl"
    shutil.copy(mission, copy)
    lines = copy.read_bytes().split(b"\n")
    record = codec.canonical(timeline.records[n]).encode()
    assert lines[n - 1] == record
    face = timeline.records[n]["events"][0]["rolls"][0]["faces"][0]
    edited = timeline.records[n]
    edited["events"][0]["rolls"][0]["faces"][0] = face % 100 + 1
    lines[n - 1] = codec.canonical(edited).encode()
    for i in range(n, len(lines)):  # a careful forger repairs the hash chain after the edit
        if lines[i]:
            record = json.loads(lines[i])
            record["prev"] = hashlib.sha256(lines[i - 1]).hexdigest()
            lines[i] = codec.canonical(record).encode()
    copy.write_bytes(b"\n".join(lines))
    text = "\n".join(Timeline(content, copy).explain(n))
    assert f"THE LOG SAYS {face % 100 + 1}" in text and "WARNING" in text


def test_the_timeline_gives_the_states_verify_computes(content, mission):
    timeline = Timeline(content, mission)
    for n in timeline.commands[::7] + [timeline.final]:
        assert codec.state_hash(timeline.state_at(n)) == timeline.records[n]["state"]
    assert timeline.state_at(timeline.final).winner is not None
    assert [t.side for t in timeline.turns[:3]] == ["xcom", "aliens", "xcom"]


def test_chi_square_p_values():
    assert audit.chi2_p(0.0, 9) == 1.0
    assert audit.chi2_p(21.666, 9) == pytest.approx(0.01, abs=2e-4)
    assert audit.chi2_p(3.841, 1) == pytest.approx(0.05, abs=2e-4)
    assert audit.chi2_p(8.343, 9) == pytest.approx(0.5, abs=2e-3)
    assert audit.chi2_p(100.0, 9) < 1e-15


def test_stats_report_each_side(mission, capsys):
    assert main(["audit", str(mission), "--stats"]) == 0
    out = capsys.readouterr().out
    for side in ("xcom", "aliens"):
        assert re.search(rf"{side}: \d+ d100, χ² = [\d.]+ on 9 degrees of freedom, p = [\d.]+", out)
    assert out.count("91-100") == 2 and "luck checks passed (expected)" in out


# written just before format 3, and v4 (xcom-trpg, whose content has not changed since), with v3's content
SAME_CONTENT = {"v2-today-xcom": "v3", "v2-today-xxxzone": "v3", "v2-today-neo": "v3", "v4": "v3",
                "v2-annihilation": "v3", "v4-xxxzone": "v3"}
MOVED = ("stamina", "stamina_max", "infinite_stamina", "morale", "morale_max", "concussion")  # in format 3
KIT = ("stats", "armor", "weapon", "ammo", "magazines", "actions")  # in format 4


def _content_of(fixture: Path) -> Path:
    return FIXTURES / f"{SAME_CONTENT.get(fixture.stem, fixture.stem)}-content"


def _old_units(fixture: Path) -> dict[int, dict[str, dict]]:
    """Each unit's logged fields after each command record, folded from the raw lines (no upcasting)."""
    units: dict[str, dict] = {}
    out = {}
    for line in fixture.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for e in record.get("events", []) if record.get("kind") == "command" else []:
            if e["kind"] == "spawned":
                units[e["unit"]["id"]] = dict(e["unit"])
            elif e["kind"] == "moved":
                units[e["unit"]]["pos"] = e["path"][-1]
            elif e["kind"] == "changed":
                units[e["unit"]].update(e["changes"])
        if record.get("kind") == "command":
            out[record["n"]] = {uid: dict(u) for uid, u in units.items()}
    return out


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("v*.jsonl")), ids=lambda p: p.stem)
def test_every_released_log_format_still_reads_and_audits(fixture):
    """Each released version keeps a fixture, with the content it was played with beside it.

    Reading is the promise: the chain holds, every record upgrades into today's events, and folding them gives
    the units the log recorded: the state hashes for a log of today's format; for an older one (whose hashes are
    of units of the older shape) each unit's position, HP and status, and for xcom-trpg its stats, kit, rounds,
    magazines and actions, and (before format 3) its stamina, morale, concussion, flags and counters read back
    from its record. Re-deciding with today's rules is
    `replay --verify`, which is meant to report it when the rules themselves have changed since."""
    bundle = loader.load(_content_of(fixture))
    version = log.read_header(fixture)["version"]
    assert fixture.stem.split("-")[0] == f"v{version}"
    timeline = Timeline(bundle, fixture)
    assert timeline.broken is None
    old = _old_units(fixture) if version < log.VERSION else {}
    for n in timeline.commands:
        state = timeline.state_at(n)
        if version == log.VERSION:
            assert codec.state_hash(state) == timeline.records[n]["state"], n
            continue
        for uid, was in old[n].items():
            unit = state.units[uid]
            assert (list(unit.pos), unit.hp, unit.status) == (list(was["pos"]), was["hp"], was["status"]), (n, uid)
            if state.ruleset == "xcom-trpg":
                rec = unit.record
                assert {k: getattr(rec, k) for k in KIT} == {k: was[k] for k in KIT}, (n, uid)
                if version >= 3:
                    continue
                assert {k: getattr(rec, k) for k in MOVED} == {k: was[k] for k in MOVED}, (n, uid)
                assert list(rec.flags()) == sorted(was["flags"]), (n, uid)
                assert {k: v for k, v in rec.counters().items() if v} == \
                    {k: v for k, v in was["counters"].items() if v}, (n, uid)
            else:  # a ruleset that kept numbers in kernel fields reads them back by its record's `from_fields`
                cls = records.legacy(state.ruleset)
                if cls is None:
                    assert "counters" not in was or not was["counters"], (n, uid)
                    continue
                expected = cls.from_fields({k: was[k] for k in (*MOVED, "flags", "counters", *KIT) if k in was})
                assert expected and {k: getattr(unit.record, k) for k in expected} == expected, (n, uid)
    assert timeline.state_at(timeline.final).winner is not None
    assert any(line.startswith("Dice statistics") for line in audit.render(fixture))
    rolled = next(n for n in timeline.commands if any(e["rolls"] for e in timeline.records[n]["events"]))
    assert "HMAC-SHA256" in "\n".join(timeline.explain(rolled))


def test_a_format_3_log_folds_to_the_states_its_format_4_twin_recorded():
    """v3.jsonl and v4.jsonl are one game (terror, seed 5, 6 phases) written before and after the kit moved into
    xcom-trpg's record: read through the upcasters, the older folds to exactly the state hashes the newer wrote."""
    bundle = loader.load(FIXTURES / "v3-content")
    old, new = Timeline(bundle, FIXTURES / "v3.jsonl"), Timeline(bundle, FIXTURES / "v4.jsonl")
    assert log.read_header(FIXTURES / "v3.jsonl")["version"] == 3 and len(old.commands) == len(new.commands) > 90
    assert [codec.state_hash(old.state_at(n)) for n in old.commands] == \
        [new.records[n]["state"] for n in new.commands]


def test_an_older_log_is_read_but_not_carried_on(tmp_path):
    copy = tmp_path / "v2.jsonl"
    shutil.copy(FIXTURES / "v2.jsonl", copy)
    shutil.copy(FIXTURES / "v2.jsonl.seed", tmp_path / "v2.jsonl.seed")
    with pytest.raises(log.LogError, match="format 2 by an older xenotac: it replays and audits"):
        Game.resume(loader.load(FIXTURES / "v2-content"), copy)


def test_a_log_from_a_newer_xenotac_is_refused_plainly(mission, content, tmp_path):
    copy = tmp_path / "future.jsonl"
    lines = mission.read_bytes().split(b"\n")
    header = codec.canonical({**log.parse(lines[0], 1), "version": log.VERSION + 1}).encode()
    copy.write_bytes(b"\n".join([header, *lines[1:]]))
    assert "written by a newer xenotac" in str(verify(content, copy).failure)


def test_reading_a_log_leaves_the_collector_as_it_was(mission, tmp_path):
    """The collector is paused while a whole log is parsed and kept, and set back however the reading ends."""
    import gc

    assert gc.isenabled()
    lines, _names, _sides, note = audit.read(mission)
    assert lines and note is None and gc.isenabled()
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"not a record\n")
    with pytest.raises(log.LogError):
        audit.read(bad)
    assert gc.isenabled()
    gc.disable()
    try:
        audit.read(mission)
        assert not gc.isenabled()  # a caller that had paused it keeps it paused
    finally:
        gc.enable()
