"""The AI's covering fire (§11), judged as a player would: a spray at a cluster it can hit now, unless a standing
area is worth more; and, with nobody in sight, an area over the way a hostile known to be near must come.

What an area is worth is counted in expected hits, by the same dice the play's `decide` and preview throw
(`cover.aimed`, `shooting.sustained_dice`): the volley's one die at each of up to n foes in the 3 × 3, plus one
follow-up die at each foe there that kept still in its latest action (it holds its ground, so it will likely end
its next action inside, N-11.3), counted at half: it may leave, and a hit now stops a foe shooting back. A spray is worth the kept dice that reach the lowest AV of its targets (each such
die hits one of them, N-10.4)."""

from __future__ import annotations

from fractions import Fraction

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.ruleset import Clues
from engine.rules.neo_troops import actions, battle, cover, odds, pools, shooting, spray
from engine.rules.neo_troops.movement import range_cells

FRESH = 1  # phases a lead stays worth watching (this cycle's or the last): by then it has come, or gone elsewhere
RUN = 10  # cells a run takes a hostile (20 m): a lead farther than that from the area will not reach it in time
HELD = Fraction(1, 2)  # a follow-up die at a foe holding its ground, at half: it may yet leave the area
LATE = 2 / 3  # past this share of the phase limit the AI presses on (as engine.ai.planner does): no more watching


def spray_value(rs, state: State, unit: Unit, ids: tuple[str, ...]) -> Fraction:
    """The expected hits of a spray at `ids`: its kept dice that reach the lowest AV among them."""
    targets = spray._targets(rs, state, unit, ids)  # noqa: SLF001 - the spray's own refusals and AVs
    aim = actions.aim(rs, state, unit.id, ids[0], "spray")
    if isinstance(targets, Rejected) or isinstance(aim, Rejected):
        return Fraction(0)
    t = unit.record
    w = rs.weapons[aim.weapon_id]
    lead = tuple(m for m in aim.mods if m[0] in ("base", "two weapons"))
    extra = shooting.weapon_mods(t, aim.weapon_id, rs.weapons, rs.settings)
    n, _ = pools.count(lead + shooting.shot_mods(t, w, targets, t.spent_m == 0, extra))
    return odds.mean(odds.hits(aim.base, n, min(x.av for x in targets)))


def cover_value(rs, state: State, unit: Unit, cell: Pos) -> tuple[Fraction, int] | None:
    """(expected hits, foes in the area) of covering fire round `cell` now, or None when it may not be given."""
    found = cover.aimed(rs, state, unit, cell)
    if isinstance(found, Rejected):
        return None
    wid, inside, targets = found
    t = unit.record
    n, _ = shooting.sustained_dice(t, rs.weapons[wid], targets, True, rs.settings,
                                   shooting.weapon_mods(t, wid, rs.weapons, rs.settings))
    chosen = targets[:max(1, min(n, len(targets)))]
    volley = [odds.face_at_least(x.av) if n > 0 else odds.face_at_least(x.av) ** 2 for x in chosen]
    held = [odds.face_at_least(x.av) for x, u in zip(targets, inside) if battle.stationary(u)]
    return sum(volley, Fraction(0)) + sum(held, Fraction(0)) * HELD, len(inside)


def ai_cluster(rs, state: State, unit: Unit) -> Act | None:
    """Two or more spotted hostiles close together: the spray at the best cluster, or covering fire round one of
    them when that area is worth more hits (the spray's dice are few or the foes hold their ground)."""
    clusters = spray.groups(rs, state, unit)
    best_spray = max(((spray_value(rs, state, unit, ids), ids) for ids in clusters),
                     key=lambda v: (v[0], len(v[1])), default=None)
    best_cover = None
    for u in _foes(rs, state, unit):
        got = cover_value(rs, state, unit, u.pos)
        if got is not None and got[1] >= 2 and (best_cover is None or got[0] > best_cover[0]):
            best_cover = (got[0], u.pos)
    if best_cover is not None and (best_spray is None or best_cover[0] > best_spray[0]):
        return Act(unit=unit.id, action="cover", cell=best_cover[1])
    return Act(unit=unit.id, action="spray", targets=best_spray[1]) if best_spray else None


def ai_approach(rs, state: State, unit: Unit, clues: Clues) -> Act | None:
    """Nobody armed in sight, a unit that waits for the enemy (an ambusher's profile, or the squad holding its
    objective's ground), a hostile seen or suspected near within the last FRESH phases: covering fire round the
    lead's cell if it sees it, else round the first cell it sees on the way from the lead to itself (where the
    hostile must come into sight), if that is within a run of the lead."""
    if any(u.conscious and u.side != missions.CIVILIANS for u in clues.in_sight) or not _waits(rs, state, unit):
        return None
    for lead, phase in clues.leads:
        if state.phase - phase > FRESH or range_cells(unit.pos, lead) > battle.SIGHT:
            continue
        aim = _approach(rs, state, unit, tuple(lead))
        if aim is not None and range_cells(aim, lead) <= RUN and cover_value(rs, state, unit, aim) is not None:
            return Act(unit=unit.id, action="cover", cell=aim)
    return None


def _waits(rs, state: State, unit: Unit) -> bool:
    setup = rs.setup
    if setup is None or (setup.max_phases and state.phase >= LATE * setup.max_phases):
        return False
    p = rs.content.behaviour.get(rs.behaviour(unit))
    if p is not None and p.hold and not p.melee:
        return True
    held = [o.zone for o in missions.objectives(setup.mission).values() if o.kind == "hold" and o.zone]
    return unit.side == missions.PLAYER and any(unit.pos in setup.spawns.get(z, ()) for z in held)


def _approach(rs, state: State, unit: Unit, lead: Pos) -> Pos | None:
    """The lead's cell if `unit` sees it; else, on the way from the lead to `unit`, the first cell it sees; None if
    that is next to it (the area would cover the firer's own feet) or there is no way."""
    sees = lambda c: state.grid.sees(unit.pos, c, battle.SIGHT)  # noqa: E731
    if sees(lead):
        return lead
    way = state.grid.path(lead, unit.pos, (), rs.budget(state, unit).walk)
    aim = next((c for c in way if sees(c)), None)
    return aim if aim is not None and range_cells(aim, unit.pos) >= 2 else None


def _foes(rs, state: State, unit: Unit) -> list[Unit]:
    seen = rs.spotted(state, unit.side)
    return sorted((u for u in state.units.values() if u.id in seen and u.conscious and u.side in battle.SIDES
                   and missions.hostile(unit.side, u.side) and state.grid.sees(unit.pos, u.pos, battle.SIGHT)),
                  key=lambda u: u.id)
