"""An AI's memory read back from a checkpoint: the run-length maps take integers only, and fill the map."""

import pytest

from engine.ai import memory


def snapshot(runs, shape=(2, 3)):
    return {"memory": [["a1", 1, 2]], "explore": [], "held": [], "armed": [], "skip": [], "turn": None,
            "mark": None, "looked": {"shape": list(shape), "runs": runs}}


def test_runs_fill_the_map_row_by_row():
    m = memory.decode(snapshot([-1, 2, 4, 3, 7, 1]))
    assert m.looked.tolist() == [[-1, -1, 4], [4, 4, 7]]
    assert m.memory == {"a1": (1, 2)}


@pytest.mark.parametrize("runs", [[-1, 2, 4, True, 7, 2], [-1, 2, 4, 3.0, 7, 1], [-1, 2, "4", 3, 7, 1],
                                  [-1, 2, 4, 3, 7], [-1, 2, 4, 3], [-1, 2, 4, 3, 7, 0, 7, 1], [-2, 6]])
def test_runs_that_are_not_integers_or_do_not_fill_the_map_are_refused(runs):
    with pytest.raises(ValueError, match="malformed AI memory"):
        memory.decode(snapshot(runs))
