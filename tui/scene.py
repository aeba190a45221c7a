"""Draws the battle map into a tcod Console with vectorised numpy, one layer at a time.

Arrays are indexed [y, x] like the engine's grid. Besides ch/fg/bg there is an `attrs` array of
text attributes (bold, underline, reverse), so the cursor, the selection and the path stay visible
without colour (NO_COLOR).
"""

from __future__ import annotations

from typing import Iterable

import attrs
import numpy as np
import tcod.console

from typing import Mapping

from engine.content.models import Content
from engine.map.terrain import Terrain
from engine.map import hexes as hexmap
from engine.map.grid import Grid, Pos
from engine.content.missions import hostile
from engine.core.model import State
from engine.core.ruleset import Mark

BOLD, UNDERLINE, REVERSE, DIM, ITALIC = 1, 2, 4, 8, 16

BLACK = (0, 0, 0)
REMEMBERED = (70, 70, 84)
SQUAD = (90, 220, 255)
HOSTILE = (255, 90, 90)
FRIENDLY = (240, 220, 120)  # on our side, not under our orders: civilians, a VIP's escort
LAST_SEEN = (200, 120, 60)
DOWN = (150, 150, 150)
SELECTED_BG = (120, 100, 0)
PATH_BG = (20, 60, 120)
FAR_BG = (110, 30, 30)
RANGE_BG = (40, 40, 80)
TARGET_BG = (170, 20, 20)
STACK_BG = (60, 60, 0)
LAST_SEEN_GLYPH = "?"
ABOVE, BELOW = "▲", "▼"  # a unit on a storey above or below the one shown, where it stands
DOWN_GLYPH = "!"  # unconscious or stunned: told apart by the glyph as well as the colour (NO_COLOR); no tile uses it


def rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@attrs.frozen
class Overlay:
    """Everything drawn on top of the terrain and the units, chosen by the battle screen."""

    cursor: Pos | None = None
    selected: str | None = None
    path: tuple[Pos, ...] = ()
    reach: int = 0  # path cells beyond this are out of reach
    marked: tuple[Pos, ...] = ()  # candidate targets
    target: Pos | None = None
    area: np.ndarray | None = attrs.field(default=None, eq=False)  # throw range, [y, x]


# Without colour (NO_COLOR) the ground a climate repaints (engine.map.climate) would read as the ground it replaced:
# sand and snow as grass's `.`, their deep patches as a road's `:`; each gets a glyph of its own (the look cursor
# names the tile either way), and a log is not a fence one jumps. Tiles that play alike (walls and bulkheads, doors
# and hatches) keep their shared glyph.
MONO_GLYPHS = {"sand": "`", "dune": "∩", "snow": "°", "drift": "±", "scorch": "'", "log": "≃"}


