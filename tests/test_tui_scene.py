"""The map drawing: fog of war, glyphs that tell sides apart, the viewport, and row-only repaints."""

from __future__ import annotations

import asyncio

import numpy as np

from engine.core.commands import Move
from tui import scene
from tui.app import XenotacApp
from tui.chronicle import roll_line
from tui.session import Session
from tui.testing import new_session
from tui.widgets.mapview import MapView
from tests.xcom_record import counters, evolved, flags


def frame_for(session: Session, overlay: scene.Overlay | None = None) -> scene.Frame:
    chron = session.chronicle
    return scene.draw(scene.Palette(session.content), session.state, session.side, chron.visible, chron.explored,
                      chron.last_seen, overlay or scene.Overlay(), chron.remembered)


def test_fog_visible_remembered_and_unknown_cells_differ(content, tmp_path):
    session = new_session(content, tmp_path)
    chron = session.chronicle
    frame = frame_for(session)
    ch = frame.console.ch
    assert (ch[~chron.explored] == ord(" ")).all()  # unknown: blank
    assert (ch[chron.explored] != ord(" ")).all()
    chron.explored[:] = True  # pretend the squad has seen everything once
    frame = frame_for(session)
    remembered = ~chron.visible
    assert remembered.any()
    assert (frame.console.fg[remembered] == scene.REMEMBERED).all()
    assert (frame.attrs[remembered] & scene.DIM).all()  # faint without colour too
    assert not (frame.console.fg[chron.visible] == scene.REMEMBERED).all(axis=-1).all()


def test_soldiers_are_digits_hostiles_letters_and_only_seen_hostiles_show(content, tmp_path):
    session = new_session(content, tmp_path)
    session.chronicle.explored[:] = True
    frame = frame_for(session)
    for unit in session.state.units.values():
        x, y = unit.pos
        shown = chr(frame.console.ch[y, x])
        if unit.side == "xcom":
            assert shown == unit.glyph and shown.isdigit()
        elif session.chronicle.visible[y, x]:
            assert shown == unit.glyph and shown.isalpha()
        else:
            assert shown != unit.glyph


def test_last_known_positions_are_marked_with_a_question_mark(content, tmp_path):
    session = new_session(content, tmp_path)
    chron = session.chronicle
    chron.explored[:] = True
    hidden = next(u for u in session.state.units.values()
                  if u.side == "aliens" and not chron.visible[u.pos[1], u.pos[0]])
    chron.last_seen[hidden.id] = hidden.pos
    frame = frame_for(session)
    x, y = hidden.pos
    assert chr(frame.console.ch[y, x]) == scene.LAST_SEEN_GLYPH


def test_cursor_and_selection_are_marked_by_attributes_not_only_colour(content, tmp_path):
    session = new_session(content, tmp_path)
    anton = session.state.units["anton"].pos
    cursor = (anton[0], anton[1] - 2)
    frame = frame_for(session, scene.Overlay(cursor=cursor, selected="anton", path=((anton[0], anton[1] - 1), cursor),
                                             reach=1))
    assert frame.attrs[cursor[1], cursor[0]] & scene.REVERSE
    assert frame.attrs[anton[1], anton[0]] & scene.UNDERLINE and frame.attrs[anton[1], anton[0]] & scene.BOLD
    assert tuple(frame.console.bg[cursor[1], cursor[0]]) == scene.FAR_BG  # beyond reach


def test_the_viewport_follows_the_focus_and_centres_a_small_map():
    assert scene.follow((0, 0), (39, 39), (20, 10), (40, 40)) == (20, 30)
    assert scene.follow((20, 30), (25, 34), (20, 10), (40, 40)) == (20, 30)  # no scroll inside the margins
    assert scene.follow((0, 0), (5, 5), (50, 50), (40, 40)) == (-5, -5)


def test_a_window_off_the_map_edge_is_blank(content, tmp_path):
    session = new_session(content, tmp_path)
    window = frame_for(session).window(-3, -2, 10, 5)
    assert (window.console.ch[:2, :] == ord(" ")).all() and (window.console.ch[:, :3] == ord(" ")).all()


def test_the_map_view_repaints_only_the_rows_that_changed(content, tmp_path):
    session = new_session(content, tmp_path)
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            view = app.screen.query_one(MapView)
            before = view.repainted
            await pilot.press("k")  # the cursor moves one row up: two rows change
            moved = view.repainted - before
            before = view.repainted
            await pilot.press("escape")  # and back
            return moved, view.repainted - before, view.size.height

    moved, back, height = asyncio.run(main())
    assert 1 <= moved <= 3 and 1 <= back <= 3 and height > 10


