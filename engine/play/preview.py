"""`xenotac map`: the battlefield a mission and seed give, exactly as `play --seed N` builds it,
as text or as JSON, with the checks every generated map must pass."""

from __future__ import annotations

from typing import Any

from engine.content import field, missions
from engine.content.models import Content
from engine.core.dice import seed_from_int
from engine.play import catalog
from engine.play.game import build, make_header
from engine.map.zones import problems
from engine.core.model import State


def battlefield(content: Content, ruleset: str, mission_id: str, seed: int) -> tuple[dict[str, Any], State, dict]:
    """The header a game with `--seed seed` would write, its map, and its zones."""
    header = make_header(content, ruleset, mission_id, seed_from_int(seed), casual=False)
    rs, state = build(content, header)
    return header, state, dict(rs.setup.spawns)


def describe(content: Content, ruleset: str, mission_id: str, seed: int) -> dict[str, Any]:
    header, state, zones = battlefield(content, ruleset, mission_id, seed)
    grid = state.grid
    mission = content.missions[mission_id]
    from engine.map.common import Battlefield

    found = problems(Battlefield(grid, {k: tuple(v) for k, v in zones.items()}), content.terrain)
    deployed = catalog.roster(content, ruleset, mission_id)
    units = [{"id": m.uid, "side": m.side, "template": m.template, "glyph": m.glyph, "name": m.name,
              "pos": list(pos)} for m, pos in field.placements(deployed, mission, zones)]
    return {"mission": mission_id, "name": mission.name, "seed": seed, "map_seed": header["mission"]["map_seed"],
            "generator": mission.generator, "width": grid.width, "height": grid.height,
            "tiles": [[grid.tile((x, y)) for x in range(grid.width)] for y in range(grid.height)],
            "legend": {t: {"name": content.terrain[t].name, "glyph": content.terrain[t].glyph,
                           "color": content.terrain[t].color} for t in grid.tile_ids},
            "units": units, "zones": {k: [list(c) for c in v] for k, v in sorted(zones.items())},
            "problems": found, **({"hexes": True} if grid.hexes else {})}


def text(content: Content, d: dict[str, Any]) -> list[str]:
    """The map in the game's glyphs, the units drawn where they deploy, a legend and the checks."""
    rows = [[d["legend"][t]["glyph"] for t in row] for row in d["tiles"]]
    for u in reversed(d["units"]):
        x, y = u["pos"]
        rows[y][x] = u["glyph"]
    head = (f"{d['name']} ({d['mission']}) · seed {d['seed']} · map seed {d['map_seed']} · "
            f"{d['generator']} {d['width']}×{d['height']}")
    if d.get("hexes"):  # odd-r hexes as the client draws them: two columns a hex, odd rows a column further east
        out = [head + " hexes", *((" " if y % 2 else "") + " ".join(r) for y, r in enumerate(rows))]
    else:
        out = [head, *("".join(r) for r in rows)]
    kinds: dict[str, str] = {}
    for u in d["units"]:
        kinds.setdefault(u["glyph"], u["name"].rsplit(" ", 1)[0] if u["side"] != missions.PLAYER else u["name"])
    out.append("Units: " + ", ".join(f"{g} {name}" for g, name in kinds.items()))
    out.append("Tiles: " + ", ".join(f"{v['glyph']} {v['name'].lower()}" for v in d["legend"].values()))
    mission = content.missions[d["mission"]]
    for o in missions.objectives(mission).values():
        where = f" — zone {o.zone}: {_extent(d['zones'].get(o.zone, []))}" if o.zone else ""
        out.append(f"Objective: {o.text}{where}")
    if d["problems"]:
        out += [f"✗ {p}" for p in d["problems"]]
    else:
        out.append("✓ every spawn point and objective can be reached from the squad's landing")
    return out


def _extent(cells: list[list[int]]) -> str:
    if not cells:
        return "none"
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    return f"{len(cells)} cells in {min(xs)},{min(ys)}–{max(xs)},{max(ys)}"
