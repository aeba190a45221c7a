"""The loadout before a mission (A-12.3, A-12.7, A-14.7) through the `Outfitter` seam (engine.core.loadout): a
roster recruit's armour (a flying suit too, 9.2), the weapon in its hands, the sights fitted to it, its spare
clips and what rides on the belt (up to size C) or, bigger, in the backpack. The choice is the recruit's
`outfit`; deployed, it replaces the kit of the squad place it takes (creator.deploy), and the screen shows the
encumbrance it gives and the TU it leaves (A-8.1).

In a campaign the kit is issued from the stores (`Stores`, the campaign's base: campaign.toml's `stock`, and what
won missions recover): armour (but `none`), the weapon, its sights and what is carried each take one of their
kind; spare clips come with the weapon, uncounted (docs/rules-notes.md)."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.loadout import Held, Pick
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.character import Stats
from engine.rules.annihilation.deploy_schema import Template
from engine.rules.annihilation.inventory import encumbrance
from engine.rules.annihilation.schema import SIZES

ID = "annihilation"
FED = ("clip", "charges")  # weapons a soldier deploys ready with: their own clips or charges (no round to name)


@attrs.frozen(kw_only=True)
class Outfit:
    """A recruit's chosen kit: armour.toml, the weapon (weapons.toml, "" unarmed), its sights (items.toml), full
    spare clips, and explosives.toml or items.toml ids -> how many."""

    armour: str
    weapon: str = ""
    sights: list[str] = attrs.field(factory=list)
    clips: int = 0
    carried: dict[str, int] = attrs.field(factory=dict)


@attrs.frozen
class Stores:
    """A campaign's base: what it holds to issue, thing id (armour.toml, weapons.toml, items.toml, explosives.toml)
    -> how many. Issued kit comes back with the soldier; what a dead soldier carried is lost (downtime.py)."""

    held: dict[str, int] = attrs.field(factory=dict)


def _bigger(size: str, than: str) -> bool:
    return SIZES.index(size) > SIZES.index(than)


class AnnihilationOutfitter:
    kit = Outfit

    def __init__(self, content, book: Book) -> None:
        self.content = content
        self.book = book
        self.units: dict[str, Template] = content.rules[ID]["units"]

    # -- what a place gives and what a choice makes -------------------------------------------------

    def place(self, mission_id: str, place: int) -> Template:
        return self.units[missions.squad_places(self.content, ID, mission_id)[place]]

    def base(self, t: Template) -> Outfit:
        """The squad place's own kit, as an outfit."""
        return Outfit(armour=t.armour or self.book.races[t.race].armour, weapon=t.weapon, sights=list(t.sights),
                      clips=t.clips, carried=dict(sorted({**t.grenades, **t.items}.items())))

    def outfit(self, mission_id: str, place: int, record) -> Outfit:
        return record.outfit or self.base(self.place(mission_id, place))

    def fitted(self, t: Template, o: Outfit | None) -> Template:
        """The place's template wearing the outfit: what fits the belt on it, the rest in the backpack; a new
        weapon without the place's rounds and harness (those were the place's weapon's)."""
        if o is None:
            return t
        same = o.weapon == t.weapon
        belt = {k: n for k, n in o.carried.items() if n and not _bigger(self._size(k), self.book.settings.belt_size_max)}
        packed = {k: n for k, n in o.carried.items() if n and k not in belt}
        return attrs.evolve(t, armour=o.armour, weapon=o.weapon, sights=list(o.sights), clips=o.clips,
                            grenades={k: n for k, n in belt.items() if k in self.book.explosives},
                            items={k: n for k, n in belt.items() if k in self.book.items}, backpack=packed,
                            ammo=t.ammo if same else "", spares=dict(t.spares) if same else {},
                            harness=t.harness and same)

    def _size(self, thing: str) -> str:
        table = self.book.explosives if thing in self.book.explosives else self.book.items
        return table[thing].size

    def problems(self, o: Outfit) -> list[str]:
        """What the content lacks for the outfit, or the rules refuse, as messages after its location."""
        b = self.book
        out = [f".outfit.armour: unknown armour {o.armour!r}"] if o.armour not in b.armour else []
        w = b.weapons.get(o.weapon)
        if o.weapon and w is None:
            return out + [f".outfit.weapon: unknown weapon {o.weapon!r}"]
        out += [f".outfit.carried.{k}: unknown explosive or item" for k in o.carried
                if k not in b.explosives and (k not in b.items or b.items[k].sight)]
        out += [f".outfit.carried.{k}: {n} is negative" for k, n in o.carried.items() if n < 0]
        if o.clips < 0 or (o.clips and (w is None or w.feed != "clip")):
            out.append(f".outfit.clips: {o.clips} clips for {w.name if w else 'no weapon'}")
        if o.sights and (w is None or not b.classes[w.category].sights or len(set(o.sights)) != len(o.sights)
                         or any(s not in b.items or not b.items[s].sight for s in o.sights)):
            out.append(f".outfit.sights: {', '.join(o.sights)} cannot be fitted (A-14.5, A-14.7)")
        return out

    # -- the seam ---------------------------------------------------------------------------------------

    def weapons(self, t: Template) -> list[str]:
        """Hand weapons a soldier deploys ready with (A-12.3: up to the hands' size; clip- or charge-fed), and the
        place's own."""
        own = [t.weapon] if t.weapon else []
        return own + [k for k, w in self.book.weapons.items() if k != t.weapon and w.feed in FED
                      and not _bigger(w.size, self.book.settings.hand_size_max)]

    def sight_options(self, weapon: str) -> tuple[tuple[str, str], ...]:
        w = self.book.weapons.get(weapon)
        if w is None or not self.book.classes[w.category].sights:
            return (("", "none (A-14.5: nothing to gain)"),)
        found = [k for k, i in self.book.items.items() if i.sight]
        return (("", "none"), *((k, self.book.items[k].name) for k in found),
                *((("+".join(found), " and ".join(self.book.items[k].name for k in found)),) if len(found) > 1 else ()))

    def picks(self, mission_id: str, place: int, record, left: Held | None = None) -> tuple[Pick, ...]:
        """`left`: what the stores have left for this soldier; an option they hold none of is not offered, and a
        count line says how many there are (the soldier's own kit is on offer whatever the stores hold)."""
        b, t = self.book, self.place(mission_id, place)
        o = self.outfit(mission_id, place, record)

        def there(k: str, mine: bool = False) -> bool:
            return left is None or mine or not k or k == "none" or all(left.get(x, 0) > 0 for x in k.split("+"))

        names = {"": "unarmed", **{k: b.weapons[k].name for k in self.weapons(t) if there(k, k == o.weapon)}}
        sights = tuple((k, s) for k, s in self.sight_options(o.weapon) if there(k, k == "+".join(o.sights)))
        out = [Pick("armour", "Armour", b.armour[o.armour].name,
                    tuple((k, a.name) for k, a in b.armour.items() if there(k, k == o.armour))),
               Pick("weapon", "Weapon", names.get(o.weapon, o.weapon), tuple(names.items())),
               Pick("sights", "Sights", dict(sights).get("+".join(o.sights), "none"), sights)]
        w = b.weapons.get(o.weapon)
        if w is not None and w.feed == "clip":
            out.append(Pick("clips", "Spare clips", str(o.clips), count=True))
        things = [(k, e.name) for k, e in b.explosives.items()]
        things += [(k, i.name) for k, i in b.items.items() if not i.sight]
        for k, name in things:
            have = o.carried.get(k, 0)
            if left is None:
                out.append(Pick(k, name, str(have), count=True))
            elif have or left.get(k, 0) > 0:
                out.append(Pick(k, f"{name} (of {max(have, left.get(k, 0))})", str(have), count=True))
        return tuple(out)

    def _load(self, mission_id: str, place: int, record):
        """The kit the record deploys with, its encumbrance (A-12.7) and the TU allowance it leaves (A-8.1)."""
        from engine.rules.annihilation.soldier import kit_of

        o = self.outfit(mission_id, place, record)
        kit = kit_of(self.book, self.fitted(self.place(mission_id, place), o))
        stats = Stats(**record.stats)
        boxes, relief, enc = encumbrance(self.book, list(kit), o.armour, stats.strength)
        tu = self.book.value("tu_turn", time_units=stats.time_units, encumbrance=enc, leg_wounds=0)
        return o, kit, stats, (boxes, relief, enc), tu

    def summary(self, mission_id: str, place: int, record) -> tuple[str, ...]:
        b = self.book
        o, kit, stats, (boxes, relief, enc), tu = self._load(mission_id, place, record)
        held = [c for c in kit if c.place in ("right_hand", "left_hand", "both_hands", "both_straps")]
        hands = ", ".join(f"{b.weapons[c.id].name} ({c.place.replace('_', ' ')}, size {c.size})" for c in held)
        sights = f" + {' and '.join(b.items[s].name for s in o.sights)}" if o.sights else ""
        belt = sum(c.place == "belt" for c in kit)
        pack = [c for c in kit if c.place == "backpack"]
        return (f"Hands: {hands or 'empty'}{sights}",
                f"Belt: {belt} thing{'s' if belt != 1 else ''} (up to size {b.settings.belt_size_max})"
                + (f" · backpack: {', '.join(self._name(c.id) for c in pack)}" if pack else ""),
                f"Boxes {boxes} (armour {b.armour[o.armour].weight}) − relief {relief} = ENC {enc}: "
                f"TU {stats.time_units} → {tu} a turn (A-8.1, A-12.7)")

    def _name(self, thing: str) -> str:
        return (self.book.explosives.get(thing) or self.book.items[thing]).name

    def name(self, thing: str) -> str:
        b = self.book
        for table in (b.armour, b.weapons, b.explosives, b.items):
            if thing in table:
                return table[thing].name
        return thing

    def choose(self, mission_id: str, place: int, record, pick: str, option: str, left: Held | None = None):
        t = self.place(mission_id, place)
        o = self.outfit(mission_id, place, record)
        if pick == "armour":
            if option not in self.book.armour:
                return f"{option!r} is no armour.toml armour"
            o = attrs.evolve(o, armour=option)
        elif pick == "weapon":
            if option and option not in self.weapons(t):
                return f"{option!r}: not a hand weapon a soldier deploys ready with (clip- or charge-fed, up to size H)"
            w = self.book.weapons.get(option)
            same = option == t.weapon
            clips = (t.clips if same else 2) if w is not None and w.feed == "clip" else 0
            sights = [s for s in o.sights if w is not None and self.book.classes[w.category].sights]
            o = attrs.evolve(o, weapon=option, clips=clips, sights=sights)
        elif pick == "sights":
            if option not in dict(self.sight_options(o.weapon)):
                return f"{option!r}: no sight that fits the {self.book.weapons[o.weapon].name if o.weapon else 'bare hands'}"
            o = attrs.evolve(o, sights=[s for s in option.split("+") if s])
        else:
            o = self._count(o, pick, option)
            if isinstance(o, str):
                return o
        if left is not None:
            was = self.taken(self.outfit(mission_id, place, record))
            over = [k for k, n in self.taken(o).items() if n > was.get(k, 0) and n > left.get(k, 0)]
            if over:
                return f"The stores have no more {self.name(over[0])} to issue ({max(0, left.get(over[0], 0))} left)"
        return self._kept(mission_id, place, record, t, o)

    def _count(self, o: Outfit, pick: str, option: str) -> Outfit | str:
        step = {"+": 1, "-": -1}.get(option)
        if step is None:
            return f"{option!r}: a count goes + or -"
        if pick == "clips":
            if o.clips + step < 0:
                return "No spare clip to take off"
            return attrs.evolve(o, clips=o.clips + step)
        if pick not in self.book.explosives and (pick not in self.book.items or self.book.items[pick].sight):
            return f"{pick!r} is no explosive or item to carry"
        n = o.carried.get(pick, 0) + step
        if n < 0:
            return f"No {self._name(pick)} to take off"
        carried = {k: v for k, v in {**o.carried, pick: n}.items() if v}
        return attrs.evolve(o, carried=dict(sorted(carried.items())))

    def _kept(self, mission_id: str, place: int, record, t: Template, o: Outfit):
        """The record with the outfit, refused when the kit leaves no TU at all (A-8.1); the place's own kit is
        kept as no outfit, so a squad deployed as it comes writes the header it always wrote."""
        *_, (boxes, relief, enc), tu = self._load(mission_id, place, attrs.evolve(record, outfit=o))
        if tu <= 0:
            return f"{record.name} could not move under that: ENC {enc} leaves no TU (A-8.1, A-12.7)"
        return attrs.evolve(record, outfit=None if o == self.base(t) else o)

    # -- a campaign's stores ----------------------------------------------------------------------------

    def stores(self, base) -> Held | None:
        return base.held if isinstance(base, Stores) else None

    def taken(self, o: Outfit) -> dict[str, int]:
        """What the outfit takes out of the stores: one of the armour (none for `none`), the weapon and each
        sight, and what is carried; its spare clips come with the weapon."""
        out = dict(o.carried)
        for thing in ([o.armour] if o.armour != "none" else []) + ([o.weapon] if o.weapon else []) + o.sights:
            out[thing] = out.get(thing, 0) + 1
        return {k: n for k, n in sorted(out.items()) if n}

    def needs(self, mission_id: str, place: int, record) -> dict[str, int]:
        return self.taken(self.outfit(mission_id, place, record))

    def kit_of(self, record) -> Outfit | None:
        return record.outfit

    def wearing(self, mission_id: str, place: int, record, kit: Outfit | None):
        t = self.place(mission_id, place)
        o = kit if kit is not None else self.outfit(mission_id, place, record)
        problems = self.problems(o)
        if problems:
            return f"{record.name}'s kit: {problems[0].removeprefix('.outfit.')}"
        if o.weapon and o.weapon not in self.weapons(t):
            return f"{record.name}'s kit: {self.name(o.weapon)} is not a hand weapon a soldier deploys ready with"
        *_, (boxes, relief, enc), tu = self._load(mission_id, place, attrs.evolve(record, outfit=o))
        if tu <= 0:
            return f"{record.name} could not move under that kit: ENC {enc} leaves no TU (A-8.1, A-12.7)"
        return attrs.evolve(record, outfit=o)

    def within(self, mission_id: str, place: int, record, left: Held):
        """The kit cut down to the stores: armour and weapon the stores lack swapped for the first they hold
        (else none, unarmed), sights they lack taken off, what is carried cut to what is left."""
        t = self.place(mission_id, place)
        o = self.outfit(mission_id, place, record)
        if o.armour != "none" and left.get(o.armour, 0) < 1:
            o = attrs.evolve(o, armour=next((k for k in self.book.armour if k != "none" and left.get(k, 0) > 0), "none"))
        if o.weapon and left.get(o.weapon, 0) < 1:
            w = next((k for k in self.weapons(t) if left.get(k, 0) > 0), "")
            wanted = self.choose(mission_id, place, attrs.evolve(record, outfit=o), "weapon", w)
            o = self.outfit(mission_id, place, wanted) if not isinstance(wanted, str) else attrs.evolve(
                o, weapon="", clips=0, sights=[])
        sights = [s for s in o.sights if left.get(s, 0) > 0]
        carried = {k: min(n, max(0, left.get(k, 0))) for k, n in o.carried.items()}
        o = attrs.evolve(o, sights=sights, carried={k: n for k, n in carried.items() if n})
        return attrs.evolve(record, outfit=o)
