"""The battle screen's words: the top bar, and the info box for the cursor, a shot or a throw.

Pure functions of the session and what the player points at, so they are easy to test and the
screen module stays about keys and modes.
"""

from __future__ import annotations

from typing import Callable

from engine.content import missions
from engine.core.commands import Rejected
from engine.core.ruleset import Row
from engine.map.grid import Pos
from engine.core.model import Unit
from engine.log.story import turn_name
from tui.session import Session
from tui.widgets.panels import bar


def top_line(session: Session, hostiles_seen: int, width: int = 80, level: int = 0) -> str:
    """The mission, the phase, whose turn and how many hostiles are in sight, and the level shown on a map with
    storeys; shorter words if it would not fit."""
    state = session.state
    mission = session.content.missions[state.mission].name
    limit = session.game.header["mission"]["max_phases"]
    sides = session.chronicle.sides  # the ruleset's names: "Aliens in sight", neo-troops' "Goons in sight"
    turn = session.ruleset.turn(state).label or turn_name(state.side, sides)  # "Initiative 3/8: Anna" in a slot ruleset
    foes = sides.foes(session.side)
    ready = f" · {len(session.ready())}/{sum(u.conscious for u in session.squad())} ready" if session.players_turn \
        else ""
    line = f"{mission} · Phase {state.phase}/{limit} · {turn}{ready} · {foes} in sight {hostiles_seen}"
    if state.grid.storeys:
        line = f"Level {level}/{state.grid.levels - 1} · " + line
    if len(line) > width:
        line = line.replace(f" · {foes} in sight ", " · in sight ")
    if len(line) > width and state.grid.storeys:
        line = line.replace("Level ", "L", 1)
    if len(line) > width and ready:  # a long turn label (a slot and who is next) before the count of the ready
        line = line.replace(ready, "", 1)
    if len(line) > width and len(turn) > 12:  # an interrupt's question: its end gives way, the count stays whole
        line = line.replace(turn, turn[:max(11, len(turn) - (len(line) - width) - 1)] + "…", 1)
    return line


def cell_info(session: Session, cursor: Pos, unit: Unit | None, path: tuple[Pos, ...],
              key: Callable[[str], str], level: int = 0, cost: int | None = None) -> list[str]:
    """What is at the cursor (on storey `level`); with a path, whether it can be walked (`key`: the key of a
    binding id; `cost`: the path's, when it crosses storeys)."""
    state, chron = session.state, session.chronicle
    x, y = cursor
    storeys = bool(state.grid.storeys)
    explored, visible = (chron.explored_levels[level], chron.visible_levels[level]) if storeys else \
        (chron.explored, chron.visible)
    if explored[y, x]:
        grid = state.grid.level(level)
        tile = grid.terrain[grid.tile(cursor)]
        cover = f", {tile.cover} cover" if tile.cover != "none" else ""
        lines = [f"{x},{y} {tile.name}{cover}" + ("" if visible[y, x] else " (remembered)")]
    else:
        lines = [f"{x},{y} unexplored"]
    if explored[y, x]:
        lines += list(dict.fromkeys(f"{m.glyph} {m.label}" for m in session.ruleset.marks(state, session.side)
                                    if m.pos == cursor and m.z == (level if storeys else 0)))
    for other in state.units_at(cursor, level if storeys else None):
        if other.side == session.side or other.id in chron.spotted:  # a cloak in a seen cell stays unseen
            lines.append(f"{other.glyph} {other.name}: {health(session, other)}")
    for uid, pos in chron.last_seen.items():
        if pos == cursor and not chron.visible[y, x]:
            lines.append(f"? {chron.names.get(uid, uid)} last seen here")
    if unit is not None and path:
        budget = session.ruleset.budget(state, unit)
        cost = budget.walk.cost(unit.pos, path) if cost is None else cost
        verdict = f"{key('move')} move" if cost <= budget.moves_left else "too far"
        if budget.dash_fits(unit.pos, path):
            verdict += f", {key('combo')} {budget.dash_label}" + (
                f" {budget.dash_walk.cost(unit.pos, path)}" if budget.dash_walk is not None else "")
        unit_word = "" if budget.walk.currency == "cells" else f" {budget.walk.currency}"
        lines.append(f"Path {cost}/{budget.moves_left}{unit_word}: {verdict}")
    return lines


def health(session: Session, unit: Unit) -> str:
    """A unit in a few words, as the ruleset's sheet gives it: its first row and any alert (`HP 40/62`)."""
    rows = session.ruleset.sheet(session.state, unit).rows
    first = f"{rows[0].label} {rows[0].text.strip()}" if rows else ""
    alert = next((r.alert for r in rows if r.alert), "")
    return f"{first} {alert}".strip()


