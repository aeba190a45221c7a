"""What the client asks of annihilation about a throw or a blast: what a unit can throw and how far, the odds of
landing and who the blast strikes (A-14.11, section 17), and the squares a blast or a shot's round covers."""

from __future__ import annotations

from engine.core.commands import Rejected
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.ruleset import Row, Throwable, ThrowPreview
from engine.rules.annihilation import attacks, clouds, fuses, hits
from engine.rules.annihilation.acts import throw_price
from engine.rules.annihilation.blast import cells, falloff, side_hit, spaces_from
from engine.rules.annihilation.soldier import grenades, gun
from engine.rules.annihilation.space import between


class ThrowQueries:
    """Methods of the ruleset (`play.Annihilation` through `queries.Queries`): `self` is the ruleset."""

    def throwables(self, state: State, unit: Unit) -> list[Throwable]:
        if unit.record is None:
            return []
        ids = [g.id for g in grenades(unit.record, self.book) if self.book.explosives[g.id].trigger != "mine"]
        out = []
        for i in sorted(set(ids)):
            ready = fuses.primed_of(unit, i)
            label = self.name(i) + (f" (primed, turn {ready.primed})" if ready and ready.primed else
                                    " (primed)" if ready else "")
            out.append(Throwable(i, label, ids.count(i)))
        return sorted(out, key=lambda t: fuses.primed_of(unit, t.item) is None)  # a primed one is offered first

    def throw_range(self, state: State, unit: Unit, item: str) -> int:
        if item not in self.book.explosives:
            return 0
        return attacks.throw_range(self.book, unit.record.fighter, self.book.explosives[item].size)

    def preview_throw(self, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
        unit = state.units.get(thrower)
        if unit is None or item not in {t.item for t in self.throwables(state, unit)}:
            return Rejected("no_item", "Nothing of that kind to throw")
        if not state.grid.inside(cell) or not clouds.sees(self, state, unit.pos, cell, unit.z, unit.z):
            return Rejected("no_line_of_sight", f"{cell[0]},{cell[1]} is not in sight")
        if cell == unit.pos:
            return Rejected("too_close", "Throw it at another square")
        e = self.book.explosives[item]
        cost = throw_price(self, unit, item)
        if cost.tu > unit.record.fighter.tu_left:
            return Rejected("no_tu", f"Bringing out, priming and throwing costs {cost.tu} TU; "
                                     f"{unit.record.fighter.tu_left} left")
        spaces = between(self.book.settings.grid, unit.pos, cell)
        odds = attacks.throw_odds(self.book, unit.record.fighter, e.size, spaces)
        if isinstance(odds, Rejected):
            return odds
        p = max(0, min(100, odds.chance)) / 100
        struck = []
        for c in cells(self.book, cell, e.radius):
            for u in state.units_at(c, unit.z):
                amount = falloff(e.damage, spaces_from(self.book, cell, c), e.radius)
                side = side_hit(cell, c, u.facing, "grenade", grid=self.book.settings.grid)
                struck.append((u.id, Row(u.name, f" {amount} on {side} (AV {u.record.fighter.armour.av}) ")))
        lines = (Row("Lands", f" {odds.chance}% ({odds.text}) "), Row("TU", f" {cost.tu} ({cost.text}) "),
                 Row("Scatter", f" else d8 way, d{1 + spaces // 4} spaces "))
        return ThrowPreview(p_land=p, lines=lines, hits=tuple(struck))

    def blast(self, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
        radius = self.book.explosives[item].radius if item in self.book.explosives else 0
        return tuple(c for c in cells(self.book, cell, radius) if state.grid.inside(c))

    def shot_blast(self, state: State, unit: Unit, cell: Pos) -> tuple[Pos, ...]:
        g = gun(unit.record, self.book) if unit.record is not None else None
        rnd = hits.round_of(self.book, g.id, g.loaded) if g is not None and g.rounds else None
        if rnd is None or isinstance(rnd, Rejected) or rnd.radius < 0:
            return ()
        return tuple(c for c in cells(self.book, cell, rnd.radius) if state.grid.inside(c))
