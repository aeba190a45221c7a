"""The live chronicle takes the command the game just wrote typed (`Game.decided`); what it tells must be what
the log read back tells, the way a resume rebuilds it."""

import numpy as np
import pytest

from engine.core.commands import EndTurn
from engine.core.dice import seed_from_int
from tui.session import Session, read_chronicle


@pytest.mark.parametrize("ruleset", ["xcom-trpg", "neo-troops"])
def test_the_live_chronicle_tells_what_the_log_tells(content, tmp_path, ruleset):
    session = Session.new(content, ruleset, "eliminate", seed_from_int(3), tmp_path / "a.jsonl", public=3)
    fed: list[bool] = []
    feed = session.chronicle.feed
    session.chronicle.feed = lambda record, known=None: (fed.append(known is not None), feed(record, known))[1]
    for _ in range(2):  # the squad's turn ends, the aliens play theirs: records of both sides
        session.submit(EndTurn(side=session.side))
        while not session.over and not session.players_turn:
            session.ai_step()
    assert fed and all(fed)  # every command came typed
    live, read = session.chronicle, read_chronicle(content, session.path)
    assert (live.messages, live.rolls, live.journal, live.last_seen) == (read.messages, read.rolls, read.journal,
                                                                          read.last_seen)
    assert np.array_equal(live.explored, read.explored) and live.state == read.state
