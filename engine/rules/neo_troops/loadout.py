"""What a trooper can fire: held, working weapons and the shots left in them; loading is a Stationary action
(N-8.1), one weapon per action (N-12.1)."""

from __future__ import annotations

import attrs

from engine.core import records
from engine.core.commands import Rejected
from engine.rules.neo_troops.unit import Trooper


def shots_left(t: Trooper, weapon: str) -> int:
    return dict(t.shots).get(weapon, 0)


def ready(t: Trooper, weapon: str, weapons: dict, shots: int) -> Rejected | None:
    """A weapon fires when it is in hand, not destroyed, and has the shots (a snap 1, spray and sustained ROF)."""
    part = t.part(weapon)
    if weapon not in t.held:
        return Rejected("not_held", f"{t.id} does not hold the {weapons[weapon].name}")
    if part is not None and part.state == "destroyed":
        return Rejected("destroyed", f"{t.id}'s {weapons[weapon].name} is destroyed")
    if not weapons[weapon].melee and shots_left(t, weapon) < shots:
        return Rejected("no_ammo", f"The {weapons[weapon].name} needs {shots} shots and has {shots_left(t, weapon)}")
    return None


def spend(t: Trooper, weapon: str, shots: int) -> Trooper:
    return records.evolve(t, {"shots": tuple((w, n - shots if w == weapon else n) for w, n in t.shots)})


def load(t: Trooper, weapon: str, weapons: dict) -> Trooper | Rejected:
    """Refill one weapon to capacity, using up one working ammunition load; any load fits any weapon."""
    if not weapons[weapon].reloads or weapon not in dict(t.shots):
        return Rejected("cannot_load", f"The {weapons[weapon].name} is not loaded from an ammunition load")
    clip = next((p for p in t.parts if p.kind == "ammo" and p.state != "destroyed"), None)
    if clip is None:
        return Rejected("no_load", f"{t.id} has no ammunition load left")
    parts = tuple(p for p in t.parts if p is not clip)
    full = weapons[weapon].shots
    return attrs.evolve(t, parts=parts, shots=tuple((w, full if w == weapon else n) for w, n in t.shots))
