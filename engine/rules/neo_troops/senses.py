"""Section 4: noticing cloaked units. A cloaked unit in a cell the enemy sees is not seen until a perception test
notices it; an unnoticed unit that attacked gives its cell away, and that cell may be shot at AV 6 (N-3.3)."""

from __future__ import annotations

from typing import Literal, Mapping, Sequence

import attrs

from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.rules.neo_troops import pools
from engine.rules.neo_troops.schema import Settings
from engine.rules.neo_troops.unit import Trooper

Latest = Literal["attacked", "ran", "moved", "stationary"]  # sighting.toml ids: the target's latest action


def perception_mods(observer: Trooper) -> pools.Mods:
    """N-4.2: 1 die + Perception (lost with head damage, which also costs −1 die per hit), severe wounds."""
    mods: list[tuple[str, int]] = [("base", 1)]
    if observer.perception_now:
        mods.append(("perception", observer.perception_now))
    if observer.head_hits:
        mods.append(("head damage", -observer.head_hits))
    if observer.wound_dice:
        mods.append(("severe wound", -observer.wound_dice))
    return tuple(mods)


def tn_for(target: Trooper, latest: Latest, observer_ran: bool, searching: bool, tables: dict) -> int | None:
    """N-4.3: the TN to notice `target`, 0 when no test is needed (not cloaked: seen in line of sight), None when
    no test is allowed (a still target, and the observer is not searching)."""
    if not target.cloaked:
        return 0
    row = tables["sighting"][latest]
    if row.search_only and not searching:
        return None
    s: Settings = tables["settings"]["default"]
    tn = pools.difficulty(tables, row.difficulty)
    return max(tn, pools.difficulty(tables, s.observer_ran)) if observer_ran else tn


@attrs.frozen
class Sighting:
    noticed: bool  # may be targeted normally until it leaves the observer's sight or the observer's next action ends
    known_cell: Pos | None  # unnoticed but its cell is known (it attacked): shots there are at AV 6
    roll: Roll | None = None


def spot(dice: Dice, observer: Trooper, target: Trooper, latest: Latest, cell: Pos, tables: dict,
         observer_ran: bool = False, searching: bool = False) -> Sighting:
    """N-4.4: one test by an enemy in line of sight when a cloaked unit completes an action."""
    tn = tn_for(target, latest, observer_ran, searching, tables)
    if tn == 0:
        return Sighting(True, cell)
    if tn is None:
        return Sighting(False, None)
    test = pools.check(dice, observer.id, f"perception of {target.id}", perception_mods(observer), tn)
    known = cell if test.success or latest == "attacked" else None
    return Sighting(test.success, known, test.roll)


@attrs.frozen(kw_only=True)
class Awareness:
    """What each observer has noticed of cloaked enemies, and the cells its side knows unseen enemies stand in."""

    noticed: frozenset[tuple[str, str]] = frozenset()  # (observer, target)
    known: frozenset[tuple[str, str, Pos]] = frozenset()  # (side, target, cell)

    def seen_by(self, observer: str, target: str) -> bool:
        return (observer, target) in self.noticed

    def known_cell(self, side: str, target: str) -> Pos | None:
        return next((c for s, t, c in self.known if s == side and t == target), None)


def noted(aw: Awareness, observer: Trooper, target: str, sighting: Sighting) -> Awareness:
    """N-4.4: a success notices the target; an unnoticed attacker gives its side its cell."""
    noticed = aw.noticed | {(observer.id, target)} if sighting.noticed else aw.noticed
    known = {k for k in aw.known if not (k[0] == observer.side and k[1] == target)}
    if sighting.known_cell is not None and not sighting.noticed:
        known.add((observer.side, target, sighting.known_cell))
    return Awareness(noticed=noticed, known=frozenset(known))


def observer_acted(aw: Awareness, observer: str) -> Awareness:
    """A notice lasts until the observer's next action ends."""
    return attrs.evolve(aw, noticed=frozenset(n for n in aw.noticed if n[0] != observer))


def out_of_sight(aw: Awareness, observer: str, target: str) -> Awareness:
    """...or until the target leaves the observer's line of sight."""
    return attrs.evolve(aw, noticed=aw.noticed - {(observer, target)})


def target_moved(aw: Awareness, target: str) -> Awareness:
    """A known cell is good until its unit moves (N-4.4)."""
    return attrs.evolve(aw, known=frozenset(k for k in aw.known if k[1] != target))


def pooled(units: Sequence[Trooper], own: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """What each unit of one side knows of the others from `own` (what each sees or noticed itself): a working
    mapping system, or none fitted, pools the side's sightings; a damaged or destroyed one (varan result 2)
    leaves the varan with its own and keeps its own from the others."""
    sharing = [u for u in units if u.mapping in (None, "working")]
    common = frozenset().union(*(own.get(u.id, frozenset()) for u in sharing))
    return {u.id: common if u in sharing else own.get(u.id, frozenset()) for u in units}


def ally_shown(ally: Trooper, in_own_sight: bool) -> bool:
    """An ally stays on the map unless its mapping system is out; then only a friend who sees it knows where."""
    return in_own_sight or ally.mapping in (None, "working")
