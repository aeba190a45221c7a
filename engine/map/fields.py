"""Maps made once per process: verifying many logs of the same map (tamper, CI, the benchmarks' AI missions)
must not generate it again each time. The terrain is held too, so an `id` is never reused for another."""

from __future__ import annotations

from typing import Mapping

from engine.map import storeys
from engine.map.common import Battlefield
from engine.map.gen import GENERATORS
from engine.map.terrain import Terrain


_FIELDS: dict[tuple, tuple[Mapping[str, Terrain], Battlefield]] = {}  # the last maps made, each with its terrain
FIELDS_KEPT = 8


def battlefield(generator: str, width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
                counts: Mapping[str, int], levels: int) -> Battlefield:
    """The generator's map with `levels` storeys, made once per process for each map seed. A map is immutable
    (its caches hold only what its own cells decide), so one made earlier of the same terrain is the very map
    the generator would make again."""
    key = (generator, width, height, seed, tuple(sorted(counts.items())), levels, id(terrain))
    kept = _FIELDS.get(key)
    if kept is not None and kept[0] is terrain:
        return kept[1]
    field = GENERATORS[generator](width, height, seed, terrain, counts)
    if levels > 1:  # the ruleset's maps stack storeys over the generated ground
        field = storeys.stack(field, seed, levels)
    if len(_FIELDS) >= FIELDS_KEPT:
        del _FIELDS[next(iter(_FIELDS))]
    _FIELDS[key] = (terrain, field)
    return field

