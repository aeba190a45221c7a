"""The AI's use of xcom-trpg's own tools, asked before it moves or shoots (`Ruleset.ai_special`).

A speech when a friend in earshot is below the panic line (6.5): without it a squad that panics keeps
panicking, since nothing else restores morale. Psionics (7): sectoids and ethereals panic a shaken soldier, take the strongest
one's mind when their sigurdsens allow, and stun when they have no shot; chryssalids only panic; every other race
leaves psionics alone. Only soldiers the side sees now are considered, and only at decent odds.
"""

from __future__ import annotations

from engine.content import missions
from engine.core.commands import Act, Rejected, Reload
from engine.core.commands import Command
from engine.core.model import State, Unit
from engine.core.ruleset import Mode
from engine.map.grid import distance
from engine.rules.xcom_trpg import episode, scale
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

PSIONIC_RACES = {"sectoid": ("panic", "mind_control", "stun"), "ethereal": ("panic", "mind_control", "stun"),
                 "chryssalid": ("panic",)}
DECENT = 0.55  # the least chance of success worth a turn's action and the SS
SHAKEN = 50  # a soldier below this morale is one panic from its panic checks (6.5: below 40)


def choose(rs, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Command | None:
    """A rallying speech first, then a psi attack."""
    return rally(rs, state, unit) or psi(rs, state, unit, in_sight, has_shot)


def rally(rs, state: State, unit: Unit) -> Command | None:
    line = rs.rules.panic_below
    if not line or not any(u.side == unit.side and u.id != unit.id and u.conscious and soldier(u).morale < line
                           and distance(u.pos, unit.pos) <= scale.in_sector(rs.rules) for u in state.units.values()):
        return None
    return next((o.command for o in rs.options(state, unit) if o.command.action == "speech"), None)


def psi(rs, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Act | None:
    """A psi command for the unit's first action this turn, or None; a stun only when no shot is worth it."""
    from engine.rules.xcom_trpg import psionics
    from engine.rules.xcom_trpg.psi_abilities import plan

    abilities = xcom(rs.content).psionics
    wanted = PSIONIC_RACES.get(unit.race, ())
    if not abilities or not wanted or not psionics.is_active(unit):
        return None
    if soldier(unit).actions < rs.rules.actions_per_turn:  # one psi attack a turn; the other action shoots
        return None
    soldiers = [u for u in in_sight if u.conscious and u.side == missions.PLAYER and not soldier(u).psi_mc_by]
    me = psionics.mind(unit)

    def chance(target: Unit) -> float:
        return psionics.odds(me, psionics.mind(target))

    def ready(option: str, target: Unit) -> Act | None:
        cmd = Act(unit=unit.id, action="psi", option=option, target=target.id)
        return None if isinstance(plan(rs, state, cmd), Rejected) else cmd

    order: list[tuple[str, list[Unit]]] = []
    if "panic" in wanted:
        shaken = sorted((s for s in soldiers if soldier(s).morale < SHAKEN), key=lambda s: (soldier(s).morale, s.id))
        order.append(("panic", shaken))
    if "mind_control" in wanted:
        strongest = sorted(soldiers, key=lambda s: (-(s.hp + 10 * sum(soldier(s).stats.values())), s.id))
        order.append(("mind_control", strongest))
    if "stun" in wanted and not has_shot:
        order.append(("stun", sorted(soldiers, key=lambda s: (soldier(s).stats["bravery"], s.id))))
    for option, targets in order:
        for target in targets:
            if chance(target) >= DECENT:
                cmd = ready(option, target)
                if cmd is not None:
                    return cmd
    return None


def chore(rs, state: State, unit: Unit, in_sight: list[Unit], stage: str) -> Command | None:
    """The AI's upkeep (`Ruleset.ai_chore`): "first", a reload when the magazine holds too few for any mode (and a
    grenade has no magazine); "idle", with no shot, break a melee grip (8.11), or top up a magazine out of sight,
    or, the main objectives done and nothing in sight, confirm the episode's end (4.8)."""
    weapon = xcom(rs.content).weapons[soldier(unit).weapon]
    if stage == "first":
        rec = soldier(unit)
        if not weapon.blast and rec.ammo < min(m.shots for m in weapon.modes.values()) and rec.magazines > 0:
            return Reload(unit=unit.id)
        return None
    if soldier(unit).melee_held_by:
        return Act(unit=unit.id, action="escape")
    if weapon.blast is False and soldier(unit).ammo < weapon.ammo and soldier(unit).magazines > 0 and not in_sight:
        return Reload(unit=unit.id)
    return episode.ai_confirm(rs, state, unit, in_sight)  # the objectives done, nothing in sight: the episode ends


def shot_modes(rs, unit: Unit) -> list[Mode]:
    """The weapon's modes; usable if the unit's actions left pay for it (a 2-action sniper shot needs both)."""
    return [Mode(mode, spec.name, spec.actions <= soldier(unit).actions)
            for mode, spec in xcom(rs.content).weapons[soldier(unit).weapon].modes.items()]


def behaviour(rs, unit: Unit) -> str:
    """The template's own profile, else its faction's."""
    template = xcom(rs.content).units.get(unit.template)
    if template is None:
        return "default"
    return template.ai if template.ai != "default" else rs.content.factions[template.faction].behaviour or "default"
