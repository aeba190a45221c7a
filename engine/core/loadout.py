"""The loadout before a mission as data: what a ruleset lets a player choose for each roster character it deploys
(armour, weapon, sights, what rides on the belt), and what the choice makes.

A ruleset with such choices returns an `Outfitter` from `Ruleset.loadout()`; the others return None and the
client skips the step. The client draws each character's `Pick`s and `summary`, puts every change to `choose`,
and deploys the records it gave back: the choice lives on the roster record, so the log's header holds it with
the squad (engine.play.roster.to_header) and a replay deploys the same kit. The client never knows an item's name.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs


@attrs.frozen
class Pick:
    """One line of a character's loadout: a choice among `options` ((id, label), the current one `value`), or,
    with `count`, a number of something carried (`value` its count as text, options ("-", "+"))."""

    id: str
    label: str
    value: str
    options: tuple[tuple[str, str], ...] = ()
    count: bool = False


class Outfitter(Protocol):
    def picks(self, mission_id: str, place: int, record: Any) -> tuple[Pick, ...]:
        """The loadout lines of the record deployed in the mission's squad place `place` (0: the first)."""

    def summary(self, mission_id: str, place: int, record: Any) -> tuple[str, ...]:
        """What the kit amounts to under the ruleset's rules, a line each (annihilation: where each thing rides,
        the encumbrance and the TU it leaves)."""

    def choose(self, mission_id: str, place: int, record: Any, pick: str, option: str) -> Any | str:
        """The record with `pick` set to `option` (a count pick: "-" or "+"), or why not, in one line."""
