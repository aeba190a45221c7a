"""Every example scenario in docs/scenarios resolves: one per interaction type, and the dice its
header comment gives (where it gives any) are the ones the verdict uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules.xcom_trpg.scenario import TYPES
from tui.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scenarios"
FILES = sorted(DOCS.glob("*.toml"))


def test_there_is_an_example_for_every_interaction_type():
    types = {re.search(r'^type = "(\w+)"', f.read_text(), re.M).group(1) for f in FILES}
    assert types == set(TYPES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_example_resolves_with_its_dice_and_from_a_seed(path, capsys):
    dice = re.search(r"--dice ([\d,]+)", path.read_text())
    if dice:
        assert main(["resolve", str(path), "--dice", dice.group(1)]) == 0
        out = capsys.readouterr().out
        assert "→" in out or ":" in out
    assert main(["resolve", str(path), "--seed", "3"]) == 0
    assert capsys.readouterr().out.strip()
