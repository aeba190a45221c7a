"""What the map shows a side over the tiles (`Ruleset.marks`): the smoke clouds of which it sees a square, whole,
and the C4 its own units placed (the other side's charges stay hidden, as the fog of war hides them), and the
items on the ground where it sees the square."""

from __future__ import annotations

from engine.core.model import State
from engine.core.ruleset import Mark
from engine.rules.xxxzone import ground
from engine.rules.xxxzone.smoke import cloud_cells
from engine.rules.xxxzone.units import battle

SMOKE = ("▒", "#b0b0b0", "#404040")
C4 = ("¤", "#ff5050")


def marks(rs, state: State, side: str) -> tuple[Mark, ...]:
    rec = battle(state)
    seen = rs.visible(state, side)
    out: list[Mark] = []
    for centre, radius, left, _ in rec.smoke:
        cells = sorted(cloud_cells(state, tuple(centre), radius))
        if any(seen[y, x] for x, y in cells):
            label = f"Smoke: {left} more turn{'s' if left != 1 else ''} (concealment)"
            out += [Mark(cell, SMOKE[0], SMOKE[1], label, SMOKE[2]) for cell in cells]
    for cell, who in rec.charges:
        placer = state.units.get(who)
        if placer is not None and placer.side == side:
            out.append(Mark(tuple(cell), C4[0], C4[1], f"C4 placed by {placer.name}: its Detonator sets it off"))
    return tuple(out + ground.marks(rs, state, side))
