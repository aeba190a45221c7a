"""xcom-trpg 7.3 and 9: gather thoughts, meditation and ESP-027 as actions, and the psi entries of
the action menu (one per ability and target the unit could use now)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xcom_trpg import psionics
from engine.rules.xcom_trpg.damage import Ledger
from engine.rules.xcom_trpg.psi_abilities import LOCATION_RADIUS, Plan, plan
from engine.rules.xcom_trpg.psi_effects import boost, set_counter
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

ESP_027 = "esp_027"
ESP_BOOST, ESP_TURNS = 5, 2  # 9: +5 Psionics; interpretation: the user's next 2 turns, 1 action


def _concentrating(rs: "XcomTrpg", state: State, cmd: Act) -> Unit | Rejected:
    """7.3: the whole turn, so every action unspent; conscious and not mind-controlled."""
    unit = rs._actor(state, cmd.unit, rs.rules.actions_per_turn)  # noqa: SLF001
    if isinstance(unit, Rejected):
        if unit.code == "no_actions":
            return Rejected("whole_turn", "Gathering thoughts or meditating takes the whole turn: every action unspent")
        return unit
    if not psionics.is_active(unit):
        return Rejected("psi_inactive", f"{unit.name}'s psionics are not awakened (7.1)")
    if soldier(unit).psi_mc_by:
        return Rejected("controlled", f"{unit.name} is mind-controlled and cannot concentrate (7.3)")
    if soldier(unit).moved:
        return Rejected("whole_turn", f"{unit.name} has already moved this turn")
    return unit


def gather(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = _concentrating(rs, state, cmd)
    if isinstance(unit, Rejected):
        return unit
    if soldier(unit).psi_ss >= soldier(unit).psi_ss_max:
        return Rejected("pool_full", f"{unit.name}'s pool is full")
    ledger = Ledger(state.units)
    ledger.set(unit.id, "gathers thoughts (the whole turn)", actions=0)
    set_counter(ledger, unit.id, "gathering thoughts: +10 SS at the next turn unless hurt", psi_gather=1)
    return [Resolved(actor=unit.id, action="psi", rolls=(), outcome="gathering",
                     text=f"{unit.name}: gather thoughts — +10 SS at the start of the next turn (7.3)"), *ledger.events]


def meditate(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = _concentrating(rs, state, cmd)
    if isinstance(unit, Rejected):
        return unit
    ledger = Ledger(state.units)
    ledger.set(unit.id, "meditates (3 turns)", actions=0)
    set_counter(ledger, unit.id, "meditating: full pool at the end of the 3rd turn unless hurt", psi_meditate=2)
    return [Resolved(actor=unit.id, action="psi", rolls=(), outcome="meditating",
                     text=f"{unit.name}: meditation — 3 turns of stillness, then a full pool (7.3)"), *ledger.events]


def esp(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    if unit.items.get(ESP_027, 0) <= 0:
        return Rejected("no_item", f"{unit.name} carries no ESP-027")
    ledger = Ledger(state.units)
    items = dict(unit.items)
    items[ESP_027] -= 1
    ledger.set(unit.id, "takes ESP-027", items={k: v for k, v in items.items() if v}, actions=soldier(unit).actions - 1)
    boost(ledger, unit.id, "psionics", ESP_BOOST, ESP_TURNS, f"ESP-027: +{ESP_BOOST} Psionics for {ESP_TURNS} turns")
    return [Resolved(actor=unit.id, action="esp_027", rolls=(), outcome="taken",
                     text=f"{unit.name} takes ESP-027: Psionics {soldier(unit).stats.get('psionics', 0)} → "
                          f"{soldier(unit).stats.get('psionics', 0) + ESP_BOOST} for the next {ESP_TURNS} turns (9)"),
            *ledger.events]


def _label(rs: "XcomTrpg", state: State, p: Plan) -> str:
    names = ", ".join(t.name for t in p.targets)
    extra = f" radius {p.detail}" if p.ability.effect == "location" else ""
    detail = f" ({p.detail})" if p.ability.effect in ("compulsion", "buff") else ""
    return f"{p.ability.name}{detail}{extra}" + (f" → {names}" if names else "") + f" ({p.cost} SS)"


def candidates(rs: "XcomTrpg", state: State, unit: Unit) -> list[Act]:
    """Every psi command worth listing: each ability on each target it may take (mass: the nearest 3)."""
    out: list[Act] = []
    others = sorted((u for u in state.units.values() if u.id != unit.id),
                    key=lambda u: (max(abs(u.pos[0] - unit.pos[0]), abs(u.pos[1] - unit.pos[1])), u.id))
    for aid, a in xcom(rs.content).psionics.items():
        if not a.implemented:
            continue
        details = {"compulsion": ["hold", "retreat", "drop"], "buff": ["agility", "strength"]}.get(a.effect, [""])
        option = [f"{aid}:{d}" if d else aid for d in details]
        if a.target in ("area", "self"):
            out.append(Act(unit=unit.id, action="psi", option=aid, amount=LOCATION_RADIUS))
            continue
        if a.most_targets > 1:
            foes = [u for u in others if u.side != unit.side and u.status == "active"]
            if foes:
                out.append(Act(unit=unit.id, action="psi", option=aid,
                               targets=tuple(u.id for u in foes[:a.most_targets])))
            continue
        for u in others:
            out += [Act(unit=unit.id, action="psi", option=o, target=u.id) for o in option]
    return out


def options(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    if not xcom(rs.content).psionics or not psionics.is_active(unit):
        return []
    out: list[Option] = []
    ss = soldier(unit).psi_ss
    for cmd in candidates(rs, state, unit):
        if cmd.targets:  # a mass ability keeps the targets that are valid
            valid = tuple(t for t in cmd.targets if not isinstance(plan(rs, state, Act(
                unit=unit.id, action="psi", option=cmd.option, target=t)), Rejected))
            if not valid:
                continue
            cmd = Act(unit=unit.id, action="psi", option=cmd.option, targets=valid)
        p = plan(rs, state, cmd)
        if isinstance(p, Rejected):
            continue
        a = p.ability
        room = ss - p.cost if a.overload not in ("none", "combo") else 0
        out.append(Option(group="Psionics", label=_label(rs, state, p), command=cmd, overload=room,
                                note=f"table 7.5 #{a.number}; cooldown {a.cooldown}; {ss} SS now"))
    for action, label in (("gather_thoughts", "Gather thoughts (+10 SS next turn)"),
                          ("meditate", "Meditate (3 turns: full pool)")):
        cmd = Act(unit=unit.id, action=action)
        if not isinstance(_concentrating(rs, state, cmd), Rejected):
            out.append(Option(group="Psionics", label=label, command=cmd, note="7.3: cancelled by damage"))
    if unit.items.get(ESP_027):
        out.append(Option(group="Items", label="ESP-027 (+5 Psionics, 2 turns)",
                                command=Act(unit=unit.id, action="esp_027"), note="9"))
    return out
