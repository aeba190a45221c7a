"""A unit of annihilation on the map: its record (the Fighter of the rules core and what it carries), how a
template of units.toml becomes one at deployment, and how a changed fighter is written back onto the unit."""

from __future__ import annotations

import attrs

from engine.content import field, missions
from engine.core import records
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.records import added, lean, record
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.character import ZERO, Character, Stats, baseline, recruit
from engine.rules.annihilation.deploy_schema import Hardship, Template, hardened
from engine.rules.annihilation.experience import Tally
from engine.rules.annihilation.fighter import Fighter, deploy
from engine.rules.annihilation.inventory import HANDS, Carried, encumbrance, hands_holding

STATUS = {"awake": "active", "unconscious": "unconscious", "dead": "dead"}  # the fighter's status -> the unit's


@record("annihilation.soldier")
@lean
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step
class Soldier:
    """Unit.record: the rules core's fighter, everything it carries, and whether it gave up its phase."""

    fighter: Fighter
    kit: tuple[Carried, ...] = ()
    done: bool = False  # waited: nothing more this phase (its TUs stay for opportunity fire, A-2.3)
    moved: int = added(0)  # the phase (sensor.stamp) it last walked in, kept only while a motion sensor is about
    tally: Tally = added(Tally())  # this mission's uses, when the settings count them
    harness: bool = added(False)  # wears the strap, gyro and pad system, fitted before the mission
    fired: tuple[int, ...] = added(())  # (stamp, x, y, z) of its last shot, with settings `shots_seen` (seen_firing)
    harness_work: int = added(0)  # full turns spent putting the harness on (or off, if worn) so far (harness.py)


def stamp(state: State, side: str, turn: int | None = None) -> int:
    """A phase as one number, in the order phases come: the turn, then the side's place in the mission's sides."""
    return (state.phase if turn is None else turn) * len(state.sides) + state.sides.index(side)


def seen_firing(book: Book, state: State, unit: Unit, s: Soldier) -> Soldier:
    """A shot gives its shooter's square away to its enemies until their next phase is over (settings `shots_seen`:
    docs/rules-notes.md, after OpenXcom's exposure of a unit that fires); the record as it was without it."""
    if not book.settings.shots_seen:
        return s
    return attrs.evolve(s, fired=(stamp(state, state.side), *unit.pos, unit.z))


def shooters(state: State, side: str) -> tuple[Pos, ...]:
    """The squares its enemies have fired from since the side's previous phase began (`Soldier.fired`)."""
    since = stamp(state, side, state.phase - 1)
    return tuple(sorted({(u.record.fired[1], u.record.fired[2]) for u in state.units.values()
                         if missions.hostile(side, u.side) and isinstance(u.record, Soldier) and u.record.fired
                         and u.record.fired[0] >= since}))


def name_of(book: Book, thing: str) -> str:
    """The display name of a weapon, explosive, item, armour, round or clip id ("Plasma Pistol clip")."""
    if thing.startswith("clip:"):
        return f"{name_of(book, thing[5:])} clip"
    for table in (book.weapons, book.explosives, book.items, book.armour, book.ammo):
        if thing in table:
            return table[thing].name
    return thing.replace("_", " ").capitalize()


def gun(s: Soldier, book: Book) -> Carried | None:
    """The weapon in its hands, if any: not a clip, a grenade or a kit held alone (a picked-up grenade, a medi-kit
    brought out), which every caller would have looked up among the weapons."""
    return next((c for c in s.kit if hands_holding(c) and c.id in book.weapons), None)


def _held(s: Soldier) -> Carried | None:
    """The first thing held in its hands but a clip: the kernel's mirror leaves it out, as it always has."""
    return next((c for c in s.kit if hands_holding(c) and not c.id.startswith("clip:")), None)


def clips_for(s: Soldier, weapon: str) -> list[Carried]:
    """Its full or part-used clips for the weapon off the floor, one already in a hand first (the one to load)."""
    found = [c for c in s.kit if c.id == f"clip:{weapon}" and c.place != "floor" and c.rounds > 0]
    return sorted(found, key=lambda c: not hands_holding(c))


def loads(book: Book, s: Soldier, g: Carried) -> list[Carried]:
    """What it carries off the floor that loads the weapon `g`: its clips (A-15.4), the rounds of section 16 made
    for it (a cannon's shell clip, a rocket), or unprimed size-A grenades for a launcher (A-15.9); the type
    already loaded first (no unloading, A-16.2), then one already in a hand (the one to load)."""
    w = book.weapons.get(g.id)
    if w is None:  # a grenade or a kit picked up in an empty hand (scavenge.py) is no weapon to load
        return []
    if w.feed == "clip":
        found = clips_for(s, g.id)
    elif w.feed == "ammo":
        found = [c for c in s.kit if c.id in book.ammo and book.ammo[c.id].weapon == g.id and c.place != "floor"
                 and c.rounds > 0]
    elif w.feed == "grenade":
        found = [c for c in s.kit if c.id in book.explosives and book.explosives[c.id].size == "A"
                 and c.primed is None and c.place != "floor"]
    else:
        return []
    return sorted(found, key=lambda c: (c.id != g.loaded, not hands_holding(c)))


def grenades(s: Soldier, book: Book) -> list[Carried]:
    return [c for c in s.kit if c.id in book.explosives and c.place != "floor"]


