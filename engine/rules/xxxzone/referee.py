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
from engine.core.commands import Act, Rejected, Throw
from engine.core.dice import Dice
from engine.core.events import Resolved
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.rules.xxxzone import battle, forces, shooting, spraying
from engine.rules.xxxzone.actions import TurnAp
from engine.rules.xxxzone.units import Battle, unit_of
from engine.rules.xxxzone.wounds import Wounds

WOUND_TIERS = ("minor", "severe", "mortal", "lethal")


@attrs.frozen(kw_only=True)
class ScUnit:
    template: str  # a roster.toml id
    side: Literal["xcom", "aliens", "civilians"] = "xcom"
    at: list[int]
    hunkered: bool = False
    armour_hp: int = -1  # -1: the armour's full HP
    wounds: dict[str, int] = attrs.field(factory=dict)  # minor, severe, mortal, lethal: wounds it already has
    dying: int = 0  # own turns left of a Dying countdown
    holding: str = ""  # the item in hand instead of the drawn weapon (a launcher, the Detonator)
    abilities: list[str] = attrs.field(factory=list)  # abilities.toml ids it has besides its template's
    chi_breath: bool = False  # Chi Breath Iron Body in effect (+20 DR, −20 to melee at it); needs the ability


@attrs.frozen(kw_only=True)
class ScCover:
    at: list[int]
    tile: str  # a terrain id, cover per terrain_cover.toml


@attrs.frozen(kw_only=True)
class ScAction:
    type: Literal["shoot", "throw", "medkit", "detonate"] = "shoot"
    actor: str
    target: str = ""  # shoot: required; throw: the entity aimed at, if any; medkit: the patient (the actor if "")
    item: str = ""  # throw: the grenade (items.toml)
    at: list[int] = attrs.field(factory=list)  # throw: the square aimed at; detonate: where the C4 was placed
    treatment: str = "minor"  # medkit: minor, severe, mortal, lethal, stabilise, cure
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
    out += [f"[units.{uid}].abilities: unknown ability {a!r} (abilities.toml)"
            for uid, u in sc.units.items() for a in u.abilities if a not in rs.book.abilities]
    out += [f"[units.{uid}].chi_breath: needs the chi_breath ability" for uid, u in sc.units.items()
            if u.chi_breath and u.template in rs.book.roster and "chi_breath" not in u.abilities
            and "chi_breath" not in _template_abilities(rs, u.template)]
    out += [f"[units.{uid}].at: expected two squares 0 to 60" for uid, u in sc.units.items()
            if len(u.at) != 2 or not all(0 <= v <= 60 for v in u.at)]
    out += [f"cover[{i}].tile: unknown terrain {c.tile!r}" for i, c in enumerate(sc.cover)
            if c.tile not in rs.content.terrain]
    out += [f"cover[{i}].at: expected two squares 0 to 60" for i, c in enumerate(sc.cover)
            if len(c.at) != 2 or not all(0 <= v <= 60 for v in c.at)]
    a = sc.action
    if a.actor not in sc.units:
        out.append(f"[action].actor: no unit {a.actor!r} in [units]")
    if (a.type == "shoot" or a.target) and a.target not in sc.units:
        out.append(f"[action].target: no unit {a.target!r} in [units]")
    if a.type in ("throw", "detonate") and (len(a.at) != 2 or not all(0 <= v <= 60 for v in a.at)):
        out.append(f"[action].at: a {a.type} needs the square, two numbers 0 to 60")
    if a.type == "throw" and a.item not in rs.book.items:
        out.append(f"[action].item: unknown item {a.item!r} (items.toml)")
    out += [f"[units.{uid}].wounds: unknown tier {t!r}" for uid, u in sc.units.items() for t in u.wounds
            if t not in ("minor", "severe", "mortal", "lethal")]
    out += [f"[units.{uid}].holding: unknown item {u.holding!r}" for uid, u in sc.units.items()
            if u.holding and u.holding not in rs.book.weapons and u.holding not in rs.book.items]
    return out


def units(rs, sc: Scenario) -> dict[str, Unit]:
    book, out = rs.book, {}
    for uid, u in sc.units.items():
        m = book.roster[u.template]
        op = forces.operative(book, u.template, uid, forces.looks(book, u.template)[0])
        if u.abilities:  # listed again: a second rank (Action Boy), as in characters.toml
            op = attrs.evolve(op, abilities=(*op.abilities, *u.abilities))
        c = battle.deploy(book, op, u.side, (u.at[0], u.at[1]))
        ap = battle.max_ap(book, c)
        c = attrs.evolve(c, turn=TurnAp(ap=ap, maximum=ap), hunkered=u.hunkered, chi_breath=u.chi_breath,
                         armour_hp=c.armour_hp if u.armour_hp < 0 else u.armour_hp,
                         condition=attrs.evolve(c.condition, wounds=Wounds(**u.wounds), dying=u.dying))
        if u.holding:
            c = attrs.evolve(c, hands=(battle.loaded(book, u.holding),))
        if uid == sc.action.actor and sc.action.aim:
            c = attrs.evolve(c, aim=battle.Aim(target=sc.action.target, stacks=sc.action.aim))
        out[uid] = unit_of(book, c, u.template, m.glyph, "Human" if m.character else book.enemies[m.enemy].name)
    return out


