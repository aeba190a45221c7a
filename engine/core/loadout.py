"""The loadout before a mission as data: what a ruleset lets a player choose for each roster character it deploys
(armour, weapon, sights, what rides on the belt), and what the choice makes.

A ruleset with such choices returns an `Outfitter` from `Ruleset.loadout()`; the others return None and the
client skips the step. The client draws each character's `Pick`s and `summary`, puts every change to `choose`,
and deploys the records it gave back: the choice lives on the roster record, so the log's header holds it with
the squad (engine.play.roster.to_header) and a replay deploys the same kit. The client never knows an item's name.

In a campaign the kit comes out of the base's stores (`stores`: thing id -> how many the base holds; None: no
stores, anything goes): each soldier is offered what the stores hold less what the others deployed with them
take (`left_for`), and the campaign's `Deploy` records each one's `kit` (engine.campaign.decide).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


Held = Mapping[str, int]  # thing id -> how many


class Outfitter(Protocol):
    kit: type  # the class of a record's chosen kit, as the campaign log stores it

    def picks(self, mission_id: str, place: int, record: Any, left: Held | None = None) -> tuple[Pick, ...]:
        """The loadout lines of the record deployed in the mission's squad place `place` (0: the first); `left`:
        what the stores have left for it (None: anything)."""

    def summary(self, mission_id: str, place: int, record: Any) -> tuple[str, ...]:
        """What the kit amounts to under the ruleset's rules, a line each (annihilation: where each thing rides,
        the encumbrance and the TU it leaves)."""

    def choose(self, mission_id: str, place: int, record: Any, pick: str, option: str,
               left: Held | None = None) -> Any | str:
        """The record with `pick` set to `option` (a count pick: "-" or "+"), or why not, in one line; a thing
        beyond what `left` holds is refused."""

    def kit_of(self, record: Any) -> Any | None:
        """The record's chosen kit (None: its squad place's own)."""

    def wearing(self, mission_id: str, place: int, record: Any, kit: Any | None) -> Any | str:
        """The record deployed with `kit` (None: as it stands), the kit written out whole so the next mission
        starts from it; or why the rules refuse it, in one line."""

    def needs(self, mission_id: str, place: int, record: Any) -> dict[str, int]:
        """What the record's kit takes out of the stores: thing id -> how many."""

    def within(self, mission_id: str, place: int, record: Any, left: Held) -> Any:
        """The record with its kit cut down to what `left` holds (the campaign AI's kit, the loadout's start)."""

    def stores(self, base: Any) -> Held | None:
        """What a campaign's base holds to issue, or None: no stores (every thing on offer)."""

    def name(self, thing: str) -> str:
        """A thing's name for a refusal."""


def left_for(held: Held, taken: Sequence[Mapping[str, int]]) -> dict[str, int]:
    """What the stores have left once the others' kits (`taken`) are issued."""
    out = dict(held)
    for kit in taken:
        for thing, n in kit.items():
            out[thing] = out.get(thing, 0) - n
    return out


def shortfall(held: Held, taken: Sequence[Mapping[str, int]], name: Any = str) -> str | None:
    """Why the stores cannot issue these kits together ("the stores hold 2 Hand grenade; the squad takes 3"), or
    None."""
    left = left_for(held, taken)
    short = sorted(thing for thing, n in left.items() if n < 0)
    if not short:
        return None
    thing = short[0]
    return f"the stores hold {held.get(thing, 0)} {name(thing)}; the squad takes {held.get(thing, 0) - left[thing]}"
