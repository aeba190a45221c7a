"""The battle screen's words: the top bar, and the info box for the cursor, a shot or a throw.

Pure functions of the session and what the player points at, so they are easy to test and the
screen module stays about keys and modes.
"""

from __future__ import annotations

from engine.core.commands import Rejected
from engine.core.ruleset import Row
from engine.map.grid import Pos
from engine.core.model import Unit
from engine.log.story import SIDE_NAMES
from tui.session import Session
from tui.widgets.panels import bar


def top_line(session: Session, hostiles_seen: int) -> str:
    state = session.state
    mission = session.content.missions[state.mission].name
    side = SIDE_NAMES.get(state.side, state.side)
    limit = session.game.header["mission"]["max_phases"]
    turn = f"{side} turn"
    if session.players_turn:
        turn += f" · {len(session.ready())}/{sum(u.conscious for u in session.squad())} ready"
    return f"{mission} · Phase {state.phase}/{limit} · {turn} · hostiles in sight {hostiles_seen}"


def cell_info(session: Session, cursor: Pos, unit: Unit | None, path: tuple[Pos, ...]) -> list[str]:
    state, chron = session.state, session.chronicle
    x, y = cursor
    if chron.explored[y, x]:
        tile = session.content.terrain[state.grid.tile(cursor)]
        cover = f", {tile.cover} cover" if tile.cover != "none" else ""
        lines = [f"{x},{y} {tile.name}{cover}" + ("" if chron.visible[y, x] else " (remembered)")]
    else:
        lines = [f"{x},{y} unexplored"]
    for other in state.units_at(cursor):
        if other.side == session.side or chron.visible[y, x]:
            lines.append(f"{other.glyph} {other.name}: HP {other.hp}/{other.hp_max} {other.status}")
    for uid, pos in chron.last_seen.items():
        if pos == cursor and not chron.visible[y, x]:
            lines.append(f"? {chron.names.get(uid, uid)} last seen here")
    if unit is not None and path:
        budget = session.ruleset.budget(state, unit)
        verdict = "⏎ move" if len(path) <= budget.moves_left else "too far"
        if budget.combo_moves and len(path) <= budget.combo_moves:
            verdict += ", c combo"
        lines.append(f"Path {len(path)}/{budget.moves_left}: {verdict}")
    return lines


def shot_info(session: Session, unit: Unit | None, target: Unit | None, index: int, count: int,
              fire_mode: str) -> list[str]:
    if target is None or unit is None:
        return ["No target"]
    weapon = session.content.weapons[unit.weapon]
    mode = weapon.modes[fire_mode]
    modes = f" (m: {'/'.join(weapon.modes)})" if len(weapon.modes) > 1 else ""
    lines = [f"{unit.name} → {target.glyph} {target.name} ({index + 1}/{count})",
             f"HP {target.hp}/{target.hp_max} · {mode.name}{modes}"]
    preview = session.ruleset.preview_shot(session.state, unit.id, target.id, fire_mode)
    if isinstance(preview, Rejected):
        return [*lines, f"✗ {preview.reason}"]
    lines += [odds_line(row) for row in preview.lines]  # the ruleset's own words for its odds
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
    if unit is None or not item:
        return []
    state = session.state
    reach = session.ruleset.throw_range(state, unit, item)
    d = session.ruleset.distance(unit.pos, cursor)
    inside = "in range" if d <= reach else "OUT OF RANGE"
    seen = session.chronicle.visible
    area = session.ruleset.blast(state, item, cursor)
    who = [u.name for c in area for u in state.units_at(c) if u.side == session.side or seen[u.pos[1], u.pos[0]]]
    where = f"cell {cursor[0]},{cursor[1]}" if len(area) == 1 else f"{len(area)} cells round {cursor[0]},{cursor[1]}"
    return [f"{session.content.weapons[item].name} ×{unit.items.get(item, 0)}",
            f"Range {reach} · target {d}: {inside}", f"Blast: {where}",
            f"In it: {', '.join(who) or 'nobody seen'}"]
