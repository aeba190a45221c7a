"""`xenotac resolve` for neo-troops: one action described in a scenario file (a snap shot, spray fire, covering
fire, a grenade, a melee blow, a shot at a cell where nobody is seen, or a Search), staged on an open grass field with the cover tiles it names, the actor's slot
up, and put to `decide` as the game's own command, so its refusals are the game's, with the same code and reason.

    ruleset = "neo-troops"
    cover = [{ at = [4, 8], tile = "crate" }]
    [units.anna]   template = "anna"  side = "xcom"    at = [4, 2]
    [units.goon]   template = "goon"  side = "aliens"  at = [4, 9]  moved = true
    [action]       type = "shoot"  actor = "anna"  target = "goon"  mode = "spray"
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.content import missions
from engine.content.scenario import UnitReport, Verdict
from engine.core.commands import Act, Command, Rejected, Shoot, Throw
from engine.core.dice import Dice
from engine.core.events import Resolved
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.rules.neo_troops import battle, order
from engine.rules.neo_troops.unit import build

FIELD = 60  # the largest field a scenario may stage (cells a side)


@attrs.frozen(kw_only=True)
class ScUnit:
    template: str  # a characters.toml id
    side: Literal["xcom", "aliens", "civilians"] = "xcom"
    at: list[int]
    moved: bool = False  # its latest action was a move (N-8.2); for the actor: it has walked 2 m this action
    noticed: bool = True  # a cloaked varan: every enemy has noticed it (false: it stays unseen, N-4.3)
    attacked: bool = False  # its latest action was an attack (N-4.3: TN 3 to notice; N-4.4: its cell is known)
    held: str = ""  # the weapon in hand, if not its first
    accuracy: int | None = None  # a skill level other than its type's
    fighter: int | None = None
    severe_wounds: int = 0  # −1 die on every test each (N-9.3)


@attrs.frozen(kw_only=True)
class ScCover:
    at: list[int]
    tile: str  # a terrain id, cover per neo-troops' cover.toml


@attrs.frozen(kw_only=True)
class ScAction:
    type: Literal["shoot", "melee", "cover", "throw", "fire_at", "search"] = "shoot"
    actor: str
    target: str = ""  # for covering fire, a throw and fire_at: the unit whose cell is aimed at; none for a search
    item: str = "grenade"  # what a throw throws
    mode: Literal["snap", "spray"] = "snap"
    also: list[str] = attrs.field(factory=list)  # spray fire's or a melee's further targets, in declared order


@attrs.frozen(kw_only=True)
class Scenario:
    ruleset: str
    units: dict[str, ScUnit]
    action: ScAction
    cover: list[ScCover] = attrs.field(factory=list)


def _cell(at: list[int]) -> bool:
    return len(at) == 2 and all(0 <= v < FIELD for v in at)


def check(rs, sc: Scenario) -> list[str]:
    out = [f"[units.{uid}].template: unknown template {u.template!r} (characters.toml)"
           for uid, u in sc.units.items() if u.template not in rs.characters]
    out += [f"[units.{uid}].at: expected two cells 0 to {FIELD - 1}" for uid, u in sc.units.items() if not _cell(u.at)]
    out += [f"[units.{uid}].held: {u.template!r} carries no {u.held!r}" for uid, u in sc.units.items()
            if u.held and u.template in rs.characters and u.held not in rs.characters[u.template].weapons]
    out += [f"cover[{i}].tile: unknown terrain {c.tile!r}" for i, c in enumerate(sc.cover)
            if c.tile not in rs.content.terrain]
    out += [f"cover[{i}].at: expected two cells 0 to {FIELD - 1}" for i, c in enumerate(sc.cover) if not _cell(c.at)]
    for key in ("actor",) if sc.action.type == "search" else ("actor", "target"):
        if getattr(sc.action, key) not in sc.units:
            out.append(f"[action].{key}: no unit {getattr(sc.action, key)!r} in [units]")
    out += [f"[action].also[{i}]: no unit {uid!r} in [units]" for i, uid in enumerate(sc.action.also)
            if uid not in sc.units]
    if sc.action.also and (sc.action.type, sc.action.mode) != ("shoot", "spray") and sc.action.type != "melee":
        out.append("[action].also: further targets are spray fire's (type = \"shoot\", mode = \"spray\") or "
                   "a melee's (type = \"melee\")")
    return out


def units(rs, sc: Scenario) -> dict[str, Unit]:
    from engine.rules.neo_troops.play import frame

    out = {}
    for uid, u in sc.units.items():
        acting = uid == sc.action.actor
        skills = {k: v for k, v in (("accuracy", u.accuracy), ("fighter", u.fighter)) if v is not None}
        t = build(uid, u.side, u.template, rs.tables, severe_wounds=u.severe_wounds, moved=u.moved,
                  spent_m=2 if u.moved and acting else 0, **skills)
        if u.attacked:
            t = attrs.evolve(t, attacked=True)
        if u.held:
            t = attrs.evolve(t, held=(u.held,))
        name = rs.characters[u.template].name
        if sum(o.template == u.template for o in sc.units.values()) > 1:  # two goons told apart by their ids
            name = f"{name} ({uid})"
        f = frame(rs, uid, name, u.template, u.side, (u.at[0], u.at[1]), t)
        out[uid] = attrs.evolve(f, record=attrs.evolve(f.record, actions=int(acting)))
    return out


def stage(rs, units_: dict[str, Unit], action: ScAction, cover=(), hidden=frozenset()) -> State:
    """An open field just large enough, the actor's slot up and the rest after it; every cloaked unit the scenario
    does not hide noticed by each enemy, and a hidden one that attacked known to be in its cell (N-4.4)."""
    w = max(max(u.pos[0] for u in units_.values()), max((c.at[0] for c in cover), default=0)) + 3
    h = max(max(u.pos[1] for u in units_.values()), max((c.at[1] for c in cover), default=0)) + 3
    tiles = {(c.at[0], c.at[1]): c.tile for c in cover}
    grid = Grid.from_ids([[tiles.get((x, y), "grass") for x in range(w)] for y in range(h)], rs.content.terrain)
    slots = (action.actor, *(uid for uid in units_ if uid != action.actor and units_[uid].side in battle.SIDES))
    noticed = tuple(sorted((o, t) for o in units_ for t in units_ if units_[t].record.cloaked and t not in hidden
                           and units_[o].side != units_[t].side))
    known = tuple(sorted({(o.side, t.id, t.pos) for o in units_.values() for t in units_.values()
                          if t.id in hidden and t.record.attacked and o.side != t.side and o.side in battle.SIDES}))
    b = battle.Battle(order=order.Order(slots=slots, later=slots), noticed=noticed, known=known)
    return State(ruleset=rs.id, mission="resolve", grid=grid, units=dict(units_), phase=1,
                 side=units_[action.actor].side, sides=missions.SIDES, record=b)


def command(action: ScAction, state: State) -> Command:
    if action.type == "melee":
        if action.also:  # several targets, the attacks shared (N-15.3)
            return Act(unit=action.actor, action="melee", targets=(action.target, *action.also))
        return Act(unit=action.actor, action="melee", target=action.target)
    if action.type == "throw":
        return Throw(unit=action.actor, item=action.item, cell=state.units[action.target].pos)
    if action.type == "cover":
        return Act(unit=action.actor, action="cover", cell=state.units[action.target].pos)
    if action.type == "fire_at":  # the play's `d` key at a cell where the side sees nobody (N-3.3, N-4.4)
        return Act(unit=action.actor, action="fire_at", cell=state.units[action.target].pos, option=action.mode)
    if action.type == "search":
        return Act(unit=action.actor, action="search")
    if action.also:
        return Act(unit=action.actor, action="spray", targets=(action.target, *action.also))
    return Shoot(unit=action.actor, target=action.target, mode=action.mode)


def referee(rs, units_: dict[str, Unit], action: ScAction, dice: Dice, cover=(),
            hidden=frozenset()) -> Verdict | Rejected:
    state = stage(rs, units_, action, cover, hidden)
    events = rs.decide(state, command(action, state), dice)
    if isinstance(events, Rejected):
        return events
    after = fold(state, events).units
    changes = {uid: {k: v for k, v in attrs.asdict(after[uid], recurse=False).items() if getattr(u, k) != v}
               for uid, u in units_.items()}
    told = [e for e in events if isinstance(e, Resolved)]
    return Verdict(rolls=[r for e in events for r in getattr(e, "rolls", ())], before=dict(units_),
                   changes={k: v for k, v in changes.items() if v and k in after},
                   summary="; ".join(e.text for e in told))


def report(rs, before: Unit, after: Unit) -> UnitReport:
    b, a = before.record, after.record
    state = {"active": "", "incapacitated": ", incapacitated", "dead": ", dead"}[a.status]
    wounds = f", severe wound ×{a.severe_wounds}" if a.severe_wounds else ""
    hurt = _hurt(a)
    line = f"{after.name}: HP {max(0, a.hp)}/{a.hp_max}{wounds}{state}" + (f" ({', '.join(hurt)})" if hurt else "")
    return UnitReport(line=line, numbers={
        "hp_lost": max(0, b.hp) - max(0, a.hp), "armour_lost": a.armour_hits - b.armour_hits,
        "parts_lost": len(_hurt(a)) - len(_hurt(b)),
        "severe_wounds": a.severe_wounds, "status": after.status})


def _hurt(t) -> list[str]:
    """Its systems and parts a hit or a critical has damaged or destroyed."""
    systems = [("cloak", t.cloak), ("mapping", t.mapping)] + ([("head", t.head)] if t.varan else [])
    return [f"{name} {state}" for name, state in systems if state not in (None, "working")] + [
        f"{p.id} {p.state}" for p in t.parts if p.state != "working"]


def tally(action: ScAction, verdict: Verdict) -> dict[str, dict[str, int | str]]:
    """`--trials`' categories per enemy of the actor (after a Search: whether it was noticed): the hits that reached it (the saved ones and the unsaved, each
    of which costs 1 HP, N-17.1; none reach the dead), the criticals rolled (N-17.3) and its state after."""
    out: dict[str, dict[str, int | str]] = {}
    for uid, before in verdict.before.items():
        if uid == action.actor or before.side == verdict.before[action.actor].side:
            continue
        if action.type == "search":  # a Search hurts nobody: whether its perception test noticed each (N-4.3)
            tests = [r for r in verdict.rolls if r.purpose == f"perception of {uid}"]
            out[uid] = {"noticed": "yes" if any(r.formula.endswith("✓") for r in tests) else
                        "no" if tests else "no test"}
            continue
        b, a = before.record, verdict.after[uid].record
        saves = [r for r in verdict.rolls if r.actor == uid and r.purpose == "save"]
        unsaved = b.hp - a.hp
        crits = sum(r.actor == uid and r.purpose == f"critical ({b.crit_table})" for r in verdict.rolls)
        out[uid] = {"hits": unsaved + sum(r.formula.endswith("✓ saved") for r in saves), "unsaved": unsaved,
                    "criticals": crits, "state": a.status}
    return out
