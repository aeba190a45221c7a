"""The kernel's Unit and xxxzone's Combatant record kept in step: a unit's position, status, health summary and
weapon are read from its record, so every change is one UnitChanged carrying the new record and what follows
from it. Also the battle's own record (cover HP worn by shots, and who has spotted whom)."""

from __future__ import annotations

import attrs

from engine.core.events import UnitChanged
from engine.core.geometry import NEIGHBOURS, Pos
from engine.core.model import Unit
from engine.core.records import added, lean, record
from engine.rules.xxxzone.battle import Combatant, Held
from engine.rules.xxxzone.book import Book

# The panel's health bar (Interpretation): 10 less the wounds weighted by tier, a summary only; the sheet and
# the rules count the wounds themselves.
WEIGHT = {"minor": 1, "severe": 2, "mortal": 4, "lethal": 8}
HEALTH = 10


@record("xxxzone.battle")
@lean  # smoke and charges came later: left out of the dump while empty
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step
class Battle:
    """State.record: cover HP left where shots wore it (a square absent is whole), each side's sightings, the
    smoke clouds standing, the C4 placed, where each side last heard a shot and the items on the ground."""

    cover: tuple[tuple[Pos, int], ...] = ()
    seen: tuple[tuple[str, tuple[str, ...]], ...] = ()  # side -> ids of the other sides' units it has spotted
    smoke: tuple[tuple[Pos, int, int, str], ...] = added(())  # smoke clouds: centre, radius, turns left, thrower's side
    charges: tuple[tuple[Pos, str], ...] = added(())  # C4 placed: its square, who placed it (their Detonator sets it off)
    heard: tuple[tuple[str, Pos, int], ...] = added(())  # side -> the last unsuppressed shot it heard: where, phase
    ground: tuple[tuple[Pos, Held], ...] = added(())  # items dropped: the square, the item as it was held (ground.py)

    def cover_hp(self) -> dict[Pos, int]:
        return {tuple(p): hp for p, hp in self.cover}  # type: ignore[misc]

    def alarm(self, side: str, phase: int) -> tuple[Pos, ...]:
        """Where the side heard its enemies fire in this phase or the one before (10: the alert radius)."""
        return tuple(tuple(at) for s, at, when in self.heard if s == side and when >= phase - 1)  # type: ignore[misc]

    def sightings(self, side: str) -> frozenset[str]:
        return next((frozenset(ids) for s, ids in self.seen if s == side), frozenset())


def battle(state) -> Battle:
    return state.record if isinstance(state.record, Battle) else Battle()


def health(c: Combatant) -> int:
    if c.condition.dead:
        return 0
    w = c.condition.wounds
    return max(0, HEALTH - sum(n * w.count(t) for t, n in WEIGHT.items()))


def status(c: Combatant) -> str:
    if c.condition.dead:
        return "dead"
    return "active" if c.condition.can_act else "unconscious"


def facing_index(v: Pos, default: int = 0) -> int:
    return NEIGHBOURS.index(v) if v in NEIGHBOURS else default


def derived(book: Book, c: Combatant, unit: Unit | None = None) -> dict[str, object]:
    """The Unit fields that follow from the record; given the unit, only those that change. Every unit's fields
    were derived from its record (here), so a condition or belt handed on unchanged leaves them as they are."""
    if unit is None:
        return {"record": c, "status": status(c), "hp": health(c), "items": _counts(c.belt)}
    was = unit.record
    out: dict[str, object] = {"record": c}
    if not isinstance(was, Combatant) or c.condition is not was.condition:
        if (now := status(c)) != unit.status:
            out["status"] = now
        if (now := health(c)) != unit.hp:
            out["hp"] = now
    if not isinstance(was, Combatant) or c.belt is not was.belt:
        if (now := _counts(c.belt)) != unit.items:
            out["items"] = now
    return out


def _counts(belt: tuple[str, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in belt:
        out[item] = out.get(item, 0) + 1
    return out


def changed(book: Book, unit: Unit, c: Combatant, cause: str, rolls=()) -> UnitChanged:
    c = _broken(book, unit.record, c)
    return UnitChanged(unit=unit.id, changes=derived(book, c, unit), cause=cause, rolls=tuple(rolls))


def _broken(book: Book, was: Combatant | None, c: Combatant) -> Combatant:
    """4 (Interpretation): becoming Stunned, Unconscious or Disoriented breaks a continuing action (a med-kit,
    a hack, a lock); here, where every change of a record passes, so no cause of a status can miss it. Behind
    settings.toml `status_breaks` (older content's logs kept the action)."""
    if not book.settings.status_breaks or c.turn.continuing is None or not isinstance(was, Combatant):
        return c
    old, new = was.condition, c.condition
    if new.stunned > old.stunned or new.disoriented > old.disoriented or (new.unconscious and not old.unconscious) \
            or (new.dead and not old.dead):
        return attrs.evolve(c, turn=attrs.evolve(c.turn, continuing=None))
    return c


def unit_of(book: Book, c: Combatant, template: str, glyph: str, race: str) -> Unit:
    d = derived(book, c)
    return Unit(id=c.id, name=c.op.name, template=template, race=race, side=c.side, glyph=glyph, pos=c.at,
                facing=facing_index(c.facing), hp=int(d["hp"]), hp_max=HEALTH,
                items=_counts(c.belt), status=d["status"], record=c)
