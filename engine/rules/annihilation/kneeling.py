"""The AI's stances (section 10): a unit ending its phase next to cover kneels, when kneeling helps its opportunity
fire (settings `kneel_bonus`, A-10.2's house rule: with the spec's 0 a kneel only costs TU, and it never kneels) and
it keeps, after the kneel's TU, the TU for a snap shot at an enemy its side knows of; at the start of its next phase
it stands up again to walk, unless it has a shot from where it kneels. The planner asks at `ai_chore`'s "rest"
(before it ends the unit's phase) and "first" (before anything else) stages. Both sides' AI play by it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Act, Rejected
from engine.core.model import State, Unit
from engine.map.grid import ORTHOGONAL
from engine.rules.annihilation import fire, moves
from engine.rules.annihilation.soldier import gun

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

MIN_CHANCE = 0.04  # the planner's MIN_ODDS: a worse shot is no reason to stay down


def rest(rs: Annihilation, state: State, unit: Unit, in_sight: list[Unit]) -> Act | None:
    """Kneel before ending the phase: standing, next to cover, an enemy in sight or heard, and the TU for a kneel and
    then a snap shot left."""
    f = unit.record.fighter
    if rs.book.settings.kneel_bonus <= 0 or f.stance != "standing" or not _covered(state, unit):
        return None
    if not any(t.conscious for t in in_sight) and not rs.heard(state, unit.side):
        return None
    kneel = moves.stance_price(rs.book, f, "kneeling")
    snap = _cheapest_shot(rs, unit)
    if isinstance(kneel, Rejected) or snap is None or kneel.tu + snap > f.tu_left:
        return None
    return Act(unit=unit.id, action="stance", option="kneeling")


def rise(rs: Annihilation, state: State, unit: Unit, in_sight: list[Unit]) -> Act | None:
    """Stand up at the start of a phase spent kneeling, unless a hostile in sight can be shot from here."""
    f = unit.record.fighter
    if f.stance != "kneeling" or rs.book.settings.kneel_bonus <= 0:
        return None
    for t in in_sight:
        if not t.conscious:
            continue
        for m in rs.shot_modes(state, unit):
            preview = rs.preview_shot(state, unit.id, t.id, m.id) if m.usable else None
            if preview is not None and not isinstance(preview, Rejected) and preview.p_hit >= MIN_CHANCE:
                return None
    up = moves.stance_price(rs.book, f, "standing")
    if isinstance(up, Rejected) or up.tu > f.tu_left:
        return None
    return Act(unit=unit.id, action="stance", option="standing")


def _covered(state: State, unit: Unit) -> bool:
    """A square next to the unit (orthogonally, on its storey; any of the six on hexes) gives cover: a wall, a
    fence, a crate, a tree."""
    g = state.grid.level(unit.z)
    x, y = unit.pos
    near = g.neighbours(unit.pos) if g.hexes else [(x + dx, y + dy) for dx, dy in ORTHOGONAL]
    return any(g.inside(n) and int(g.cover[n[1], n[0]]) > 0 for n in near)


def _cheapest_shot(rs: Annihilation, unit: Unit) -> int | None:
    g = gun(unit.record, rs.book)
    if g is None or not g.rounds:
        return None
    return min((fire.shot_tu(rs.book, unit.record.fighter, g.id, m) for m in rs.book.weapons[g.id].modes),
               default=None)
