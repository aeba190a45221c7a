"""xcom-trpg 4.6: item search in the zones a mission declares searchable.

`Act(unit, "search", option=<item wanted on a crit>)` in or next to a cell of the zone:
`Luck*3 + 1d100`, no luck check, ends the turn. What is found is recorded as the finder's counter
`found["<zone>_<row>"]`: what is left of a zone's table is read from every unit's record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Act, Rejected
from engine.content.models import Content, Loot
from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Resolved
from engine.map.grid import Pos, distance
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xcom_trpg.combat import effective_stat
from engine.rules.xcom_trpg.damage import Ledger, apply_crits
from engine.content.scenario import Verdict
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg.scenario import Action
    from engine.rules.xcom_trpg import XcomTrpg

SEARCH_LUCK = 3  # 4.6: Luck*3 + 1d100


def search_roll(dice: Dice, rules: RulesetDef, unit: Unit, rows: list[tuple[int, Loot]],
                wanted: str | None) -> tuple[Roll, tuple[int, Loot] | None]:
    """The roll and the row found: on a crit success the wanted item (default the best), on a crit
    failure nothing, else the row whose score range holds the total."""
    luck = effective_stat(unit, "luck")
    face, index = dice.d(100, unit.id, "search")
    total = luck * SEARCH_LUCK + face
    crit = "success" if face >= rules.crit_success_min else "failure" if face <= rules.crit_failure_max else None
    formula = f"search luck {luck}*{SEARCH_LUCK}+{face}={total}"
    found = next(((i, r) for i, r in rows if r.min <= total <= r.max), None)
    if crit == "success":
        formula += f" → critical success ({rules.crit_success_min}-100): pick from the list"
        chosen = [(i, r) for i, r in rows if r.item == wanted]
        found = (chosen or sorted(rows, key=lambda ir: (ir[1].max, ir[1].min)))[-1] if rows else None
    elif crit == "failure":
        formula += f" → critical failure (1-{rules.crit_failure_max}): nothing"
        found = None
    roll = Roll(actor=unit.id, purpose="search", expr="1d100", faces=(face,), formula=formula, total=total,
                crit=crit, index=index)
    return roll, found


def searchable(rs: "XcomTrpg", pos: Pos) -> str | None:
    """The searchable zone in or next to `pos`."""
    if rs.setup is None:
        return None
    for zone in rs.setup.mission.search:
        if any(distance(pos, c) <= 1 for c in rs.setup.spawns.get(zone, ())):
            return zone
    return None


def left(rs: "XcomTrpg", state: State, zone: str) -> list[tuple[int, Loot]]:
    assert rs.setup is not None
    rows = rs.setup.mission.search[zone].loot
    return [(i, r) for i, r in enumerate(rows)
            if not any(soldier(u).found.get(f"{zone}_{i}") for u in state.units.values())]


def _name(content: Content, item: str) -> str:
    thing = xcom(content).items.get(item) or xcom(content).weapons.get(item)
    return thing.name.lower() if thing else item


def search(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    zone = searchable(rs, unit.pos)
    if zone is None or rs.setup is None:
        return Rejected("nothing_to_search", f"{unit.name} is not at a place this mission lets you search (4.6)")
    rows = left(rs, state, zone)
    place = rs.setup.mission.search[zone].text or zone
    if not rows:
        return Rejected("searched_out", f"{place}: nothing is left to find")
    roll, found = search_roll(dice, rs.rules, unit, rows, cmd.option)
    dice.note(roll, f"missions [{rs.setup.mission_id}].search.{zone}.loot: "
                    + ", ".join(f"{r.item} {r.min}-{r.max}" for _, r in rows) + " (4.6), no luck check")
    ledger = Ledger(state.units)
    ledger.set(unit.id, "searches: the turn ends (4.2)", actions=0)
    if roll.crit:
        apply_crits(ledger, rs.rules, {unit.id: [roll.crit]})
    if found is not None:
        i, row = found
        ledger.count(unit.id, "found", f"{zone}_{i}", f"found a {_name(rs.content, row.item)}")
        items = ledger.get(unit.id, "items")
        ledger.set(unit.id, f"finds a {_name(rs.content, row.item)}", items=dict(items, **{row.item: items.get(row.item, 0) + 1}))
    what = f"finds a {_name(rs.content, found[1].item)}" if found else "finds nothing"
    return [Resolved(actor=unit.id, action="search", cell=unit.pos, rolls=(roll,),
                     outcome="found" if found else "nothing", text=f"{unit.name} searches {place}: {what}"),
            *ledger.events]


def options(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    zone = searchable(rs, unit.pos)
    if soldier(unit).actions < 1 or zone is None or rs.setup is None or not left(rs, state, zone):
        return []
    return [Option(group="Scenery", label=f"Search: {rs.setup.mission.search[zone].text or zone}",
                         command=Act(unit=unit.id, action="search"),
                         note="Luck*3 + 1d100, no luck check; ends your turn (4.6)")]


def search_referee(content: Content, rules: RulesetDef, units: dict[str, Unit], action: Action,
                   dice: Dice) -> Verdict:
    unit = units[action.actor]
    rows = [(i, Loot(item=r.item, min=r.min, max=r.max)) for i, r in enumerate(action.loot)]
    roll, found = search_roll(dice, rules, unit, rows, None)
    ledger = Ledger(units)
    if roll.crit:
        apply_crits(ledger, rules, {unit.id: [roll.crit]})
    if found is not None:
        item = found[1].item
        ledger.set(unit.id, f"finds a {item}", items=dict(unit.items, **{item: unit.items.get(item, 0) + 1}))
    summary = f"{unit.name} searches: " + (f"finds {found[1].item}" if found else "finds nothing")
    return Verdict([roll], units, ledger.changes, summary)