def squad_entries(session: Session) -> list[tuple[str, str]]:
    """The soldier list: each soldier's glyph, name, health and what is left of the turn, with its id."""
    out = []
    for unit in session.squad():
        budget = session.ruleset.budget(session.state, unit)
        state = "ready" if budget.can_act else "done"
        out.append((f"{unit.glyph} {unit.name:<14} {health(session, unit):<22} {budget.label:<12} {state}", unit.id))
    return out


def shot_info(session: Session, unit: Unit | None, target: Unit | None, index: int, count: int,
              fire_mode: str) -> list[str]:
    if target is None or unit is None:
        return ["No target"]
    lines = [f"{unit.name} → {target.glyph} {target.name} ({index + 1}/{count})",
             f"{health(session, target)} · {_mode_words(session, unit, fire_mode)}"]
    return lines + _odds(session.ruleset.shot_panel(session.state, unit.id, target.id, fire_mode))


def cell_shot_info(session: Session, unit: Unit | None, cell: Pos, fire_mode: str) -> list[str]:
    """The panel of a shot at a cell where nobody is seen: the ruleset's pool and odds, or why it cannot fire."""
    if unit is None:
        return []
    found = session.ruleset.preview_cell_shot(session.state, unit.id, cell, fire_mode)
    known = found.modes if not isinstance(found, Rejected) and found.modes else None
    lines = [f"{unit.name} → cell {cell[0]},{cell[1]}", _mode_words(session, unit, fire_mode, known)]
    return lines + _odds(found if isinstance(found, Rejected) else found.preview)


def _mode_words(session: Session, unit: Unit, fire_mode: str, known=None) -> str:
    known = known or session.ruleset.shot_modes(session.state, unit)
    mode = next((m for m in known if m.id == fire_mode), None)
    modes = f" (m: {'/'.join(m.id for m in known)})" if len(known) > 1 else ""
    name = mode.name if mode else fire_mode
    return f"{name}{modes}" if len(name + modes) <= PANEL_MIN else f"{name} (m: {len(known)} modes)"


PANEL_MIN = 30  # the side panel's least columns (80×24 beside a 48-cell map): a line within it never wraps


def _odds(preview) -> list[str]:
    if isinstance(preview, Rejected):
        return [f"✗ {preview.reason}"]
    lines = [odds_line(row) for row in preview.lines]  # the ruleset's own words for its odds
    if preview.notes:
        lines.append("; ".join(preview.notes))
    return lines


def odds_line(row: Row) -> str:
    """`Hit 45.0% · dmg 12.3`: a preview line as the ruleset words it, with its bar if it has one."""
    line = f"{row.label} {row.text}"
    if row.value is not None and row.maximum is not None:
        line += f" {bar(row.value, row.maximum)}"
    return line + (f" {row.alert}" if row.alert else "")


def throw_info(session: Session, unit: Unit | None, item: str | None, cursor: Pos) -> list[str]:
    """The throw panel, from the ruleset's preview: the chance to land, the scatter, the damage to each unit in
    the blast the squad can see; a cell the thrower cannot reach or see says so, never "in range"."""
    if unit is None or not item:
        return []
    state = session.state
    entry = next((t for t in session.ruleset.throwables(state, unit) if t.item == item), None)
    label, count = (entry.label, entry.count) if entry else (session.ruleset.name(item), 0)
    head = [f"{label} ×{count} → {cursor[0]},{cursor[1]}"]
    preview = session.ruleset.preview_throw(state, unit.id, item, cursor)
    if isinstance(preview, Rejected):
        return [*head, f"✗ {preview.reason}"]
    area = session.ruleset.blast(state, item, cursor)
    if len(area) > 1:
        head.append(f"Blast: {len(area)} cells")
    hits = [odds_line(row) for uid, row in preview.hits if in_view(session, state.units[uid])]
    return [*head, *(odds_line(row) for row in preview.lines), *(hits or ["In the blast: nobody seen"])]


def in_view(session: Session, unit: Unit) -> bool:
    """A unit the player may be told of: their own, or one their side sees now."""
    return unit.side == session.side or unit.id in session.chronicle.spotted


def own_in_blast(session: Session, unit: Unit, item: str, cell: Pos) -> list[Unit]:
    """The squad's own people a throw at `cell` would hit, for the "really?" question."""
    preview = session.ruleset.preview_throw(session.state, unit.id, item, cell)
    if isinstance(preview, Rejected):
        return []
    return [session.state.units[uid] for uid, _row in preview.hits
            if not missions.hostile(session.side, session.state.units[uid].side)]
