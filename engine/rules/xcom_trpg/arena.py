"""`xenotac resolve` on the play path: the described situation staged on a small map, decided by the game itself.

The scenario's units stand on open floor: the actor in the corner, the target along the row at the stated
distance (`distance` cells, or the nearest cell with `sectors_between` sectors between, 1.3), the bystanders and the
other targets of a mass ability in the target's cell, everyone else beside the actor. Cover is a tile next to the
target on the shooter's side: a crate for partial; a wall for full, with the target half a distance off the row so
the wall covers it and leaves the line of sight open. A target that does not see the actor faces away. The command the scenario describes
is then decided by `XcomTrpg.decide`, so every check the game makes (range, sight, ammunition, stamina, actions,
who may cast what) refuses here with the same code and reason, and every consequence (morale, panic, the end of
the fight) follows. Bravery, special formulas, searches and initiation have no map command; their referees call
the functions play calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.content.scenario import Verdict
from engine.rules.xcom_trpg.scenario import Action
from engine.core.commands import Act, Command, Rejected, Shoot, Throw
from engine.core.dice import Dice
from engine.core.geometry import Pos
from engine.core.model import State, Unit, replace
from engine.core.reducer import fold
from engine.core.events import Resolved
from engine.map.grid import Grid
from engine.content import missions
from engine.rules.xcom_trpg import tranquilizer
from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.sniper import PARTS
from engine.rules.xcom_trpg.tables import xcom

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

STAGED = ("shoot", "throw", "psi", "persuade", "grab", "escape", "shove")
OPEN, PARTIAL_COVER, FULL_COVER = "floor", "crate", "wall"


def cells_apart(rs: XcomTrpg, action: Action) -> int:
    """The distance the scenario states: `distance` in cells, else the nearest cell with that many sectors between;
    never further than one cell past sight (the game refuses the same beyond it), so the map stays small."""
    if action.distance is not None:
        d = action.distance
    else:  # the first cell of the sector after the N between: N * cells_per_sector + 1 (scale.between)
        d = action.sectors_between * rs.rules.cells_per_sector + 1 if action.sectors_between else 1
    return max(0, min(d, rs.rules.vision_radius + 1))


def stage(rs: XcomTrpg, units: dict[str, Unit], action: Action) -> tuple[State, Command]:
    from engine.rules.xcom_trpg import facing_towards  # the package imports this module first

    d = cells_apart(rs, action)
    off = (d // 2 + 1 if d >= 2 else 1) if action.cover == "full" else 0  # see the docstring
    actor_at: Pos = (1, 1)
    target_at: Pos = (1 + d, 1 + off)
    near = [uid for uid in units if uid != action.actor and uid != action.target
            and uid not in action.bystanders and uid not in action.targets]
    size = max(d + off + 3, len(near) + 3)
    rows = [[OPEN] * size for _ in range(size)]
    if action.cover != "none" and d > 0:
        rows[target_at[1]][target_at[0] - 1] = PARTIAL_COVER if action.cover == "partial" else FULL_COVER
    placed: dict[str, Unit] = {}
    for uid, unit in units.items():
        if uid == action.actor:
            pos, facing = actor_at, facing_towards(actor_at, target_at)
        elif uid == action.target or uid in action.bystanders or uid in action.targets:
            towards = facing_towards(target_at, actor_at)
            pos, facing = target_at, towards if action.target_sees_actor else (towards + 4) % 8
        else:
            pos, facing = (0, 2 + near.index(uid)), 0
        placed[uid] = replace(unit, {"pos": pos, "facing": facing})
    placed = _history(_sides(rs, placed, action), action)
    actor = placed[action.actor]
    sides = (actor.side, *sorted({u.side for u in placed.values()} - {actor.side}))
    grid = Grid.from_ids(rows, rs.content.terrain)
    state = State(ruleset=rs.id, mission="resolve", grid=grid, units=placed, phase=1, side=actor.side, sides=sides)
    return state, command(rs, state, action)


def _sides(rs: XcomTrpg, units: dict[str, Unit], action: Action) -> dict[str, Unit]:
    """The scenario's default sides "a" (the actor's) and "b" become the game's: the squad and the aliens, by the
    actor's race, so rules about sides (who may be mind-controlled, 7.6) read them as in play."""
    mine = missions.ALIENS if xcom(rs.content).races[units[action.actor].race].alien else missions.PLAYER
    theirs = missions.PLAYER if mine == missions.ALIENS else missions.ALIENS
    names = {"a": mine, "b": theirs}
    return {uid: replace(u, {"side": names[u.side]}) if u.side in names else u for uid, u in units.items()}


