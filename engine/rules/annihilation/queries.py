"""What the client and the AI ask of annihilation without deciding anything: whose phase it is, who a side sees, what
a unit can still pay for (TU, priced walks), what the map marks; by topic, the rest: shots (shot_queries), throws and
blasts (throw_queries), the unit panel and action menu (unit_queries), the AI's own questions (ai_queries)."""

from __future__ import annotations

from engine.content import missions
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.ruleset import Plain, Budget, Mark, Turn, Walk
from engine.rules.annihilation import board, fire, floor, fuses, ground, moves, spotting
from engine.rules.annihilation.soldier import gun, name_of, shooters
from engine.rules.annihilation.space import between
from engine.rules.annihilation.ai_queries import AiQueries
from engine.rules.annihilation.shot_queries import ShotQueries
from engine.rules.annihilation.throw_queries import ThrowQueries
from engine.rules.annihilation.unit_queries import UnitQueries


class Queries(ShotQueries, ThrowQueries, UnitQueries, AiQueries, Plain):
    """The `Ruleset` protocol's questions, the topics' classes joined (`play.Annihilation` is one)."""

    def turn(self, state: State) -> Turn:
        if state.winner is not None or not state.side:
            return Turn(side="")
        who = "X-COM" if state.side == missions.PLAYER else state.side.capitalize()
        return Turn(side=state.side, label=f"{who} phase, turn {state.phase}")

    def spotted(self, state: State, side: str) -> frozenset[str]:
        """The enemies the side sees: asked before and after every command that may bring one into sight
        (practice.py), so the answers are kept for this grid by all they read: where every unit stands and
        whether it is up, the clouds, the spotting rolls held."""
        field = board.field_of(state)
        key = (side, field.clouds, field.sightings if self.book.settings.spotting_roll else (),
               tuple([(u.id, u.side, u.status, u.pos, u.z) for u in state.units.values()]))
        kept = self._spotted
        if kept.get("grid") is not state.grid or len(kept) > 256:  # bounded: a long mission stands in many places
            kept.clear()
            kept["grid"] = state.grid
        found = kept.get(key)
        if found is None:
            found = kept[key] = self._spotted_now(state, side)
        return found

    def _spotted_now(self, state: State, side: str) -> frozenset[str]:
        seen = self.sight_levels(state, side)
        return frozenset(u.id for u in state.units.values() if u.side != side and u.z < len(seen)
                         and seen[u.z, u.pos[1], u.pos[0]] and spotting.seen(self, state, side, u))

    def _mine(self, state: State, unit: Unit) -> bool:
        return (state.winner is None and unit.side == state.side and unit.conscious and unit.record is not None
                and not unit.record.done)

    def walk(self, state: State, unit: Unit) -> Walk:
        f = unit.record.fighter
        legless = any(self.book.body[p].part == "leg" for p in f.lost)
        return ground.walk(self.book, self.ground, state.grid, self._walks,
                           self.book.settings.crawl_multiplier if legless else 1, moves.flies(self.book, f))

    def budget(self, state: State, unit: Unit) -> Budget:
        f = unit.record.fighter
        mine = self._mine(state, unit)
        can_walk = f.stance == "standing" or (f.stance == "prone" and any(self.book.body[p].part == "leg"
                                                                          for p in f.lost))
        moves_left = min(f.tu_left, f.energy) if mine and can_walk else 0
        g = gun(unit.record, self.book)
        shot = min((fire.shot_tu(self.book, f, g.id, m) for m in self.book.weapons[g.id].modes), default=0) \
            if g is not None and g.rounds else 0
        step = moves_left - shot if shot and shot <= f.tu_left else moves_left
        reserve = self._reserve(unit)
        label = f"TU {f.tu_left}/{f.tu_turn}" + ("" if mine or unit.side != state.side else " · done")
        return Budget(label=label, can_act=mine and f.tu_left >= self.book.costs["walk"].tu, moves_left=moves_left,
                      step=max(0, min(step - reserve, moves_left)), reserve=min(reserve, moves_left),
                      walk=self.walk(state, unit))

    def _reserve(self, unit: Unit) -> int:
        """The TU a unit's AI walks keep for opportunity fire in the enemy's phase (A-14.9): its profile's firing mode
        (units.toml `reserve`) with the weapon it holds, or the level's share of its allowance for an alien
        (difficulty.toml `reserve_percent`), whichever is more."""
        f = unit.record.fighter
        level = f.tu_turn * self.hardship.reserve_percent // 100 \
            if unit.side == missions.ALIENS and self.hardship is not None else 0
        t = self.units.get(unit.template)
        g = gun(unit.record, self.book)
        if t is None or not t.reserve or g is None or not g.rounds:
            return level
        modes = self.book.weapons[g.id].modes
        mode = t.reserve if t.reserve in modes else min(modes, key=lambda m: fire.shot_tu(self.book, f, g.id, m))
        return max(level, fire.shot_tu(self.book, f, g.id, mode))

    def distance(self, a: Pos, b: Pos) -> int:
        return between(self.book.settings.grid, a, b)

    def name(self, thing: str) -> str:
        return name_of(self.book, thing)

    def inventory(self, state: State, unit: Unit):
        from engine.rules.annihilation import stowing

        return stowing.screen(self, state, unit) if unit.record is not None else None

    def heard(self, state: State, side: str) -> tuple[Pos, ...]:
        """Where its enemies have fired from since the side's last phase (settings `shots_seen`): its AI hunts
        there, as OpenXcom's aliens go for a soldier who shot at them."""
        return shooters(state, side)

    def marks(self, state: State, side: str) -> tuple[Mark, ...]:
        """A smoke cloud of which the side sees a square, whole; the burning squares it sees; its own primed
        explosives lying about (the other side's stay hidden); its motion-sensor blips."""
        f = board.field_of(state)
        sight = self.sight_levels(state, side)
        out: list[Mark] = []
        for cloud in f.clouds:
            seen = sight[cloud.z]
            if cloud.kind == "smoke" and any(seen[y, x] for x, y in cloud.cells):
                out += [Mark(c, "▒", "#b0b0b0", f"Smoke until turn {cloud.until}", "#404040", z=cloud.z)
                        for c in cloud.cells]
        for cloud in f.clouds:
            if cloud.kind == "fire":
                out += [Mark(c, "≋", "#ff9040", f"Burning until turn {cloud.until}", "#602000", z=cloud.z)
                        for c in cloud.cells if sight[cloud.z][c[1], c[0]]]
        for g in f.lying:
            if g.side == side:
                trigger = self.book.explosives[g.item].trigger
                when = "goes off when a unit steps on it" if trigger == "mine" else fuses.when(
                    self, g.side, g.turn, g.item)
                out.append(Mark(g.cell, "¤" if trigger == "mine" else "•", "#ffd040",
                                f"{self.name(g.item)}, primed: {when}", z=g.z))
        out += [Mark(b.cell, "◊", "#60ff60", "Motion sensor: something moved here", z=b.z) for b in f.blips
                if b.side == side]
        out += floor.marks(self, state, sight)  # things on the ground (settings `ground_items`)
        return tuple(out)
