"""A side's AI. It decides only from what its side can see and remembers, never the true state.

One command per call: the driver submits it and asks again, so every AI step is an ordinary,
logged command. Deterministic: the same states in the same order give the same commands.
Each unit plays by its behaviour (behaviour.toml, chosen by its faction); the shared tactics
are in engine.tactics and the mission's goals in engine.missions.
"""

from __future__ import annotations

import attrs
import numpy as np

from engine.content import missions
from engine.ai import grenades, hunting, stealth, storeys
from engine.ai.ground import Ground, affordable
from engine.ai.orders import Orders
from engine.core.commands import Combo, Command, EndTurn, Move, Rejected, Shoot, Wait
from engine.content.models import Behaviour
from engine.map.grid import Pos
from engine.core.model import State, Unit
from engine.core.ruleset import Ruleset
from engine.log.view import look
from engine.ai.tactics import UNREACHABLE, Knowledge, misjudgement, opens_fire, position_score, shot_value

MIN_ODDS = 0.04  # below this a shot is a waste of the turn
TRIED_CELLS = 12  # cells a unit tries to shoot from after a step: each try previews every shot
HOLD_TURNS = 2  # an ambush lasts this many turns without a shot before the unit moves on
LATE = 2 / 3  # the share of the phase limit after which every unit presses on (Ai._pressed)
DEFAULT = Behaviour(name="Soldier", description="")