class Palette:
    """Per-tile lookup tables: index arrays turn the grid into glyphs and colours in one step. `mono`: drawn without
    colour (the app's `no_color`), where `MONO_GLYPHS` tell apart the tiles only their colour told apart."""

    def __init__(self, content: Content, mono: bool = False) -> None:
        self.content = content
        self.mono = mono
        self._cache: dict[tuple[tuple[str, ...], bool], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def glyph(self, tile: str, terrain: Terrain) -> str:
        return MONO_GLYPHS.get(tile, terrain.glyph) if self.mono else terrain.glyph

    def tables(self, tile_ids: tuple[str, ...], own: Mapping[str, Terrain] | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`own`: the grid's terrain, for the tiles content has not (a storey's open air and roofs)."""
        hit = self._cache.get((tile_ids, self.mono))
        if hit is None:
            terrain = [self.content.terrain[t] if t in self.content.terrain else own[t] for t in tile_ids]
            hit = (np.array([ord(self.glyph(i, t)) for i, t in zip(tile_ids, terrain)], dtype=np.int32),
                   np.array([rgb(t.color) for t in terrain], dtype=np.uint8),
                   np.array([rgb(t.background) for t in terrain], dtype=np.uint8))
            self._cache[(tile_ids, self.mono)] = hit
        return hit


class Frame:
    """A whole-map console plus its attribute layer."""

    def __init__(self, width: int, height: int) -> None:
        self.console = tcod.console.Console(width, height, order="C")
        self.attrs = np.zeros((height, width), dtype=np.uint8)

    def window(self, ox: int, oy: int, width: int, height: int) -> "Frame":
        """The part of the map a viewport shows; cells off the map stay blank."""
        out = Frame(width, height)
        out.console.rgb["ch"] = ord(" ")
        out.console.rgb["fg"] = BLACK
        out.console.rgb["bg"] = BLACK
        mh, mw = self.attrs.shape
        x0, y0 = max(ox, 0), max(oy, 0)
        x1, y1 = min(ox + width, mw), min(oy + height, mh)
        if x0 < x1 and y0 < y1:
            out.console.rgb[y0 - oy:y1 - oy, x0 - ox:x1 - ox] = self.console.rgb[y0:y1, x0:x1]
            out.attrs[y0 - oy:y1 - oy, x0 - ox:x1 - ox] = self.attrs[y0:y1, x0:x1]
        return out


def draw(palette: Palette, state: State, side: str, visible: np.ndarray, explored: np.ndarray,
         last_seen: dict[str, Pos], overlay: Overlay, remembered: dict[Pos, str] | None = None,
         marks: tuple[Mark, ...] = (), level: int = 0, spotted: frozenset[str] | None = None) -> Frame:
    """`remembered`: cells out of sight whose tile changed since the side last saw them, with the tile it saw;
    `marks`: what the ruleset shows the side over the tiles (smoke, fire, its own primed charges, blips), each on
    its storey. `level`: the storey drawn (`visible` and `explored` are that storey's); the squad on the others,
    and the hostiles it has `spotted` there, are marked where they stand. `spotted` (Ruleset.spotted): on a seen
    cell only these other units are drawn (one in smoke nobody made out stays hidden); None: every one."""
    grid = state.grid.level(level)
    frame = Frame(grid.width, grid.height)
    ch, fg, bg = frame.console.ch, frame.console.fg, frame.console.bg
    glyphs, fgs, bgs = palette.tables(grid.tile_ids, grid.terrain)
    tiles = grid.tiles
    ch[...] = np.where(explored, glyphs[tiles], ord(" "))
    for p, tile in (remembered or {}).items():
        x, y = p[:2]
        if (p[2] if len(p) == 3 else 0) == level and explored[y, x] and not visible[y, x]:  # a door opened out of
            # sight still looks shut (a storey's under (x, y, z))
            ch[y, x] = palette.tables((tile,))[0][0]
    fg[...] = np.where(visible[..., None], fgs[tiles], REMEMBERED)
    bg[...] = np.where(visible[..., None], bgs[tiles], BLACK)
    frame.attrs[explored & ~visible] = DIM  # faint even without colour (NO_COLOR)
    for m in (m for m in marks if m.z == level):  # the ruleset chose what the side knows of; under the units
        x, y = m.pos
        if 0 <= y < grid.height and 0 <= x < grid.width and explored[y, x]:
            ch[y, x], fg[y, x] = ord(m.glyph[0]), rgb(m.color) if visible[y, x] else REMEMBERED
            if m.background and visible[y, x]:
                bg[y, x] = rgb(m.background)
    if state.grid.storeys:
        _others(frame, state, side, level, spotted or frozenset())
    _units(frame, state, side, visible, last_seen, overlay.selected, level, spotted)
    _overlay(frame, overlay, visible)
    return frame


def _others(frame: Frame, state: State, side: str, level: int, spotted: frozenset[str]) -> None:
    """Units of the squad, and hostiles it sees, on another storey: `ABOVE` or `BELOW` where they stand."""
    ch, fg, at = frame.console.ch, frame.console.fg, frame.attrs
    for u in sorted(state.units.values(), key=lambda u: abs(u.z - level), reverse=True):
        if u.status == "dead" or u.z == level or not (u.side == side or u.id in spotted):
            continue
        x, y = u.pos
        colour = SQUAD if u.side == side else HOSTILE if hostile(side, u.side) else FRIENDLY
        ch[y, x], fg[y, x], at[y, x] = ord(ABOVE if u.z > level else BELOW), colour, BOLD


def _units(frame: Frame, state: State, side: str, visible: np.ndarray, last_seen: dict[str, Pos],
           selected: str | None, level: int = 0, spotted: frozenset[str] | None = None) -> None:
    ch, fg, bg, at = frame.console.ch, frame.console.fg, frame.console.bg, frame.attrs
    here = {uid for uid, u in state.units.items() if u.z == level
            and (spotted is None or u.side == side or uid in spotted or u.status == "dead")}
    last_seen = {uid: p for uid, p in last_seen.items() if uid not in state.units or uid in here}
    shown = {u.pos for u in state.units.values() if u.status != "dead" and u.id in here
             and (u.side == side or visible[u.pos[1], u.pos[0]])}
    for uid, (x, y) in last_seen.items():
        if not visible[y, x] and (x, y) not in shown:
            ch[y, x], fg[y, x], at[y, x] = ord(LAST_SEEN_GLYPH), LAST_SEEN, BOLD
    # the down first, so a standing unit on the same cell is drawn over them; hostiles over friends
    order = sorted((u for u in state.units.values() if u.status != "dead" and u.id in here),
                   key=lambda u: (u.status == "active", u.side != side))
    stacked: dict[Pos, int] = {}
    for unit in order:
        x, y = unit.pos
        if unit.side != side and not visible[y, x]:
            continue
        stacked[unit.pos] = stacked.get(unit.pos, 0) + 1
        if unit.status != "active":
            ch[y, x], fg[y, x], at[y, x] = ord(DOWN_GLYPH), DOWN, DIM | UNDERLINE
        else:
            colour = SQUAD if unit.side == side else HOSTILE if hostile(side, unit.side) else FRIENDLY
            ch[y, x], fg[y, x], at[y, x] = ord(unit.glyph[0]), colour, BOLD
    for (x, y), count in stacked.items():
        if count > 1:  # the top unit's glyph, in italics on its own shade: the cell info lists them all
            bg[y, x] = STACK_BG
            at[y, x] |= ITALIC
    unit = state.units.get(selected or "")
    if unit is not None and unit.z == level:
        x, y = unit.pos
        bg[y, x] = SELECTED_BG
        at[y, x] |= BOLD | UNDERLINE


def _overlay(frame: Frame, overlay: Overlay, visible: np.ndarray) -> None:
    bg, at = frame.console.bg, frame.attrs
    if overlay.area is not None:
        area = overlay.area & visible
        bg[area] = RANGE_BG
    for i, (x, y) in enumerate(overlay.path):
        bg[y, x] = PATH_BG if i < overlay.reach else FAR_BG
        at[y, x] |= UNDERLINE
    for x, y in overlay.marked:
        at[y, x] |= UNDERLINE
    if overlay.target is not None:
        x, y = overlay.target
        bg[y, x] = TARGET_BG
    if overlay.cursor is not None:
        x, y = overlay.cursor
        at[y, x] |= REVERSE


def on_screen(grid: Grid, p: Pos) -> Pos:
    """Where cell p is drawn: itself on squares; on hexes two columns a cell, odd rows one column further east
    (engine.map.hexes' odd-r layout)."""
    return (2 * p[0] + (p[1] & 1), p[1]) if grid.hexes else p


def world(grid: Grid) -> tuple[int, int]:
    """The drawn map's size in columns and rows."""
    return (2 * grid.width + 1, grid.height) if grid.hexes else (grid.width, grid.height)


def laid_out(grid: Grid, frame: Frame) -> Frame:
    """The frame as the map is drawn: on hexes each cell's glyph, then a blank of its shade (so a path, the range
    and the cursor read two columns wide), every odd row shifted a column east."""
    if not grid.hexes:
        return frame
    h, w = frame.attrs.shape
    out = Frame(2 * w + 1, h)
    out.console.rgb["ch"] = ord(" ")
    out.console.rgb["fg"] = BLACK
    out.console.rgb["bg"] = BLACK
    blank = frame.console.rgb.copy()
    blank["ch"] = ord(" ")
    for parity in (0, 1):
        rows, end = slice(parity, None, 2), parity + 2 * w
        cols, after = slice(parity, end, 2), slice(parity + 1, end, 2)
        out.console.rgb[rows, cols] = frame.console.rgb[rows]
        out.console.rgb[rows, after] = blank[rows]
        out.attrs[rows, cols] = frame.attrs[rows]
        out.attrs[rows, after] = frame.attrs[rows] & np.uint8(0xFF ^ (BOLD | ITALIC))
    return out


def cells_within(shape: tuple[int, int], centre: Pos, radius: int, hexes: bool = False) -> np.ndarray:
    """Chebyshev disc, [y, x]; on hexes the hexagon."""
    h, w = shape
    if hexes:
        out = np.zeros(shape, dtype=bool)
        for x, y in hexmap.hexagon(centre, radius):
            if 0 <= x < w and 0 <= y < h:
                out[y, x] = True
        return out
    ys, xs = np.ogrid[:h, :w]
    return (np.abs(xs - centre[0]) <= radius) & (np.abs(ys - centre[1]) <= radius)


def follow(origin: Pos, focus: Pos, view: tuple[int, int], world: tuple[int, int], margin: int = 3) -> Pos:
    """Scroll the viewport the least that keeps `focus` `margin` cells from its edges; centre a small map."""
    return (_axis(origin[0], focus[0], view[0], world[0], margin), _axis(origin[1], focus[1], view[1], world[1], margin))


def _axis(o: int, f: int, view: int, world: int, margin: int) -> int:
    if view >= world:
        return -((view - world) // 2)
    margin = min(margin, max(0, (view - 1) // 2))
    if f < o + margin:
        o = f - margin
    elif f > o + view - 1 - margin:
        o = f - (view - 1 - margin)
    return max(0, min(o, world - view))


def positions(units: Iterable) -> tuple[Pos, ...]:
    return tuple(u.pos for u in units)
