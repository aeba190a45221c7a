"""Tile changes told as what happened, in one function the message log, the viewer and `replay --story` share:
a door opens or closes, smoke spreads, thins and clears (one line a blast, not one a cell), a wall is destroyed."""

from __future__ import annotations

from engine.core.commands import Act
from engine.log.story import tile_lines
from tests.test_missions_client import soldier_by_a_door
from tui.cli import main


def tile(x, y, t):
    return {"kind": "tile", "pos": [x, y], "tile": t, "rolls": []}


def test_each_kind_of_change_has_its_own_words(content):
    ground = {(1, 1): "door", (2, 2): "door_open", (3, 3): "wall", (4, 4): "fence", (5, 5): "power_source"}.get
    told = tile_lines(content.terrain, ground, [tile(1, 1, "door_open"), tile(2, 2, "door"), tile(3, 3, "rubble"),
                                                tile(4, 4, "grass"), tile(5, 5, "power_source_off")])
    assert told == ["Door at 1,1 opens", "Door at 2,2 closes", "Wall at 3,3 is destroyed",
                    "Fence at 4,4 is destroyed", "Power source at 5,5 becomes dead power source"]


def test_smoke_is_one_line_a_blast_and_thins_then_clears(content):
    cells = [(x, y) for x in range(9, 12) for y in range(4, 7)]
    grass = {c: "grass" for c in cells}.get
    assert tile_lines(content.terrain, grass, [tile(x, y, "smoke") for x, y in cells]) == \
        ["Smoke spreads over 9 cells round 10,5"]
    assert tile_lines(content.terrain, lambda _c: "smoke", [tile(x, y, "smoke_thin") for x, y in cells]) == \
        ["Smoke thins over 9 cells round 10,5"]
    assert tile_lines(content.terrain, lambda _c: "smoke_thin", [tile(10, 5, "grass")]) == \
        ["Thinning smoke clears at 10,5"]


def test_a_change_on_ground_not_known_says_what_the_cell_became(content):
    assert tile_lines(content.terrain, lambda _c: None, [tile(3, 4, "smoke")]) == ["3,4 is now smoke"]


def test_the_message_log_tells_a_door_opening(content, tmp_path):
    session, uid, door = soldier_by_a_door(content, tmp_path)
    session.submit(Act(unit=uid, action="open", cell=door))
    assert f"Door at {door[0]},{door[1]}" + " opens" in session.chronicle.messages
    assert not any("cover" in line and "destroyed" in line for line in session.chronicle.messages)


def test_the_story_follows_undo(content, tmp_path, capsys):
    """Opened, undone, opened again: the story says it opened twice, never that an open door became one."""
    session, uid, door = soldier_by_a_door(content, tmp_path)
    open_it = Act(unit=uid, action="open", cell=door)
    session.submit(open_it)
    session.undo()
    session.submit(open_it)
    session.close()
    capsys.readouterr()
    assert main(["replay", str(session.path), "--story"]) == 0
    out = capsys.readouterr().out
    assert out.count(f"Door at {door[0]},{door[1]} opens") == 2 and "becomes" not in out

