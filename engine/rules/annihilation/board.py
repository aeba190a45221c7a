"""The battle record on `State.record` (annihilation.field): what lies on the map besides units and tiles — primed
explosives (A-17.7), clouds of smoke and burning squares (A-17.8, A-17.9), the motion sensor's blips (A-13.3) and
the things put down on the ground (A-12.2, settings `ground_items`: floor.py).

`clouds`, `blips`, `ground` and `sightings` came after `lying`: they drop out of the log and the state hash while empty (records.added);
so does the storey `z` of a cloud or an explosive while it is the ground's."""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core.geometry import Pos
from engine.core.model import State
from engine.core.records import added, lean, record
from engine.rules.annihilation.inventory import Carried


@lean
@attrs.frozen
class Lying:
    """A primed explosive on the ground: where (and on which storey), whose phase counts its fuse, the turn it goes
    off at that phase's end (0 for a proximity grenade or a mine, which wait for a unit), and who primed it."""

    item: str
    cell: Pos
    side: str
    turn: int
    owner: str
    z: int = added(0)


@lean
@attrs.frozen
class Cloud:
    """Smoke or fire on some squares of storey `z`, from a blast in turn `since`, until turn `until` starts."""

    kind: Literal["smoke", "fire"]
    cells: tuple[Pos, ...]
    since: int
    until: int
    z: int = added(0)


@lean
@attrs.frozen
class Blip:
    """A-13.3: a square where `side`'s motion sensor found a unit that had moved, shown to that side until its next
    phase starts, on the storey `z` the unit stood on (settings `sensor_storeys`; 0 without it)."""

    side: str
    cell: Pos
    z: int = added(0)


@lean
@attrs.frozen
class Dropped:
    """A thing lying on the ground apart from any unit: its square, its storey, and the thing as it was carried
    (a weapon with its rounds), its place "floor"."""

    cell: Pos
    z: int
    item: Carried


@attrs.frozen
class Sighting:
    """A-7.6 (optional, settings `spotting_roll`: spotting.py): `watcher` rolled to spot the enemy `target` standing
    in smoke, and `seen` says whether it did; it holds while the target stays in smoke in the watcher's sight."""

    watcher: str
    target: str
    seen: bool


@record("annihilation.field")
@lean
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step
class Field:
    lying: tuple[Lying, ...] = ()
    clouds: tuple[Cloud, ...] = added(())
    blips: tuple[Blip, ...] = added(())
    ground: tuple[Dropped, ...] = added(())
    sightings: tuple[Sighting, ...] = added(())


def field_of(state: State) -> Field:
    return state.record if isinstance(state.record, Field) else Field()


def lying(state: State) -> tuple[Lying, ...]:
    return field_of(state).lying


def covered(state: State, kind: str, z: int = 0) -> frozenset[Pos]:
    """Every square of storey z a live cloud of that kind covers."""
    return frozenset(c for cloud in field_of(state).clouds if cloud.kind == kind and cloud.z == z for c in cloud.cells)
