"""The xcom-trpg ruleset (../shared/rules/xcom-trpg.md): the primary one and the default.

Turns run by side: in each phase the squad acts first (the Vanguard's side), each soldier taking
its 2 actions in any order the player likes, then the aliens. See docs/rules-notes.md.
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from engine.core.commands import (Act, Combo, Command, EndTurn, Face, Move, Rejected, Reload, Shoot, StartMission, Throw,
                             Wait)
from engine.content import field as shared_field
from engine.content.models import COVER_LEVEL, Content, Mode, Weapon
from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Moved, PhaseStarted, Resolved, SideStarted, TileChanged
from engine.map.grid import NEIGHBOURS, Pos, distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.xcom_trpg import ai_special, combat, field, hooks, odds, scale, sniper, throw_preview, tranquilizer
# The rule table (`hooks`) lists every rule module's actions, options, turn hooks and referees in order.
from engine.rules.xcom_trpg.checks import plain_roll
from engine.rules.xcom_trpg.damage import Ledger, apply_crits, apply_hits
from engine.rules.xcom_trpg.referee import referee
from engine.content.scenario import Verdict
from engine.rules.xcom_trpg import scenario as _scenario
from engine.rules.xcom_trpg.scenario import Action
from engine.log.story import turn_name
from engine.core.ruleset import Budget, Setup, Sheet, ShotPreview, ThrowPreview, Turn, register
from engine.rules.xcom_trpg import sheet as _sheet  # what the client reads: the unit sheet, odds lines, throwables

COVER_NAME = {v: k for k, v in COVER_LEVEL.items()}
FACING_CONE = math.cos(math.radians(45)) - 1e-9  # 5.1 interpretation: sees = facing ±45°


def facing_towards(a: Pos, b: Pos) -> int:
    """The NEIGHBOURS index closest to the direction from a to b."""
    return round(math.atan2(b[0] - a[0], -(b[1] - a[1])) / (math.pi / 4)) % 8


@attrs.frozen
class ShotContext:
    weapon: Weapon
    mode: Mode
    distance: int
    between: int
    target_sees: bool
    cover: int
    cover_from: str = ""  # the tile giving it, for explanations


@register("xcom-trpg")
class XcomTrpg:
    id = "xcom-trpg"
    audit_dice = (100,)  # every contest is stat×1d100; scatter and HP dice are not worth a table
    schema = None  # its tables are still the shared content/*.toml files (docs/architecture.md: the seam)
    scenario = _scenario.Scenario  # `resolve`'s scenario file (README: Scenarios for resolve)

    def __init__(self, content: Content, setup: Setup | None) -> None:
        self.content = content
        self.rules = content.rulesets[self.id]
        self.setup = setup
        self._last_sight: tuple[State, str, np.ndarray] | None = None
        self.staged: tuple | None = None  # resolve's last staged scene (arena.decide)

    # -- the kernel's entry point -------------------------------------------------------------

    def decide(self, state: State, command: Command, dice: Dice) -> Rejected | list[Event]:
        if isinstance(command, StartMission):
            return self._start(state, dice)
        if state.phase == 0:
            return Rejected("not_started", "The mission has not started yet")
        if state.winner is not None:
            return Rejected("mission_over", f"The mission is over: {state.ended}")
        for guard in hooks.GUARDS:
            why = guard(self, state, command)
            if why is not None:
                return why
        events = _HANDLERS[type(command)](self, state, command, dice)
        if isinstance(events, Rejected):
            return events
        return events + self._check_end(state, events, dice)

    # -- mission flow ----------------------------------------------------------------------------

    def _start(self, state: State, dice: Dice) -> Rejected | list[Event]:
        if state.phase != 0:
            return Rejected("already_started", "The mission is already under way")
        if self.setup is None:
            return Rejected("no_mission", "This ruleset was made without a mission to start")
        events = field.deploy(self, dice)
        events.append(PhaseStarted(phase=1))
        started = fold(state, events)
        return events + self._begin_side(started, state.sides[0], dice)

    def _begin_side(self, state: State, side: str, dice: Dice, ledger: Ledger | None = None) -> list[Event]:
        """Fresh actions; 1 after concussion (8.5); panic checks below 40 morale (6.5).

        `ledger` carries changes made earlier in the same decision, so nothing is folded twice.
        """
        ledger = ledger or Ledger(state.units)
        events: list[Event] = [SideStarted(side=side)]
        side_ids = [u.id for u in state.side_units(side)]
        for uid in side_ids:
            status, hp = ledger.get(uid, "status"), ledger.get(uid, "hp")
            if status == "unconscious" and 0 < hp and ledger.get(uid, "concussion") <= hp \
                    and not ledger.get(uid, "counters").get("tranq_asleep"):  # a dart's sleep ends by itself
                ledger.set(uid, "comes round", status="active")
            if ledger.get(uid, "status") != "active":
                continue
            actions = 1 if "concussed" in ledger.get(uid, "flags") else self.rules.actions_per_turn
            ledger.set(uid, "new turn", actions=actions, flags=())
            for hook in hooks.TURN_START:
                events += ledger.take() + hook(self, ledger, uid, dice)
        events += ledger.take()
        panicky = [uid for uid in side_ids if ledger.get(uid, "status") == "active"
                   and ledger.get(uid, "morale") < self.rules.panic_below]
        if panicky:
            current = attrs.evolve(state, units=ledger.units)
            for uid in panicky:
                panic = self._panic(current, current.units[uid], dice)
                events += panic
                current = fold(current, panic)
        return events

    def _panic(self, state: State, unit: Unit, dice: Dice) -> list[Event]:
        """6.5: 1d100 > morale panics; morale 0 always does. A panicking unit loses its turn."""
        rolls = []
        if unit.morale > 0:
            check = plain_roll(dice, unit.id, "panic check", 100, "panic")
            rolls.append(check)
            dice.note(check, f"morale {unit.morale} is below {self.rules.panic_below}: rulesets.toml "
                             "[xcom-trpg].panic_below (6.5); more than the morale panics")
            if check.total <= unit.morale:
                return [Resolved(actor=unit.id, action="panic", rolls=(check,), outcome="steady",
                                 text=f"{unit.name} keeps calm ({check.total} <= morale {unit.morale})")]
        what = plain_roll(dice, unit.id, "meaningless action", 100, "panic act")
        rolls.append(what)
        dice.note(what, "1-50: a step in the 1d8 direction, 51-100: nothing (docs/rules-notes.md)")
        events: list[Event] = []
        text = f"{unit.name} panics"
        if what.total <= 50:
            way = plain_roll(dice, unit.id, "panic direction", 8, "direction")
            rolls.append(way)
            dx, dy = NEIGHBOURS[way.total - 1]
            cell = (unit.pos[0] + dx, unit.pos[1] + dy)
            if self._enterable(state, unit, cell):
                events.append(Moved(unit=unit.id, path=(cell,), facing=way.total - 1))
                text += " and runs around screaming"
            else:
                text += " and freezes against an obstacle"
        else:
            text += " and stares into nothing"
        ledger = Ledger(state.units)
        ledger.set(unit.id, "panic", actions=0)
        return [Resolved(actor=unit.id, action="panic", rolls=tuple(rolls), outcome="panic", text=text),
                *events, *ledger.events]

    def _end_turn(self, state: State, cmd: EndTurn, dice: Dice) -> Rejected | list[Event]:
        if cmd.side != state.side:
            return Rejected("not_your_turn", f"It is the {state.side} turn, not the {cmd.side} turn")
        ledger = Ledger(state.units)
        for unit in state.side_units(state.side):
            if unit.actions:
                ledger.set(unit.id, "turn ended", actions=0)
        i = state.sides.index(state.side)
        if i + 1 < len(state.sides):
            return ledger.take() + self._begin_side(state, state.sides[i + 1], dice, ledger)
        for unit in state.units.values():
            gain = self.content.races[unit.race].morale_per_phase
            if gain and ledger.get(unit.id, "status") == "active":
                ledger.morale(unit.id, gain, f"{self.content.races[unit.race].name} vigour at phase end")
        events: list[Event] = ledger.take()
        for hook in hooks.PHASE_END:
            events += hook(self, ledger, dice) + ledger.take()
        limit = self.setup.max_phases if self.setup else 0
        if limit and state.phase >= limit:
            return events + [MissionEnded(winner="draw", reason=f"phase limit {limit} reached")]
        events.append(PhaseStarted(phase=state.phase + 1))
        return events + self._begin_side(state, state.sides[0], dice, ledger)

    def _check_end(self, state: State, events: list[Event], dice: Dice) -> list[Event]:
        """After every command: the rules that watch for it (hooks.AFTER), then smoke, the risen dead and
        the mission's objectives (field.after)."""
        extra: list[Event] = []
        for hook in hooks.AFTER:
            extra += hook(self, state, events + extra if extra else events, dice)
        return extra + field.after(self, state, events + extra if extra else events)

    def _act(self, state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
        """The ruleset's own actions, each in its module (hooks.ACTS)."""
        handler = hooks.ACTS.get(cmd.action)
        if handler is None:
            return Rejected("unknown_action", f"xcom-trpg has no {cmd.action!r} action; it has "
                                              f"{', '.join(sorted(hooks.ACTS))}")
        return handler(self, state, cmd, dice)

    def options(self, state: State, unit: Unit) -> list[hooks.Option]:
        """What the unit could do now beyond moving and shooting: the client's action menu, the AI's choices."""
        if not (unit.conscious and unit.side == state.side and state.winner is None):
            return []
        return [o for provider in hooks.OPTIONS for o in provider(self, state, unit)]

    # -- unit commands ---------------------------------------------------------------------------

    def _actor(self, state: State, uid: str, actions: int = 0) -> Unit | Rejected:
        unit = state.units.get(uid)
        if unit is None:
            return Rejected("unknown_unit", f"There is no unit {uid!r}")
        if unit.side != state.side:
            return Rejected("not_your_turn", f"{unit.name} cannot act during the {state.side} turn")
        if unit.status != "active":
            return Rejected(unit.status, f"{unit.name} is {unit.status}")
        if unit.actions < actions:
            left = "no actions" if unit.actions == 0 else f"{unit.actions} action"
            return Rejected("no_actions", f"{unit.name} has {left} left this turn")
        return unit

    def _enterable(self, state: State, unit: Unit, cell: Pos) -> bool:
        return self._step_problem(state, unit, cell, words=False) is None

    def _step_problem(self, state: State, unit: Unit, cell: Pos, words: bool = True) -> str | None:
        grid = state.grid
        if not grid.inside(cell):
            return f"{cell} is off the map"
        if not grid.walkable[cell[1], cell[0]]:
            return f"{self.content.terrain[grid.tile(cell)].name} at {cell} blocks the way"
        others = [u for u in state.units_at(cell) if u.id != unit.id]
        blocker = next((u for u in others if u.side != unit.side), None)
        if blocker is not None:  # a civilian in the way is not "a hostile"; an unseen one keeps its name
            if not words:
                return "blocked"
            if blocker.id in self.spotted(state, unit.side):
                return f"{blocker.name} stands at {cell}"
            return f"someone unseen is in the way at {cell}"
        cap = self.rules.cell_capacity
        if cap and len(others) >= cap:
            return f"{cell} is full"
        return None

    def _path_problem(self, state: State, unit: Unit, path: tuple[Pos, ...]) -> Rejected | None:
        if not path:
            return Rejected("empty_path", "A move needs at least one cell")
        here = unit.pos
        for cell in path:
            if distance(here, cell) != 1:
                return Rejected("not_adjacent", f"{cell} is not next to {here}")
            problem = self._step_problem(state, unit, cell)
            if problem:
                return Rejected("blocked", problem[0].upper() + problem[1:])
            here = cell
        return None

    def _move(self, state: State, cmd: Move, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, 1)
        if isinstance(unit, Rejected):
            return unit
        if unit.has("combo"):
            return Rejected("combo_done", f"{unit.name} made a combo move: the move cannot be split (4.3)")
        cost = scale.move_actions(self.rules, len(cmd.path))
        if cost > unit.actions:
            return Rejected("too_far", f"{unit.name} has {unit.actions} action(s): {len(cmd.path)} cells are "
                                       f"{cost} sectors of {self.rules.cells_per_sector} cells (1.3)")
        bad = self._path_problem(state, unit, cmd.path)
        if bad:
            return bad
        return self._walk(unit, cmd.path, actions=unit.actions - cost, cause="move")

    def _walk(self, unit: Unit, path: tuple[Pos, ...], *, actions: int, cause: str, **extra: object) -> list[Event]:
        before = path[-2] if len(path) > 1 else unit.pos
        ledger = Ledger({unit.id: unit})
        flags = tuple(sorted(set(unit.flags) | {"moved"} | ({"combo"} if cause == "combo" else set())))
        ledger.set(unit.id, cause, actions=actions, flags=flags, **extra)
        return [Moved(unit=unit.id, path=tuple(path), facing=facing_towards(before, path[-1])), *ledger.events]

    def _combo(self, state: State, cmd: Combo, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, self.rules.actions_per_turn)
        if isinstance(unit, Rejected):
            if unit.code == "no_actions":
                return Rejected("no_combo", "A combo replaces a whole turn: it needs every action unspent (4.3)")
            return unit
        if unit.has("moved"):
            return Rejected("no_combo", f"{unit.name} has already moved this turn")
        if not unit.infinite_stamina and unit.stamina < self.rules.combo_stamina:
            return Rejected("no_stamina", f"{unit.name} has no stamina for a combo")
        if len(cmd.path) > self.rules.combo_move * self.rules.cells_per_sector:
            return Rejected("too_far", f"A combo moves at most {self.rules.combo_move} sectors "
                                       f"({self.rules.combo_move * self.rules.cells_per_sector} cells)")
        bad = self._path_problem(state, unit, cmd.path)
        if bad:
            return bad
        stamina = unit.stamina if unit.infinite_stamina else unit.stamina - self.rules.combo_stamina
        # the ultracombo (3.5): with inspiration's 3 actions the same stamina leaves 2
        return self._walk(unit, cmd.path, actions=unit.actions - 1, cause="combo", stamina=stamina)

    def _face(self, state: State, cmd: Face, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit)
        if isinstance(unit, Rejected):
            return unit
        if not 0 <= cmd.facing < 8:
            return Rejected("bad_facing", "Facing is 0-7, clockwise from north")
        if cmd.facing == unit.facing:
            return Rejected("no_change", f"{unit.name} already faces that way")
        ledger = Ledger(state.units)
        ledger.set(unit.id, "turns", facing=cmd.facing)
        return list(ledger.events)

    def _wait(self, state: State, cmd: Wait, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, 1)
        if isinstance(unit, Rejected):
            return unit
        ledger = Ledger(state.units)
        ledger.set(unit.id, "waits", actions=0)
        return list(ledger.events)

    def _reload(self, state: State, cmd: Reload, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, 1)
        if isinstance(unit, Rejected):
            return unit
        weapon = self.content.weapons[unit.weapon]
        if unit.ammo >= weapon.ammo:
            return Rejected("full", f"{weapon.name} is already loaded ({unit.ammo}/{weapon.ammo})")
        if weapon.darts:  # 8.12.4: the quick reload, a dart of a random kind
            return tranquilizer.quick_reload(self, state, unit, dice)
        if unit.magazines <= 0:
            return Rejected("no_magazines", f"{unit.name} has no spare magazine for the {weapon.name.lower()}")
        ledger = Ledger(state.units)
        ledger.set(unit.id, "reload", ammo=weapon.ammo, magazines=unit.magazines - 1, actions=unit.actions - 1)
        return list(ledger.events)

    # -- shooting --------------------------------------------------------------------------------

    def target_sees(self, state: State, target: Unit, shooter: Unit) -> bool:
        """5.1: line of sight and the shooter within the target's facing ±45°."""
        if not target.conscious or not state.grid.sees(target.pos, shooter.pos, self.rules.vision_radius):
            return False
        if target.counters.get("psi_sleep"):  # 7.6: a psi sleeper cannot dodge
            return False
        vx, vy = shooter.pos[0] - target.pos[0], shooter.pos[1] - target.pos[1]
        if vx == vy == 0:
            return True
        fx, fy = NEIGHBOURS[target.facing]
        return (fx * vx + fy * vy) / (math.hypot(fx, fy) * math.hypot(vx, vy)) >= FACING_CONE

    def shot_context(self, state: State, shooter_id: str, target_id: str, mode_id: str,
                     check_turn: bool = True) -> ShotContext | Rejected:
        shooter = self._actor(state, shooter_id, 1) if check_turn else state.units.get(shooter_id)
        if isinstance(shooter, Rejected):
            return shooter
        if shooter is None:
            return Rejected("unknown_unit", f"There is no unit {shooter_id!r}")
        target = state.units.get(target_id)
        if target is None:
            return Rejected("unknown_unit", f"There is no unit {target_id!r}")
        if target.side == shooter.side:
            return Rejected("friendly_fire", f"{target.name} is on your side")
        if target.status == "dead":
            return Rejected("dead", f"{target.name} is already dead")
        weapon = self.content.weapons[shooter.weapon]
        if weapon.thrown:
            return Rejected("thrown", f"The {weapon.name.lower()} is thrown, not fired")
        mode = weapon.modes.get(mode_id)
        if mode is None:
            return Rejected("unknown_mode", f"The {weapon.name.lower()} has no {mode_id!r} mode; "
                                            f"it has {', '.join(weapon.modes)}")
        if weapon.alien and not self.content.races[shooter.race].alien:
            return Rejected("biometric_lock", f"The {weapon.name.lower()} refuses {shooter.name}'s hands (8.4)")
        if weapon.damage == 0 and not weapon.blast and not weapon.darts:
            return Rejected("not_supported", f"The {weapon.name.lower()} comes with the full ruleset")
        if shooter.ammo < mode.shots:
            return Rejected("no_ammo", f"The {weapon.name.lower()} has {shooter.ammo} rounds; "
                                       f"{mode.name.lower()} needs {mode.shots}: reload")
        short = shooter.side == state.side and 0 < shooter.actions < mode.actions  # a preview says so at once too
        if mode.actions > shooter.actions and check_turn or short:
            return Rejected("no_actions", f"{mode.name} needs {mode.actions} actions; "
                                          f"{shooter.name} has {shooter.actions} left")
        stamina = combat.mode_stamina(shooter, mode)
        if stamina and not shooter.infinite_stamina and shooter.stamina < stamina:
            return Rejected("no_stamina", f"{mode.name} needs {stamina} stamina; {shooter.name} has "
                                          f"{shooter.stamina}")
        grid = state.grid
        if not grid.sees(shooter.pos, target.pos, self.rules.vision_radius):
            return Rejected("no_line_of_sight", f"{shooter.name} cannot see {target.name}")
        d = distance(shooter.pos, target.pos)
        if weapon.max_between is not None and scale.between(self.rules, d) > weapon.max_between:
            return Rejected("out_of_range", f"Target is {d} cells away ({scale.between(self.rules, d)} sectors "
                                            f"between); the {weapon.name.lower()} reaches "
                                            f"{scale.reach_cells(self.rules, weapon.max_between)} cells")
        cover, cell = grid.cover_source(target.pos, shooter.pos) if d > 0 else (0, None)
        if cover == combat.FULL:
            return Rejected("full_cover", f"{target.name} is in full cover from here: no hit possible (8.8)")
        cover_from = ""
        if cell is not None:
            tile = grid.tile(cell)
            cover_from = f"{self.content.terrain[tile].name.lower()} at {cell[0]},{cell[1]}: terrain.toml [{tile}].cover"
        return ShotContext(weapon, mode, d, scale.between(self.rules, d), self.target_sees(state, target, shooter), cover,
                           cover_from)

    def preview_shot(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        ctx = self.shot_context(state, shooter, target, mode, check_turn=False)
        if isinstance(ctx, Rejected):
            return ctx
        s, t = state.units[shooter], state.units[target]
        p_hit, damage, p_head = odds.shot_odds(self.content, self.rules, s, t, ctx.weapon, ctx.mode,
                                               between=ctx.between, target_sees=ctx.target_sees, cover=ctx.cover)
        notes = []
        if ctx.weapon.blast:
            notes.append("explodes in the target's cell")
        reach = None if ctx.weapon.max_between is None else scale.reach_cells(self.rules, ctx.weapon.max_between)
        lines = _sheet.shot_lines(p_hit, damage, p_head, ctx.between >= 2 and ctx.target_sees,
                                  COVER_NAME[ctx.cover], ctx.distance, reach)
        return ShotPreview(p_hit=p_hit, expected_damage=damage, p_headshot=p_head, distance=ctx.distance,
                           reach=reach, lines=lines, notes=tuple(notes))

    def _shoot(self, state: State, cmd: Shoot, dice: Dice) -> Rejected | list[Event]:
        ctx = self.shot_context(state, cmd.unit, cmd.target, cmd.mode)
        if isinstance(ctx, Rejected):
            return ctx
        shooter, target = state.units[cmd.unit], state.units[cmd.target]
        if ctx.weapon.darts:
            return tranquilizer.fire(self, state, shooter, target, ctx, dice)
        if ctx.mode.sniper:
            return sniper.fire(self, state, shooter, target, ctx, "torso", dice)
        if ctx.weapon.blast:
            return self._explosive(state, shooter, shooter.weapon, target.pos, target, dice)
        outcome = combat.resolve_shot(self.content, self.rules, dice, shooter, target, ctx.weapon, ctx.mode,
                                      between=ctx.between, target_sees=ctx.target_sees, cover=ctx.cover,
                                      cover_from=ctx.cover_from)
        ledger = Ledger(state.units)
        stamina = shooter.stamina - (0 if shooter.infinite_stamina else ctx.mode.stamina)
        ledger.set(shooter.id, f"fires the {ctx.weapon.name.lower()}", ammo=shooter.ammo - ctx.mode.shots,
                   actions=0, stamina=stamina, facing=facing_towards(shooter.pos, target.pos))
        apply_crits(ledger, self.rules, outcome.crits)
        apply_hits(ledger, self.rules, shooter.id, outcome, pellets=ctx.weapon.pellets > 1)
        resolved = Resolved(actor=shooter.id, action="shoot", target=target.id, weapon=shooter.weapon,
                            mode=cmd.mode, rolls=tuple(outcome.rolls), outcome=outcome.verdict, text=outcome.summary)
        return [resolved, *ledger.events]

    # -- explosives ------------------------------------------------------------------------------

    def throw_range(self, state: State, unit: Unit, item: str) -> int:
        weapon = self.content.weapons[item]
        if weapon.throw_range is None:
            return 0
        stats = dict(unit.stats, strength=combat.effective_stat(unit, "strength"))
        return weapon.throw_range.evaluate(stats)[0]

    def _throw(self, state: State, cmd: Throw, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, 1)
        if isinstance(unit, Rejected):
            return unit
        problem = throw_preview.problem(self, state, unit, cmd.item, cmd.cell)
        if problem is not None:
            return problem
        target = None
        if cmd.target is not None:
            target = state.units.get(cmd.target)
            if target is None or target.pos != cmd.cell or target.status == "dead":
                return Rejected("no_target", f"{cmd.target!r} is not standing at {cmd.cell}")
        return self._explosive(state, unit, cmd.item, cmd.cell, target, dice)

    def _explosive(self, state: State, thrower: Unit, weapon_id: str, cell: Pos, declared: Unit | None,
                   dice: Dice) -> list[Event]:
        weapon = self.content.weapons[weapon_id]
        roll = combat.throw_roll(self.content, self.rules, dice, thrower, weapon, declared)
        rolls = list(roll.rolls)
        text = f"{thrower.name}: {weapon.name.lower()} at {cell}"
        landed_on: Pos | None = cell
        if not roll.landed:
            way = plain_roll(dice, thrower.id, "scatter", 8, "scatter")
            rolls.append(way)
            dice.note(way, "it went astray: 1-8 = N, NE, E, SE, S, SW, W, NW of the aimed cell (8.10)")
            dx, dy = NEIGHBOURS[way.total - 1]
            landed_on = (cell[0] + dx, cell[1] + dy)
            text += f" goes astray to {landed_on}" if state.grid.inside(landed_on) else " flies off the map"
            if not state.grid.inside(landed_on):
                landed_on = None
        hits, blast_rolls, crits = [], [], dict(roll.crits)
        tiles: list[Event] = []
        if landed_on is not None:
            head = declared if roll.attack.crit == "success" else None
            victims = [(u, scale.between(self.rules, distance(thrower.pos, u.pos)), self.target_sees(state, u, thrower))
                       for u in state.units_at(landed_on)]
            hits, blast_rolls, more = combat.blast(self.content, self.rules, dice, thrower, weapon,
                                                   roll if roll.landed else None, head, victims)
            for uid, kinds in more.items():
                crits.setdefault(uid, []).extend(kinds)
            tile = self.content.terrain[state.grid.tile(landed_on)]
            if tile.destructible and tile.destroyed:
                tiles.append(TileChanged(pos=landed_on, tile=tile.destroyed))
            names = {u.id: u.name for u in state.units.values()}
            text += ": " + (", ".join(_hit_text(names[h.target], h) for h in hits) if hits else "nobody hurt")
        outcome = combat.Outcome(rolls + blast_rolls, hits, "hit" if hits else "miss", text, crits)
        ledger = Ledger(state.units)
        if not weapon.thrown:
            ledger.set(thrower.id, f"fires the {weapon.name.lower()}", ammo=thrower.ammo - 1, actions=0,
                       facing=facing_towards(thrower.pos, cell))
        else:
            items = dict(thrower.items)
            items[weapon_id] -= 1
            ledger.set(thrower.id, f"throws a {weapon.name.lower()}", items={k: v for k, v in items.items() if v},
                       actions=0, facing=facing_towards(thrower.pos, cell))
        apply_crits(ledger, self.rules, outcome.crits)
        apply_hits(ledger, self.rules, thrower.id, outcome, pellets=False)
        resolved = Resolved(actor=thrower.id, action="throw" if weapon.thrown else "shoot",
                            target=declared.id if declared else None, cell=cell, weapon=weapon_id,
                            mode="single", rolls=tuple(outcome.rolls), outcome=outcome.verdict, text=text)
        return [resolved, *tiles, *ledger.events]

    # -- what the client and the AI ask ---------------------------------------------------------

    def turn(self, state: State) -> Turn:
        """Side turns (4.1): the side's player picks any of its units."""
        if state.winner is not None:
            return Turn(side="")
        return Turn(side=state.side, label=turn_name(state.side))

    def spotted(self, state: State, side: str) -> frozenset[str]:
        """Sight is by cell in xcom-trpg: a unit standing in a cell the side sees is seen."""
        return shared_field.in_cells(state, side, self.visible(state, side))

    def budget(self, state: State, unit: Unit) -> Budget:
        full = self.rules.actions_per_turn
        can = unit.conscious and unit.side == state.side and unit.actions > 0 and state.winner is None
        combo = 0
        if can and unit.actions >= full and not unit.has("moved") and (  # >=: inspiration's 3 (3.5)
                unit.infinite_stamina or unit.stamina >= self.rules.combo_stamina):
            combo = self.rules.combo_move * self.rules.cells_per_sector
        per_action = self.rules.cells_per_sector
        moves = 0 if unit.has("combo") or not can else unit.actions * per_action
        return Budget(label=f"actions {unit.actions}/{full}", can_act=can, moves_left=moves, combo_moves=combo,
                      step=per_action if moves else 0)

    def check_scenario(self, sc: _scenario.Scenario) -> list[str]:
        return _scenario.check(self.content, sc)

    def scenario_units(self, sc: _scenario.Scenario, setup: Dice):
        return _scenario.make_units(self.content, sc, setup)

    def unit_report(self, before: Unit, after: Unit):
        return _scenario.report(before, after)

    def referee(self, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict | Rejected:
        return referee(self, units, action, dice)

    def trial_plan(self, units: dict[str, Unit], action: Action):
        """`resolve --trials` on bare faces for a plain shot (trials.py), or None for the full referee."""
        from engine.rules.xcom_trpg import trials

        return trials.plan(self.content, self.id, units, action, self.referee)

    def ai_special(self, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Command | None:
        return ai_special.choose(self, state, unit, in_sight, has_shot)

    @property
    def sight_range(self) -> int:
        return self.rules.vision_radius

    def initiate(self, dice: Dice, who: str, stats: dict[str, int]):
        from engine.rules.xcom_trpg.psionics import initiation

        return initiation(dice, self.rules, who, stats)

    def visible(self, state: State, side: str) -> np.ndarray:
        last = self._last_sight
        if last is not None and last[0] is state and last[1] == side:  # the AI asks for cells, then for units
            return last[2]
        seen = shared_field.sight(state, side, self.rules.vision_radius)
        seen.flags.writeable = False  # shared by every caller of the same state
        self._last_sight = (state, side, seen)  # the state itself is kept, so `is` never matches a newer one
        return seen

    def sheet(self, state: State, unit: Unit) -> Sheet:
        return _sheet.sheet(unit)

    def throwables(self, state: State, unit: Unit) -> list[str]:
        return _sheet.throwables(self, state, unit)

    def preview_throw(self, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
        return throw_preview.preview(self, state, thrower, item, cell)

    def distance(self, a: Pos, b: Pos) -> int:
        return distance(a, b)  # 1.3: Chebyshev, 8 neighbours

    def blast(self, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
        return (cell,)  # 8.10: a grenade hits everyone in the cell it lands in


# The handler of each kernel command, looked up once per decision (a class-level table, not one built per call).
_HANDLERS = {Move: XcomTrpg._move, Combo: XcomTrpg._combo, Face: XcomTrpg._face, Shoot: XcomTrpg._shoot,
             Throw: XcomTrpg._throw, Reload: XcomTrpg._reload, Wait: XcomTrpg._wait, EndTurn: XcomTrpg._end_turn,
             Act: XcomTrpg._act}


def _hit_text(name: str, hit: combat.Hit) -> str:
    if hit.kind == "kill":
        return f"{name} killed by a head-strike"
    text = f"{name} {hit.damage} dmg"
    if hit.concussion:
        text += f" +{hit.concussion} concussion"
    if hit.kind not in ("hit",):
        text += f" ({hit.kind})"
    return text
