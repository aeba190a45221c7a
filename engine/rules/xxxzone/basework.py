"""Section 15's base as a value, and the one pure function that says why a placement is refused.

Every layer is a `site`-square grid (campaign.toml); layer 0 is the Surface, deeper layers are dug as
Excavations. A facility stands at its rotated shape's top-left square (rotation: quarter turns clockwise, never
mirrored); an Elevator spans its layer and the one below, a Missile Silo six. Every limit is content
(facilities.toml): `limit`/`count`, `layer`, `adjacent`, `touches`, `apart`, `area`, each counted per base.

The campaign may found more bases (15: "New base"): every facility belongs to one `site` (0 is the first base), each
site its own grid of layers; the staff are the organisation's, shared by every base. A square is named for the
player as the base screen labels it: its column letter and row number on the site ("E5": x 4, y 4), the Surface's
own top-left square in the starting base.
"""

from __future__ import annotations

import functools
import math

import attrs

from engine.campaign.seam import COLUMNS, Plot, square
from engine.core.records import added
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.campaign import Cost, build_hours, cost

Cell = tuple[int, int, int]  # layer, x, y
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


@attrs.frozen(kw_only=True)
class Placed:
    """A facility in the base. `work` > 0: still being built (or moved) with that many man-days by `engineers`."""

    key: str  # "aircraft_hangar.7": unique in the base
    facility: str
    layer: int
    x: int
    y: int
    rotation: int = 0
    work: int = 0
    engineers: int = 0
    site: int = added(0)  # which base: 0 the first, 1 the first one founded after it...

    @property
    def building(self) -> bool:
        return self.work > 0


@attrs.frozen(kw_only=True)
class Base:
    placed: tuple[Placed, ...] = ()
    staff: tuple[tuple[str, int], ...] = ()  # role -> how many (engineers build; a Bio-chemist runs the Gym)
    serial: int = 0  # the last key number handed out

    def staff_of(self, role: str) -> int:
        return dict(self.staff).get(role, 0)

    def with_staff(self, role: str, n: int) -> "Base":
        staff = dict(self.staff)
        staff[role] = n
        return attrs.evolve(self, staff=tuple(staff.items()))

    def get(self, key: str) -> Placed | None:
        return next((p for p in self.placed if p.key == key), None)

    def built(self, facility: str) -> list[Placed]:
        """Every finished one, in any base (a course may be taken at any base's facility)."""
        return [p for p in self.placed if p.facility == facility and not p.building]

    @property
    def sites(self) -> int:
        """How many bases: the first, and one for each founded since."""
        return 1 + max((p.site for p in self.placed), default=0)

    def at(self, site: int) -> "Base":
        """The base `site` alone: its facilities, the shared staff (what a placement in it is checked against)."""
        return attrs.evolve(self, placed=tuple(p for p in self.placed if p.site == site))


def spot(layer: int, x: int, y: int) -> str:
    """A square and its layer, for the player: "E5 on the Surface", "F6 on layer 1"."""
    return f"{square(x, y)} on {'the Surface' if layer == 0 else f'layer {layer}'}"


def shape(book: Book, facility: str, rotation: int) -> frozenset[tuple[int, int]]:
    """The footprint turned `rotation` quarter turns clockwise, its top-left at (0, 0)."""
    return _turned(tuple(book.facilities[facility].shape), rotation % 4)


@functools.lru_cache(maxsize=512)
def _turned(rows: tuple[str, ...], rotation: int) -> frozenset[tuple[int, int]]:
    cells = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "X"}
    for _ in range(rotation):
        height = max(y for _, y in cells) + 1
        cells = {(height - 1 - y, x) for x, y in cells}
    return frozenset(cells)


def cells(book: Book, facility: str, layer: int, x: int, y: int, rotation: int) -> frozenset[Cell]:
    """Every square it takes, on each layer it spans."""
    fac = book.facilities[facility]
    return _cells(tuple(fac.shape), fac.layers, layer, x, y, rotation % 4)


