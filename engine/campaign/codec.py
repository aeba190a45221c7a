"""Campaign commands and events to JSON and back. The ruleset's records and base are frozen attrs values; they go
through the strict converter (forbid extra keys), structured as the ruleset's own classes: the record class of its
`Creation`, the class of the base its `Downtime.begin` makes, and the class of a kit its loadout's `Outfitter`
chooses (a `Deploy`'s kits)."""

from __future__ import annotations

from typing import Any

import attrs
import cattrs
import cattrs.gen

from engine.campaign import decide as d
from engine.campaign import state as s
from engine.campaign.seam import UNCHANGED, Outcome, Timer
from engine.content.strict import make_converter
from engine.core.records import later_fields
from engine.core.dice import Roll

COMMANDS: dict[str, type] = {"begin": d.Begin, "advance": d.Advance, "give": d.Give, "deploy": d.Deploy,
                             "debrief": d.Debrief}
EVENTS: dict[str, type] = {"recruited": s.Recruited, "dawn": s.Dawn, "applied": s.Applied, "offered": s.Offered,
                           "scheduled": s.Scheduled, "missed": s.Missed, "launched": s.Launched, "landed": s.Landed}
_KIND = {cls: kind for kind, cls in {**COMMANDS, **EVENTS}.items()}


class CodecError(ValueError):
    pass


class Codec:
    def __init__(self, record: type | None, base: type | None, kit: type | None = None) -> None:
        self.record = record
        self.base = base
        self.kit = kit
        self.conv = make_converter()
        # a field added later (`engine.core.records.added`: an Order's site, a facility's) is left out while it
        # holds its default, so an older campaign log's events are dumped again byte for byte
        self.conv.register_unstructure_hook_factory(lambda t: isinstance(t, type) and bool(later_fields(t)),
                                                    self._lean)

    def _lean(self, cls: type) -> Any:
        return cattrs.gen.make_dict_unstructure_fn(
            cls, self.conv, **{name: cattrs.gen.override(omit_if_default=True) for name in later_fields(cls)})

    # -- records and the base --

    def dump_records(self, records: tuple[Any, ...]) -> list[dict[str, Any]]:
        return [self.conv.unstructure(r) for r in records]

    def load_records(self, data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise CodecError("its records are not a list")
        if data and self.record is None:
            raise CodecError("records of a ruleset that makes no characters")
        return tuple(self._structure(r, self.record, "a record") for r in data)

    def _structure(self, data: Any, cls: Any, what: str) -> Any:
        try:
            return self.conv.structure(data, cls)
        except Exception as exc:  # noqa: BLE001 - one line, whatever cattrs found
            raise CodecError(f"{what} does not read: {_first(exc)}") from None

    def dump_outcome(self, o: Outcome) -> dict[str, Any]:
        return {"records": self.dump_records(o.records),
                "base": None if o.base is UNCHANGED else self.conv.unstructure(o.base), "funding": o.funding,
                "timers": [self.conv.unstructure(t) for t in o.timers], "cancel": list(o.cancel),
                "rolls": [self.conv.unstructure(r) for r in o.rolls], "notes": list(o.notes), "dead": list(o.dead)}

    def load_outcome(self, data: Any) -> Outcome:
        if not isinstance(data, dict) or set(data) != {"records", "base", "funding", "timers", "cancel", "rolls",
                                                       "notes", "dead"}:
            raise CodecError("an outcome without its records, base, funding, timers, cancel, rolls, notes and dead")
        base = data["base"]
        if base is not None and self.base is None:
            raise CodecError("a base for a ruleset whose campaign has none")
        return Outcome(records=self.load_records(data["records"]),
                       base=UNCHANGED if base is None else self._structure(base, self.base, "the base"),
                       funding=self._structure(data["funding"], int, "its funding"),
                       timers=self._structure(data["timers"], tuple[Timer, ...], "a timer"),
                       cancel=self._structure(data["cancel"], tuple[str, ...], "its cancelled timers"),
                       rolls=self._structure(data["rolls"], tuple[Roll, ...], "a roll"),
                       notes=self._structure(data["notes"], tuple[str, ...], "its notes"),
                       dead=self._structure(data["dead"], tuple[str, ...], "its dead"))

    # -- commands and events --

    def dump(self, thing: Any) -> dict[str, Any]:
        kind = _KIND[type(thing)]
        if isinstance(thing, s.Applied):
            return {"kind": kind, "cause": thing.cause, "outcome": self.dump_outcome(thing.outcome)}
        if isinstance(thing, s.Recruited):
            return {"kind": kind, "records": self.dump_records(thing.records),
                    "rolls": [self.conv.unstructure(r) for r in thing.rolls]}
        if isinstance(thing, d.Deploy):  # without kits, the bytes a deployment always had
            kits = {"kits": [None if k is None else self.conv.unstructure(k) for k in thing.kits]} if thing.kits else {}
            return {"kind": kind, "offer": thing.offer, "names": list(thing.names), **kits}
        return {"kind": kind, **self.conv.unstructure(thing)}

    def load_command(self, data: Any) -> d.Command:
        return self._load(data, COMMANDS, "command")

    def load_event(self, data: Any) -> s.Event:
        return self._load(data, EVENTS, "event")

    def _load(self, data: Any, table: dict[str, type], what: str) -> Any:
        if not isinstance(data, dict) or data.get("kind") not in table:
            kind = data.get("kind") if isinstance(data, dict) else None
            raise CodecError(f"not a campaign {what} (kind {str(kind)[:40]!r})")
        body = {k: v for k, v in data.items() if k != "kind"}
        cls = table[data["kind"]]
        if cls is s.Applied:
            if set(body) != {"cause", "outcome"} or not isinstance(body["cause"], str):
                raise CodecError("an applied outcome without its cause")
            return s.Applied(body["cause"], self.load_outcome(body["outcome"]))
        if cls is s.Recruited:
            if set(body) != {"records", "rolls"}:
                raise CodecError("recruits without their records and rolls")
            return s.Recruited(self.load_records(body["records"]),
                               self._structure(body["rolls"], tuple[Roll, ...], "a roll"))
        if cls is d.Deploy and "kits" in body:
            if self.kit is None:
                raise CodecError("kits for a ruleset without a loadout")
            kits = self._structure(body.pop("kits"), tuple[self.kit | None, ...], "a kit")
            return attrs.evolve(self._structure(body, cls, "the deploy command"), kits=kits)
        return self._structure(body, cls, f"the {data['kind']} {what}")


def _first(exc: BaseException) -> str:
    subs = getattr(exc, "exceptions", None)
    while subs:
        exc = subs[0]
        subs = getattr(exc, "exceptions", None)
    return str(exc)[:120] or type(exc).__name__
