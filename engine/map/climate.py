"""The climate a farm or crash-site map is repainted in after its generator (opt-in: `Ruleset.climates`, annihilation's settings): a
desert farm or crash site of sand with dunes of deep sand, a winter one of snow with drifts, its water frozen to
ice; "temperate" leaves the map as generated. The climate is drawn from the map seed on its own draws, so the tiles
the generator laid and its zones stay where they were; a ruleset with no climates (every other, and annihilation's
older bundles) makes the very maps it made before."""

from __future__ import annotations

from typing import Mapping, Sequence

from engine.map.common import Battlefield, MapRng
from engine.map.grid import Grid
from engine.map.terrain import Terrain

TEMPERATE = "temperate"
# what each climate makes of a tile of the temperate maps; `deep` is the patchy heavier ground over its `base`
CLIMATES: dict[str, dict[str, str]] = {
    "desert": {"grass": "sand", "crops": "sand", "brush": "dune", "ford": "sand", "water": "dune", "dirt": "sand"},
    "winter": {"grass": "snow", "crops": "snow", "brush": "drift", "ford": "ice", "water": "ice", "dirt": "snow"},
}
DEEP = {"desert": ("sand", "dune"), "winter": ("snow", "drift")}  # base -> deep, laid in patches
GENERATORS = ("farmland", "alien_ship")  # the farm (defend) and the crash site; the others keep their own ground
SALT = 0xC11A7E  # the climate's draws, apart from the generator's


def choose(seed: int, climates: Sequence[str]) -> str:
    """The map's climate, one of `climates`, by the map seed; temperate when there is no choice."""
    if not climates:
        return TEMPERATE
    return climates[MapRng(seed ^ SALT).below(len(climates))]


def repaint(field: Battlefield, generator: str, seed: int, climates: Sequence[str],
            terrain: Mapping[str, Terrain]) -> Battlefield:
    """The generated field in the climate the seed draws (only an outdoor generator's; zones untouched)."""
    climate = choose(seed, climates) if generator in GENERATORS else TEMPERATE
    if climate == TEMPERATE:
        return field
    swap = CLIMATES[climate]
    grid = field.grid
    now = {(x, y): grid.tile((x, y)) for y in range(grid.height) for x in range(grid.width)}
    painted = {c: swap[t] for c, t in now.items() if t in swap}
    base, deep = DEEP[climate]
    rng = MapRng(seed ^ SALT ^ 1)
    for _ in range(max(1, grid.width * grid.height // 200)):  # patches of the deep ground, 3..5 squares across
        cx, cy, r = rng.below(grid.width), rng.below(grid.height), rng.between(1, 2)
        for y in range(max(0, cy - r), min(grid.height, cy + r + 1)):
            for x in range(max(0, cx - r), min(grid.width, cx + r + 1)):
                if painted.get((x, y)) == base and abs(x - cx) + abs(y - cy) <= r + 1:
                    painted[(x, y)] = deep
    g = grid.with_tiles(painted)  # then made the map as generated: what a blast or a cloud fades back to
    return Battlefield(Grid(g.tile_ids, g.tiles, terrain=g.terrain, storeys=g.storeys), dict(field.spawns))
