"""xcom-trpg 6.2-6.5 and 8.5: turning hits into HP, concussion, status and morale events."""

from __future__ import annotations

from typing import Any

import attrs

from engine.content import RulesetDef
from engine.events import UnitChanged
from engine.model import Unit
from engine.rules.xcom_trpg.checks import per_bravery
from engine.rules.xcom_trpg.combat import Hit, Outcome

DEATH_BELOW = -5  # 6.3: HP below -5 is death; -5..0 is unconsciousness (6.2)


class Ledger:
    """Working copies of the units a decision touches, and the events that changed them."""

    def __init__(self, units: dict[str, Unit]) -> None:
        self.units = dict(units)
        self.events: list[UnitChanged] = []

    def set(self, uid: str, cause: str, **changes: Any) -> None:
        unit = self.units[uid]
        changes = {k: v for k, v in changes.items() if getattr(unit, k) != v}
        if not changes:
            return
        self.units[uid] = attrs.evolve(unit, **changes)
        self.events.append(UnitChanged(unit=uid, changes=changes, cause=cause))

    def morale(self, uid: str, delta: int, cause: str) -> None:
        unit = self.units[uid]
        if unit.status == "dead" or delta == 0:
            return
        self.set(uid, cause, morale=max(0, min(unit.morale_max, unit.morale + delta)))

    def flag(self, uid: str, flag: str, cause: str) -> None:
        unit = self.units[uid]
        if flag not in unit.flags:
            self.set(uid, cause, flags=tuple(sorted(unit.flags + (flag,))))

    def count(self, uid: str, counter: str, cause: str, by: int = 1) -> None:
        unit = self.units[uid]
        counters = dict(unit.counters)
        counters[counter] = counters.get(counter, 0) + by
        self.set(uid, cause, counters=counters)


def status_for(hp: int, concussion: int) -> str:
    if hp < DEATH_BELOW:
        return "dead"
    if hp <= 0 or concussion > hp:
        return "unconscious"
    return "active"


def apply_crits(ledger: Ledger, rules: RulesetDef, crits: dict[str, list[str]]) -> None:
    """3.4-3.5: +50/-50 morale and a + or - token per critical roll."""
    for uid, kinds in crits.items():
        for kind in kinds:
            if kind == "success":
                ledger.morale(uid, rules.morale.crit_success, "critical success")
                ledger.count(uid, "crit_plus", "critical success token")
            else:
                ledger.morale(uid, -rules.morale.crit_failure, "critical failure")
                ledger.count(uid, "crit_minus", "critical failure token")


def apply_hits(ledger: Ledger, rules: RulesetDef, attacker: str, outcome: Outcome, *, pellets: bool) -> None:
    """HP, concussion and wound morale per target, then kills, knock-outs and comrades' grief."""
    by_target: dict[str, list[Hit]] = {}
    for hit in outcome.hits:
        by_target.setdefault(hit.target, []).append(hit)
    for uid, hits in by_target.items():
        before = ledger.units[uid]
        if before.status == "dead":
            continue
        if any(h.kind == "kill" for h in hits):
            ledger.set(uid, "headshot", status="dead")
        else:
            damage = sum(h.damage for h in hits)
            conc = sum(h.concussion for h in hits)
            hp = before.hp - damage
            concussion = before.concussion + conc
            ledger.set(uid, "wounded" if damage else "concussed", hp=hp, concussion=concussion,
                       status=status_for(hp, concussion))
            wounds = [h for h in hits if h.damage > 0]
            unit = per_bravery(rules.morale.wound, before.stats["bravery"])
            if pellets and wounds:  # 8.12.6: 1-2 pellets one loss, 3-4 two
                ledger.morale(uid, -unit * (1 if len(wounds) <= 2 else 2), "shotgun wounds")
            elif wounds:
                ledger.morale(uid, -unit * len(wounds), "wounds")
            if conc:
                ledger.morale(uid, -per_bravery(rules.morale.concussion, before.stats["bravery"]) *
                              sum(1 for h in hits if h.concussion), "concussion")
                ledger.flag(uid, "concussed", "concussion: one action next turn")
        after = ledger.units[uid]
        if before.status != after.status:
            fallen(ledger, rules, attacker, before, after.status)


def fallen(ledger: Ledger, rules: RulesetDef, attacker: str | None, before: Unit, status: str) -> None:
    """6.5: +10 for a kill, +5 for a knock-out; every conscious comrade mourns a death."""
    if attacker is not None and ledger.units[attacker].side != before.side:
        if status == "dead":
            ledger.morale(attacker, rules.morale.kill, f"killed {before.name}")
        elif status == "unconscious" and before.status == "active":
            ledger.morale(attacker, rules.morale.stun, f"knocked out {before.name}")
    if status == "dead":
        for other in list(ledger.units.values()):
            if other.side == before.side and other.id != before.id and other.conscious:
                ledger.morale(other.id, -per_bravery(rules.morale.comrade_death, other.stats["bravery"]),
                              f"{before.name} died")
