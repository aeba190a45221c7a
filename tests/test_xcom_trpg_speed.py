"""xcom-trpg's short cuts in deciding a command (issue 16) give what the plain way gives.

Every command of the golden logs is decided twice, with the short cuts and without them (the turn-start rules
asked of every unit, `in_earnest` folding the events, the watched units looked at afresh), and the events must be
equal; and the units the turn's start passes over are the ones its rules leave untouched.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from engine.core.codec import load_command
from engine.core.dice import Dice
from engine.play import verify_fast
from engine.play.verify import verify
from engine.rules.xcom_trpg import charisma, hooks, watch
from engine.rules.xcom_trpg.damage import Ledger
from engine.rules.xcom_trpg.record import EMPTY

LOGS = sorted((Path(__file__).parent / "golden" / "logs").glob("*.jsonl"))


def _decisions(content, path, monkeypatch):
    """(ruleset, state, command, faces) of every command the log's verification decides."""
    seen = []
    decide = verify_fast.Job._decide

    def keep(job, base, command):
        seen.append((job.ruleset, base, load_command(command), job.faces))
        return decide(job, base, command)

    with monkeypatch.context() as m:
        m.setattr(verify_fast.Job, "_decide", keep)
        assert verify(content, path).failure is None
    return seen


@pytest.mark.parametrize("path", LOGS[:3], ids=lambda p: p.stem)
def test_short_cuts_decide_as_the_plain_way(content, path, monkeypatch):
    seen = _decisions(content, path, monkeypatch)
    kept, keeps = [], charisma._keeps_earnest
    with monkeypatch.context() as m:
        m.setattr(charisma, "_keeps_earnest", lambda events: kept.append(keeps(events)) or kept[-1])
        fast = [rs.decide(base, cmd, Dice(faces, base.dice)) for rs, base, cmd, faces in seen]
    with monkeypatch.context() as m:
        m.setattr(hooks, "turn_start_idle", lambda rec: False)
        m.setattr(charisma, "_keeps_earnest", lambda events: False)
        m.setattr(watch, "_LAST", (None, ()))
        m.setattr(watch, "marked", lambda state: tuple(
            (u, watch.marks(u)) for u in state.units.values() if watch.marks(u)))
        plain = [rs.decide(base, cmd, Dice(faces, base.dice)) for rs, base, cmd, faces in seen]
    assert fast == plain
    assert any(kept)  # a shot took the short cut


def test_the_turn_start_passes_over_only_units_its_rules_leave_be(content, monkeypatch):
    seen = _decisions(content, LOGS[0], monkeypatch)
    idle = busy = 0
    for rs, base, _cmd, _faces in seen[::5]:
        for uid, unit in base.units.items():
            if not hooks.turn_start_idle(unit.record):
                busy += 1
                continue
            idle += 1
            ledger = Ledger(base.units)
            for hook in hooks.TURN_START:
                assert hook(rs, ledger, uid, None) == []  # no dice: an idle unit rolls nothing
            assert ledger.take() == [] and ledger.changes == {}
    assert idle > 0


@pytest.mark.parametrize("field, value", [("buff_plus", 1), ("buff_minus", 2), ("rest", 1), ("after", {"x": 1}),
                                          ("cha_demand", "retreat"), ("cha_from", "a"), ("cha_away", "a"),
                                          ("tranq_age", 0), ("psi_sleep", 1), ("psi_cd", {"x": 2}),
                                          ("psi_boost_turns", {"x": 1}), ("psi_gather", 1), ("psi_meditate", 2),
                                          ("psi_skip", 1), ("psi_order", 1), ("psi_mc_by", 1)])
def test_a_record_with_turn_start_work_is_not_idle(field, value):
    rec = attrs.evolve(EMPTY, **{field: value})
    assert hooks.turn_start_idle(EMPTY) and hooks.turn_start_idle(None) and not hooks.turn_start_idle(rec)


def test_a_psionic_pool_alone_gives_the_turn_start_no_work():
    assert hooks.turn_start_idle(attrs.evolve(EMPTY, psi_ss=30, psi_ss_max=40, psi_active=1))
