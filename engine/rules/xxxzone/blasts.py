"""Explosions and worn cover on the map (6.2, 6.9): the squares a blast reaches (not through walls), the cover
pieces standing with the HP that shots and blasts left them (`Battle.cover`; a destroyed piece becomes its
`destroyed` tile), an explosion's rolls at everyone in its rings victim by victim, and C4's full damage to the
terrain round it."""

from __future__ import annotations

import attrs

from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved, TileChanged
from engine.core.geometry import Pos, distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.xxxzone import battle, explosions
from engine.rules.xxxzone.attack import CoverPiece
from engine.rules.xxxzone.lines import blast_cover
from engine.rules.xxxzone.units import Battle, changed


def worn(state: State) -> dict:
    return state.record.cover_hp() if isinstance(state.record, Battle) else {}


def cells(rs, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
    spec = rs.book.items.get(item)
    radius = (max(spec.rings, default=0) or spec.radius) if spec is not None else 0
    seen = state.grid.fov(cell, radius + 1)
    return tuple((x, y) for y in range(max(0, cell[1] - radius), min(state.grid.height, cell[1] + radius + 1))
                 for x in range(max(0, cell[0] - radius), min(state.grid.width, cell[0] + radius + 1))
                 if seen[y, x] or (x, y) == cell)


def pieces(rs, state: State, cells) -> dict:
    """The cover pieces standing in `cells`, with the HP earlier shots and blasts left them."""
    hp_left = worn(state)
    out = {}
    for cell in cells:
        tc = rs.book.terrain_cover.get(state.grid.tile(cell))
        if tc is not None:
            kind = rs.book.cover[tc.cover]
            hp = hp_left.get(cell, tc.hp or kind.hp)
            if hp > 0:
                out[cell] = (state.grid.tile(cell).replace("_", " "), kind.value, hp)
    return out



def clamp(state: State, cell: Pos) -> Pos:
    return min(max(cell[0], 0), state.grid.width - 1), min(max(cell[1], 0), state.grid.height - 1)


def blast_at(rs, state: State, s, item: str, impact: Pos, dice: Dice,
             terrain: bool = False) -> tuple[list[Event], list, list[str]]:
    """An explosion of `item` at `impact` set off by the shooter `s`: every entity with a line from it takes its ring's
    rolls, nearest first (ties by id), each through the cover the earlier ones' rolls left; a cover piece that
    stops a roll loses 1d4 HP (4 with Grenadier), kept on the map. `terrain` (C4): every cover piece and door
    within D <= 1 takes full damage too. Returns the events, the rolls and each victim's words."""
    book = rs.book
    inside = set(cells(rs, state, item, impact))
    out: list[Event] = []
    rolls: list = []
    words: list[str] = []
    now = state
    if terrain:
        step = terrain_damage(rs, now, impact)
        out += step
        now = fold(now, step)
    caught = sorted((u for u in now.units.values() if u.pos in inside and u.status != "dead" and u.record is not None),
                    key=lambda u: (distance(impact, u.pos), u.id))
    for victim in caught:
        u = now.units[victim.id]
        theirs = blast_cover(impact, u.pos, pieces(rs, now, inside))
        got = explosions.explode(dice, book, s, item, impact, [(u.pos, battle.defence(book, u.record, theirs))])
        if not got:
            continue
        _, hits, after = got[0]
        rolls += [h.roll for h in hits] + [h.wear for h in hits if h.wear is not None]
        fx = explosions.effects(dice, book, item, hits, battle.vitals(book, u.record), u.record.condition)
        rolls += fx.rolls
        rec = attrs.evolve(u.record, condition=fx.condition, armour_hp=after.armour_hp)
        words.append(f"{u.name}: {', '.join(h.outcome for h in hits)}" + (f" ({'; '.join(fx.notes)})"
                                                                         if fx.notes else ""))
        step = [changed(book, u, rec, "caught in the blast")] + wear(rs, now, theirs, after.cover)
        out += step
        now = fold(now, step)
    return out, rolls, words


def terrain_damage(rs, state: State, impact: Pos) -> list[Event]:
    """C4's full damage to terrain: every cover piece within D <= 1 loses its terrain damage (4 HP); a door
    there is blown open."""
    book = rs.book
    near = [(x, y) for y in range(impact[1] - 1, impact[1] + 2) for x in range(impact[0] - 1, impact[0] + 2)
            if state.grid.inside((x, y))]
    standing = pieces(rs, state, near)
    before = tuple(CoverPiece(label=label, value=value, hp=hp, adjacent=True, cell=cell)
                   for cell, (label, value, hp) in standing.items())
    after = tuple(attrs.evolve(p, hp=p.hp - book.settings.c4_terrain_damage) for p in before
                  if p.hp > book.settings.c4_terrain_damage)
    out = wear(rs, state, before, after)
    for cell in near:
        opened = rs.content.terrain[state.grid.tile(cell)].opens_to
        if opened and cell not in standing:
            out.append(TileChanged(pos=cell, tile=opened))
    return out


def wear(rs, state: State, before, after) -> list[Event]:
    """The Noted (and TileChanged for a destroyed piece) that keep on the map what `before` became `after`."""
    left = {p.cell: p.hp for p in after}
    was = worn(state)
    hp_now = dict(was)
    out: list[Event] = []
    for p in before:
        hp = left.get(p.cell, 0)
        if hp == p.hp:
            continue
        hp_now[p.cell] = hp
        if hp <= 0:
            tile = rs.content.terrain[state.grid.tile(p.cell)]
            if tile.destroyed:
                out.append(TileChanged(pos=p.cell, tile=tile.destroyed))
                hp_now.pop(p.cell)  # the new tile is whole
    if not out and hp_now == was:
        return []
    rec = state.record if isinstance(state.record, Battle) else Battle()
    return [Noted(record=attrs.evolve(rec, cover=tuple(sorted(hp_now.items()))), cause="cover worn")] + out


def missile(rs, state: State, unit: Unit, shooter, target: Unit, hit, cover, item: str,
            dice: Dice) -> list[Event]:
    """6.9: after its direct hit the missile explodes at the target's square on a hit, at the cover piece on a
    cover hit, and on a miss where it scatters (1d3 squares, d8 direction); `state` has the direct hit folded."""
    landing = explosions.missile_impact(dice, unit.id, hit, target.pos, cover)
    impact = clamp(state, landing.cell)
    events, rolls, words = blast_at(rs, state, battle.shooter(rs.book, shooter), item, impact, dice)
    how = {"on_target": "on the target", "cover": f"at the {landing.cover.label if landing.cover else 'cover'}",
           "scatter": "after scattering"}[landing.how]
    text = (f"The {rs.book.items[item].name.lower().replace(' explosion', '')} explodes {how} at {impact[0]},"
            f"{impact[1]}" + (f": {'; '.join(words)}" if words else ": nobody in its rings"))
    return [Resolved(actor=unit.id, action="explosion", cell=impact, weapon=item, rolls=tuple(landing.rolls)
                     + tuple(rolls), outcome=landing.how, text=text)] + events
