"""When the AI throws a grenade, or fires a weapon whose rounds blast (`Ruleset.shot_blast`: annihilation's grenade
launchers): at a cell holding enough hostiles it sees and no friend, within reach and sight."""

from __future__ import annotations

from engine.ai.tactics import Knowledge
from engine.content import missions
from engine.content.models import Behaviour
from engine.core.commands import Rejected, Shoot, Throw
from engine.core.model import State, Unit
from engine.core.ruleset import Ruleset
from engine.map.grid import Pos

GOOD_ODDS = 0.35  # below this an aggressive unit would rather throw a grenade


def choose(ruleset: Ruleset, side: str, state: State, unit: Unit, k: Knowledge, p: Behaviour,
           shot: tuple[Shoot, float] | None) -> Throw | None:
    """Grenades go to cells with enough hostiles and no friend (one will do for the aggressive,
    when their shot is poor)."""
    if p.grenade_cluster <= 0:
        return None
    items = sorted(t.item for t in ruleset.throwables(state, unit))
    if not items:
        return None
    need = p.grenade_cluster
    if need <= 1 and shot is not None:
        preview = ruleset.preview_shot(state, unit.id, shot[0].target, shot[0].mode)
        if not isinstance(preview, Rejected) and preview.p_hit >= GOOD_ODDS:
            need = 2
    wanted = [h for h in k.live_targets() if h.side != missions.CIVILIANS or side != missions.PLAYER]
    cells: dict[Pos, list[Unit]] = {}
    for centre in sorted({h.pos for h in wanted}):  # each hostile's cell, as the middle of a blast
        area = set(ruleset.blast(state, items[0], centre))
        cells[centre] = [h for h in wanted if h.pos in area]
    reach = ruleset.throw_range(state, unit, items[0])
    for cell, group in sorted(cells.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if len(group) < max(2, need) and not (need <= 1 and len(group) == 1):
            continue
        if not spares(side, state, k, ruleset.blast(state, items[0], cell)):
            continue
        d = ruleset.distance(unit.pos, cell)
        if 1 < d <= reach and state.grid.sees(unit.pos, cell, k.vision):
            target = min(group, key=lambda u: (u.hp, u.id))
            return Throw(unit=unit.id, item=items[0], cell=cell, target=target.id)
    return None


def spares(side: str, state: State, k: Knowledge, area) -> bool:
    """No friend (the thrower or shooter too) in the blast, and no one it sees there it is not at war with."""
    return not any(u.side == side or not missions.hostile(side, u.side) for c in area for u in state.units_at(c)
                   if u.side == side or k.seen[c[1], c[0]])


def launch(ruleset: Ruleset, side: str, state: State, unit: Unit, k: Knowledge, p: Behaviour) -> Shoot | None:
    """A blast weapon fired at the hostile whose square's blast takes in the most of those it sees, at least two
    (`grenade_cluster`, never fewer than 2) and no friend, in its likeliest mode; None when no cluster offers."""
    if p.grenade_cluster <= 0 or not ruleset.shot_blast(state, unit, unit.pos):
        return None
    wanted = [h for h in k.live_targets() if h.side != missions.CIVILIANS or side != missions.PLAYER]
    best: tuple[tuple, Shoot] | None = None
    for target in wanted:
        area = ruleset.shot_blast(state, unit, target.pos)
        group = [h for h in wanted if h.pos in set(area)]
        if len(group) < max(2, p.grenade_cluster) or not spares(side, state, k, area):
            continue
        for mode in (m.id for m in ruleset.shot_modes(state, unit) if m.usable):
            preview = ruleset.preview_shot(state, unit.id, target.id, mode)
            if isinstance(preview, Rejected) or preview.p_hit <= 0:
                continue
            key = (-len(group) * preview.p_hit, target.id, mode)
            if best is None or key < best[0]:
                best = (key, Shoot(unit=unit.id, target=target.id, mode=mode))
    return best[1] if best else None
