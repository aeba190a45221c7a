"""xcom-trpg shooting (5.1, 8.1-8.9): whether the target sees the shooter, every check a shot must pass (the
ShotContext the odds, the referee and the shot share), the exact preview, and the shot itself."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs

from engine.content.models import COVER_LEVEL
from engine.rules.xcom_trpg.models import Mode, Weapon
from engine.core.commands import Rejected, Shoot
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.ruleset import ShotPreview
from engine.map.grid import NEIGHBOURS, Pos, distance
from engine.rules.xcom_trpg import combat, odds, scale, sniper, tranquilizer
from engine.rules.xcom_trpg import sheet as _sheet
from engine.rules.xcom_trpg.damage import Ledger, apply_crits, apply_hits
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg


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


def target_sees(rs: XcomTrpg, state: State, target: Unit, shooter: Unit) -> bool:
    """5.1: line of sight and the shooter within the target's facing ±45°."""
    if not target.conscious or not state.grid.sees(target.pos, shooter.pos, rs.rules.vision_radius):
        return False
    if soldier(target).psi_sleep:  # 7.6: a psi sleeper cannot dodge
        return False
    vx, vy = shooter.pos[0] - target.pos[0], shooter.pos[1] - target.pos[1]
    if vx == vy == 0:
        return True
    fx, fy = NEIGHBOURS[target.facing]
    return (fx * vx + fy * vy) / (math.hypot(fx, fy) * math.hypot(vx, vy)) >= FACING_CONE


def shot_context(rs: XcomTrpg, state: State, shooter_id: str, target_id: str, mode_id: str,
                 check_turn: bool = True) -> ShotContext | Rejected:
    shooter = rs._actor(state, shooter_id, 1) if check_turn else state.units.get(shooter_id)
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
    weapon = xcom(rs.content).weapons[soldier(shooter).weapon]
    if weapon.thrown:
        return Rejected("thrown", f"The {weapon.name.lower()} is thrown, not fired")
    mode = weapon.modes.get(mode_id)
    if mode is None:
        return Rejected("unknown_mode", f"The {weapon.name.lower()} has no {mode_id!r} mode; "
                                        f"it has {', '.join(weapon.modes)}")
    if weapon.alien and not xcom(rs.content).races[shooter.race].alien:
        return Rejected("biometric_lock", f"The {weapon.name.lower()} refuses {shooter.name}'s hands (8.4)")
    if weapon.damage == 0 and not weapon.blast and not weapon.darts:
        return Rejected("not_supported", f"The {weapon.name.lower()} comes with the full ruleset")
    if soldier(shooter).ammo < mode.shots:
        return Rejected("no_ammo", f"The {weapon.name.lower()} has {soldier(shooter).ammo} rounds; "
                                   f"{mode.name.lower()} needs {mode.shots}: reload")
    short = shooter.side == state.side and 0 < soldier(shooter).actions < mode.actions  # a preview says so at once too
    if mode.actions > soldier(shooter).actions and check_turn or short:
        return Rejected("no_actions", f"{mode.name} needs {mode.actions} actions; "
                                      f"{shooter.name} has {soldier(shooter).actions} left")
    stamina = combat.mode_stamina(shooter, mode)
    if stamina and not soldier(shooter).infinite_stamina and soldier(shooter).stamina < stamina:
        return Rejected("no_stamina", f"{mode.name} needs {stamina} stamina; {shooter.name} has "
                                      f"{soldier(shooter).stamina}")
    grid = state.grid
    if not grid.sees(shooter.pos, target.pos, rs.rules.vision_radius):
        return Rejected("no_line_of_sight", f"{shooter.name} cannot see {target.name}")
    d = distance(shooter.pos, target.pos)
    if weapon.max_between is not None and scale.between(rs.rules, d) > weapon.max_between:
        return Rejected("out_of_range", f"Target is {d} cells away ({scale.between(rs.rules, d)} sectors "
                                        f"between); the {weapon.name.lower()} reaches "
                                        f"{scale.reach_cells(rs.rules, weapon.max_between)} cells")
    cover, cell = grid.cover_source(target.pos, shooter.pos) if d > 0 else (0, None)
    if cover == combat.FULL:
        return Rejected("full_cover", f"{target.name} is in full cover from here: no hit possible (8.8)")
    cover_from = ""
    if cell is not None:
        tile = grid.tile(cell)
        cover_from = f"{rs.content.terrain[tile].name.lower()} at {cell[0]},{cell[1]}: terrain.toml [{tile}].cover"
    return ShotContext(weapon, mode, d, scale.between(rs.rules, d), rs.target_sees(state, target, shooter), cover,
                       cover_from)


def preview_shot(rs: XcomTrpg, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
    ctx = rs.shot_context(state, shooter, target, mode, check_turn=False)
    if isinstance(ctx, Rejected):
        return ctx
    s, t = state.units[shooter], state.units[target]
    p_hit, damage, p_head = odds.shot_odds(rs.content, rs.rules, s, t, ctx.weapon, ctx.mode,
                                           between=ctx.between, target_sees=ctx.target_sees, cover=ctx.cover)
    notes = []
    if ctx.weapon.blast:
        notes.append("explodes in the target's cell")
    reach = None if ctx.weapon.max_between is None else scale.reach_cells(rs.rules, ctx.weapon.max_between)
    per_hit = combat.armour_damage(rs.content, ctx.weapon, t) * ctx.weapon.pellets
    lines = _sheet.shot_lines(p_hit, damage, p_head, ctx.between >= 2 and ctx.target_sees,
                              COVER_NAME[ctx.cover], ctx.distance, reach, per_hit, dart=bool(ctx.weapon.darts))
    return ShotPreview(p_hit=p_hit, expected_damage=damage, p_headshot=p_head, distance=ctx.distance,
                       reach=reach, lines=lines, notes=tuple(notes))


def shoot(rs: XcomTrpg, state: State, cmd: Shoot, dice: Dice) -> Rejected | list[Event]:
    ctx = rs.shot_context(state, cmd.unit, cmd.target, cmd.mode)
    if isinstance(ctx, Rejected):
        return ctx
    shooter, target = state.units[cmd.unit], state.units[cmd.target]
    if ctx.weapon.darts:
        return tranquilizer.fire(rs, state, shooter, target, ctx, dice)
    if ctx.mode.sniper:
        return sniper.fire(rs, state, shooter, target, ctx, "torso", dice)
    if ctx.weapon.blast:
        return rs._explosive(state, shooter, soldier(shooter).weapon, target.pos, target, dice)
    outcome = combat.resolve_shot(rs.content, rs.rules, dice, shooter, target, ctx.weapon, ctx.mode,
                                  between=ctx.between, target_sees=ctx.target_sees, cover=ctx.cover,
                                  cover_from=ctx.cover_from)
    ledger = Ledger(state.units)
    stamina = soldier(shooter).stamina - (0 if soldier(shooter).infinite_stamina else ctx.mode.stamina)
    ledger.set(shooter.id, f"fires the {ctx.weapon.name.lower()}", ammo=soldier(shooter).ammo - ctx.mode.shots,
               actions=0, stamina=stamina, facing=facing_towards(shooter.pos, target.pos))
    apply_crits(ledger, rs.rules, outcome.crits)
    apply_hits(ledger, rs.rules, shooter.id, outcome, pellets=ctx.weapon.pellets > 1)
    resolved = Resolved(actor=shooter.id, action="shoot", target=target.id, weapon=soldier(shooter).weapon,
                        mode=cmd.mode, rolls=tuple(outcome.rolls), outcome=outcome.verdict, text=outcome.summary)
    return [resolved, *ledger.events]
