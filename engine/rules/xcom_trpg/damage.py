"""xcom-trpg 6.2-6.5 and 8.5: turning hits into HP, concussion, status and morale events."""

from __future__ import annotations

from typing import Any

import attrs

from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.events import UnitChanged
from engine.core.model import Unit, replace
from engine.core.records import Patch
from engine.rules.xcom_trpg.checks import per_bravery
from engine.rules.xcom_trpg.combat import Hit, Outcome, status_for
from engine.rules.xcom_trpg.record import EMPTY, Soldier, soldier

FIELDS = frozenset(a.name for a in attrs.fields(Soldier))


def touched(events: list) -> set[str]:
    """The units whose fields the events change: only these can have been hurt, woken or knocked down by the
    command (a move changes only where a unit stands and faces)."""
    return {e.unit for e in events if type(e) is UnitChanged}


class Ledger:
    """The units a decision touches, as they stand after it, and the events that changed them."""

    def __init__(self, units: dict[str, Unit]) -> None:
        self._base = units
        self._pending: dict[str, dict[str, Any]] = {}
        self._fields: dict[str, dict[str, Any]] = {}  # each unit's record fields changed so far, merged
        self._stale: set[str] = set()  # units whose changed record is not built yet (`_settle`)
        self._built: dict[str, Unit] | None = None
        self.events: list[UnitChanged] = []

    def _settle(self, uid: str | None = None) -> dict[str, dict[str, Any]]:
        """The pending changes, each changed record (or only `uid`'s) built once from its merged fields, however
        many changes it had: most are only read field by field (`get`) and never built."""
        todo = list(self._stale) if uid is None else [uid] if uid in self._stale else []
        for one in todo:
            self._pending[one]["record"] = Patch(Soldier.record_kind, self._fields[one]).onto(self._base[one].record)
            self._stale.discard(one)
        return self._pending

    @property
    def units(self) -> dict[str, Unit]:
        if self._built is None:  # one copy per touched unit, however many changes it had
            built = dict(self._base)
            for uid, changes in self._settle().items():
                built[uid] = replace(self._base[uid], changes)
            self._built = built
        return self._built

    def take(self) -> list[UnitChanged]:
        """The events so far, handed over once; the changed values stay known."""
        events, self.events = self.events, []
        return events

    @property
    def changes(self) -> dict[str, dict[str, Any]]:
        return self._settle()

    def unit(self, uid: str) -> Unit:
        pending = self._settle(uid).get(uid)
        return replace(self._base[uid], pending) if pending else self._base[uid]

    def ids(self) -> list[str]:
        return list(self._base)

    def get(self, uid: str, field: str) -> Any:
        """A unit's field, or its record's (stamina, morale, the turn's markers, ...)."""
        if field in FIELDS:
            changed = self._fields.get(uid)
            if changed is not None and field in changed:
                return changed[field]
            rec = self._base[uid].record
            return getattr(rec if rec is not None else EMPTY, field)
        pending = (self._settle(uid) if field == "record" else self._pending).get(uid)
        if pending is not None and field in pending:
            return pending[field]
        return getattr(self._base[uid], field)

    def set(self, uid: str, cause: str, **changes: Any) -> None:
        """One event: the unit's fields, and its record's (a patch of the ones that changed)."""
        pending = (self._settle(uid) if "record" in changes else self._pending).get(uid)
        base = self._base[uid]
        changed = self._fields.get(uid)
        rec = base.record if base.record is not None else EMPTY
        mine: dict[str, Any] = {}  # the record's fields that change, then the unit's (each read once, not by `get`)
        theirs: dict[str, Any] = {}
        for k, v in changes.items():
            if k in FIELDS:
                if (changed[k] if changed is not None and k in changed else getattr(rec, k)) != v:
                    mine[k] = v
            elif (pending[k] if pending is not None and k in pending else getattr(base, k)) != v:
                theirs[k] = v
        if not mine and not theirs:
            return
        if pending is None:
            pending = self._pending[uid] = {}
        if mine:
            if changed is None:
                changed = self._fields[uid] = {}
            changed.update(mine)
            pending.setdefault("record", None)  # its place among the unit's changes; built when asked
            self._stale.add(uid)
            theirs["record"] = Patch(Soldier.record_kind, mine)
        pending.update({k: v for k, v in theirs.items() if k != "record"})
        self._built = None
        self.events.append(UnitChanged(unit=uid, changes=theirs, cause=cause))

    def morale(self, uid: str, delta: int, cause: str) -> None:
        if self.get(uid, "status") == "dead" or delta == 0:
            return
        value = self.get(uid, "morale") + delta
        self.set(uid, cause, morale=max(0, min(self.get(uid, "morale_max"), value)))

    def set_fields(self, uid: str, cause: str, values: dict[str, Any]) -> None:
        """Record fields by name, in one event; None puts one back to its "none" (0, None, empty)."""
        self.set(uid, cause, **{k: getattr(EMPTY, k) if v is None else v for k, v in values.items()})

    def count(self, uid: str, field: str, key: str, cause: str, by: int = 1) -> None:
        """One more in a record's dict field (`special`, `bravery_seen`)."""
        table = self.get(uid, field)
        self.set(uid, cause, **{field: {**table, key: table.get(key, 0) + by}})

    def keyed(self, uid: str, cause: str, field: str, values: dict[str, int | None]) -> None:
        """A record's dict field with some keys set; None removes one."""
        table = dict(self.get(uid, field))
        for k, v in values.items():
            if v is None:
                table.pop(k, None)
            else:
                table[k] = v
        self.set(uid, cause, **{field: table})


