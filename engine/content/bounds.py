"""What content may ask of the rules: every number within what the rules can mean, every formula provably
evaluable on the stats' ranges, every mission within what a map can hold.

`content check` used to pass `damage = -5`, `strength / 0`, `1000000000d1000000000` or a million sectoids,
which then crashed or never finished in play. Each is now one located line, from `loader.cross_check`.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.content import models as c
from engine.content.formula import Formula, FormulaError

DEFAULT = (0, 10_000)  # any count, cost or distance the tables below do not name
STAT = (0, 100)
SIGNED = (-10_000, 10_000)
MAX_UNITS = 200  # hostiles and civilians on one map
MAX_SQUAD = 50
MAX_PHASES = 1000  # a mission's phase limit, and the most `simulate --max-turns` asks for
LONGEST = 10**6  # the most a log's header may hold: long test and benchmark games go past MAX_PHASES
MARGIN = 10  # stat points rules may add in play (buffs, a crit initiation) beyond what content names

# (model, field) -> (least, most). A dict field is bounded value by value.
LIMITS: dict[tuple[type, str], tuple[int, int]] = {
    (c.Behaviour, "advance"): SIGNED, (c.Behaviour, "cover"): SIGNED, (c.Behaviour, "exposure"): SIGNED,
    (c.Behaviour, "flank"): SIGNED, (c.Behaviour, "focus"): SIGNED, (c.Behaviour, "distance"): (0, 200),
    (c.Behaviour, "grenade_cluster"): (0, 100), (c.Behaviour, "retreat_wounded"): (0, 100),
    (c.Difficulty, "enemies_percent"): (1, 1000), (c.Difficulty, "alien_stats"): (-50, 50),
    (c.Difficulty, "aggression_percent"): (1, 1000), (c.Difficulty, "misjudge_percent"): (0, 100),
    (c.Loot, "min"): SIGNED, (c.Loot, "max"): (-10_000, 100_000),
    (c.Mission, "max_phases"): (1, MAX_PHASES), (c.Mission, "civilians"): (0, MAX_UNITS),
    (c.Mission, "enemies"): (0, MAX_UNITS), (c.Objective, "until_phase"): (0, MAX_PHASES),
    (c.Terrain, "move_cost"): (0, 100),
}


def numbers(file: str, key: str, obj: Any, limits: dict[tuple[type, str], tuple[int, int]] | None = None) -> list[str]:
    """Every number of one loaded table (and the tables inside it) against its limits (`limits`: a ruleset's own
    models' on top of the shared ones)."""
    out: list[str] = []
    _walk(file, f"[{key}]", obj, out, LIMITS if limits is None else {**LIMITS, **limits})
    return out


def _walk(file: str, where: str, obj: Any, out: list[str], limits: dict[tuple[type, str], tuple[int, int]]) -> None:
    if isinstance(obj, Formula):  # its numbers are bounded by the parser, its result by `formula` below
        return
    for field in attrs.fields(type(obj)):
        value = getattr(obj, field.name)
        at = f"{where}.{field.name}"
        limit = limits.get((type(obj), field.name), DEFAULT)
        if attrs.has(type(value)):
            _walk(file, at, value, out, limits)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            _check(file, at, field.name, value, limit, out)
        elif isinstance(value, dict):
            for k, v in value.items():
                if attrs.has(type(v)):
                    _walk(file, f"{at}.{k}", v, out, limits)
                elif isinstance(v, (int, float)) and not isinstance(v, bool):
                    _check(file, f"{at}.{k}", field.name, v, limit, out)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                if attrs.has(type(v)):
                    _walk(file, f"{at}[{i}]", v, out, limits)


def _check(file: str, at: str, _name: str, value: float, limit: tuple[int, int], out: list[str]) -> None:
    low, high = limit
    if not low <= value <= high:
        out.append(f"{file}: {at}: expected {low} to {high}, got {_short(value)}")


def _short(value: float) -> str:
    text = str(value)
    return text if len(text) <= 20 else text[:17] + "..."


def formula(file: str, where: str, f: Formula | None, ranges: dict[str, tuple[int, int]],
            bare: bool = False) -> list[str]:
    """The formula can be evaluated for every stat value it may meet: one located line if not. `bare`: it is
    rolled with no unit's stats at all (the god of random)."""
    from engine.content.formula import names_in

    if f is None:
        return []
    if bare and names_in(f.tree):
        return [f"{file}: {where}: the god of random rolls bare, with no stats: {sorted(names_in(f.tree))[0]!r}"]
    if names_in(f.tree) - set(ranges):  # an unknown name (cross_check has said so), or no ruleset loaded
        return []
    try:
        f.bounds(ranges)
    except FormulaError as exc:
        return [f"{file}: {where}: {exc}"]
    return []


def mission(file: str, mid: str, m: c.Mission) -> list[str]:
    """A mission no map can hold: too many units for its cells, or too big a squad."""
    out = []
    total = sum(m.enemies.values()) + m.civilians
    if total > MAX_UNITS:
        out.append(f"{file}: [{mid}].enemies: {total} hostiles and civilians on one map; at most {MAX_UNITS}")
    if len(m.squad) > MAX_SQUAD:
        out.append(f"{file}: [{mid}].squad: {len(m.squad)} soldiers; at most {MAX_SQUAD}")
    return out


def check(t: dict[str, dict[str, Any]], missions: dict[str, c.Mission], origin: dict[str, str]) -> list[str]:
    """Every number of the shared tables and the missions (`t`: file name -> id -> model); a ruleset's own tables
    and formulas are its check's (xcom-trpg: engine/rules/xcom_trpg/tables.py)."""
    out: list[str] = []
    for file, table in t.items():
        for key, obj in table.items():
            out.extend(numbers(file, key, obj))
    for mid, m in missions.items():
        out.extend(numbers(origin[mid], mid, m))
        out.extend(mission(origin[mid], mid, m))
    return out
