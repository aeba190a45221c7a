"""The player's view of a log (engine.log.view): what a side saw, and only that, until the mission ends."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from engine.core import codec
from engine.core.dice import seed_from_int
from engine.core.model import State
from engine.core.reducer import fold
from engine.log import reading, view
from engine.log.errors import LogError
from engine.log.story import describe
from engine.play import simulate
from engine.play.game import build

SIDE = "xcom"


class Block:
    """Sight for the tests: the side sees the cells of `mask`, and every unit standing in them."""

    def __init__(self, mask: np.ndarray) -> None:
        self.mask = mask
        self.asked = 0

    def visible(self, state: State, side: str) -> np.ndarray:
        self.asked += 1
        return self.mask

    def spotted(self, state: State, side: str) -> frozenset[str]:
        return frozenset(u.id for u in state.units.values() if u.side != side and self.mask[u.pos[1], u.pos[0]])


@pytest.fixture(scope="module")
def start(content, tmp_path_factory):
    """The first state of an eliminate mission, with Anton at (1, 1) and Sectoid 1 at (20, 20)."""
    path = tmp_path_factory.mktemp("view") / "m.jsonl"
    game = simulate.run(content, "xcom-trpg", "eliminate", seed_from_int(4), path, max_phases=1)
    game.close()
    records, _broken = reading.records(path)
    state = fold(build(content, records[0][1])[1], [codec.load_event(e) for e in records[1][1]["events"]])
    return place(state, anton=(1, 1), sectoid_1=(20, 20))


def place(state: State, **cells) -> State:
    units = {uid: attrs.evolve(u, pos=cells[uid]) if uid in cells else u for uid, u in state.units.items()}
    return attrs.evolve(state, units=units)


def eyes_on(state: State, seen: tuple[int, int, int, int] = (0, 0, 10, 10)) -> view.Eyes:
    mask = np.zeros((state.grid.height, state.grid.width), dtype=bool)
    x0, y0, x1, y1 = seen
    mask[y0:y1, x0:x1] = True
    return view.Eyes(Block(mask), SIDE)


def roll(actor: str, formula: str) -> dict:
    return {"actor": actor, "purpose": "attack", "expr": "1d100", "faces": [50], "formula": formula, "total": 50,
            "crit": None, "stream": "main", "index": 0}


def shot(actor: str, target: str) -> dict:
    return {"kind": "resolved", "actor": actor, "action": "shoot", "target": target, "cell": None, "outcome": "hit",
            "text": f"{actor} → {target}: HIT, 12 dmg", "weapon": None, "mode": None,
            "rolls": [roll(actor, "agility 7*50=350"), roll(target, "agility 4*20=80")]}


def test_an_unseen_hostiles_doings_are_counted_not_told(start):
    eyes = eyes_on(start)
    hurt = {"kind": "changed", "unit": "sectoid_1", "changes": {"hp": 20}, "cause": "wounds",
            "rolls": [roll("sectoid_1", "luck 6*9=54<100 ✗")]}
    told = eyes.tell(start, start, [hurt, {"kind": "phase", "phase": 2, "rolls": []}])
    assert told.shown[0] is None and told.shown[1]["kind"] == "phase"
    assert told.hidden == 1


def test_own_rolls_and_a_spotted_hostiles_are_told_whole(start):
    near = place(start, sectoid_1=(5, 5))
    told = eyes_on(near).tell(near, near, [shot("sectoid_1", "anton"), shot("anton", "sectoid_1")])
    assert told.shown == (shot("sectoid_1", "anton"), shot("anton", "sectoid_1")) and told.hidden == 0


def test_a_shot_from_out_of_sight_tells_whom_it_hit_but_not_who_or_with_what(start):
    told = eyes_on(start).tell(start, start, [shot("sectoid_1", "anton")])
    (event,) = told.events
    assert event["text"] == "Out of sight → Anton: shoot, hit" and event["actor"] is None
    assert [r["formula"] for r in event["rolls"]] == ["agility 4*20=80"]  # Anton's own dodge
    assert told.hidden == 1
    assert eyes_on(start).tell(start, start, [shot("sectoid_1", "muton_1")]).shown == (None,)


def test_a_hostile_walking_out_of_sight_is_seen_to_go_and_no_further(start):
    near = place(start, sectoid_1=(8, 8))
    gone = place(start, sectoid_1=(12, 12))
    walk = {"kind": "moved", "unit": "sectoid_1", "path": [[9, 9], [10, 10], [11, 11], [12, 12]], "facing": 3,
            "rolls": []}
    (event,) = eyes_on(start).tell(near, gone, [walk]).events
    assert event["path"] == [[9, 9]] and event["out_of_sight"]
    assert describe(event, {"sectoid_1": "Sectoid 1"}) == "Sectoid 1 moves out of sight"
    back = eyes_on(start).tell(gone, near, [{**walk, "path": [[11, 11], [10, 10], [9, 9], [8, 8]]}]).events
    assert back[0]["path"] == [[9, 9], [8, 8]] and "out_of_sight" not in back[0]


def test_a_tile_changes_only_where_the_side_sees(start):
    doors = [{"kind": "tile", "pos": [3, 3], "tile": "door_open", "rolls": []},
             {"kind": "tile", "pos": [30, 30], "tile": "door_open", "rolls": []}]
    assert [e is not None for e in eyes_on(start).tell(start, start, doors).shown] == [True, False]


def test_sight_is_asked_once_per_state(start):
    eyes = eyes_on(start)
    after = place(start, sectoid_1=(21, 21))
    for _ in range(3):
        eyes.tell(start, after, [shot("sectoid_1", "muton_1")])
    assert eyes.ruleset.asked == 2


def test_a_log_is_told_whole_once_the_mission_has_ended(content, tmp_path):
    path = tmp_path / "whole.jsonl"
    game = simulate.run(content, "xcom-trpg", "eliminate", seed_from_int(4), path, max_phases=30)
    game.close()
    records, _broken = reading.records(path)
    assert view.ended(records)
    cut = [r for r in records if r[1].get("kind") != "reveal" and not any(
        e.get("kind") == "ended" for e in r[1].get("events", []))]
    assert not view.ended(cut)
    ruleset, initial = build(content, records[0][1])
    closed, opened = view.View(ruleset, initial, SIDE), view.View(ruleset, initial, SIDE, opened=True)
    hidden = 0
    for n, record in records[1:]:
        shut, whole = closed.feed(n, record), opened.feed(n, record)
        if shut is None:
            assert whole is None
            continue
        assert whole.events == record["events"] and whole.hidden == 0
        every = sum(len(e.get("rolls") or []) for e in record["events"])
        assert sum(len(e.get("rolls") or []) for e in shut.events) + shut.hidden == every  # an honest count
        hidden += shut.hidden
    assert hidden > 0  # the aliens' hit points at least were rolled out of sight


def test_words_of_a_seen_event_never_name_a_unit_out_of_sight(start):
    grief = {"kind": "changed", "unit": "anton", "changes": {"morale": 70}, "cause": "Sectoid 1 died", "rolls": []}
    blast = {**shot("anton", "anton"), "text": "Anton: grenade at (20, 20): Sectoid 1 20 dmg, Anton 5 dmg"}
    told = eyes_on(start).tell(start, start, [grief, blast])
    assert told.shown[0]["cause"] == "someone out of sight died"
    assert told.shown[1]["text"] == "Anton: grenade at (20, 20): someone out of sight 20 dmg, Anton 5 dmg"
    near = place(start, sectoid_1=(5, 5))
    assert eyes_on(near).tell(near, near, [grief]).shown[0] is grief  # seen: named


def test_a_forged_move_off_the_map_is_one_located_error(content, tmp_path):
    path = tmp_path / "short.jsonl"
    simulate.run(content, "xcom-trpg", "eliminate", seed_from_int(4), path, max_phases=1).close()
    records, _broken = reading.records(path)
    ruleset, initial = build(content, records[0][1])
    closed = view.View(ruleset, initial, SIDE)
    closed.feed(2, records[1][1])
    forged = {"kind": "command", "base": 2, "command": {"kind": "move", "unit": "anton"},
              "events": [{"kind": "moved", "unit": "anton", "path": [[999, -5]], "facing": 0, "rolls": []}]}
    with pytest.raises(LogError, match=r"line 3: Anton stands off the map at 999,-5"):
        closed.feed(3, forged)


def test_a_move_seen_in_none_of_its_cells_is_told_without_a_place():
    """A record with two moves of one unit: the first ends out of sight, the second in it, so the view keeps the
    first with no cell at all; the story says the unit moved and never reads a cell that is not there."""
    assert describe({"kind": "moved", "unit": "sectoid_1", "path": []}, {"sectoid_1": "Sectoid 1"}) == "Sectoid 1 moves"
    assert describe({"kind": "moved", "unit": "sectoid_1", "path": [[3, 4]]}, {"sectoid_1": "Sectoid 1"}) == \
        "Sectoid 1 moves to 3,4"


def test_a_mission_die_never_names_a_unit_out_of_sight_by_name_or_id(start):
    """An initiative tie (neo-troops) is the mission's die, told with its event: its formula must not say which
    unseen units tied, whether it writes their names or their ids."""
    tie = {"kind": "noted", "rolls": [roll("order", "tie among sectoid_1, Sectoid 1, anton: 1d3=2 → sectoid_1")]}
    (event,) = eyes_on(start).tell(start, start, [tie]).events
    assert event["rolls"][0]["formula"] == ("tie among someone out of sight, someone out of sight, anton: 1d3=2 → "
                                            "someone out of sight")
    near = place(start, sectoid_1=(5, 5))
    assert eyes_on(near).tell(near, near, [tie]).shown[0] == tie  # seen: told whole
