"""xcom-trpg 6.4, 8.5 and 9: consumables (content/items.toml) and rest.

`Act(unit, "use", option=<item id>, target=<unit id or None for itself>)`: one action, no roll,
the turn goes on (4.2). `Act(unit, "rest")`: the rest of the turn is spent resting; +2 stamina at
the start of its next turn unless it dodges or takes damage before then.

Counters: `rest` (1 while resting), `after_<item id>` (turns still to begin before the item's
after-effect, which comes at the end of the turn in which it reaches 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.rules.xcom_trpg.models import Item
from engine.core.dice import Dice
from engine.core.events import Event, PhaseStarted, Resolved, SideStarted
from engine.map.grid import distance
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.core.reducer import fold
from engine.rules.xcom_trpg.combat import status_for
from engine.rules.xcom_trpg import watch
from engine.rules.xcom_trpg.damage import Ledger, fallen
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

REST_GAIN = 2


def raised(unit: Unit, gain: int, over_max: bool) -> int:
    """Stamina after a gain: never above the maximum unless over_max, never lowered (XS may have lifted it)."""
    if soldier(unit).infinite_stamina:
        return soldier(unit).stamina
    if over_max:
        return soldier(unit).stamina + gain
    return max(soldier(unit).stamina, min(soldier(unit).stamina + gain, soldier(unit).stamina_max))


def _own_action(item_id: str | None) -> bool:
    """An item with an action of its own (ESP-027) is used through it, not as a plain consumable."""
    from engine.rules.xcom_trpg.hooks import ACTS  # the rule table imports this module: look it up when asked

    return item_id in ACTS


def use_problem(rs: "XcomTrpg", state: State, user: Unit, item_id: str | None, target_id: str | None) -> Rejected | Unit:
    item = xcom(rs.content).items.get(item_id or "")
    if item is None:
        return Rejected("unknown_item", f"{item_id!r} is not a consumable; there are {', '.join(xcom(rs.content).items)}")
    if user.items.get(item_id or "", 0) <= 0:
        return Rejected("no_item", f"{user.name} carries no {item.name.lower()}")
    if _own_action(item_id):
        return Rejected("own_action", f"The {item.name} is taken with its own action ({item_id})")
    if soldier(user).actions < item.actions:
        return Rejected("no_actions", f"The {item.name.lower()} takes {item.actions} action(s)")
    target = state.units.get(target_id or user.id)
    if target is None:
        return Rejected("unknown_unit", f"There is no unit {target_id!r}")
    if target.id != user.id:
        if item.reach == 0:
            return Rejected("self_only", f"{user.name} can use the {item.name.lower()} only on themself")
        if distance(user.pos, target.pos) > item.reach:
            return Rejected("out_of_reach", f"{target.name} is not in the same or the next cell")
        if missions.hostile(user.side, target.side):
            return Rejected("hostile", f"{target.name} is hostile")
    if target.status == "dead":
        return Rejected("dead", f"{target.name} is dead")
    if not target.conscious and not item.clears_concussion:
        return Rejected(target.status, f"{target.name} is {target.status}")
    return target


def use(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    user = rs._actor(state, cmd.unit)  # noqa: SLF001
    if isinstance(user, Rejected):
        return user
    target = use_problem(rs, state, user, cmd.option, cmd.target)
    if isinstance(target, Rejected):
        return target
    item_id = cmd.option or ""
    item = xcom(rs.content).items[item_id]
    ledger = Ledger(state.units)
    items = dict(user.items)
    items[item_id] -= 1
    ledger.set(user.id, f"uses a {item.name.lower()}" + ("" if target.id == user.id else f" on {target.name}"),
               items={k: v for k, v in items.items() if v}, actions=soldier(user).actions - item.actions)
    apply_item(rs, ledger, item_id, item, target.id)
    return list(ledger.events)


def apply_item(rs: "XcomTrpg", ledger: Ledger, item_id: str, item: Item, uid: str) -> None:
    unit = ledger.unit(uid)
    name = item.name
    if item.stamina:
        ledger.set(uid, f"{name}: +{item.stamina} stamina" + (" (may exceed the maximum)" if item.over_max else ""),
                   stamina=raised(unit, item.stamina, item.over_max))
    if item.clears_concussion and (soldier(unit).concussion or soldier(unit).concussed):
        ledger.set(uid, f"{name}: concussion treated", concussion=0, concussed=False)
    if item.morale_to_max:
        ledger.morale(uid, soldier(unit).morale_max - soldier(unit).morale, f"{name}: morale to maximum")
    if item.after_turns:
        ledger.set(uid, f"{name}: the after-effect comes at the end of its turn {item.after_turns} turns from now",
                   after={**ledger.get(uid, "after"), item_id: item.after_turns})
    if item.hp:
        before = ledger.unit(uid)
        hp = before.hp + item.hp
        status = status_for(hp, soldier(before).concussion) if before.status != "dead" else "dead"
        ledger.set(uid, f"{name}: {item.hp:+d} HP (no wound)", hp=hp, status=status)
        if status != before.status:
            fallen(ledger, rs.rules, None, before, status)


def rest(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    if soldier(unit).infinite_stamina:
        return Rejected("tireless", f"{unit.name} never tires")
    ledger = Ledger(state.units)
    ledger.set(unit.id, f"rests: +{REST_GAIN} stamina at the start of its next turn unless it dodges or is hurt",
               actions=0, rest=1)
    return list(ledger.events)


def turn_start(rs: "XcomTrpg", ledger: Ledger, uid: str, dice: Dice) -> list[Event]:
    if ledger.get(uid, "rest"):
        ledger.set(uid, f"rested: +{REST_GAIN} stamina", rest=0, stamina=raised(ledger.unit(uid), REST_GAIN, False))
    for key, left in ledger.get(uid, "after").items():
        if left > 0:
            ledger.set(uid, "another turn after the stimulant", after={**ledger.get(uid, "after"), key: left - 1})
    return []


def after(rs: "XcomTrpg", before: State, events: list[Event], dice: Dice) -> list[Event]:
    """A rest broken by a dodge or damage; an item's after-effect as its user's side ends its turn."""
    marked = watch.marked(before)
    if not marked:
        return []  # nobody rests or feels an after-effect (most commands)
    ended = before.side if any(isinstance(e, (SideStarted, PhaseStarted)) for e in events) else None
    watched = [u.id for u, m in marked if m & watch.RESTING or (m & watch.AFTER_EFFECT and u.side == ended)]
    if not watched:
        return []
    now = fold(before, events)
    ledger = Ledger(now.units)
    dodged = {r.actor for e in events if isinstance(e, Resolved) for r in e.rolls if r.purpose.startswith("dodge")}
    for uid in watched:
        was, unit = before.units[uid], now.units[uid]
        if soldier(unit).rest:
            why = "it dodged" if uid in dodged else "it was hurt" if (
                unit.hp < was.hp or soldier(unit).concussion > soldier(was).concussion) else ""
            if why:
                ledger.set(uid, f"rest broken: {why}", rest=0)
        if unit.side == ended:
            for key, left in list(ledger.get(uid, "after").items()):
                if left == 0:
                    item = xcom(rs.content).items.get(key)
                    ledger.keyed(uid, "after-effect passed", "after", {key: None})
                    if item is not None and item.after_morale:
                        ledger.morale(uid, item.after_morale, f"{item.name} after-effect")
    return list(ledger.events)


def options(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    out = []
    for item_id, n in sorted(unit.items.items()):
        item = xcom(rs.content).items.get(item_id)
        if item is None or n <= 0 or soldier(unit).actions < item.actions or _own_action(item_id):
            continue  # an item with an action of its own (ESP-027) is offered by that action
        near = [u for u in state.units.values() if u.id != unit.id and distance(u.pos, unit.pos) <= item.reach]
        for target in [unit, *near]:
            if isinstance(use_problem(rs, state, unit, item_id, target.id), Rejected):
                continue
            who = "yourself" if target.id == unit.id else target.name
            out.append(Option(group="Items", label=f"{item.name} → {who} ({n} left)",
                                    command=Act(unit=unit.id, action="use", option=item_id,
                                                target=None if target.id == unit.id else target.id),
                                    note=f"{item.actions} action, no roll"))
    rec = soldier(unit)
    if rec.actions >= 1 and not rec.infinite_stamina and rec.stamina < rec.stamina_max and not rec.rest:
        out.append(Option(group="Items", label=f"Rest (+{REST_GAIN} stamina next turn)",
                                command=Act(unit=unit.id, action="rest"),
                                note="ends the turn; a dodge or a wound before then cancels it"))
    return out
