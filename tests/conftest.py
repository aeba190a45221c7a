from __future__ import annotations

import pytest

from engine import loader
from engine.content import Content


@pytest.fixture(scope="session")
def content() -> Content:
    return loader.load()


@pytest.fixture(scope="session")
def rules(content: Content):
    return content.rulesets["xcom-trpg"]
