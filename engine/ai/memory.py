"""What an AI remembers, as plain JSON for the log's checkpoints, and back.

What the AI decides must follow from the log alone: a resumed mission has to continue exactly as an
uninterrupted one. Its memory (hostiles last seen, cells explored and when, the cell each unit walks to,
ambushes held, this turn's skips, rests and mark, the hunt's leads and searched cells) is written into every
checkpoint; a resume restores it and replays the AI's decisions over the few records after the checkpoint (`engine.play.minds`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

if TYPE_CHECKING:
    from engine.ai.planner import Ai


@attrs.frozen
class Memory:
    memory: dict[str, tuple[int, int]]
    armed: frozenset[str]
    skip: frozenset[str]
    explore: dict[str, tuple[int, int]]
    held: dict[str, int]
    turn: tuple[int, str] | None
    mark: str | None
    looked: np.ndarray | None = attrs.field(eq=False)  # phase each cell was last seen in; -1 never
    leads: dict[str, tuple[tuple[int, int], int]] = attrs.field(factory=dict)  # engine.ai.hunting
    searched: np.ndarray | None = attrs.field(default=None, eq=False)  # phase each cell was searched in; -1 never
    rested: frozenset[str] = frozenset()  # this turn's units that did the ruleset's ai_rest
    levels: dict[str, int] = attrs.field(factory=dict)  # hostile id -> storey last seen on, when not the ground


def snapshot(ai: "Ai") -> dict[str, Any]:
    """The AI's memory as JSON: sorted, so the same memory is always the same bytes."""
    looked = None
    if ai._explored is not None:  # noqa: SLF001 - the AI's own memory, written down
        grid = np.where(ai._explored, ai._looked, -1)  # noqa: SLF001
        looked = {"shape": list(grid.shape), "runs": _runs(grid)}
    return {"memory": [[uid, x, y] for uid, (x, y) in sorted(ai.memory.items())],
            "armed": sorted(ai._armed), "skip": sorted(ai._skip),  # noqa: SLF001
            "explore": [[uid, x, y] for uid, (x, y) in sorted(ai._explore.items())],  # noqa: SLF001
            "held": [[uid, n] for uid, n in sorted(ai._held.items())],  # noqa: SLF001
            "turn": list(ai._turn) if ai._turn else None, "mark": ai._mark,  # noqa: SLF001
            "looked": looked, **_hunt(ai)}


def _hunt(ai: "Ai") -> dict[str, Any]:
    """The hunt's leads and searched cells (engine.ai.hunting) and this turn's rests (`Ruleset.ai_rest`), each left
    out while it has none: an AI that never hunted nor rested writes its memory as before."""
    out: dict[str, Any] = {}
    if ai.leads:
        out["leads"] = [[uid, x, y, phase] for uid, ((x, y), phase) in sorted(ai.leads.items())]
    if ai.searched is not None:
        out["searched"] = {"shape": list(ai.searched.shape), "runs": _runs(ai.searched)}
    if ai._rested:  # noqa: SLF001 - left out while empty, as older checkpoints are
        out["rested"] = sorted(ai._rested)  # noqa: SLF001
    if ai.levels:  # hostiles remembered above the ground (engine.ai.storeys): never on a map of one storey
        out["levels"] = [[uid, z] for uid, z in sorted(ai.levels.items())]
    return out


def decode(data: Any) -> Memory:
    """A snapshot read back from a log; ValueError naming what is wrong with it."""
    if not isinstance(data, dict):
        raise ValueError("the AI's memory is not an object")
    try:
        memory = {_str(u): (_int(x), _int(y)) for u, x, y in data["memory"]}
        explore = {_str(u): (_int(x), _int(y)) for u, x, y in data["explore"]}
        held = {_str(u): _int(n) for u, n in data["held"]}
        armed = frozenset(_str(u) for u in data["armed"])
        skip = frozenset(_str(u) for u in data["skip"])
        turn = None if data["turn"] is None else (_int(data["turn"][0]), _str(data["turn"][1]))
        mark = None if data["mark"] is None else _str(data["mark"])
        looked = None if data["looked"] is None else _unruns(data["looked"])
        leads = {_str(u): ((_int(x), _int(y)), _int(p)) for u, x, y, p in data.get("leads", [])}
        searched = _unruns(data["searched"]) if "searched" in data else None
        rested = frozenset(_str(u) for u in data.get("rested", []))
        levels = {_str(u): _int(z) for u, z in data.get("levels", [])}
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ValueError(f"malformed AI memory ({exc!r})") from None
    return Memory(memory, armed, skip, explore, held, turn, mark, looked, leads, searched, rested, levels)


def apply(ai: "Ai", m: Memory) -> None:
    ai.memory = dict(m.memory)
    ai._armed, ai._skip = set(m.armed), set(m.skip)  # noqa: SLF001
    ai._explore, ai._held = dict(m.explore), dict(m.held)  # noqa: SLF001
    ai._turn, ai._mark, ai._rested = m.turn, m.mark, set(m.rested)  # noqa: SLF001
    ai.leads, ai.levels = dict(m.leads), dict(m.levels)
    ai.searched = None if m.searched is None else m.searched.astype(np.int32)
    if m.looked is not None:
        ai._explored = m.looked >= 0  # noqa: SLF001
        ai._looked = np.maximum(m.looked, 0).astype(np.int32)  # noqa: SLF001


def _runs(grid: np.ndarray) -> list[int]:
    """Run-length code, row by row: [value, count, value, count, ...]."""
    flat = grid.ravel()
    if flat.size == 0:
        return []
    starts = np.concatenate(([0], np.flatnonzero(flat[1:] != flat[:-1]) + 1))
    counts = np.diff(np.concatenate((starts, [flat.size])))
    out = np.empty(2 * len(starts), dtype=np.int64)
    out[0::2], out[1::2] = flat[starts], counts
    return out.tolist()


def _unruns(data: Any) -> np.ndarray:
    shape = (_int(data["shape"][0]), _int(data["shape"][1]))
    runs = data["runs"]
    if not isinstance(runs, list) or len(runs) % 2 or not set(map(type, runs)) <= {int}:  # no bool; at C speed
        raise TypeError("runs")
    values, counts = np.array(runs[0::2], dtype=np.int64), np.array(runs[1::2], dtype=np.int64)
    if not 0 < shape[0] <= 1000 or not 0 < shape[1] <= 1000 or (counts <= 0).any() \
            or int(counts.sum()) != shape[0] * shape[1] or (values < -1).any() or (values > 10**6).any():
        raise TypeError("runs do not fill the map")
    return np.repeat(values, counts).reshape(shape)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v: Any) -> int:
    if not _is_int(v):
        raise TypeError(f"{v!r} is not an integer")
    return v


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError(f"{v!r} is not a string")
    return v
