"""Mission rules every ruleset shares: who deploys where, who is hostile to whom, and the
objectives — what completes them, what fails them, and when the mission is over.

Objectives are read from the state alone (units, tiles, the phase), so the verdict is the same
live, on resume and under `replay --verify`.
"""

from __future__ import annotations

from typing import Callable, Literal, Mapping

import attrs

from engine.content.models import Content, Difficulty, Forces, Mission, Objective
from engine.content.strict import did_you_mean
from engine.map.grid import Pos
from engine.core.model import State, Unit

PLAYER, ALIENS, CIVILIANS = "xcom", "aliens", "civilians"
SIDES = (PLAYER, ALIENS)  # the sides of a shared mission that take turns, in order (civilians take none)
FRIENDS = {CIVILIANS: PLAYER}  # civilians take no turns; the squad protects them, the aliens hunt them
GOALS = ("eliminate", "shut_down", "extract", "hold", "escape")  # "protect" is a condition, never a goal
ELIMINATE = Objective(kind="eliminate", text="Kill or stun every hostile")

Zones = Mapping[str, tuple[Pos, ...]]


def hostile(side: str, other: str) -> bool:
    return side != other and FRIENDS.get(side) != other and FRIENDS.get(other) != side


@attrs.frozen
class Member:
    """One unit a mission deploys."""

    side: str
    template: str
    uid: str
    name: str
    glyph: str = "?"
    note: str = ""  # what the briefing adds after the name: the weapon it carries


def own_forces(mission: Mission) -> Forces:
    """A mission's own squad and enemies: the forces of the ruleset it names."""
    return Forces(squad=list(mission.squad), enemies=dict(mission.enemies), civilians=mission.civilians,
                  civilian=mission.civilian)


def members(forces: Forces, looks: Callable[[str], tuple[str, str, str]]) -> list[Member]:
    """The squad, then the aliens kind by kind (sectoid_1, sectoid_2, ...), then the civilians; `looks` gives a
    template's name, glyph and note from the ruleset's own unit table."""
    out = [Member(PLAYER, t, t, *looks(t)) for t in forces.squad]
    for side, kinds in ((ALIENS, forces.enemies), (CIVILIANS, {forces.civilian: forces.civilians})):
        for template, count in kinds.items():
            name, glyph, note = looks(template) if count else ("", "", "")
            out += [Member(side, template, f"{template}_{n}", f"{name} {n}", glyph, note)
                    for n in range(1, count + 1)]
    return out


def base_id(mission_id: str) -> str:
    """`eliminate@hard` is the eliminate mission at another level: its forces are eliminate's."""
    return mission_id.split("@", 1)[0]


def check_forces(file: str, forces: dict[str, Forces], shared: Mapping[str, Mission],
                 units: Mapping[str, object]) -> list[str]:
    """A ruleset's forces.toml against the shared missions and its own unit table, as located messages."""
    out = []
    for mid, f in forces.items():
        if mid not in shared:  # a mission the bundle lacks (a mod deleted it) is skipped; a near miss is a typo
            hint = did_you_mean(mid, shared)
            out += [f"{file}: [{mid}]: no such mission in missions/{hint}"] if hint else []
            continue
        named = [("squad", i, t) for i, t in enumerate(f.squad)] + [("enemies", None, t) for t in f.enemies]
        named += [("civilian", None, f.civilian)] if f.civilians else []
        out += [f"{file}: [{mid}].{key}{'' if i is None else f'[{i}]'}: unknown unit {t!r}"
                for key, i, t in named if t not in units]
        out += [f"{file}: [{mid}].squad: the objective {oid!r} needs {o.unit!r} in the squad"
                for oid, o in shared[mid].objectives.items() if o.unit and o.unit not in f.squad]
    return out


def deploy_zone(mission: Mission, side: str) -> str:
    return mission.spawn.get(side, side)


def difficulty(content: Content, mission: Mission) -> Difficulty | None:
    level = mission.difficulty or content.default_difficulty()
    return content.difficulty.get(level) if level else None


def objectives(mission: Mission) -> dict[str, Objective]:
    return dict(mission.objectives) or {"clear": ELIMINATE}


def lost_if(o: Objective, names: Mapping[str, str]) -> str:
    """How the objective loses the mission, in words ("" when it cannot): the briefing and the panel say it.
    `names`: the deploying units' names by template."""
    if o.kind == "hold":
        return "lost if outnumbered in it"
    if o.kind == "extract":
        return f"lost if {names[o.unit]} dies" if o.unit in names else ""
    if o.kind == "protect":
        return f"lost if fewer than {o.at_least} live"
    return ""


State_ = Literal["open", "done", "failed"]


@attrs.frozen
class Status:
    """An objective as the briefing shows it: its line, how far along it is, and whether it is met."""

    id: str
    objective: Objective
    state: State_
    detail: str
    reason: str = ""  # the mission's end, in words, when this objective decides it


