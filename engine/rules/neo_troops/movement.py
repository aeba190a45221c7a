"""Sections 0, 5, 6 and 8: metres on the grid, move and run budgets, agility tests and what each action allows."""

from __future__ import annotations

from typing import Literal, Sequence

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.rules.neo_troops import pools
from engine.rules.neo_troops.schema import Settings
from engine.rules.neo_troops.unit import Trooper, carries_big

Kind = Literal["move", "run", "stationary"]
# N-8.1: what each action allows besides its movement.
ALLOWED: dict[Kind, frozenset[str]] = {
    "move": frozenset({"snap", "spray", "melee", "throw", "misc"}),
    "run": frozenset({"melee"}),
    # Shooting without moving is a Move of 0 m (N-8.2), not a Stationary action.
    "stationary": frozenset({"sustained", "load", "misc", "first_aid", "repair", "search"}),
}


def range_cells(a: Pos, b: Pos) -> int:
    """N-0.1: max(|dx|,|dy|) + floor(min(|dx|,|dy|)/2)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2


def range_m(a: Pos, b: Pos, s: Settings) -> int:
    return s.step_m * range_cells(a, b)


def step_m(a: Pos, b: Pos, s: Settings, difficult: bool = False) -> int:
    """One step into a neighbouring cell: 2 m orthogonal, 3 m diagonal, double into a difficult cell."""
    if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        raise ValueError(f"{a} to {b} is not one step")
    cost = s.diagonal_m if a[0] != b[0] and a[1] != b[1] else s.step_m
    return cost * (s.difficult_factor if difficult else 1)


def path_m(path: Sequence[Pos], s: Settings, difficult: frozenset[Pos] = frozenset()) -> int:
    """Metres of a path given as its cells from the start (the start costs nothing): `step_m` summed, inlined (a
    move prices its path several times)."""
    total = 0
    for a, b in zip(path, path[1:]):
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        if max(dx, dy) != 1:
            raise ValueError(f"{a} to {b} is not one step")
        cost = s.diagonal_m if dx and dy else s.step_m
        total += cost * s.difficult_factor if b in difficult else cost
    return total


def speeds(t: Trooper, s: Settings) -> tuple[int, int]:
    """N-6.3: (move, run) metres this action, the load and wound factors multiplied together, rounded down."""
    move, run = 1.0, 1.0
    light_armour = t.save is None or t.save > s.light_armour_save
    load = t.load_fraction
    if load >= 1.0:
        move, run = s.max_load_speed, s.max_load_speed
    elif load >= s.heavy_load:
        run = s.heavy_run
    elif load <= s.light_load and light_armour:
        run = s.light_run
    slow = s.wound_speed ** t.severe_wounds * s.leg_speed ** t.legs_lost
    return int(t.move_m * move * slow), int(t.run_m * run * slow)


def budget(t: Trooper, kind: Kind, s: Settings) -> int:
    move, run = speeds(t, s)
    return {"move": move, "run": run, "stationary": 0}[kind]


def agility_mods(t: Trooper, weapons: dict, s: Settings) -> pools.Mods:
    """N-5.2 (and §18.2's −1 die per severed leg); the heavier load or armour penalty replaces the lighter."""
    mods: list[tuple[str, int]] = [("base", s.agility_dice)]
    if t.load_fraction >= 1.0:
        mods.append(("max load", -2))
    elif t.load_fraction >= s.heavy_load:
        mods.append(("heavy load", -1))
    if t.save is not None and t.save <= 2:
        mods.append(("2+ armour", -2))
    elif t.save is not None and t.save <= 3:
        mods.append(("3+ armour", -1))
    if carries_big(t, weapons) and s.big_penalty:
        mods.append(("BIG weapon", -s.big_penalty))
    if t.severe_wounds:
        mods.append(("severe wound", -t.severe_wounds))
    if t.legs_lost:
        mods.append(("leg lost", -t.legs_lost))
    return tuple(mods)


def agility(dice: Dice, t: Trooper, tables: dict, hard: bool = False) -> pools.Check:
    s: Settings = tables["settings"]["default"]
    tn = pools.difficulty(tables, s.agility_hard if hard else s.agility)
    return pools.check(dice, t.id, "agility", agility_mods(t, tables["weapons"], s), tn)


@attrs.frozen
class Walk:
    """Where a Move or Run ends: the cells walked (start included), the metres spent, the agility rolls."""

    path: tuple[Pos, ...]
    metres: int
    rolls: tuple[Roll, ...] = ()
    stopped: bool = False  # an agility test failed; the mover stands before the obstacle


def walk(dice: Dice, t: Trooper, kind: Kind, path: Sequence[Pos], tables: dict,
         difficult: frozenset[Pos] = frozenset(), obstacles: frozenset[Pos] = frozenset(),
         hard: frozenset[Pos] = frozenset()) -> Walk | Rejected:
    """N-6.1–N-6.3, N-5.3: the whole path must fit the budget; each obstacle cell entered asks an agility test
    (Hard in `hard`), and a failure ends the movement in the cell before it."""
    s: Settings = tables["settings"]["default"]
    if not t.can_act:
        return Rejected("out_of_action", f"{t.id} cannot act")
    if kind == "stationary" and len(path) > 1:
        return Rejected("stationary", "A Stationary action has no movement")
    spent, most = path_m(path, s, difficult), budget(t, kind, s)
    if spent > most:
        return Rejected("too_far", f"{spent} m is past the {kind} budget of {most} m")
    rolls: list[Roll] = []
    for i, cell in enumerate(path[1:], start=1):
        if cell in obstacles:
            test = agility(dice, t, tables, cell in hard)
            rolls.append(test.roll)
            if not test.success:
                return Walk(tuple(path[:i]), path_m(path[:i], s, difficult), tuple(rolls), True)
    return Walk(tuple(path), spent, tuple(rolls))


def allows(kind: Kind, what: str, s: Settings) -> Rejected | None:
    """N-8.1: one action besides the movement; a run allows only a melee at its end, and only if the setting
    allows it."""
    if what not in ALLOWED[kind] or (kind == "run" and what == "melee" and not s.run_melee):
        return Rejected("not_in_action", f"A {kind} action does not allow {what}")
    return None


def stationary_for_snap(kind: Kind, metres: int) -> bool:
    """N-8.2: a Move of 0 m counts as stationary."""
    return kind == "stationary" or (kind == "move" and metres == 0)
