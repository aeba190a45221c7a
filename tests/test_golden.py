"""Golden logs: one AI-vs-AI mission per mission type, written by `tests/golden/make_logs.py`.

They pin the order in which xcom-trpg's rules run and draw their dice: a rule table re-sorted, a hook moved or a
die drawn in another order changes an event, and `replay --verify` names the line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.play.verify import verify

LOGS = sorted((Path(__file__).parent / "golden" / "logs").glob("*.jsonl"))


def test_every_mission_type_has_a_golden_log(content):
    assert {p.stem for p in LOGS} == set(content.missions)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_golden_log_verifies_byte_for_byte(content, path):
    report = verify(content, path)
    assert report.failure is None, str(report.failure)
    assert report.records == len(path.read_bytes().splitlines())