@functools.lru_cache(maxsize=8192)  # offers try thousands of spots: the same few footprints again and again
def _cells(rows: tuple[str, ...], span: int, layer: int, x: int, y: int, rotation: int) -> frozenset[Cell]:
    return frozenset((layer + d, x + dx, y + dy) for d in range(span) for dx, dy in _turned(rows, rotation))


def cells_of(book: Book, p: Placed) -> frozenset[Cell]:
    return cells(book, p.facility, p.layer, p.x, p.y, p.rotation)


def _name(book: Book, facility: str) -> str:
    return book.facilities[facility].name


def _around(c: Cell) -> set[Cell]:
    return {(c[0], c[1] + dx, c[2] + dy) for dx, dy in SIDES}


def placement(book: Book, base: Base, facility: str, where: tuple[int, ...], moving: str = "",
              site: int = 0) -> str | None:
    """Why `facility` may not stand at `where` = (layer, x, y[, rotation]) in base `site`, or None. `moving`: the
    key of the facility being moved there (it does not count against itself, nor against its limit)."""
    fac = book.facilities.get(facility)
    if fac is None:
        return f"no facility {facility!r}"
    if len(where) not in (3, 4) or not all(isinstance(v, int) for v in where):
        return "a placement is layer, x, y and a rotation 0-3"
    layer, x, y = where[:3]
    rotation = where[3] if len(where) == 4 else 0
    if not 0 <= rotation <= 3:
        return f"rotation {rotation}: 0 to 3 quarter turns (a facility is never mirrored)"
    if not 0 <= site < base.sites:
        return f"no base {site + 1}: the campaign has {base.sites}"
    others = [p for p in base.placed if p.key != moving and p.site == site]
    if fac.limit == "exactly" and not moving:
        have = sum(1 for p in others if p.facility == facility)
        if have >= fac.count:
            return f"limit reached: exactly {fac.count} {fac.name} per base"
    camp = book.campaign
    if fac.layer == "surface" and layer != 0:
        return f"not on the Surface: the {fac.name} stands on the Surface (layer 0)"
    if fac.layer == "underground" and layer < 1:
        return f"wrong layer: an {fac.name} is dug underground (layer 1 or deeper)"
    if layer < 0 or layer + fac.layers - 1 > camp.deepest:
        return f"wrong layer: the base reaches layers 0 to {camp.deepest}"
    mine = cells(book, facility, layer, x, y, rotation)
    outside = sorted(c for c in mine if not (0 <= c[1] < camp.site and 0 <= c[2] < camp.site))
    if outside:
        return (f"out of bounds: the footprint leaves the {camp.site}×{camp.site} site (columns A-"
                f"{COLUMNS[camp.site - 1]}, rows 1-{camp.site})")
    if fac.area:
        return _area(book, facility, mine, others)
    for p in others:
        if book.facilities[p.facility].area:
            continue
        shared = mine & cells_of(book, p)
        if shared and not _stacked(book, facility, layer, x, y, p):
            c = min(shared)
            return f"overlap: {spot(*c)} is the {_name(book, p.facility)}'s"
    top = {c for c in mine if c[0] == layer}
    for c in sorted(top):
        area = next((p for p in others if book.facilities[p.facility].area and c in cells_of(book, p)), None)
        if area is None:
            ground = "the Surface" if layer == 0 else "every Excavation"
            return f"not on built ground: {spot(*c)} is outside {ground}"
        if area.building:
            return f"the {_name(book, area.facility)} at {spot(*c)} is still being built"
    if fac.adjacent:
        near = {c for p in others if p.facility == fac.adjacent for c in cells_of(book, p)}
        if not any(_around(c) & near for c in top):
            return f"not adjacent to the {_name(book, fac.adjacent)}: the {fac.name} must touch it"
    return None


def _stacked(book: Book, facility: str, layer: int, x: int, y: int, p: Placed) -> bool:
    """Elevators may share one square vertically (one's bottom is the other's top) to reach deeper."""
    if facility != p.facility or book.facilities[facility].layers < 2 or (x, y) != (p.x, p.y):
        return False
    span = book.facilities[facility].layers
    return layer == p.layer + span - 1 or p.layer == layer + span - 1