def _history(units: dict[str, Unit], action: Action) -> dict[str, Unit]:
    """What came before, as the game keeps it: the dart a tranquilizer has loaded (8.12.4); an escaping actor is
    held by its target (8.11); earlier charisma
    interactions of the pair, and a target that is trying to kill the actor (5.5)."""
    if action.target is None or action.type not in ("persuade", "escape", "shoot"):
        return units
    actor, target = units[action.actor], units[action.target]
    out = dict(units)
    if action.type == "shoot":  # a tranquilizer's loaded dart is the scenario's `item` (8.12.4)
        kind = tranquilizer.KINDS.get(action.item or "")
        if kind is not None:
            out[actor.id] = _noted(actor, tranq_loaded=kind)
        return out
    if action.type == "escape":
        out[actor.id] = _noted(actor, melee_held_by={**soldier(actor).melee_held_by, target.id: 1})
        out[target.id] = _noted(target, melee_holding={**soldier(target).melee_holding, actor.id: 1})
        return out
    if action.earlier:
        for me, other in ((actor, target), (target, actor)):
            out[me.id] = _noted(out[me.id], cha_pair={**soldier(out[me.id]).cha_pair, other.id: action.earlier})
    if action.hostile:
        t = out[target.id]
        out[target.id] = _noted(t, cha_hostile={**soldier(t).cha_hostile, actor.id: 1})
    return out


def _noted(unit: Unit, **fields: object) -> Unit:
    return replace(unit, {"record": attrs.evolve(soldier(unit), **fields)})


def command(rs: XcomTrpg, state: State, action: Action) -> Command:
    actor = state.units[action.actor]
    if action.type == "shoot":
        mode = xcom(rs.content).weapons[soldier(actor).weapon].modes.get(action.mode)
        if mode is not None and mode.sniper:  # 8.12.5: a sniper shot names its body part
            return Act(unit=actor.id, action="snipe", target=action.target, option=action.part or PARTS[0])
        return Shoot(unit=actor.id, target=action.target or "", mode=action.mode)
    if action.type == "throw":
        item = action.item or next((t.item for t in rs.throwables(state, actor)), "")
        return Throw(unit=actor.id, item=item, cell=state.units[action.target or ""].pos, target=action.target)
    if action.type == "psi":
        return Act(unit=actor.id, action="psi", target=action.target, targets=tuple(
            [action.target, *action.targets] if action.targets and action.target else action.targets),
            option=action.ability, amount=action.overload)  # None: psi-communication (7.4)
    if action.type == "persuade":
        return Act(unit=actor.id, action="persuade", target=action.target, option=action.demand)
    option = "arm_wrestling" if action.mode == "arm_wrestling" else None
    return Act(unit=actor.id, action=action.type, target=action.target, option=option)


def decide(rs: XcomTrpg, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict | Rejected:
    """The game's own decision on the staged command, told as a verdict: its rolls, what changed, its words."""
    staged = rs.staged  # `--trials` stages once and decides n times; the cache holds `units`, so `is` is safe
    if staged is None or staged[0] is not units or staged[1] != action:
        staged = rs.staged = (units, action, *stage(rs, units, action))
    state, cmd = staged[2], staged[3]
    events = rs.decide(state, cmd, dice)
    if isinstance(events, Rejected):
        return events
    after = fold(state, events).units
    fields = [a.name for a in attrs.fields(Unit) if a.name not in ("pos", "facing")]
    changes = {uid: {f: getattr(after[uid], f) for f in fields if getattr(after[uid], f) != getattr(u, f)}
               for uid, u in state.units.items()}
    rolls = [r for e in events for r in e.rolls]
    summary = "; ".join(e.text for e in events if isinstance(e, Resolved) and e.text)
    return Verdict(rolls, state.units, {uid: c for uid, c in changes.items() if c}, summary)
