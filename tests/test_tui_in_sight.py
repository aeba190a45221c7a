"""The client tells the player of the hostiles its side spots, not of every unit in a cell it sees: on a map with
storeys the squad may see the open air above an alien standing on the ground (annihilation's sight is one grid per
storey), and a cloaked varan may stand in a seen cell unnoticed."""

from __future__ import annotations

from engine.core.dice import seed_from_int
from tui.screens.readout import in_view
from tui.session import Session


def _sky_over_a_hostile(content, tmp_path):
    """A fresh annihilation crash site where the squad sees a cell on some storey above an alien it cannot see."""
    for seed in range(1, 30):
        session = Session.new(content, "annihilation", "crash", seed_from_int(seed), tmp_path / f"crash-{seed}.jsonl")
        chron, state = session.chronicle, session.state
        hidden = [u for u in state.units.values() if u.side != session.side and chron.visible[u.pos[1], u.pos[0]]
                  and u.id not in session.ruleset.spotted(state, session.side)]
        if hidden:
            return session, hidden[0]
        session.close()
    raise AssertionError("no crash site in 29 seeds shows the sky above an unseen alien")


def test_a_hostile_under_a_seen_storey_is_not_in_sight(content, tmp_path):
    session, alien = _sky_over_a_hostile(content, tmp_path)
    chron = session.chronicle
    assert chron.spotted == session.ruleset.spotted(session.state, session.side)
    assert alien.id not in chron.spotted and not in_view(session, alien)
    session.close()