class Ai(Ground):
    def __init__(self, ruleset: Ruleset, side: str) -> None:
        self.ruleset = ruleset
        self.side = side
        self.content = ruleset.content
        setup = ruleset.setup
        self.mission = setup.mission if setup is not None else None
        self.zones = setup.spawns if setup is not None else {}
        self.orders = Orders(self.mission, self.zones, side, ruleset.aptitude, ruleset.options)
        level = missions.difficulty(self.content, self.mission) if self.mission and side != missions.PLAYER else None
        self.aggression = (level.aggression_percent if level else 100) / 100
        self.misjudge = level.misjudge_percent if level else 0
        self.memory: dict[str, Pos] = {}  # hostile id -> last position seen
        self.levels: dict[str, int] = {}  # hostile id -> the storey it was last seen on, when not the ground
        self._armed: set[str] = set()  # hostiles seen that fight back (not civilians)
        self._skip: set[str] = set()  # units that got a rejection this turn
        self._retry: Command | None = None  # a refused walk cut short, to give at once (never kept past it)
        self._friends: set[Pos] = set()  # where its side stands, as it last planned (a walk cut short stops off them)
        self._explore: dict[str, Pos] = {}  # unit id -> unseen cell it is walking to
        self._held: dict[str, int] = {}  # unit id -> turns spent waiting in ambush
        self._rested: set[str] = set()  # units that did what the ruleset does before ending their turn (ai_rest)
        self._turn: tuple[int, str] | None = None
        self._mark: str | None = None  # the commander's target this turn
        self._fields: dict = {}
        self._explored: np.ndarray | None = None  # cells the side has ever seen
        self._looked = np.zeros((0, 0), dtype=np.int32)  # phase each cell was last seen in
        self.leads: dict[str, tuple[Pos, int]] = {}  # hostile id -> (cell, phase) last seen or suspected at
        self.searched: np.ndarray | None = None  # phase each cell was last searched in; -1 never (engine.ai.hunting)

    # -- knowledge -------------------------------------------------------------------------

    def observe(self, state: State) -> tuple[np.ndarray, list[Unit]]:
        """Cells the side sees and the hostiles standing in them; updates the memory."""
        shape = (state.grid.height, state.grid.width)
        if self._explored is None or self._explored.shape != shape:
            self._explored = np.zeros(shape, dtype=bool)
            self._looked = np.zeros(shape, dtype=np.int32)
        # the side's sight by the one rule the fog of war and the logs follow (engine.log.view)
        before = dict(self.memory)
        seen, hostiles = look(self.ruleset, state, self.side, self._explored, self.memory,
                              lambda u: missions.hostile(self.side, u.side))
        self._looked[seen] = state.phase
        self._armed |= {h.id for h in hostiles if h.side != missions.CIVILIANS}
        self.levels = {uid: z for uid, z in self.levels.items() if uid in self.memory}
        self.levels.update({h.id: h.z for h in hostiles if h.z})
        for h in hostiles:
            if not h.z:
                self.levels.pop(h.id, None)
        hunting.note(self, state, before, seen, hostiles)
        return seen, hostiles

    def knowledge(self, state: State) -> Knowledge:
        seen, hostiles = self.observe(state)
        in_sight = {h.id for h in hostiles}
        threats = [(h.pos, h.z) for h in hostiles if h.conscious and h.id in self._armed]
        threats += [(p, self.levels.get(uid, 0)) for uid, p in sorted(self.memory.items())
                    if uid not in in_sight and uid in self._armed]
        cells = [p for p, _z in threats]
        threats += [(p, None) for p in self.ruleset.heard(state, self.side) if p not in cells]  # heard: hunt there
        zs = tuple(z for _p, z in threats)
        return Knowledge(seen, tuple(hostiles), tuple(p for p, _z in threats), self.ruleset.sight_range,
                         zs if state.grid.storeys else ())  # one storey: every threat on the unit's, as always

    def profile(self, unit: Unit) -> Behaviour:
        return self.content.behaviour.get(self.ruleset.behaviour(unit) or "default", DEFAULT)

    def _pressed(self, state: State, p: Behaviour) -> Behaviour:
        """Past LATE of the phase limit nobody hangs back or holds an ambush any more: two sides keeping their
        distance would wait out the limit, and a mission should end by its rules (a win or a loss), not by the
        clock."""
        setup = self.ruleset.setup
        if setup is None or not setup.max_phases or state.phase < LATE * setup.max_phases:
            return p
        return attrs.evolve(p, hold=False, distance=0)

    # -- deciding --------------------------------------------------------------------------

    def next_command(self, state: State) -> Command:
        if self._turn != (state.phase, state.side):
            self._turn, self._skip, self._mark, self._rested = (state.phase, state.side), set(), None, set()
            self._fields, self._retry = {}, None
        if self._retry is not None:
            retry, self._retry = self._retry, None
            return retry
        k = self.knowledge(state)
        self._seen, self._friends = k.seen, {u.pos for u in state.side_units(self.side) if u.status != "dead"}
        asked = self.ruleset.turn(state)
        if asked.choices:  # an interrupt's question: the ruleset's answer, else the decline, else the first
            unit = state.units[asked.units[0]] if asked.units else None
            said = self.ruleset.ai_special(state, unit, list(k.targets), False) if unit is not None else None
            return said or asked.declined or asked.choices[0].command
        turn = self.ruleset.turn(state)
        held = set((turn.units or ())[1:])  # an initiative's held actions, offered beside the slot up: taken first
        units = sorted(state.side_units(self.side), key=lambda u: (u.id not in held, self.profile(u).rear
                                                                   or self.profile(u).objective,
                                                                   not self.profile(u).melee))
        self._mark = self._commanders_mark(state, units, k)
        for unit in units:
            budget = self.ruleset.budget(state, unit)
            if not budget.can_act or unit.id in self._skip or not turn.allows(unit.id):
                continue
            command = self._plan(state, unit, k) if unit.id not in self._rested else None
            if command is None or isinstance(command, Wait):  # its turn ends: first what the ruleset does then
                rest = None if unit.id in self._rested else self.ruleset.ai_rest(state, unit, list(k.targets))
                if rest is not None:
                    self._rested.add(unit.id)
                    return rest
            if command is not None:
                return command
            self._skip.add(unit.id)
            return Wait(unit=unit.id)
        return EndTurn(side=self.side)

    def rejected(self, command: Command, why: Rejected) -> None:
        """The driver tells us a command failed: that unit sits the turn out. A walk that ran into someone
        unseen is tried again as far as the side can see along it, so the unit steps up and looks."""
        uid = getattr(command, "unit", None)
        if not uid:
            return
        if why.code == "blocked" and isinstance(command, (Move, Combo)):
            seen = [i for i, (x, y) in enumerate(command.path) if not self._seen[y, x]]
            shorter = command.path[:seen[0]] if seen else command.path[:-1]
            while shorter and shorter[-1] in self._friends:  # never cut short onto a friend (refused again)
                shorter = shorter[:-1]
            if shorter:
                self._retry = type(command)(unit=uid, path=shorter)
                return
        self._skip.add(uid)

    def _plan(self, state: State, unit: Unit, k: Knowledge) -> Command | None:
        rs = self.ruleset
        p = self._pressed(state, self.profile(unit))
        budget = rs.budget(state, unit)
        objective = self.orders.act(state, unit)
        if objective is not None:
            return objective
        chore = rs.ai_chore(state, unit, list(k.targets), "first")  # xcom-trpg: a reload before anything else
        if chore is not None:
            return chore
        shot = self._best_shot(state, unit, k, p)
        special = rs.ai_special(state, unit, list(k.targets), shot is not None)  # xcom-trpg: speeches, psionics
        if special is not None:
            return special
        hunt = None if shot else rs.ai_hunt(state, unit, hunting.clues(self, state, k.targets))
        if hunt is not None:  # neo-troops: fire at a cell, Search, close on where a cloaked varan was last seen
            hunting.hunted(self, state, hunt)
            return hunt.command
        every, (k, above) = k, storeys.own(k, unit)  # scores and goals on its storey; the others are climbed to
        if self._breaking(unit, p) and k.threats and budget.moves_left > 0:
            back = self._fall_back(state, unit, k, p, budget.moves_left)
            if back is not None:
                return back
        walk = max(0, budget.moves_left - budget.reserve)  # what its walks leave is kept for the enemy's turn
        if p.melee:
            return shot[0] if shot else (self._climb(state, unit, k, above, walk)
                                         or self._advance(state, unit, k, p, walk, budget.dash_moves))
        grenade = grenades.choose(self.ruleset, self.side, state, unit, every, p, shot) \
            or grenades.launch(self.ruleset, self.side, state, unit, every, p)
        if grenade is not None:
            return grenade
        if shot is not None:
            if budget.moves_left > budget.step:  # a move still leaves the shot
                step = self._reposition(state, unit, k, p, shot[0], budget.step)
                if step is not None:
                    return step
            self._held.pop(unit.id, None)
            return shot[0]
        chore = rs.ai_chore(state, unit, list(k.targets), "idle")  # xcom-trpg: break a grip, top up a magazine
        if chore is not None:
            return chore
        if budget.moves_left > budget.step and every.live_targets():  # a shot at another storey too (the height)
            step = self._step_and_shoot(state, unit, every, p, budget.step, budget.dash_moves)
            if step is not None:
                return step
        climb = self._climb(state, unit, k, above, walk)
        if climb is not None:
            return climb
        near = k.threats and min(state.grid.steps(unit.pos, t) for t in k.threats) <= k.vision // 2
        escort = any(u.conscious and u.id != unit.id for u in state.side_units(self.side))
        if p.objective and near and escort and self._covered(state, unit, k, p):
            return Wait(unit=unit.id)  # the VIP lets the escort deal with what is close (alone, it must go on)
        if p.hold and k.threats and self._held.get(unit.id, 0) < HOLD_TURNS and self._covered(state, unit, k, p):
            self._held[unit.id] = self._held.get(unit.id, 0) + 1
            return Wait(unit=unit.id)
        return self._advance(state, unit, k, p, walk, budget.dash_moves)

    # -- shooting and throwing ---------------------------------------------------------------

    def _best_shot(self, state: State, unit: Unit, k: Knowledge, p: Behaviour) -> tuple[Shoot, float] | None:
        """The best-valued shot; a senseless target only when no conscious one offers a shot, unless the
        profile finishes them off (`unconscious = "finish"`)."""
        best: dict[bool, tuple[Shoot, float]] = {}  # conscious target? -> best shot at one
        for target in k.targets:
            if not missions.hostile(self.side, target.side) or (target.side == missions.CIVILIANS and not p.melee
                                                                 and any(t.side != missions.CIVILIANS for t in k.targets)):
                continue  # shoot the armed first; the civilians can wait
            if not grenades.spares(self.side, state, k, self.ruleset.shot_blast(state, unit, target.pos)):
                continue  # a blast round would take in its own side
            for mode in (m.id for m in self.ruleset.shot_modes(state, unit) if m.usable):
                preview = self.ruleset.preview_shot(state, unit.id, target.id, mode)
                if isinstance(preview, Rejected):
                    continue
                judged = misjudgement(self.misjudge, unit.id, target.id, mode, state.phase)
                if preview.p_hit * judged < MIN_ODDS:
                    continue
                score = shot_value(preview, target, p, target.id == self._mark, judged)
                kind = target.conscious
                if kind not in best or score > best[kind][1]:
                    best[kind] = (Shoot(unit=unit.id, target=target.id, mode=mode), score)
        if p.unconscious == "finish" and len(best) == 2:
            return max(best[True], best[False], key=lambda shot: shot[1])
        return best.get(True) or best.get(False)

    def _commanders_mark(self, state: State, units: list[Unit], k: Knowledge) -> str | None:
        """A commander who sees hostiles marks the most wounded of them; its side fires on it."""
        if self._mark is not None or not any(self.profile(u).command and u.conscious for u in units):
            return self._mark
        live = [t for t in k.live_targets() if t.side != missions.CIVILIANS]
        if not live:
            return None
        return min(live, key=lambda t: (t.hp / max(1, t.hp_max), t.id)).id

    def _goals(self, state: State, unit: Unit, k: Knowledge, p: Behaviour, blocked: list[Pos]) -> list[Pos] | None:
        """Where the unit is heading: the mission's objective, the hostiles it knows of, or the
        unseen. None: nowhere (it waits). Ground to hold is fought over: a holder goes for the hostiles
        it knows inside it, an attacker who has reached it looks for the holders."""
        objective = self.orders.cells(state, unit, p)
        prey = [t.pos for t in k.live_targets() if p.melee or t.side != missions.CIVILIANS]
        holding = bool(self.orders.of("hold"))
        if objective:
            inside = [c for c in prey + list(k.threats) if c in objective] if holding and unit.pos in objective else []
            return inside or objective
        if prey or k.threats:
            return prey + list(k.threats)
        idle = self.orders.idle(contact=bool(self._armed))
        if idle == "wait":
            return self.orders.beat(state, unit)  # a guard walks its beat, if the map gives it one
        if idle and not (holding and unit.pos in self.zones.get(idle, ())):
            return list(self.zones.get(idle, ()))
        target = self._explore_target(state, unit, blocked)
        return [target] if target is not None else None

    def _advance(self, state: State, unit: Unit, k: Knowledge, p: Behaviour, moves: int, dash: int) -> Command | None:
        """The best cell within this turn's reach: towards the goal, in cover, flanking, as the
        behaviour weighs them."""
        if moves <= 0 and dash <= 0:
            return None
        blocked = self._blocked(state, k, unit)
        goals = self._goals(state, unit, k, p, blocked)
        if not goals:
            return None
        grid = self._grid(state, unit)
        field = self._field(grid, goals, blocked)
        here = int(field[unit.pos[1], unit.pos[0]])
        reach = max(moves, dash if p.melee or not k.targets else 0)
        budget = self.ruleset.budget(state, unit)
        sneak = budget.dash_prefer and self.orders.sneaking()
        if sneak or (budget.dash_prefer and dash > 0 and not k.targets):
            reach = dash  # unspotted it creeps (a stealth mission's squad always), never a quick, conspicuous step
        paths = self._reachable(state, unit, blocked, reach)
        friends = [u.pos for u in state.side_units(self.side) if u.conscious and u.id != unit.id]
        escort = self.orders.escorted(state, unit)
        lead = self.orders.lead(state, unit, field, bool(k.threats))
        watchers = stealth.watchers(k) if sneak else []

        def unseen(cell: Pos) -> float:  # a sneak stops out of the known hostiles' eyes, on the straight way on
            return stealth.score(self.ruleset, state, unit, cell, watchers, goals) if sneak else 0.0

        current = position_score(grid, unit.pos, p, k, 0, friends=friends, advance=self.aggression) + unseen(unit.pos)
        best: tuple[float, Pos] | None = None
        onward: tuple[float, Pos] | None = None  # the best cell that gets closer to the goal
        for x, y in sorted(paths):
            if field[y, x] >= UNREACHABLE or field[y, x] < lead:
                continue
            progress = here - int(field[y, x])
            score = position_score(grid, (x, y), p, k, progress, friends=friends, advance=self.aggression)
            score += unseen((x, y))
            if escort is not None and not k.threats and grid.steps((x, y), escort) > 4:
                score -= 2 * (grid.steps((x, y), escort) - 4)
            if best is None or score > best[0]:
                best = (score, (x, y))
            if progress > 0 and (onward is None or score > onward[0]):
                onward = (score, (x, y))
        if best is None or best[0] <= current + 0.5:
            # a sneak's way out is no ground to hold, and an ambush held HOLD_TURNS without a shot is over: press on
            hold = p.hold and not self.orders.sneaking() and self._held.get(unit.id, 0) < HOLD_TURNS
            best = None if hold or here == 0 else onward  # nothing better here: only press on
        if best is None:
            return None
        path = paths[best[1]]
        walk = self._walk(state, unit)
        step, cost = budget.step, walk.cost(unit.pos, path)
        if budget.dash_fits(unit.pos, path) and (budget.dash_prefer or cost > moves
                                                 or (p.melee and moves > step and cost > step)):
            return Combo(unit=unit.id, path=path)  # a rush keeps an action to strike with
        return Move(unit=unit.id, path=affordable(walk, unit.pos, path, moves))

    def _reposition(self, state: State, unit: Unit, k: Knowledge, p: Behaviour, shot: Shoot, step: int) -> Command | None:
        """It has a shot: a better cell one move action away that keeps it, the other action left to fire."""
        blocked = self._blocked(state, k, unit)
        grid = self._grid(state, unit)
        friends = [u.pos for u in state.side_units(self.side) if u.conscious and u.id != unit.id]
        here = position_score(grid, unit.pos, p, k, 0, friends=friends, advance=0)
        before = self.ruleset.preview_shot(state, unit.id, shot.target, shot.mode)
        if isinstance(before, Rejected):
            return None
        options = sorted(((position_score(grid, cell, p, k, 0, friends=friends, advance=0), path)
                          for cell, path in self._reachable(state, unit, blocked, step).items()),
                         key=lambda o: (-o[0], o[1]))
        for score, path in options[:4]:
            if score <= here + 1:
                break
            move = Move(unit=unit.id, path=path)
            moved = self.ruleset.walked(state, move)  # the walk paid: the shot must still be affordable there
            after = moved if isinstance(moved, Rejected) else self.ruleset.preview_shot(moved, unit.id, shot.target,
                                                                                          shot.mode)
            if not isinstance(after, Rejected) and after.p_hit >= min(before.p_hit, 0.9) * 0.8:
                return move
        return None

    def _step_and_shoot(self, state: State, unit: Unit, k: Knowledge, p: Behaviour, step: int,
                        dash: int) -> Command | None:
        """No shot from here: one move action (or a combo, stamina allowing) to a cell it can shoot from. Only the
        cells that score best as positions are tried, since each try previews every shot."""
        blocked = self._blocked(state, k, unit)
        grid = self._grid(state, unit)
        friends = [u.pos for u in state.side_units(self.side) if u.conscious and u.id != unit.id]
        moves = self._moves(state, unit, blocked, step, dash)
        live = [t for t in k.live_targets() if missions.hostile(self.side, t.side)]
        ranked = sorted(moves, key=lambda c: (not opens_fire(grid, c, live, k.vision),
                                              -position_score(grid, c, p, k, 0, friends=friends, advance=0),
                                              len(moves[c]), c))
        walk = self._walk(state, unit)
        best: tuple[float, Command] | None = None
        for cell in ranked[:TRIED_CELLS]:
            path = moves[cell]
            command = Move(unit=unit.id, path=path) if walk.cost(unit.pos, path) <= step else Combo(unit=unit.id,
                                                                                                     path=path)
            moved = self.ruleset.walked(state, command)  # what the walk leaves is what the shot may spend
            shot = None if isinstance(moved, Rejected) else self._best_shot(moved, moved.units[unit.id], k, p)
            if shot is None:
                continue
            score = shot[1] + 0.5 * position_score(grid, cell, p, k, 0, friends=friends, advance=0)
            if best is None or score > best[0]:  # a tie goes to the shorter walk, tried first
                best = (score, command)
        return best[1] if best is not None else None

    def _climb(self, state: State, unit: Unit, k: Knowledge, above: list, tu: int) -> Move | None:
        """Nothing known on its own storey, a hostile on another: the stairs, or the walk, towards it."""
        return storeys.climb(self, state, unit, above, tu) if above and not k.threats and not k.targets else None

    def _breaking(self, unit: Unit, p: Behaviour) -> bool:
        morale = p.retreat_morale / self.aggression if p.retreat_morale else 0
        wounded = p.retreat_wounded / self.aggression if p.retreat_wounded else 0
        shaken = self.ruleset.shaken(unit, morale)
        return shaken or 100 * unit.hp < wounded * unit.hp_max