def stage(rs, units_: dict[str, Unit], action: ScAction, cover: list[ScCover] = ()) -> State:
    """The open field with the cover tiles, the units on it, who has spotted whom and a placed charge."""
    w = max(max(u.pos[0] for u in units_.values()), max((c.at[0] for c in cover), default=0),
            action.at[0] if action.at else 0) + 3
    h = max(max(u.pos[1] for u in units_.values()), max((c.at[1] for c in cover), default=0),
            action.at[1] if action.at else 0) + 3
    tiles = {(c.at[0], c.at[1]): c.tile for c in cover}
    grid = Grid.from_ids([[tiles.get((x, y), "grass") for x in range(w)] for y in range(h)], rs.content.terrain)
    actor = units_[action.actor]
    unaware = units_[action.target].side if action.unaware and action.target in units_ else None
    # every side has spotted everyone of the others, but an unaware target's side has not spotted the actor
    seen = tuple((side, tuple(sorted(u.id for u in units_.values()
                                     if u.side != side and not (side == unaware and u.id == actor.id))))
                 for side in sorted({u.side for u in units_.values()}))
    charges = (((action.at[0], action.at[1]), actor.id),) if action.type == "detonate" and action.at else ()
    return State(ruleset=rs.id, mission="resolve", grid=grid, units=dict(units_), phase=1, side=actor.side,
                 sides=missions.SIDES, record=Battle(seen=seen, charges=charges))


def paid(rs, state: State, action: ScAction):
    """The weapon and mode a shot fires and the turn after paying for it, or why it cannot be fired."""
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
    events = _events(rs, state, state.units[action.actor], action, dice)
    if isinstance(events, Rejected):
        return events
    after = fold(state, events).units
    changes = {uid: {k: v for k, v in attrs.asdict(after[uid], recurse=False).items()
                     if getattr(units_[uid], k) != v} for uid in units_}
    rolls = [r for e in events for r in e.rolls]
    told = [e for e in events if isinstance(e, Resolved)]
    outcome = told[0].outcome if action.type == "shoot" and len(told) == 1 else ""  # a single shot's worst roll
    return Verdict(rolls=rolls, before=dict(units_), changes={k: v for k, v in changes.items() if v},
                   summary=" ".join(e.text for e in told), outcome=outcome or "")


def _events(rs, state: State, actor: Unit, action: ScAction, dice: Dice) -> list | Rejected:
    """The game's own decision for the action: a shot (a spray with a cone mode), a throw, a med-kit, a blast."""
    if action.type == "throw":
        return rs._command(state, actor, Throw(unit=actor.id, item=action.item, cell=(action.at[0], action.at[1]),
                                               target=action.target or None), dice)
    if action.type == "medkit":
        return rs._command(state, actor, Act(unit=actor.id, action="medkit", target=action.target or actor.id,
                                             option=action.treatment), dice)
    if action.type == "detonate":
        return rs._command(state, actor, Act(unit=actor.id, action="detonate"), dice)
    ready = paid(rs, state, action)
    if isinstance(ready, Rejected):
        return ready
    which, turn = ready
    target = state.units[action.target]
    if rs.book.weapons[which[0]].modes[which[1]].cone:
        return spraying.spray(rs, state, actor, target, *which, dice, turn)
    got = shooting.attack(rs, state, actor, target, *which, dice, turn, reaction=action.reaction)
    return got if isinstance(got, Rejected) else got[0]


def report(rs, before: Unit, after: Unit) -> UnitReport:
    book, b, a = rs.book, before.record, after.record
    w, bw = a.condition.wounds, b.condition.wounds
    wounds = " · ".join(f"{t} {w.count(t)}" for t in book.tiers() if w.count(t)) or "no wounds"
    line = (f"{after.name}: {wounds}, armour HP {a.armour_hp}/{book.armour[a.op.armour].hp}"
            + (f", {after.status}" if after.status != "active" else ""))
    return UnitReport(line=line, numbers={"hp_lost": before.hp - after.hp,
                                          "armour_hp_lost": b.armour_hp - a.armour_hp,
                                          "minor": w.minor, "severe": w.severe, "mortal": w.mortal,
                                          "lethal": w.lethal, "status": after.status,
                                          # at least one new wound of the tier: `--trials` gives its probability
                                          **{f"took_{t}": int(w.count(t) > bw.count(t)) for t in WOUND_TIERS}})


def _template_abilities(rs, template: str) -> tuple[str, ...]:
    return forces.operative(rs.book, template, "check", forces.looks(rs.book, template)[0]).abilities
