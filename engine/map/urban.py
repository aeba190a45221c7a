"""Urban blocks: a grid of roads with pavements, blocks of houses and shops with rooms, doors and
windows (some with an upper floor), yards with hedges and fences, parked cars."""

from __future__ import annotations

from typing import Mapping

from engine.map.terrain import Terrain
from engine.map.common import SPAWN_DEPTH, Battlefield, Canvas, MapRng, cells_of, landing, nearest
from engine.map.features import Style, building, clump, line
from engine.map.zones import aliens_in, finish, paint_extraction, spread_civilians

HOUSE = Style(window="window", loft="loft", railing="railing", stairs="stairs", furniture="crate")
ROAD = 3  # road width between blocks, pavement included on each side


def generate(width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
             counts: Mapping[str, int], hexes: bool = False) -> Battlefield:
    rng = MapRng(seed)
    cv = Canvas(width, height, "road", terrain, hexes)
    columns = _cuts(rng, width)
    rows = _cuts(rng, height - SPAWN_DEPTH - 1)
    extraction = paint_extraction(cv, rng, "landing_zone")
    insides = []
    for bx0, bx1 in columns:
        for by0, by1 in rows:
            insides += _block(cv, rng, bx0, by0, bx1, by1)
    _cars(cv, rng)
    walk = cv.walkable()
    squad = landing(walk, rng, counts.get("xcom", 0))
    north = walk.copy()
    north[height * 55 // 100:, :] = False
    street = cv.mask("pavement") & walk
    indoors = cv.mask("floor") & walk
    centre = (width // 2, height // 2)
    zones = {
        "xcom": squad,
        "aliens": aliens_in(cells_of(north), rng, counts.get("aliens", 0), squad),
        "civilians": spread_civilians(cells_of(indoors) + cells_of(street), rng),
        "extraction": extraction,
        "hold": nearest(insides, centre)[:40] or nearest(cells_of(walk), centre)[:40],
    }
    return finish(cv, zones, "pavement")


def _cuts(rng: MapRng, length: int) -> list[tuple[int, int]]:
    """Blocks along one axis: (first, last) cells of each, roads of ROAD cells between them."""
    out, at = [], rng.between(1, 3)
    while True:
        size = rng.between(11, 16)
        if at + size > length - 1:
            if length - 1 - at >= 8:
                out.append((at, length - 2))
            return out
        out.append((at, at + size - 1))
        at += size + ROAD


def _block(cv: Canvas, rng: MapRng, x0: int, y0: int, x1: int, y1: int) -> list:
    """A block: a pavement ring, one or two buildings, yards with hedges, fences and trees."""
    if not cv.free[y0:y1 + 1, x0:x1 + 1].all():  # the extraction point is here: leave a square
        return []
    cv.fill(x0, y0, x1, y1, "pavement")
    cv.fill(x0 + 1, y0 + 1, x1 - 1, y1 - 1, "grass")
    cv.free[y0:y1 + 1, x0:x1 + 1] = False
    w, h = x1 - x0 - 1, y1 - y0 - 1
    insides = []
    if w >= 12 and rng.chance(60):  # two houses side by side
        split = x0 + 1 + w // 2
        spans = [(x0 + 1, split - 1), (split + 1, x1 - 1)]
        line(cv, rng, (split, y0 + 1), h, False, rng.pick(["fence", "hedge"]), gaps=1)
    else:
        spans = [(x0 + 1, x1 - 1)]
    for sx0, sx1 in spans:
        bw = min(sx1 - sx0 + 1, rng.between(7, 12))
        bh = min(h, rng.between(6, 10))
        bx = rng.between(sx0, sx1 - bw + 1)
        by = rng.between(y0 + 1, y1 - bh)
        b = building(cv, rng, bx, by, bx + bw - 1, by + bh - 1, HOUSE, windows=45, doors=2,
                     storey=bh >= 9 and rng.chance(60))
        insides += b.inside()
        for _ in range(rng.between(0, 2)):  # a tree or a hedge clump in the yard
            clump(cv, rng, (rng.between(sx0, sx1), rng.between(y0 + 1, y1 - 1)), rng.pick(["tree", "hedge"]),
                  2, spread=1, on="grass")
    return insides


def _cars(cv: Canvas, rng: MapRng) -> None:
    """Cars parked along the roads, two cells long, never across a whole road."""
    road = cv.mask("road")
    for x, y in rng.shuffled(cells_of(road))[: max(4, cv.width * cv.height // 160)]:
        horizontal = rng.chance(50)
        other = (x + 1, y) if horizontal else (x, y + 1)
        if not cv.inside(*other) or cv.at(*other) != "road" or y >= cv.height - SPAWN_DEPTH - 1:
            continue
        ahead = [(x + dx, y + dy) for dx in (-1, 0, 1, 2) for dy in (-1, 0, 1, 2)]
        if any(cv.inside(*c) and cv.at(*c) == "car" for c in ahead):
            continue
        cv.put(x, y, "car")
        cv.put(*other, "car")