def carried(s: Soldier) -> dict[str, int]:
    """The kernel's mirror of the kit (`Unit.items`): how many of each thing off the floor, but clips and the gun."""
    out: dict[str, int] = {}
    held = _held(s)
    for c in s.kit:
        if c.place != "floor" and c is not held and not c.id.startswith("clip:"):
            out[c.id] = out.get(c.id, 0) + 1
    return dict(sorted(out.items()))


def enc(book: Book, s: Soldier) -> int:
    """A-12.7: the encumbrance its kit and armour give it now."""
    f = s.fighter
    armour = f.character.armour
    return encumbrance(book, list(s.kit), armour, f.character.stats.strength)[2]


def kit_of(book: Book, t: Template) -> tuple[Carried, ...]:
    out: list[Carried] = []
    if t.weapon:
        w = book.weapons[t.weapon]
        place = "both_hands" if w.hands == 2 else HANDS[0]
        loaded = f"clip:{t.weapon}" if w.feed == "clip" else t.ammo or None
        fitted = tuple(t.sights)  # laser and telescopic sights ride on the weapon
        if t.harness and w.size in ("I", "J"):  # on the harness, gripped ready to fire
            out.append(Carried(t.weapon, w.size, "both_straps", loaded=loaded, rounds=w.capacity, gripped=HANDS,
                               sights=fitted))
        else:
            out.append(Carried(t.weapon, w.size, place, loaded=loaded, rounds=w.capacity, sights=fitted))
        if w.feed == "clip":
            out += [Carried(f"clip:{t.weapon}", w.clip_size, "belt", rounds=w.capacity) for _ in range(t.clips)]
        for a, n in sorted(t.spares.items()):  # section 16: a cannon's shell clips, rockets (belt: size C at most)
            out += [Carried(a, w.clip_size, "belt", rounds=w.capacity) for _ in range(n)]
    for g, n in sorted(t.grenades.items()):
        out += [Carried(g, book.explosives[g].size, "belt") for _ in range(n)]
    for i, n in sorted(t.items.items()):
        out += [Carried(i, book.items[i].size, "belt", doses=tuple(book.items[i].doses.items())) for _ in range(n)]
    for i, n in sorted(t.backpack.items()):  # a chosen outfit's things too big for the belt (outfit.fitted)
        thing = book.explosives.get(i) or book.items[i]
        out += [Carried(i, thing.size, "backpack", doses=tuple(getattr(thing, "doses", {}).items())) for _ in range(n)]
    return tuple(out)


def character_of(book: Book, dice: Dice, t: Template, uid: str, name: str) -> tuple[Character, list[Roll]]:
    """A pre-made character as written, or every stat rolled 7d10 + 10 (A-3.1) but its race's Health."""
    if t.stats:
        stats = Stats(**t.stats)
        race = book.races[t.race]
        if race.health:
            stats = attrs.evolve(stats, health=race.health)
        c, rolls = Character(id=uid, name=name, stats=stats, skills=baseline(book), race=t.race,
                             armour=race.armour), []
    else:
        c, rolls = recruit(book, dice, t.race, uid, name)
    skills = dict(c.skills) | {k: book.levels[v].chance for k, v in t.skills.items()}
    c = attrs.evolve(c, skills=tuple(sorted(skills.items())), armour=t.armour or c.armour)
    k = t.kept
    if k is not None:  # a roster character as a campaign keeps it
        c = attrs.evolve(c, skills=tuple(sorted(k.skills.items())) if k.skills else c.skills, rank=k.rank,
                         missions=k.missions, kills=k.kills, uses=attrs.evolve(ZERO, **k.uses),
                         skill_uses=tuple(sorted(k.skill_uses.items())))
    return c, rolls


def muster(book: Book, dice: Dice, t: Template, m: missions.Member, cell: Pos,
           level: Hardship | None = None) -> tuple[Unit, list[Roll]]:
    """A-3.1, A-8.1, A-8.4: a template deployed: its character (an alien's stats at the difficulty `level`), its
    kit, full Health and Energy, this turn's TUs."""
    character, rolls = character_of(book, dice, t, m.uid, m.name)
    if level is not None:
        character = attrs.evolve(character, stats=Stats(**hardened(level, character.stats.env())))
    kit = kit_of(book, t)
    facing = field.FACING.get(m.side, 0)
    if book.settings.grid == "hex":  # the square facing's nearest of the six, clockwise (north: north-east)
        facing = facing * 6 // 8
    first = Soldier(fighter=deploy(book, character, 0, facing), kit=kit, harness=t.harness)
    fighter = deploy(book, character, enc(book, first), facing)
    s = attrs.evolve(first, fighter=fighter)
    unit = Unit(id=m.uid, name=m.name, template=m.template, race=t.race, side=m.side, glyph=t.glyph, pos=cell,
                facing=facing, hp=fighter.health, hp_max=character.stats.health, items=carried(s), record=s)
    return unit, rolls


def fighter_of(unit: Unit) -> Fighter:
    """The unit's fighter, facing as the unit faces."""
    return records.evolve(unit.record.fighter, {"facing": unit.facing})


def changes(unit: Unit, s: Soldier) -> dict[str, object]:
    """What to write on the unit for its new record: the record and the kernel's mirror of it (HP, status,
    facing, what it carries)."""
    f = s.fighter
    out: dict[str, object] = {"record": s, "hp": f.health, "status": STATUS[f.status], "facing": f.facing,
                              "items": carried(s)}
    return {k: v for k, v in out.items() if getattr(unit, k) != v}


def with_fighter(unit: Unit, f: Fighter, **kw) -> Soldier:
    return records.evolve(unit.record, {"fighter": f, **kw})