def _area(book: Book, facility: str, mine: frozenset[Cell], others: list[Placed]) -> str | None:
    """A build area: apart from its own kind, touching what it must (an Excavation: an Elevator's square)."""
    fac = book.facilities[facility]
    layer = min(c[0] for c in mine)
    if fac.apart:
        for p in others:
            if p.facility != facility or p.layer != layer:
                continue
            theirs = cells_of(book, p)
            if mine & theirs or any(_around(c) & theirs for c in mine):
                return (f"touches the {fac.name} at {spot(layer, p.x, p.y)}: "
                        f"{fac.name}s may not overlap or touch")
    if fac.touches:
        reach = {c for p in others if p.facility == fac.touches and not p.building for c in cells_of(book, p)}
        if not any(c in reach or _around(c) & reach for c in mine):
            return (f"disconnected: an {fac.name} must touch a built {_name(book, fac.touches)} "
                    f"reaching layer {layer}")
    return None


def days(book: Book, man_days: int, engineers: int) -> int:
    """Build hours `ceil(24*ManDays/Engineers)` as calendar days, rounded up: a facility finished part-way
    through a day is ready the next morning."""
    hours = build_hours(man_days, engineers)
    return math.ceil(hours / 24) if isinstance(hours, int) else 0


def price(book: Book, base: Base, facility: str, where: tuple[int, ...], site: int = 0) -> Cost:
    """What building there costs: an Excavation by its layer, a Missile Silo more over unexcavated ground."""
    layer, x, y = where[:3]
    rotation = where[3] if len(where) == 4 else 0
    below = {c for c in cells(book, facility, layer, x, y, rotation) if c[0] > layer}
    dug = {c for p in base.placed if book.facilities[p.facility].area and p.layer > 0 and p.site == site
           for c in cells_of(book, p)}
    return cost(book, facility, layer=layer, excavated=below <= dug)


def busy_engineers(base: Base) -> int:
    return sum(p.engineers for p in base.placed if p.building)


def free_engineers(base: Base) -> int:
    return base.staff_of("engineer") - busy_engineers(base)


def build(book: Book, base: Base, facility: str, where: tuple[int, ...], engineers: int,
          site: int = 0) -> tuple[Base, Placed]:
    """Start building (placement already checked): the new facility is on the plan, its work to do."""
    layer, x, y = where[:3]
    serial = base.serial + 1
    man = price(book, base, facility, where, site).man_days
    p = Placed(key=f"{facility}.{serial}", facility=facility, layer=layer, x=x, y=y,
               rotation=where[3] if len(where) == 4 else 0, work=man, engineers=engineers, site=site)
    return attrs.evolve(base, placed=base.placed + (p,), serial=serial), p


def move(book: Book, base: Base, key: str, where: tuple[int, ...], engineers: int) -> tuple[Base, Placed]:
    """Move a facility: its man-days again (no funding); it works nowhere until it stands again."""
    old = base.get(key)
    assert old is not None
    p = attrs.evolve(old, layer=where[0], x=where[1], y=where[2], rotation=where[3] if len(where) == 4 else 0,
                     work=book.facilities[old.facility].man_days, engineers=engineers)
    return attrs.evolve(base, placed=tuple(p if q.key == key else q for q in base.placed)), p


def finish(base: Base, key: str) -> Base:
    return attrs.evolve(base, placed=tuple(attrs.evolve(p, work=0, engineers=0) if p.key == key else p
                                           for p in base.placed))


def finish_site(base: Base, site: int) -> Base:
    """A new base's work done: every facility of it stands."""
    return attrs.evolve(base, placed=tuple(attrs.evolve(p, work=0, engineers=0) if p.site == site else p
                                           for p in base.placed))


def new_base_spots(book: Book) -> list:
    """Where a new base's parts stand (15: Surface, Elevator, Excavation, Command Center, Runway, Radar Tower,
    one Hangar): where the starting base has the first of each (campaign.toml `start`)."""
    out = []
    for fid in book.campaign.new_base:
        found = next((s for s in book.campaign.start if s.facility == fid), None)
        if found is None:
            raise ValueError(f"campaign.toml: the new base's {fid} has no place in the starting base to copy")
        out.append(found)
    return sorted(out, key=lambda s: book.campaign.start.index(s))  # ground first, as the start lays it


