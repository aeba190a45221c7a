"""neo-troops between missions (the campaign seam, engine/campaign/seam.py), N-19: after a mission a varan has
full HP again (N-19.4: regenerated, an incapacitated one back in action), each damaged system repaired in the
battle's own repair time (N-19.2: settings.toml `repair_actions`, d6 minutes, rolled) and each destroyed one
replaced; its severe wounds and severed limbs are kept on the record and regenerate at the next between-missions
rest (campaign.toml `rest_days`), and until then it may not deploy. The dead stay dead. No base, no orders."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.campaign.seam import Baseless, Order, Outcome, Timer
from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.rules.neo_troops import care, mend
from engine.rules.neo_troops.creator import ID, Recruit, _id
from engine.rules.neo_troops.schema import Campaign, Settings
from engine.rules.neo_troops.unit import Trooper

NAMES = {"cloak": "cloak", "mapping": "mapping system", "head": "head sensors", "armour": "armour"}


def rest_key(r: Recruit) -> str:
    return f"rest:{_id(r.name)}:{r.rests}"


def destroyed(t: Trooper) -> list[str]:
    """N-18.4: what a mission destroyed, to be replaced after it."""
    out = [s for s in ("cloak", "mapping") if getattr(t, s) == "destroyed"]
    out += ["head"] if t.head == "destroyed" else []
    out += ["armour"] if t.save is not None and t.armour_hits >= 2 else []
    return out + [p.id for p in t.parts if p.state == "destroyed"]


class NeoDowntime(Baseless):
    title = "neo-troops"

    def __init__(self, content) -> None:
        tables = content.rules[ID]
        self.settings: Settings = tables.get("settings", {}).get("default", Settings())
        self.rules: Campaign = tables.get("campaign", {}).get("default", Campaign())
        self.names = {k: v.name for table in ("weapons", "items") for k, v in tables.get(table, {}).items()}

    def _name(self, system: str) -> str:
        return NAMES.get(system) or self.names.get(system, system)

    def begin(self, records: tuple[Any, ...], dice: Dice) -> Outcome:
        return Outcome(records=tuple(records))

    def deploy_refusal(self, record: Any, base: Any, busy: Mapping[str, int]) -> str | None:
        if record.dead:
            return f"{record.name} is dead"
        if record.severe or record.severed:
            return f"{record.name} is regenerating at the rest: {self._wounds(record)} (N-19.4)"
        return None

    def _wounds(self, r: Recruit) -> str:
        parts = [f"{r.severe} severe wound{'' if r.severe == 1 else 's'}"] if r.severe else []
        return " and ".join(parts + [f"the {' '.join(limb.split('_'))}" for limb in r.severed])

    def debrief(self, records: tuple[Any, ...], base: Any, state: Any, deployed: tuple[str, ...],
                won: bool, dice: Dice) -> Outcome:
        units = {u.template: u for u in state.units.values() if isinstance(u.record, Trooper)}
        out, notes, rolls, timers, cancel, dead = [], [], [], [], [], []
        went = {_id(name) for name in deployed}
        for r in records:
            unit = units.get(f"roster_{_id(r.name)}") if _id(r.name) in went and not r.dead else None
            if unit is None:
                out.append(r)
                continue
            t = unit.record
            if t.status == "dead" or unit.status == "dead":
                out.append(attrs.evolve(r, dead=True))
                dead.append(r.name)
                notes.append(f"{r.name} died on the mission")
                continue
            notes += self._regenerated(r.name, t)
            for system in mend.damaged(t):  # N-19.2: the battle's repair time, rolled
                started = care.start_repair(dice, t, system, self.settings)
                assert not isinstance(started, Rejected)  # damaged() lists only what start_repair takes
                roll: Roll = started[1]
                rolls.append(roll)
                minutes = roll.total // 10  # 10 six-second actions a minute
                notes.append(f"{r.name}: {self._name(system)} repaired in {roll.formula.split(': ')[1]} "
                             f"({minutes} minute{'' if minutes == 1 else 's'} of work)")
            notes += [f"{r.name}: {self._name(s)} destroyed, replaced" for s in destroyed(t)]
            if t.severe_wounds or t.limbs_lost:
                if r.severe or r.severed:
                    cancel.append(rest_key(r))
                r = attrs.evolve(r, severe=r.severe + t.severe_wounds, severed=r.severed + t.limbs_lost,
                                 rests=r.rests + 1)
                label = f"{r.name}: {self._wounds(r)} regenerate at the rest, {self.rules.rest_days} days"
                timers.append(Timer(days=self.rules.rest_days, key=rest_key(r), label=label, who=r.name))
                notes.append(label)
            out.append(r)
        return Outcome(records=tuple(out), rolls=tuple(rolls), notes=tuple(notes), timers=tuple(timers),
                       cancel=tuple(cancel), dead=tuple(dead))

    def _regenerated(self, name: str, t: Trooper) -> list[str]:
        """N-19.4: full HP after the mission; the bleeding stopped by first aid once the fighting is over."""
        out = []
        if t.hp < t.hp_max:
            back = ", back in action" if t.status == "incapacitated" else ""
            out.append(f"{name}: HP {t.hp}/{t.hp_max} → {t.hp_max}/{t.hp_max}, regenerated{back}")
        if t.bleeding is not None:
            out.append(f"{name}: the bleeding stopped with first aid after the fighting")
        return out

    def due(self, records: tuple[Any, ...], base: Any, timer: Timer, dice: Dice) -> Outcome:
        out, notes = [], []
        for r in records:
            if timer.key == rest_key(r) and not r.dead and (r.severe or r.severed):
                notes.append(f"{r.name}: {self._wounds(r)} regenerated")
                r = attrs.evolve(r, severe=0, severed=())
            out.append(r)
        return Outcome(records=tuple(out), notes=tuple(notes))

    def refuse_order(self, order: Order) -> str:
        return (f"neo-troops has no between-mission orders ({order.kind!r}): repairs and "
                "regeneration happen by themselves (N-19)")
