"""A shot that cannot hurt looks so before it is taken: the targeting panel's damage is after armour, with what
one hit does through it, from the same numbers the AI weighs (`ShotPreview.expected_damage`)."""

from __future__ import annotations

import pytest

from engine.core.dice import Dice
from engine.core.model import State
from engine.core.ruleset import make
from engine.map.grid import Grid
from engine.rules.xcom_trpg.units import spawn
from engine.rules.xcom_trpg.tables import xcom
from tests.xcom_record import evolved


def duel(content, weapon, armor):
    """Julia (rifle) six cells from a muton in the open, the muton in `armor`, Julia holding `weapon`."""
    def unit(template, uid, side, pos, **changes):
        u, _ = spawn(content, xcom(content).rulesets["xcom-trpg"], template, uid, uid.title(), side, pos, 0,
                     Dice(None, script=[]), hp=85)
        return evolved(u, actions=2 if side == "xcom" else 0, **changes)

    grid = Grid.from_ids([["grass"] * 12 for _ in range(12)], content.terrain)
    units = [unit("julia", "julia", "xcom", (2, 5), weapon=weapon), unit("muton", "muton", "aliens", (8, 5), armor=armor)]
    state = State(ruleset="xcom-trpg", mission="eliminate", grid=grid, units={u.id: u for u in units}, side="xcom",
                  sides=("xcom", "aliens"))
    return make("xcom-trpg", content, None).preview_shot(state, "julia", "muton", "single")


def damage_row(preview):
    return next(f"{row.label} {row.text}" for row in preview.lines if row.label == "Damage")


def test_expected_damage_is_after_armour_and_says_so(content):
    bare, armoured = duel(content, "rifle", "none"), duel(content, "rifle", "medium")
    rifle, medium = xcom(content).weapons["rifle"], xcom(content).armor["medium"]
    through = rifle.damage - 3 * medium.tier  # 8.1: 3 per armour tier
    assert armoured.p_hit == pytest.approx(bare.p_hit)  # armour changes what a hit does, not whether it lands

    def body(preview, armor):  # a headshot kills outright or does power × multiplier, armour ignored
        head = 0 if armor in rifle.headshot_kills else rifle.damage * rifle.headshot_multiplier
        return preview.expected_damage - preview.p_headshot * head

    assert body(armoured, "medium") == pytest.approx(body(bare, "none") * through / rifle.damage, rel=0.05)
    assert damage_row(armoured) == f"Damage {armoured.expected_damage:.1f} after armour ({through}/hit)"
    assert damage_row(bare) == f"Damage {bare.expected_damage:.1f} after armour ({rifle.damage}/hit)"


def test_a_shot_armour_stops_says_only_a_headshot_hurts(content):
    pistol, heavy = xcom(content).weapons["pistol"], xcom(content).armor["heavy"]
    assert pistol.damage <= 3 * heavy.tier  # the case this test is about
    preview = duel(content, "pistol", "heavy")
    assert preview.expected_damage == pytest.approx(preview.p_headshot * pistol.damage * pistol.headshot_multiplier)
    assert damage_row(preview) == f"Damage {preview.expected_damage:.1f}: only a headshot hurts"
