from __future__ import annotations

import pytest

from engine.content import loader
from engine.content.models import Content

import stub_ruleset  # noqa: F401 - registered in every run, so the loaded content never depends on test order


@pytest.fixture(scope="session")
def content() -> Content:
    return loader.load()


@pytest.fixture(scope="session")
def rules(content: Content):
    return content.rulesets["xcom-trpg"]
