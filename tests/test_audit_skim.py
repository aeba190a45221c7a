"""`audit --stats` skims a log (engine.log.skim): the same statistics as the whole reading, for every released
log format and every golden log, and the whole reading for anything out of the ordinary."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.log import audit, skim
from engine.log import writer as log

HERE = Path(__file__).parent
LOGS = sorted((HERE / "fixtures" / "logs").glob("*.jsonl")) + sorted((HERE / "golden" / "logs").glob("*.jsonl"))


def whole(path: Path, monkeypatch) -> list[str]:
    with monkeypatch.context() as m:
        m.setattr(skim, "rolls", lambda _path: None)
        return list(audit.stats(path))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_skimmed_statistics_are_those_of_the_whole_reading(path, monkeypatch):
    assert list(audit.stats(path)) == whole(path, monkeypatch)


def test_a_log_of_the_current_format_is_skimmed_and_most_lines_are_not_parsed(monkeypatch):
    path = HERE / "golden" / "logs" / "eliminate.jsonl"
    assert log.read_header(path)["version"] == log.VERSION
    parsed = []
    real = log.parse
    monkeypatch.setattr(log, "parse", lambda raw, n: parsed.append(n) or real(raw, n))
    found = skim.rolls(path)
    assert found is not None
    rolled, sides, alive = found
    lines = sum(1 for _ in path.open("rb"))
    assert 1 in parsed and len(parsed) < lines  # the header, the lines that rolled or spawned; not the rest
    assert sorted(set(sides.values())) == ["aliens", "xcom"]
    assert rolled and all(n in parsed for n, _rolls in rolled)
    assert all(r["actor"] and r["faces"] for _n, rolls in rolled for r in rolls)
    assert max(alive) <= lines


def test_an_older_format_is_read_whole():
    assert skim.rolls(HERE / "fixtures" / "logs" / "v3.jsonl") is None


def test_a_broken_chain_is_read_whole_and_warned_of_as_before(tmp_path, monkeypatch):
    path = tmp_path / "m.jsonl"
    source = HERE / "golden" / "logs" / "eliminate.jsonl"
    lines = source.read_bytes().splitlines(keepends=True)
    at = next(i for i, raw in enumerate(lines) if i > 3 and b'"rolls":[]' in raw and b'"rolls":[{' not in raw)
    lines[at] = lines[at].replace(b'"rolls":[]', b'"rolls":[ ]', 1)  # still JSON, no longer the written bytes
    path.write_bytes(b"".join(lines))
    assert skim.rolls(path) is None
    out = list(audit.stats(path))
    assert out == whole(path, monkeypatch)
    assert out[0].startswith(f"warning: line {at + 1}: changed after it was written")


def test_a_line_that_is_not_json_is_reported_on_its_line_as_before(tmp_path, monkeypatch):
    path = tmp_path / "m.jsonl"
    source = HERE / "golden" / "logs" / "eliminate.jsonl"
    path.write_bytes(source.read_bytes() + b'{"n":\n')
    assert skim.rolls(path) is None
    out = list(audit.stats(path))
    assert out == whole(path, monkeypatch)
    assert out[0].startswith(f"warning: line {len(source.read_bytes().splitlines()) + 1}: torn or corrupt record")