def statuses(content: Content, mission: Mission, zones: Zones, state: State,
             seen: frozenset[str] | None = None) -> list[Status]:
    """Each objective's status; with `seen` (the ids a player sees) its counts tell only of those units, for the
    panel, while the verdict (seen None) counts everyone."""
    own = objectives(mission)
    found = {oid: _status(content, oid, o, zones, state, seen) for oid, o in own.items() if o.kind != "escape"}
    for oid, o in own.items():
        if o.kind == "escape":
            found[oid] = _escape(oid, o, set(zones.get(o.zone, ())), state, found)
    return [found[oid] for oid in own]


def _escape(oid: str, o: Objective, cells: set[Pos], state: State, others: Mapping[str, Status]) -> Status:
    """Every conscious squad member in the zone, once the objectives it comes `after` are met."""
    squad = [u for u in state.units.values() if u.side == PLAYER and u.conscious]
    out = sum(u.pos in cells for u in squad)
    waiting = [a for a in o.after if a not in others or others[a].state != "done"]
    if waiting:
        return Status(oid, o, "open", f"after {', '.join(waiting)}")
    if squad and out == len(squad):
        return Status(oid, o, "done", "out", "the squad got out")
    return Status(oid, o, "open", f"{out}/{len(squad)} out")


def _status(content: Content, oid: str, o: Objective, zones: Zones, state: State,
            seen: frozenset[str] | None = None) -> Status:
    cells = set(zones.get(o.zone, ()))
    if o.kind == "eliminate":
        foes = [u for u in state.units.values() if hostile(PLAYER, u.side)]
        down = sum(not u.conscious for u in foes)
        done = bool(foes) and down == len(foes)
        return Status(oid, o, "done" if done else "open", f"{down}/{len(foes)} down", "all hostiles eliminated")
    if o.kind == "shut_down":
        done = bool(cells) and all(state.grid.tile(c) == o.done_tile for c in cells)
        return Status(oid, o, "done" if done else "open", "done" if done else "running",
                      f"objective met: {o.text[0].lower()}{o.text[1:].split(' (')[0]}")
    if o.kind == "extract":
        vips = [u for u in state.units.values() if u.template == o.unit and u.side == PLAYER]
        if vips and all(u.status == "dead" for u in vips):
            return Status(oid, o, "failed", "dead", f"{vips[0].name} is dead")
        out = [u for u in vips if u.conscious and u.pos in cells]
        if out:
            return Status(oid, o, "done", "out", f"{out[0].name} reached the extraction point")
        steps = min((state.grid.steps(u.pos, c) for u in vips if u.status != "dead" for c in cells), default=0)
        return Status(oid, o, "open", f"{steps} cells to go")
    if o.kind == "hold":
        inside = [u for u in state.units.values() if u.conscious and u.pos in cells]
        foes = sum(hostile(PLAYER, u.side) for u in inside)
        if foes > sum(u.side == PLAYER for u in inside):  # outnumbered in it: lost
            return Status(oid, o, "failed", f"{foes} hostiles inside", "the zone is overrun")
        if state.phase > o.until_phase:
            return Status(oid, o, "done", "held", f"held to the end of phase {o.until_phase}")
        if seen is not None:  # the panel counts only the hostiles the squad sees in the zone
            foes = sum(hostile(PLAYER, u.side) and u.id in seen for u in inside)
        return Status(oid, o, "open", f"phase {state.phase}/{o.until_phase}" + (f", {foes} hostiles in" if foes else ""))
    # protect
    mine = [u for u in state.units.values() if u.side == o.side]
    alive = sum(u.status != "dead" for u in mine)
    if alive < o.at_least:
        return Status(oid, o, "failed", f"{alive} alive", f"only {alive} {o.side} left alive, {o.at_least} needed")
    return Status(oid, o, "open", f"{alive} alive, {o.at_least} needed")


_CLEAR: tuple = (None, None, None, None)  # the last state `ending` found no verdict on, with its content, mission
# and zones: a command whose events touch nothing the verdict reads leaves the next state without one too.
_READ = frozenset({"status", "side", "template"})  # the unit fields every verdict reads (and "pos", when watched)


def ending(content: Content, setup, state: State, events: list) -> list:
    """After a command's `events`: the `MissionEnded` the objectives call for, unless the events ended it already.
    Runs after every command: when the state before had no verdict and the events cannot change one, it is
    skipped (the same answer, without a look at every unit and objective)."""
    from engine.core.events import MissionEnded
    from engine.core.reducer import fold

    global _CLEAR
    if any(isinstance(e, MissionEnded) for e in events):
        return []
    now = fold(state, events)  # the caller folds the same events next: reducer.fold keeps this one
    key = (content, setup.mission, setup.spawns)
    clear = _CLEAR  # one read: another game's thread may replace it meanwhile
    if clear[0] is state and all(a is b for a, b in zip(clear[1:], key)) and not touches(setup.mission, events):
        _CLEAR = (now, *key)
        return []
    found = verdict(content, setup.mission, setup.spawns, now)
    if found is None:
        _CLEAR = (now, *key)
    return [MissionEnded(winner=found[0], reason=found[1])] if found else []