def found(book: Book, base: Base, engineers: int) -> tuple[Base, int]:
    """A new base on the plan (the price already paid): its parts placed by the same rule as an order, each with
    its own man-days of work (they add up to the flat 320), the engineers on its Surface. Returns its site."""
    site = base.sites
    work = attrs.evolve(base, placed=())  # the new site alone, each part finished so the next may stand on it
    for s in new_base_spots(book):
        where = (s.layer, s.x, s.y, s.rotation)
        why = placement(book, work, s.facility, where)
        if why is not None:
            raise ValueError(f"campaign.toml: the new base's {s.facility}: {why}")
        work, p = build(book, work, s.facility, where, 0)
        work = finish(work, p.key)
    placed = []
    for i, p in enumerate(work.placed):
        fid = p.facility
        placed.append(attrs.evolve(p, key=f"{fid}.{base.serial + i + 1}", site=site,
                                   work=book.facilities[fid].man_days, engineers=engineers if i == 0 else 0))
    return attrs.evolve(base, placed=base.placed + tuple(placed), serial=base.serial + len(placed)), site


def lay_out(book: Book, spots, staff: dict[str, int]) -> tuple[Base, list[str]]:
    """A base from content spots, each placed with the same rule an order uses and built at once, and the
    limits checked at the end ("exactly", "at least"): the starting base, or why it is refused."""
    base = Base(staff=tuple(staff.items()))
    out: list[str] = []
    refused: set[str] = set()
    for i, s in enumerate(spots):
        where = (s.layer, s.x, s.y, s.rotation)
        why = placement(book, base, s.facility, where)
        if why is not None:
            out.append(f"[{i}] {s.facility}: {why}")
            refused.add(s.facility)
            continue
        base, p = build(book, base, s.facility, where, 0)
        base = finish(base, p.key)
    for fid, fac in book.facilities.items():
        if fid in refused:  # said once, where it was refused
            continue
        have = sum(1 for p in base.placed if p.facility == fid)
        if fac.limit == "exactly" and have != fac.count or fac.limit == "at_least" and have < fac.count:
            out.append(f"{fid}: a base needs {fac.limit.replace('_', ' ')} {fac.count} {fac.name}, it has {have}")
    return base, out


def plots(book: Book, base: Base, site: int = 0) -> tuple[Plot, ...]:
    """Layer 0 and every layer base `site` reaches: "." open floor, " " not built ground, a letter per facility
    (lower case while it is built or moved), "," ground still being dug."""
    base = base.at(site)
    size = book.campaign.site
    letters = {p.key: LETTERS[i % len(LETTERS)]
               for i, p in enumerate(q for q in base.placed if not book.facilities[q.facility].area)}
    deepest = max((c[0] for p in base.placed for c in cells_of(book, p)), default=0)
    out = []
    for layer in range(deepest + 1):
        grid = [[" "] * size for _ in range(size)]
        legend: dict[str, str] = {}
        for p in base.placed:
            fac = book.facilities[p.facility]
            ch = letters.get(p.key, "," if p.building else ".")
            crew = f", {p.engineers} engineers" if p.engineers else ""  # a new base's parts: its Surface's crew
            here = any(c[0] == layer for c in cells_of(book, p))
            if fac.area:
                if p.building and here:
                    legend[","] = f"{fac.name} ({'digging' if layer else 'building'}: {p.work} man-days{crew})"
            else:
                ch = ch.lower() if p.building else ch
                state = f" (building: {p.work} man-days{crew})" if p.building else ""
                legend.setdefault(ch, fac.name + state)
            for c in cells_of(book, p):
                if c[0] == layer and (not fac.area or grid[c[2]][c[1]] == " "):
                    grid[c[2]][c[1]] = ch
        used = {ch for row in grid for ch in row}
        out.append(Plot(name="Surface" if layer == 0 else f"Excavation {layer}", rows=tuple("".join(r) for r in grid),
                        legend=tuple((k, v) for k, v in legend.items() if k in used)))
    return tuple(out)
