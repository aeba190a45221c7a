"""The logs the benchmarks read, made once per run and shared by the groups.

A long log is a mission of cheap moves; a shorter one of the same ruleset is the first lines of the longest,
which is byte for byte what the same game stopped there writes (the writer adds nothing on close, and the
seed file of an unfinished log names only the header). Real logs are every mission of a ruleset played AI
against AI, as `xenotac simulate` writes them.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from engine.core.commands import EndTurn, Move, Rejected
from engine.core.dice import seed_from_int
from engine.log import writer as log
from engine.map.grid import NEIGHBOURS
from engine.play import catalog, simulate
from engine.play.game import Game

_DIR: Path | None = None
_LONGEST: dict[tuple[str, str], tuple[int, Path]] = {}  # (ruleset, mission) -> the longest log made
_CUTS: dict[tuple[str, str, int], Path] = {}
_REAL: dict[str, list[Path]] = {}


def _tmp() -> Path:
    global _DIR
    if _DIR is None:
        _DIR = Path(tempfile.mkdtemp(prefix="xenotac-bench-"))
        atexit.register(shutil.rmtree, _DIR, True)
    return _DIR


def long_log(content, path: Path, records: int, mission: str = "eliminate", ruleset: str = "xcom-trpg") -> None:
    """A mission of cheap moves: the soldiers step off their deployment cell and back (never drifting into the
    enemy's fire) until the log holds `records` lines."""
    game = Game.new(content, ruleset, mission, seed_from_int(5), path, max_phases=10**6)
    rules = game.ruleset
    home = {u.id: u.pos for u in game.state.side_units("xcom")}
    lines = 2
    while lines < records:
        state = game.state
        if state.winner is not None:
            raise RuntimeError(f"{ruleset} {mission}: the mission ended at line {lines}, before {records} records")
        turn = rules.turn(state)
        if turn.side != "xcom":
            game.submit(EndTurn(side=turn.side))
            lines = game.writer.next_line - 1
            continue
        moved = False
        for unit in state.side_units("xcom"):  # whoever may still walk, in the ruleset's own currency
            if not (unit.conscious and turn.allows(unit.id) and rules.budget(state, unit).moves_left > 0):
                continue
            start = home.get(unit.id, unit.pos)
            steps = [(start[0] - unit.pos[0], start[1] - unit.pos[1])] if unit.pos != start else list(NEIGHBOURS)
            for dx, dy in steps:
                if not isinstance(game.submit(Move(unit=unit.id, path=((unit.pos[0] + dx, unit.pos[1] + dy),))),
                                  Rejected):
                    moved = True
                    break
            if moved:
                break
        if not moved:
            game.submit(EndTurn(side="xcom"))
        lines = game.writer.next_line - 1
    game.close()


def shared(content, ruleset: str, records: int, longest: int, mission: str = "eliminate") -> Path:
    """A `records`-line log of the ruleset, cut from one `longest`-line log made once per run."""
    key = (ruleset, mission, records)
    if key in _CUTS:
        return _CUTS[key]
    made = _LONGEST.get((ruleset, mission))
    if made is None or made[0] < records:
        path = _tmp() / f"{ruleset}-{mission}-{max(records, longest)}.jsonl"
        long_log(content, path, max(records, longest), mission, ruleset)
        made = _LONGEST[(ruleset, mission)] = (max(records, longest), path)
    out = _tmp() / f"{ruleset}-{mission}-cut-{records}.jsonl"
    with open(made[1], "rb") as src, open(out, "wb") as dst:
        for _ in range(records):
            dst.write(src.readline())
    shutil.copy(log.seed_path(made[1]), log.seed_path(out))  # with its mode: readers want a 0600 seed file
    _CUTS[key] = out
    return out


def real(content, ruleset: str) -> list[Path]:
    """Every mission the ruleset has forces for, played AI against AI to its end."""
    if ruleset not in _REAL:
        out = []
        for mission in catalog.missions_for(content, ruleset):
            path = _tmp() / f"real-{ruleset}-{mission}.jsonl"
            simulate.run(content, ruleset, mission, seed_from_int(11), path).close()
            out.append(path)
        _REAL[ruleset] = out
    return _REAL[ruleset]


def lines_of(path: Path) -> int:
    return sum(1 for _ in path.open("rb"))
