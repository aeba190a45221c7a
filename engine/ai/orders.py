"""What a mission asks of a side's AI: where to go when no hostile is known, who works on the power
source, how the VIP and its escorts move. Only the public briefing (objectives and zones) and the
side's own units are read."""

from __future__ import annotations

import numpy as np

from typing import Callable

from engine.content import missions
from engine.core.commands import Act, Command
from engine.content.models import Behaviour, Mission, Objective
from engine.map.grid import Pos
from engine.core.model import State, Unit


class Orders:
    def __init__(self, mission: Mission | None, zones: missions.Zones, side: str,
                 aptitude: Callable[[Unit, tuple[str, ...]], int] | None = None,
                 options: Callable[[State, Unit], list] | None = None) -> None:
        self.mission = mission
        self.aptitude = aptitude  # the ruleset's (Ruleset.aptitude): needed only to pick an engineer
        self.options = options  # the ruleset's menu (Ruleset.options): how its engineer works the machine
        self.zones = zones
        self.side = side
        self.squad = side == missions.PLAYER

    def of(self, kind: str) -> list[Objective]:
        if self.mission is None:
            return []
        return [o for o in missions.objectives(self.mission).values() if o.kind == kind]

    def idle(self, contact: bool = False) -> str | None:
        """With no hostile known: aliens guard a ship ("wait") until they have met the squad, then hunt it;
        they make for the ground the squad must hold, and for the extraction point until they have met the
        squad, then hunt it; escorts lead the way to the extraction point; None: go looking."""
        if self.mission is None:
            return None
        if self.squad:  # a stealth mission's squad keeps out of sight while its engineer works ("wait")
            return next((o.zone for o in self.of("extract")), "wait" if self.sneaking() else None)
        if self.of("shut_down"):
            return None if contact else "wait"
        if self.of("extract") and contact:
            return None  # the squad met and lost sight of: hunt it down rather than wait out the phase limit
        return next((o.zone for kind in ("hold", "extract") for o in self.of(kind)), None)

    def sneaking(self) -> bool:
        """The squad on a stealth mission (one it wins by leaving: an `escape` objective)."""
        return self.squad and bool(self.of("escape"))

    def beat(self, state: State, unit: Unit) -> list[Pos] | None:
        """Where a guard walks while it waits for the squad, on a map with a `beat` zone (the warehouse: one far end
        a guard, in the order of their posts): out to the far end in odd phases, back to its post in even ones."""
        ends = self.zones.get("beat", ())
        posts = self.zones.get(missions.deploy_zone(self.mission, self.side), ()) if self.mission else ()
        if self.squad or not ends or not posts:
            return None
        i = [u.id for u in state.side_units(self.side)].index(unit.id)  # placed in this order (field.placements)
        return [ends[i % len(ends)] if state.phase % 2 else posts[i % len(posts)]]

    def cells(self, state: State, unit: Unit, p: Behaviour) -> list[Pos] | None:
        """The squad's objective cells for this unit, before anything else: the VIP's extraction
        point, the power source for its engineer, the ground to hold."""
        if not self.squad:
            return None
        for o in self.of("extract"):
            if unit.template == o.unit or (p.objective and not self.of("shut_down")):
                return list(self.zones.get(o.zone, ()))
        for o in self.of("escape"):
            if self.ready(state, o):
                return list(self.zones.get(o.zone, ()))
        for o in self.of("shut_down"):
            if self.engineer(state, o) == unit.id:
                return [c for c in self.zones.get(o.zone, ()) if state.grid.tile(c) != o.done_tile] or None
        for o in self.of("hold"):
            return list(self.zones.get(o.zone, ()))
        return None

    def ready(self, state: State, escape: Objective) -> bool:
        """Time to leave: every objective the escape comes after is a machine shut down (what the squad can see of
        its own work; an objective of another kind keeps the squad on the map)."""
        own = missions.objectives(self.mission) if self.mission is not None else {}
        return all(own[a].kind == "shut_down" and all(state.grid.tile(c) == own[a].done_tile
                                                     for c in self.zones.get(own[a].zone, ()))
                   for a in escape.after if a in own)

    def engineer(self, state: State, objective: Objective) -> str | None:
        """The squad member who goes for the power source: the best at its formula."""
        able = [u for u in state.side_units(self.side) if u.conscious]
        if not able:
            return None
        assert self.aptitude is not None, "an engineer is picked by the ruleset's aptitude"
        stats = tuple(objective.stats)
        return max(able, key=lambda u: (self.aptitude(u, stats), self.aptitude(u, ("luck",)), u.id)).id

    def act(self, state: State, unit: Unit) -> Command | None:
        """The engineer next to the power source works on it, from the ground (the objectives lie there: a unit
        hovering above it would be refused every phase, missions.uses)."""
        if not self.squad or unit.z:
            return None
        for o in self.of("shut_down"):
            if self.engineer(state, o) != unit.id:
                continue
            for cell in self.zones.get(o.zone, ()):
                if state.grid.steps(unit.pos, cell) <= 1 and state.grid.tile(cell) != o.done_tile:
                    return self.work(state, unit, cell)
        return None

    def work(self, state: State, unit: Unit, cell: Pos) -> Act:
        """The `shut_down` interaction where the ruleset's menu offers it (or has no entry there), else the menu's
        own entry on the machine (xxxzone's Hack of the terminal, where Interact is refused)."""
        shut = Act(unit=unit.id, action="shut_down", cell=cell)
        ways = [o.command for o in self.options(state, unit) if o.command.cell == cell] if self.options else []
        return shut if not ways or any(w.action == "shut_down" for w in ways) else ways[0]

    def lead(self, state: State, unit: Unit, field: np.ndarray, threats: bool) -> int:
        """The least goal distance the VIP may move to: two steps behind the second escort nearest
        the extraction point (one scout is not enough), unless the way looks clear and the point is
        within reach. 0 for anyone else."""
        if not self.squad or not any(o.unit == unit.template for o in self.of("extract")):
            return 0
        escorts = sorted(int(field[u.pos[1], u.pos[0]]) for u in state.side_units(self.side)
                         if u.conscious and u.id != unit.id)
        here = int(field[unit.pos[1], unit.pos[0]])
        if not escorts or (not threats and here <= 2):
            return 0
        return escorts[min(1, len(escorts) - 1)] + 2

    def escorted(self, state: State, unit: Unit) -> Pos | None:
        """Where the VIP is, for its escorts to keep close."""
        if not self.squad:
            return None
        for o in self.of("extract"):
            if unit.template == o.unit:
                return None
            vip = next((u for u in state.side_units(self.side) if u.template == o.unit and u.conscious), None)
            return vip.pos if vip else None
        return None
