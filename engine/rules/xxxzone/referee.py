"""`xenotac resolve` for xxxzone: one shot described in a scenario file, staged on an open grass field with the
cover tiles it names and put to the same attack the game makes, so its refusals are the game's.

    ruleset = "xxxzone"
    cover = [{ at = [5, 9], tile = "crate" }]
    [units.johnny]   template = "johnny"  side = "xcom"    at = [5, 2]
    [units.zhetan]   template = "zhetan"  side = "aliens"  at = [5, 10]
    [action]         type = "shoot"  actor = "johnny"  target = "zhetan"  mode = "shoot"  aim = 1
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.content import missions
from engine.content.scenario import UnitReport, Verdict
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Resolved
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.rules.xxxzone import battle, forces, shooting
from engine.rules.xxxzone.actions import TurnAp
from engine.rules.xxxzone.units import Battle, unit_of


@attrs.frozen(kw_only=True)
class ScUnit:
    template: str  # a roster.toml id
    side: Literal["xcom", "aliens", "civilians"] = "xcom"
    at: list[int]
    hunkered: bool = False
    armour_hp: int = -1  # -1: the armour's full HP


@attrs.frozen(kw_only=True)
class ScCover:
    at: list[int]
    tile: str  # a terrain id, cover per terrain_cover.toml


@attrs.frozen(kw_only=True)
class ScAction:
    type: Literal["shoot"] = "shoot"
    actor: str
    target: str
    mode: str = "shoot"
    aim: int = 0  # Aim stacks on the target
    reaction: bool = False  # overwatch fire (−20)
    unaware: bool = False  # the target has not spotted the shooter (Shadow Attack, Sneak Attack)


@attrs.frozen(kw_only=True)
class Scenario:
    ruleset: str
    units: dict[str, ScUnit]
    action: ScAction
    cover: list[ScCover] = attrs.field(factory=list)


def check(rs, sc: Scenario) -> list[str]:
    out = [f"[units.{uid}].template: unknown template {u.template!r} (roster.toml)"
           for uid, u in sc.units.items() if u.template not in rs.book.roster]
    out += [f"[units.{uid}].at: expected two squares 0 to 60" for uid, u in sc.units.items()
            if len(u.at) != 2 or not all(0 <= v <= 60 for v in u.at)]
    out += [f"cover[{i}].tile: unknown terrain {c.tile!r}" for i, c in enumerate(sc.cover)
            if c.tile not in rs.content.terrain]
    out += [f"cover[{i}].at: expected two squares 0 to 60" for i, c in enumerate(sc.cover)
            if len(c.at) != 2 or not all(0 <= v <= 60 for v in c.at)]
    for key in ("actor", "target"):
        if getattr(sc.action, key) not in sc.units:
            out.append(f"[action].{key}: no unit {getattr(sc.action, key)!r} in [units]")
    return out


def units(rs, sc: Scenario) -> dict[str, Unit]:
    book, out = rs.book, {}
    for uid, u in sc.units.items():
        m = book.roster[u.template]
        op = forces.operative(book, u.template, uid, forces.looks(book, u.template)[0])
        c = battle.deploy(book, op, u.side, (u.at[0], u.at[1]))
        ap = battle.max_ap(book, c)
        c = attrs.evolve(c, turn=TurnAp(ap=ap, maximum=ap), hunkered=u.hunkered,
                         armour_hp=c.armour_hp if u.armour_hp < 0 else u.armour_hp)
        if uid == sc.action.actor and sc.action.aim:
            c = attrs.evolve(c, aim=battle.Aim(target=sc.action.target, stacks=sc.action.aim))
        out[uid] = unit_of(book, c, u.template, m.glyph, "Human" if m.character else book.enemies[m.enemy].name)
    return out


def stage(rs, units_: dict[str, Unit], action: ScAction, cover: list[ScCover] = ()) -> State:
    """The open field with the cover tiles, the units on it and who has spotted whom."""
    w = max(max(u.pos[0] for u in units_.values()), max((c.at[0] for c in cover), default=0)) + 3
    h = max(max(u.pos[1] for u in units_.values()), max((c.at[1] for c in cover), default=0)) + 3
    tiles = {(c.at[0], c.at[1]): c.tile for c in cover}
    grid = Grid.from_ids([[tiles.get((x, y), "grass") for x in range(w)] for y in range(h)], rs.content.terrain)
    actor, target = units_[action.actor], units_[action.target]
    state = State(ruleset=rs.id, mission="resolve", grid=grid, units=dict(units_), phase=1, side=actor.side,
                  sides=missions.SIDES, record=Battle(seen=((actor.side, (target.id,)),) + (
                      () if action.unaware else ((target.side, (actor.id,)),))))
    return state


def paid(rs, state: State, action: ScAction):
    """The weapon and mode the action fires and the turn after paying for it, or why it cannot be fired."""
    actor, target = state.units[action.actor], state.units[action.target]
    c = actor.record
    which = shooting.mode_of(rs.book, c, action.mode)
    if isinstance(which, Rejected):
        return which
    spec = rs.book.weapons[which[0]].modes[which[1]]
    turn = shooting.actions.spend(c.turn, spec.ap, "melee" if rs.book.weapons[which[0]].kind == "melee" else "gun",
                                  frozenset(c.op.abilities))
    if isinstance(turn, Rejected):
        return turn
    if not state.grid.sees(actor.pos, target.pos, rs.sight_range):
        return Rejected("no_line_of_sight", f"{actor.name} has no line of fire to {target.name}")
    return which, turn


def referee(rs, units_: dict[str, Unit], action: ScAction, dice: Dice, cover: list[ScCover] = ()) -> Verdict | Rejected:
    state = stage(rs, units_, action, cover)
    ready = paid(rs, state, action)
    if isinstance(ready, Rejected):
        return ready
    which, turn = ready
    actor, target = units_[action.actor], units_[action.target]
    got = shooting.attack(rs, state, actor, target, *which, dice, turn, reaction=action.reaction)
    if isinstance(got, Rejected):
        return got
    events = got[0]
    after = fold(state, events).units
    changes = {uid: {k: v for k, v in attrs.asdict(after[uid], recurse=False).items()
                     if getattr(units_[uid], k) != v} for uid in units_}
    rolls = [r for e in events for r in e.rolls]
    told = next(e for e in events if isinstance(e, Resolved))
    return Verdict(rolls=rolls, before=dict(units_), changes={k: v for k, v in changes.items() if v},
                   summary=told.text, outcome=told.outcome)


def report(rs, before: Unit, after: Unit) -> UnitReport:
    book, b, a = rs.book, before.record, after.record
    w = a.condition.wounds
    wounds = " · ".join(f"{t} {w.count(t)}" for t in book.tiers() if w.count(t)) or "no wounds"
    line = (f"{after.name}: {wounds}, armour HP {a.armour_hp}/{book.armour[a.op.armour].hp}"
            + (f", {after.status}" if after.status != "active" else ""))
    return UnitReport(line=line, numbers={"hp_lost": before.hp - after.hp,
                                          "armour_hp_lost": b.armour_hp - a.armour_hp,
                                          "minor": w.minor, "severe": w.severe, "mortal": w.mortal,
                                          "lethal": w.lethal, "status": after.status})
