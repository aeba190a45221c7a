"""xxxzone's base orders (15) for the campaign's `Downtime`: build a facility, move one, found a new base, and the
offers of each. Every placement goes through `basework.placement`, the one pure rule the base screen previews with.

Orders: `build` (what = a facility id, where = (layer, x, y, rotation[, engineers]), site = the base), `move`
(what = the key of a built facility, where as for build; it moves within its own base), `found` (a new base;
where = (engineers,) or () for every free one). Timers: "build:KEY" (a facility built or moved), "found:SITE"
(a new base's 320 man-days done).
"""

from __future__ import annotations

from engine.campaign.seam import Offer, Order, Outcome, Timer
from engine.core.commands import Rejected
from engine.rules.xxxzone import basework as bw
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.campaign import new_base

def site_name(site: int) -> str:
    return f"Base {site + 1}"


def offers(book: Book, base: bw.Base, funding: int) -> list[Offer]:
    """Every fitting placement of each facility on built ground in every base, then a new base (policy.py says
    which of them the campaign AI gives)."""
    free = bw.free_engineers(base)
    if free < 1:
        return []
    out: list[Offer] = []
    for site in range(base.sites):
        out += _placements(book, base, funding, site, free)
    flat, _parts = new_base(book)
    if funding >= flat.funding:
        days = bw.days(book, flat.man_days, free)
        label = (f"Found {site_name(base.sites)}, a new base ({flat.funding}F, {flat.man_days} man-days by {free} "
                 f"engineers: {days_text(days)})")
        out.append(Offer(Order("found"), label, flat.funding))
    return out


def _placements(book: Book, base: bw.Base, funding: int, site: int, free: int) -> list[Offer]:
    out = []
    for fid, fac in book.facilities.items():
        for where in spots(book, base, fid, site):
            if bw.placement(book, base, fid, where, site=site) is not None:
                continue
            price = bw.price(book, base, fid, where, site)
            if price.funding <= funding:
                days = bw.days(book, price.man_days, free)
                out.append(Offer(Order("build", what=fid, where=where, site=site),
                                 f"Build {article(fac.name)} in {site_name(site)} at {bw.spot(*where[:3])}, turned "
                                 f"{where[3]} ({price.funding}F, {price.man_days} man-days by {free} "
                                 f"engineers: {days_text(days)})", price.funding))
    return out


def spots(book: Book, base: bw.Base, fid: str, site: int = 0):
    """Origins worth trying in base `site`: around built ground, and around Elevators for an Excavation; each
    distinct rotation once."""
    turns = {}
    for rot in range(4):
        turns.setdefault(bw.shape(book, fid, rot), rot)
    target = book.facilities[fid]
    ground: set[bw.Cell] = set()
    for p in base.at(site).placed:  # a facility stands in an area; an area touches what it must (an Elevator)
        if (p.facility == target.touches) if target.area else book.facilities[p.facility].area:
            ground |= bw.cells_of(book, p)
    reach = max(len(target.shape), len(target.shape[0]))
    seen = set()
    for layer, x, y in sorted(ground):
        for dx in range(-reach, 2):
            for dy in range(-reach, 2):
                for rot in turns.values():
                    where = (layer, x + dx, y + dy, rot)
                    if where not in seen:
                        seen.add(where)
                        yield where


def movable(book: Book, base: bw.Base, key: str) -> Rejected | None:
    """Why the facility `key` may not be moved, or None."""
    p = base.get(key)
    if p is None:
        return Rejected("unknown_facility", f"no facility {key!r} in the base")
    fac = book.facilities[p.facility]
    if fac.area or fac.layers == 2:
        return Rejected("fixed", f"{article(fac.name)} cannot be moved: it holds the base together")
    if p.building:
        return Rejected("building", f"the {fac.name} is still being built")
    return None


def moves(book: Book, base: bw.Base, site: int) -> tuple[Offer, ...]:
    """Each facility of base `site` that may be moved, as a move to where it stands now."""
    out = []
    for p in base.at(site).placed:
        if movable(book, base, p.key) is None:
            out.append(Offer(Order("move", what=p.key, where=(p.layer, p.x, p.y, p.rotation), site=site),
                             f"{book.facilities[p.facility].name} (at {bw.spot(p.layer, p.x, p.y)})"))
    return tuple(out)