def test_roll_lines_read_like_the_tabletop():
    names = {"anton": "Anton", "sectoid_1": "Sectoid 1"}
    event = {"kind": "resolved", "actor": "anton", "target": "sectoid_1", "text": "Anton → Sectoid 1: HIT, 10 dmg",
             "rolls": [{"formula": "agility 4*53=212", "crit": None},
                       {"formula": "luck 6*30=180>=100 ✓", "crit": None},
                       {"formula": "agility 7*41=287", "crit": "success"}]}
    assert roll_line(event, names) == ("Anton → Sectoid 1: agility 4*53=212, luck 6*30=180>=100 ✓, "
                                       "agility 7*41=287 [crit+] → HIT, 10 dmg")
    panic = {"kind": "resolved", "actor": "sectoid_1", "text": "Sectoid 1 keeps calm (28 <= morale 50)",
             "rolls": [{"formula": "panic 1d100=28"}]}
    assert roll_line(panic, names) == "Sectoid 1: panic 1d100=28 → keeps calm (28 <= morale 50)"
    assert roll_line({"kind": "moved", "unit": "anton", "rolls": []}, names) is None


def test_the_logs_keep_unseen_hostiles_out_but_count_their_dice(content, tmp_path):
    session = new_session(content, tmp_path)
    hostile = [u for u in session.state.units.values() if u.side == "aliens"]
    assert not any(u.name in line for line in session.chronicle.journal for u in hostile)
    # the aliens' HP (and the sectoids' psi pools) were rolled out of sight: counted, never shown
    hidden = [line for line in session.chronicle.rolls if line.endswith("rolls out of sight")]
    assert hidden and int(hidden[0].split()[0]) >= len(hostile)
    anton = session.state.units["anton"]
    session.submit(Move(unit="anton", path=((anton.pos[0], anton.pos[1] - 1),)))
    assert session.chronicle.messages[-1].startswith("Anton moves to")
    assert np.array_equal(session.chronicle.visible, session.ruleset.visible(session.state, "xcom"))


def test_civilians_are_drawn_in_the_friendly_colour_for_the_squad(content, tmp_path):
    session = new_session(content, tmp_path, mission="terror")
    session.chronicle.visible = np.ones_like(session.chronicle.visible)  # as if the squad saw everyone
    frame = frame_for(session)
    kinds = {}
    for unit in session.state.units.values():
        x, y = unit.pos
        kinds.setdefault(unit.side, set()).add(tuple(int(v) for v in frame.console.fg[y, x]))
    assert kinds["civilians"] == {scene.FRIENDLY}
    assert kinds["aliens"] == {scene.HOSTILE} and kinds["xcom"] == {scene.SQUAD}


def test_every_morale_change_the_squad_knows_of_goes_to_the_roll_log(content, tmp_path):
    session = new_session(content, tmp_path)
    chron = session.chronicle
    anton = session.state.units["anton"]
    hidden = next(u for u in session.state.units.values()
                  if u.side == "aliens" and not chron.visible[u.pos[1], u.pos[0]])
    record = {"kind": "command", "n": chron.head + 1, "events": [
        {"kind": "changed", "unit": "anton", "changes": {"record": {"kind": "xcom-trpg.soldier", "morale": anton.record.morale - 9}}, "cause": "wounds", "rolls": []},
        {"kind": "changed", "unit": "anton", "changes": {"record": {"kind": "xcom-trpg.soldier", "morale": anton.record.morale + 1}}, "cause": "killed Sectoid",
         "rolls": []},
        {"kind": "changed", "unit": hidden.id, "changes": {"record": {"kind": "xcom-trpg.soldier", "morale": hidden.record.morale - 5}}, "cause": "panic",
         "rolls": []}]}
    chron.feed(record)
    assert chron.rolls[-2:] == [f"Anton: morale {anton.record.morale} → {anton.record.morale - 9} (-9, wounds)",
                                f"Anton: morale {anton.record.morale - 9} → {anton.record.morale + 1} (+10, killed Sectoid)"]
    assert not any(line.startswith(f"{hidden.name}: morale") for line in chron.rolls)



def test_a_tile_changed_out_of_sight_keeps_the_look_the_squad_saw(content, tmp_path):
    """A door opened or a wall blown up out of sight does not show on a remembered cell until the squad sees it."""
    session = new_session(content, tmp_path)
    chron = session.chronicle
    chron.explored[:] = True
    ys, xs = np.nonzero(~chron.visible)
    cell = (int(xs[0]), int(ys[0]))
    old = session.state.grid.tile(cell)
    new = next(t for t in content.terrain if t != old and content.terrain[t].glyph != content.terrain[old].glyph)
    chron.feed({"kind": "command", "n": chron.head + 1, "command": {"kind": "wait", "unit": "sectoid_1"},
                "events": [{"kind": "tile", "pos": list(cell), "tile": new, "rolls": []}]})
    assert chron.state.grid.tile(cell) == new and chron.remembered == {cell: old}
    ch = frame_for(session).console.ch
    assert chr(ch[cell[1], cell[0]]) == content.terrain[old].glyph
    ys, xs = np.nonzero(chron.visible)
    in_sight = (int(xs[0]), int(ys[0]))
    chron.remembered[in_sight] = old  # as if it had changed while out of sight, and is in sight now
    chron._look(chron.state)  # noqa: SLF001 - the squad looks: what it sees is drawn as it is
    assert in_sight not in chron.remembered and cell in chron.remembered


def test_the_down_glyph_is_no_tiles_glyph(content):
    """Without colour a unit down must not read as terrain (the hedgerow is `&`)."""
    assert scene.DOWN_GLYPH not in {t.glyph for t in content.terrain.values()}
