"""Sectors on a map of 2 m cells (xcom-trpg 1.3, revised interpretation).

A sector is a square of `cells_per_sector` cells (rulesets.toml, default 5: 10 m, as the source says). Movement,
weapon reach and "sectors between" (dodging) count sectors; grenade, psi and item ranges stay in cells.
"""

from __future__ import annotations

from engine.rules.xcom_trpg.models import RulesetDef


def sectors(rules: RulesetDef, cells: int) -> int:
    """How many sectors a Chebyshev distance of `cells` spans: ceil(D / cells_per_sector); 0 for the same cell."""
    return -(-cells // rules.cells_per_sector)


def between(rules: RulesetDef, cells: int) -> int:
    """"N sectors between shooter and target" at a cell distance: max(0, sectors(D) - 1); same cell = point blank."""
    return max(0, sectors(rules, cells) - 1)


def move_actions(rules: RulesetDef, steps: int) -> int:
    """Actions a walk of `steps` cells takes: one move action is one sector, up to cells_per_sector cells."""
    return sectors(rules, steps)


def reach_cells(rules: RulesetDef, most_between: int) -> int:
    """The furthest cell distance at which at most `most_between` sectors lie between."""
    return (most_between + 1) * rules.cells_per_sector


def in_sector(rules: RulesetDef) -> int:
    """"All friendlies in the sector": within cells_per_sector - 1 cells."""
    return rules.cells_per_sector - 1