def touches(mission: Mission, events: list) -> bool:
    """Whether the events may change the mission's verdict: a unit spawned, or a unit's status, side or template
    changed; a move, a new phase or a tile when the objectives watch it (`watches`)."""
    from engine.core.events import Moved, PhaseStarted, TileChanged, UnitChanged, UnitSpawned

    watched: set[str] | None = None
    for e in events:
        if isinstance(e, UnitSpawned):
            return True
        if isinstance(e, UnitChanged):
            if not _READ.isdisjoint(e.changes):
                return True
            kind = "move" if "pos" in e.changes else ""
        else:
            kind = ("move" if isinstance(e, Moved) else "phase" if isinstance(e, PhaseStarted)
                    else "tile" if isinstance(e, TileChanged) else "")
        if kind:
            watched = watches(mission) if watched is None else watched
            if kind in watched:
                return True
    return False


def verdict(content: Content, mission: Mission, zones: Zones, state: State) -> tuple[str, str] | None:
    """(winner, reason) when the mission is over, else None.

    A side with nobody conscious loses, as in every mission; then a failed objective loses it for
    the squad, and met goals (any or all of them, as the mission says) win it."""
    standing = {side: any(u.conscious for u in state.side_units(side)) for side in state.sides}
    if not any(standing.values()):
        return "draw", "nobody is left standing"
    foe = next((s for s in state.sides if s != PLAYER), PLAYER)
    if not all(standing.values()):
        winner = next(s for s, up in standing.items() if up)
        return winner, "all hostiles eliminated" if winner == PLAYER else "the squad is down"
    found = statuses(content, mission, zones, state)
    failed = next((s for s in found if s.state == "failed"), None)
    if failed is not None:
        return foe, failed.reason
    goals = [s for s in found if s.objective.kind in GOALS]
    done = [s for s in goals if s.state == "done"]
    if done and (mission.win == "any" or len(done) == len(goals)):
        return PLAYER, done[-1 if mission.win == "all" else 0].reason  # all: the last goal met says it
    return None


def watches(mission: Mission) -> set[str]:
    """What can change an objective besides units going down: "move", "phase", "tile"."""
    kinds = {o.kind for o in objectives(mission).values()}
    out = set()
    if kinds & {"extract", "hold", "escape"}:
        out.add("move")
    if "hold" in kinds:
        out.add("phase")
    if "shut_down" in kinds:
        out.add("tile")
    return out


def uses(content: Content, mission: Mission, zones: Zones, state: State, unit: Unit) -> list[tuple[str, Pos]]:
    """What the unit could `Act` on from where it stands, the objective first: ("shut_down" | "open" |
    "close", cell) for its own cell and those round it (eight squares, six hexes), on the unit's own storey (the
    objectives lie on the ground)."""
    found = []
    targets = {c: o for o in objectives(mission).values() if o.kind == "shut_down" for c in zones.get(o.zone, ())}
    grid = state.grid.level(unit.z)
    for cell in (unit.pos, *grid.neighbours(unit.pos)):  # sorted below: the order they are found in is not kept
        if not grid.inside(cell):
            continue
        tile_id = grid.tile(cell)
        tile = grid.terrain[tile_id]  # a storey's own tiles (ladder, roof, air) are the grid's
        if cell in targets and tile_id != targets[cell].done_tile and unit.side == PLAYER and not unit.z:
            found.append((0, "shut_down", cell))
        if tile.opens_to:
            found.append((1, "open", cell))
        if tile.closes_to and not state.units_at(cell, unit.z):
            found.append((1, "close", cell))
    return [(action, cell) for _rank, action, cell in sorted(found)]


def squad_places(content: Content, ruleset_id: str, mission_id: str) -> list[str]:
    """The squad places of a ruleset's forces.toml on a mission that roster characters may take: all but the
    ones an objective names (the VIP)."""
    forces = content.rules.get(ruleset_id, {}).get("forces", {}).get(base_id(mission_id))
    if forces is None or mission_id not in content.missions:
        return []
    kept = {o.unit for o in content.missions[mission_id].objectives.values() if o.unit}
    return [t for t in forces.squad if t not in kept]


def with_forces(content: Content, ruleset_id: str, mission_id: str, placed: Mapping[str, str],
                tables: Mapping[str, Mapping[str, object]], alone: bool = False) -> Content:
    """The content of one mission whose forces.toml squad has new templates in some places (`placed`: the place's
    template -> the new one) and the ruleset's tables with `tables` added (kind -> id -> row). `alone`: the other
    squad places roster characters could take are left out (Creation.deploy)."""
    empty = set(squad_places(content, ruleset_id, mission_id)) - set(placed) if alone else set()
    own = dict(content.rules[ruleset_id])
    for kind, rows in tables.items():
        own[kind] = {**own.get(kind, {}), **rows}
    base = base_id(mission_id)
    forces = own["forces"][base]
    own["forces"] = {**own["forces"], base: attrs.evolve(forces, squad=[placed.get(t, t) for t in forces.squad
                                                                           if t not in empty])}
    return attrs.evolve(content, rules={**content.rules, ruleset_id: own})
