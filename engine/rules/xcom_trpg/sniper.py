"""xcom-trpg 8.12.5: the sniper shot and the prone stance.

`Act(action="snipe", target=, option=<part>)` fires the weapon's sniper mode at a declared body part
(`Shoot(mode="sniper")` is the same at the torso). Main roll (+3 Agility, never critical), luck check,
then 1d100 for the part (torso none, arm/leg >= 67, head >= 90, a sectoid's head >= 75); a failed part
roll misses. Only then may the target dodge — from any distance if it sees the shooter — with +7 Agility
and +2 Luck. A head hit kills through armour tiers 0-2; heavy armour takes power × headshot multiplier
(14×3 = 42). 2 actions; 1 stamina unless prone (`Act(action="prone")`, 1 action, counter
`sniper_prone`, lost on moving).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import Act, Rejected
from engine.content.models import Content
from engine.rules.xcom_trpg.models import Mode, RulesetDef, Weapon
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Moved, Resolved
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.core.reducer import fold
from engine.rules.xcom_trpg import combat, odds
from engine.rules.xcom_trpg.checks import luck_check, passed, plain_roll, stat_roll
from engine.rules.xcom_trpg.damage import Ledger, apply_crits, apply_hits
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import ShotContext, XcomTrpg

PARTS = ("torso", "arm", "leg", "head")
NEED = {"torso": 0, "arm": 67, "leg": 67, "head": 90}
HEAD_NEED = {"sectoid": 75}
DODGE_AGILITY, DODGE_LUCK = 7, 2
HEAD_KILLS_UP_TO = 2  # armour tier


def need(target: Unit, part: str) -> int:
    return HEAD_NEED.get(target.race, NEED[part]) if part == "head" else NEED[part]


def part_damage(content: Content, weapon: Weapon, target: Unit, part: str) -> int | None:
    """None: a kill (a head hit through armour tiers 0-2)."""
    if part != "head":
        return combat.armour_damage(content, weapon, target)
    if xcom(content).armor[soldier(target).armor].tier <= HEAD_KILLS_UP_TO:
        return None
    return weapon.damage * weapon.headshot_multiplier


def snipe(content: Content, rules: RulesetDef, dice: Dice, shooter: Unit, target: Unit, weapon: Weapon,
          mode: Mode, part: str, *, target_sees: bool, cover: int = 0, between: int = 0) -> combat.Outcome:
    rolls: list[Roll] = []
    crits: dict[str, list[str]] = {}
    stat = combat.attack_stat(shooter, weapon)
    value = combat.effective_stat(shooter, stat) + mode.stat_modifier + combat.owner_bonus(shooter, weapon, stat)
    a = stat_roll(dice, rules, shooter.id, "sniper shot", stat, value, can_crit=False,
                  halve=cover == combat.PARTIAL, penalty=combat.penalty(shooter, weapon))
    rolls.append(a)
    dice.note(a, f"{mode.stat_modifier:+d} {stat}: sniper shot, never critical (8.12.5)")
    who = f"{shooter.name} → {target.name} ({part})"
    luck = luck_check(dice, rules, shooter.id, combat.shooter_luck(shooter, weapon))
    rolls.append(luck)
    if not passed(luck, rules):
        return combat.Outcome(rolls, [], "miss", f"{who}: MISS (luck check failed)", crits)
    wanted = need(target, part)
    if wanted:
        p = plain_roll(dice, shooter.id, f"{part} roll", 100, part)
        ok = p.total >= wanted
        rolls.append(attrs.evolve(p, formula=f"{part} 1d100={p.total}{'>=' if ok else '<'}{wanted} "
                                             f"{'✓' if ok else '✗'}"))
        dice.note(p, f"the {part} needs {wanted}+ (8.12.5 table); a failed part roll misses")
        if not ok:
            return combat.Outcome(rolls, [], "miss", f"{who}: MISS (the {part} roll failed)", crits)
    damage = part_damage(content, weapon, target, part)
    head_power = weapon.damage * weapon.headshot_multiplier
    if target_sees and target.conscious:
        hit = combat._dodge(dice, content, rules, weapon, shooter, target, a.total, luck, rolls, crits, "",
                            between=between, agility_bonus=DODGE_AGILITY, luck_bonus=DODGE_LUCK,
                            damage=head_power if damage is None else damage)
        if hit is not None and damage is None and hit.kind != "glancing":
            hit = combat.Hit(target.id, 0, 0, "kill")
    else:
        hit = combat.Hit(target.id, 0, 0, "kill") if damage is None else combat.Hit(target.id, damage, 0, "hit")
    if hit is None:
        return combat.Outcome(rolls, [], "dodged", f"{who}: MISS (dodged)", crits)
    if hit.kind == "kill":
        return combat.Outcome(rolls, [hit], "headshot", f"{who}: SNIPER HEADSHOT, killed outright", crits)
    verdict = "headshot" if part == "head" else "hit"
    extra = f" ({hit.kind})" if hit.kind != "hit" else ""
    return combat.Outcome(rolls, [hit], verdict, f"{who}: {verdict.upper()}{extra}, {hit.damage} dmg", crits)


def sniper_mode(weapon: Weapon) -> str | None:
    return next((k for k, m in weapon.modes.items() if m.sniper), None)


def fire(rs: "XcomTrpg", state: State, shooter: Unit, target: Unit, ctx: "ShotContext", part: str,
         dice: Dice) -> Rejected | list[Event]:
    from engine.rules.xcom_trpg import facing_towards  # the ruleset imports this module first

    outcome = snipe(rs.content, rs.rules, dice, shooter, target, ctx.weapon, ctx.mode, part,
                    target_sees=ctx.target_sees, cover=ctx.cover, between=ctx.between)
    ledger = Ledger(state.units)
    stamina = soldier(shooter).stamina - (0 if soldier(shooter).infinite_stamina else combat.mode_stamina(shooter, ctx.mode))
    ledger.set(shooter.id, f"fires the {ctx.weapon.name.lower()} (sniper shot)", ammo=soldier(shooter).ammo - 1,
               actions=0, stamina=stamina, facing=facing_towards(shooter.pos, target.pos))
    apply_crits(ledger, rs.rules, outcome.crits)
    apply_hits(ledger, rs.rules, shooter.id, outcome, pellets=False)
    mode = sniper_mode(ctx.weapon)
    return [Resolved(actor=shooter.id, action="shoot", target=target.id, weapon=soldier(shooter).weapon, mode=mode,
                     rolls=tuple(outcome.rolls), outcome=outcome.verdict, text=outcome.summary), *ledger.events]


def act(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    weapon = xcom(rs.content).weapons[soldier(unit).weapon]
    mode = sniper_mode(weapon)
    if mode is None:
        return Rejected("no_sniper_mode", f"The {weapon.name.lower()} has no sniper shot")
    if cmd.action == "prone":
        if soldier(unit).sniper_prone:
            return Rejected("already_prone", f"{unit.name} is already lying prone")
        ledger = Ledger(state.units)
        ledger.set(unit.id, "goes prone", sniper_prone=soldier(unit).sniper_prone + 1)
        ledger.set(unit.id, "goes prone", actions=soldier(unit).actions - 1)
        return list(ledger.events)
    part = cmd.option or "torso"
    if part not in PARTS:
        return Rejected("bad_part", f"Aim at one of {', '.join(PARTS)}")
    ctx = rs.shot_context(state, unit.id, cmd.target or "", mode)
    if isinstance(ctx, Rejected):
        return ctx
    return fire(rs, state, unit, state.units[cmd.target or ""], ctx, part, dice)


def stand_up(rs: "XcomTrpg", before: State, events: list[Event], dice: Dice) -> list[Event]:
    moved = {e.unit for e in events if isinstance(e, Moved)}
    if not any(soldier(before.units[u]).sniper_prone for u in moved if u in before.units):
        return []
    now = fold(before, events)
    ledger = Ledger(now.units)
    for uid in sorted(moved):
        if soldier(now.units[uid]).sniper_prone:
            ledger.set(uid, "gets up", sniper_prone=0)
    return ledger.take()


def menu(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    weapon = xcom(rs.content).weapons[soldier(unit).weapon]
    mode = sniper_mode(weapon)
    if mode is None or soldier(unit).actions < 1:
        return []
    out = []
    if not soldier(unit).sniper_prone:
        out.append(Option("Sniper", "Go prone", Act(unit=unit.id, action="prone"),
                                "1 action; sniper shots then cost no stamina; lost on moving"))
    for t in state.units.values():
        if t.side == unit.side or t.status == "dead":
            continue
        ctx = rs.shot_context(state, unit.id, t.id, mode)
        if isinstance(ctx, Rejected):
            continue
        for part in PARTS:
            p, dmg, _ = odds.sniper_odds(rs.content, rs.rules, unit, t, weapon, ctx.mode, part,
                                         target_sees=ctx.target_sees, cover=ctx.cover)
            out.append(Option("Sniper", f"Snipe {t.name}: {part}",
                                    Act(unit=unit.id, action="snipe", target=t.id, option=part),
                                    f"{round(p * 100)}% hit, {dmg:.1f} expected dmg, 2 actions"))
    return out