def _crew(base: bw.Base, where: tuple[int, ...]) -> int | Rejected:
    """The engineers an order takes: `where`'s extra number, else every free one."""
    free = bw.free_engineers(base)
    engineers = where[0] if where else free
    if free < 1 or not 1 <= engineers <= free:
        return Rejected("engineers", f"{free} of the base's {base.staff_of('engineer')} engineers are free")
    return engineers


def build(book: Book, records: tuple, base: bw.Base, funding: int, order: Order) -> Outcome | Rejected:
    """A build or a move: placed by the one rule, its man-days by the engineers (a move costs no funding)."""
    moving = order.what if order.kind == "move" else ""
    site = order.site
    if moving:
        if (refused := movable(book, base, moving)) is not None:
            return refused
        p = base.get(moving)
        assert p is not None
        fid, site = p.facility, p.site
        if tuple(order.where[:4]) == (p.layer, p.x, p.y, p.rotation):
            return Rejected("same_spot", f"the {book.facilities[fid].name} stands there already")
    else:
        fid = order.what
    why = bw.placement(book, base, fid, order.where[:4], moving=moving, site=site)
    if why is not None:
        return Rejected("placement", why)
    engineers = _crew(base, order.where[4:5])
    if isinstance(engineers, Rejected):
        return engineers
    price = bw.price(book, base, fid, order.where[:4], site)
    if moving:
        after, placed = bw.move(book, base, moving, order.where[:4], engineers)
        spend, man = 0, book.facilities[fid].man_days
    else:
        if funding < price.funding:
            return Rejected("funding", f"{article(book.facilities[fid].name)} costs {price.funding}F; "
                                       f"the base has {funding}F")
        after, placed = bw.build(book, base, fid, order.where[:4], engineers, site)
        spend, man = price.funding, placed.work
    days = bw.days(book, man, engineers)
    hours = -(-24 * man // engineers)
    name = book.facilities[fid].name
    verb = "Moving" if moving else "Building"
    where = f" in {site_name(site)}" if base.sites > 1 else ""
    to = "to" if moving else "at"
    note = (f"{verb} the {name}{where} {to} {bw.spot(placed.layer, placed.x, placed.y)}, turned {placed.rotation}: "
            f"{man} man-days by {engineers} engineers = {hours} hours, ready in {days_text(days)}"
            + (f" ({spend}F)" if spend else " (no funding)"))
    return Outcome(records=records, base=after, funding=-spend,
                   timers=(Timer(days, f"build:{placed.key}", f"The {name} is ready"),), notes=(note,))


def found(book: Book, records: tuple, base: bw.Base, funding: int, order: Order) -> Outcome | Rejected:
    """15: a new base for the flat 10F and 320 man-days (its parts' own F add up to only 8)."""
    flat, parts = new_base(book)
    if funding < flat.funding:
        return Rejected("funding", f"a new base costs {flat.funding}F; the campaign has {funding}F")
    engineers = _crew(base, order.where[:1])
    if isinstance(engineers, Rejected):
        return engineers
    after, site = bw.found(book, base, engineers)
    days = bw.days(book, flat.man_days, engineers)
    hours = -(-24 * flat.man_days // engineers)
    built = ", ".join(book.facilities[f].name for f in book.campaign.new_base)
    note = (f"Founding {site_name(site)} ({flat.funding}F, not its parts' {parts.funding}F): {flat.man_days} "
            f"man-days by {engineers} engineers = {hours} hours, ready in {days_text(days)}: {built}")
    return Outcome(records=records, base=after, funding=-flat.funding,
                   timers=(Timer(days, f"found:{site}", f"{site_name(site)} is ready"),), notes=(note,))


def founded(book: Book, records: tuple, base: bw.Base, site: int) -> Outcome:
    if base is None or not any(p.site == site and p.building for p in base.placed):
        return Outcome(records=records, notes=(f"{site_name(site)}: nothing is being built there",))
    built = ", ".join(book.facilities[p.facility].name for p in base.at(site).placed)
    return Outcome(records=records, base=bw.finish_site(base, site),
                   notes=(f"{site_name(site)} is ready: {built}",))


def days_text(n: int) -> str:
    return f"{n} day{'' if n == 1 else 's'}"


def article(name: str) -> str:
    return f"{'an' if name[:1].upper() in 'AEIOU' else 'a'} {name}"  # "an engineer", "an Armoury"
