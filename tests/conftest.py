from __future__ import annotations

import pytest

from engine.content import loader
from engine.content.models import Content

import stub_ruleset  # noqa: F401 - registered in every run, so the loaded content never depends on test order
from engine.rules.xcom_trpg.tables import xcom


@pytest.fixture(scope="session")
def content() -> Content:
    return loader.load()


@pytest.fixture(scope="session")
def rules(content: Content):
    return xcom(content).rulesets["xcom-trpg"]


@pytest.fixture(scope="module")
def contact_log(content, tmp_path_factory):
    """A mission walked (by ordinary commands) until hostiles are in sight on the squad's turn."""
    from tui.testing import advance_to_contact, new_session

    folder = tmp_path_factory.mktemp("contact")
    session = new_session(content, folder, seed=3)
    assert advance_to_contact(session)
    session.close()
    return session.path


@pytest.fixture
def contact(content, contact_log, tmp_path):
    """A copy of `contact_log`, resumed: each test plays on from first contact on its own."""
    import shutil

    from tui.session import Session

    copy = tmp_path / contact_log.name
    copy.write_bytes(contact_log.read_bytes())
    shutil.copy(str(contact_log) + ".seed", str(copy) + ".seed")  # with its mode: resume wants 0600
    return Session.resume(content, copy)


@pytest.fixture
def annihilation_game(content, tmp_path):
    """An annihilation eliminate mission, public seed 4, its log in the test's folder; each test's own."""
    from engine.core.dice import seed_from_int
    from engine.play.game import Game

    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()
