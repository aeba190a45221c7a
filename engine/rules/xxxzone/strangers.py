""""Thank you, Stranger!" (13, LCK 5): "each battle has a chance of local allied NPCs" (Interpretation: 10% per
operative with it, campaign.toml `stranger_chance`). At the start of a battle each squad operative with the
ability rolls d100; on `stranger_chance` or less a local joins the squad beside them, under the player's command
(the AI's in `simulate`): roster.toml's `stranger`, a civilian's numbers and no weapon of their own, eyes to spot
with and hands to carry, give and use what the squad hands them. They go home after the battle: a campaign keeps
no record of them. Behind settings.toml `strangers` (older content's logs have no such roll)."""

from __future__ import annotations

import attrs

from engine.content import field, missions
from engine.core.dice import Dice, Roll
from engine.core.events import Event, UnitSpawned
from engine.core.geometry import NEIGHBOURS
from engine.core.model import State
from engine.core.reducer import fold
from engine.rules.xxxzone import battle, forces
from engine.rules.xxxzone.battle import Combatant
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.units import changed, unit_of

ABILITY = "thank_you_stranger"
TEMPLATE = "stranger"
PURPOSE = "Thank you, Stranger!"


def arrivals(book: Book, state: State, dice: Dice) -> list[Event]:
    """The rolls of every squad operative with the ability, and the strangers who come (after the deployment)."""
    if not book.settings.strangers or TEMPLATE not in book.roster:
        return []
    chance = book.campaign.stranger_chance
    out: list[Event] = []
    now = state
    for u in sorted(state.side_units(missions.PLAYER), key=lambda u: u.id):
        c = u.record
        if not isinstance(c, Combatant) or ABILITY not in c.op.abilities:
            continue
        face, index = dice.d(100, u.id, PURPOSE)
        came = face <= chance
        roll = Roll(actor=u.id, purpose=PURPOSE, expr="1d100", faces=(face,), total=face, index=index,
                    formula=f"d100 {face} {'≤' if came else '>'} {chance}")
        cell = _beside(now, u.pos) if came else None
        if not came:
            out.append(changed(book, u, c, f"no stranger comes ({roll.formula})", (roll,)))
            continue
        if cell is None:
            out.append(changed(book, u, c, f"a stranger comes but finds no room beside them ({roll.formula})",
                               (roll,)))
            continue
        n = sum(1 for v in now.units.values() if v.template == TEMPLATE) + 1
        op = forces.operative(book, TEMPLATE, f"{TEMPLATE}_{n}", f"Stranger {n}")
        s = attrs.evolve(battle.deploy(book, op, missions.PLAYER, cell),
                         facing=NEIGHBOURS[field.FACING.get(missions.PLAYER, 0)])
        joined = [changed(book, u, c, f"Thank you, Stranger! A local joins the squad ({roll.formula})", (roll,)),
                  UnitSpawned(unit=unit_of(book, s, TEMPLATE, book.roster[TEMPLATE].glyph, "Human"))]
        out += joined
        now = fold(now, joined)
    return out


def _beside(state: State, at) -> tuple[int, int] | None:
    """The first free walkable square around `at`, clockwise from north."""
    taken = {v.pos for v in state.units.values() if v.status != "dead"}
    for dx, dy in NEIGHBOURS:
        cell = (at[0] + dx, at[1] + dy)
        if state.grid.inside(cell) and state.grid.walkable[cell[1], cell[0]] and cell not in taken:
            return cell
    return None
