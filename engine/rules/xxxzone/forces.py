"""Who deploys on the shared missions under xxxzone: roster.toml's templates (a pre-gen or an enemy kind each),
forces.toml's squads and enemies per mission, and the cross-checks of both and of terrain_cover.toml."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.content.models import Difficulty, scaled
from engine.content.tables import Tables
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import Operative, enemy, pregen
from engine.rules.xxxzone.schema import ATTRIBUTES


def check(own: Tables, shared: Tables) -> list[str]:
    out: list[str] = []
    for tid, m in own["roster"].items():
        if bool(m.character) == bool(m.enemy):
            out.append(f"roster.toml: [{tid}]: expected exactly one of character or enemy")
        elif m.character and m.character not in own["characters"]:
            out.append(f"roster.toml: [{tid}].character: unknown character {m.character!r}")
        elif m.enemy and m.enemy not in own["enemies"]:
            out.append(f"roster.toml: [{tid}].enemy: unknown enemy {m.enemy!r}")
        out += _trained(own, tid, m)
        if len(m.glyph) != 1:
            out.append(f"roster.toml: [{tid}].glyph: expected one character, got {m.glyph!r}")
        if shared.get("behaviour") and m.behaviour not in shared["behaviour"]:  # an older bundle has none
            out.append(f"roster.toml: [{tid}].behaviour: unknown profile {m.behaviour!r}")
    if "missions" in shared:
        out += missions.check_forces("forces.toml", own["forces"], shared["missions"], own["roster"])
    for tile, c in own["terrain_cover"].items():
        if c.cover not in own["cover"]:
            out.append(f"terrain_cover.toml: [{tile}].cover: unknown cover {c.cover!r}")
        if c.hp < 0:
            out.append(f"terrain_cover.toml: [{tile}].hp: expected 0 or more, got {c.hp}")
        if "terrain" in shared and tile not in shared["terrain"]:
            out.append(f"terrain_cover.toml: [{tile}]: no such terrain in terrain.toml")
    return out


def _trained(own: Tables, tid: str, m) -> list[str]:
    """A template's extra abilities: known ones, on a character whose attributes meet their requirements."""
    if m.abilities and not m.character:
        return [f"roster.toml: [{tid}].abilities: only an operative (character) is trained"]
    c = own["characters"].get(m.character)
    out = []
    for i, a in enumerate(m.abilities):
        if a not in own["abilities"]:
            out.append(f"roster.toml: [{tid}].abilities[{i}]: unknown ability {a!r}")
        elif c is not None:
            low = [f"{k} {v}" for k, v in own["abilities"][a].requires.items()
                   if getattr(c.attributes, k) + (c.star == k) < v]
            out += [f"roster.toml: [{tid}].abilities[{i}]: {a} needs {', '.join(low)}"] if low else []
    return out


def operative(book: Book, template: str, uid: str, name: str) -> Operative:
    """The record of one deployed member: its template's numbers under the member's own id and name."""
    m = book.roster[template]
    op = pregen(book, m.character) if m.character else enemy(book, m.enemy)
    trained = tuple(a for a in m.abilities if a not in op.abilities)
    return attrs.evolve(op, id=uid, name=name, abilities=op.abilities + trained)


def looks(book: Book, template: str) -> tuple[str, str, str]:
    """(name, glyph, note) for the briefing: the weapon drawn at the start."""
    m = book.roster[template]
    source = book.characters[m.character] if m.character else book.enemies[m.enemy]
    note = book.gear(source.drawn).name if source.drawn else "unarmed"
    return m.name or source.name, m.glyph, note


def roster(book: Book, mission_id: str, level: Difficulty | None = None) -> list[missions.Member] | None:
    """Who deploys; at a difficulty `level` (settings `level_forces`) its `enemies_percent` scales the aliens."""
    forces = book.forces.get(missions.base_id(mission_id))
    if forces is None:
        return None
    if level is not None:
        forces = attrs.evolve(forces, enemies={k: scaled(n, level.enemies_percent) for k, n in forces.enemies.items()})
    return missions.members(forces, lambda t: looks(book, t))


def toughened(op: Operative, level: Difficulty | None) -> Operative:
    """An alien at a difficulty level: its `alien_stats` added to the attributes they name (0-10)."""
    if level is None or not level.alien_stats:
        return op
    now = op.attributes.as_dict()
    changed = {k: max(0, min(10, now[k] + v)) for k, v in level.alien_stats.items() if k in ATTRIBUTES}
    return attrs.evolve(op, attributes=attrs.evolve(op.attributes, **changed))
