"""Events are facts: what happened, with the dice that decided it. Every ruleset speaks these."""

from __future__ import annotations

from typing import Any, ClassVar, Union

import attrs

from engine.core.dice import Roll
from engine.core.geometry import Pos
from engine.core.model import Unit


@attrs.frozen(kw_only=True)
class UnitSpawned:
    kind: ClassVar[str] = "spawned"
    unit: Unit
    rolls: tuple[Roll, ...] = ()


@attrs.frozen(kw_only=True)
class PhaseStarted:
    kind: ClassVar[str] = "phase"
    phase: int
    rolls: tuple[Roll, ...] = ()


@attrs.frozen(kw_only=True)
class SideStarted:
    kind: ClassVar[str] = "side"
    side: str
    rolls: tuple[Roll, ...] = ()


@attrs.frozen(kw_only=True)
class Moved:
    kind: ClassVar[str] = "moved"
    unit: str
    path: tuple[Pos, ...]
    facing: int
    levels: tuple[int, ...] = ()  # the storey of each cell of `path`; (): the unit stays on its storey
    rolls: tuple[Roll, ...] = ()


@attrs.frozen(kw_only=True)
class UnitChanged:
    """New values for some of a unit's fields; `cause` says why, for the message log."""

    kind: ClassVar[str] = "changed"
    unit: str
    changes: dict[str, Any]
    cause: str
    rolls: tuple[Roll, ...] = ()


@attrs.frozen(kw_only=True)
class Resolved:
    """An interaction decided by dice: the rolls and the verdict, as the roll log prints it."""

    kind: ClassVar[str] = "resolved"
    actor: str
    action: str  # shoot, throw, panic, ...
    target: str | None = None
    cell: Pos | None = None
    weapon: str | None = None
    mode: str | None = None
    rolls: tuple[Roll, ...]
    outcome: str  # hit, miss, dodged, headshot, ...
    text: str


@attrs.frozen(kw_only=True)
class TileChanged:
    kind: ClassVar[str] = "tile"
    pos: Pos
    tile: str
    z: int = 0  # the storey (engine.map.levels); 0, the ground, is left out of the log as before storeys
    rolls: tuple[Roll, ...] = ()


@attrs.frozen(kw_only=True)
class MissionEnded:
    kind: ClassVar[str] = "ended"
    winner: str
    reason: str
    rolls: tuple[Roll, ...] = ()


@attrs.frozen(kw_only=True)
class Noted:
    """The ruleset's own record of the battle (`State.record`: an initiative order, covering-fire areas, what each
    side has noticed...) is now `record`, a `records.record` class, replaced whole; `cause` says why."""

    kind: ClassVar[str] = "noted"
    record: Any
    cause: str
    rolls: tuple[Roll, ...] = ()


Event = Union[UnitSpawned, PhaseStarted, SideStarted, Moved, UnitChanged, Resolved, TileChanged, MissionEnded, Noted]
EVENT_TYPES: dict[str, type] = {t.kind: t for t in Event.__args__}  # type: ignore[attr-defined]