def apply_crits(ledger: Ledger, rules: RulesetDef, crits: dict[str, list[str]]) -> None:
    """3.4-3.5: +50/-50 morale and a + or - token per critical roll."""
    for uid, kinds in crits.items():
        for kind in kinds:
            if kind == "success":
                ledger.morale(uid, rules.morale.crit_success, "critical success")
                ledger.set(uid, "critical success token", crit_plus=ledger.get(uid, "crit_plus") + 1)
            else:
                ledger.morale(uid, -rules.morale.crit_failure, "critical failure")
                ledger.set(uid, "critical failure token", crit_minus=ledger.get(uid, "crit_minus") + 1)


def apply_hits(ledger: Ledger, rules: RulesetDef, attacker: str, outcome: Outcome, *, pellets: bool) -> None:
    """HP, concussion and wound morale per target, then kills, knock-outs and comrades' grief."""
    by_target: dict[str, list[Hit]] = {}
    for hit in outcome.hits:
        by_target.setdefault(hit.target, []).append(hit)
    for uid, hits in by_target.items():
        before = ledger.unit(uid)
        if before.status == "dead":
            continue
        if any(h.kind == "kill" for h in hits):
            ledger.set(uid, "headshot", status="dead")
        else:
            damage = sum(h.damage for h in hits)
            conc = sum(h.concussion for h in hits)
            hp = before.hp - damage
            concussion = soldier(before).concussion + conc
            ledger.set(uid, "wounded" if damage else "concussed", hp=hp, concussion=concussion,
                       status=status_for(hp, concussion))
            wounds = [h for h in hits if h.damage > 0]
            unit = per_bravery(rules.morale.wound, soldier(before).stats["bravery"])
            if pellets and wounds:  # 8.12.6: 1-2 pellets one loss, 3-4 two
                ledger.morale(uid, -unit * (1 if len(wounds) <= 2 else 2), "shotgun wounds")
            elif wounds:
                ledger.morale(uid, -unit * len(wounds), "wounds")
            if conc:
                ledger.morale(uid, -per_bravery(rules.morale.concussion, soldier(before).stats["bravery"]) *
                              sum(1 for h in hits if h.concussion), "concussion")
                ledger.set(uid, "concussion: one action next turn", concussed=True)
        status = ledger.get(uid, "status")
        if before.status != status:
            fallen(ledger, rules, attacker, before, status)


def fallen(ledger: Ledger, rules: RulesetDef, attacker: str | None, before: Unit, status: str) -> None:
    """6.5: +10 for a kill, +5 for a knock-out; every conscious comrade mourns a death."""
    if attacker is not None and ledger.get(attacker, "side") != before.side:
        if status == "dead":
            ledger.morale(attacker, rules.morale.kill, f"killed {before.name}")
        elif status == "unconscious" and before.status == "active":
            ledger.morale(attacker, rules.morale.stun, f"knocked out {before.name}")
    if status == "dead":
        for uid in ledger.ids():
            if uid != before.id and ledger.get(uid, "side") == before.side and ledger.get(uid, "status") == "active":
                bravery = ledger.get(uid, "stats")["bravery"]
                ledger.morale(uid, -per_bravery(rules.morale.comrade_death, bravery), f"{before.name} died")
