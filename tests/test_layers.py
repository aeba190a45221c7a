"""The rooms of `engine/`, checked on the source with `ast`.

Each room imports only itself and the rooms below it; nothing outside `engine/rules/` (and nothing in `tui/`)
imports a ruleset, which is found through the registry in `engine.core.ruleset`. Imports under
`if TYPE_CHECKING:` are annotations, not dependencies, and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("core", "map", "content", "log", "rules", "ai", "play", "campaign")  # bottom to top
SEAMS = ("engine.campaign.seam",)  # imports only core: what a ruleset returns to the campaign, as core/seam.py is


def imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every import in the file that runs: TYPE_CHECKING blocks are skipped."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    out = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out


def room_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "engine" else None


def violations(rel: Path, source: str) -> list[str]:
    mine = rel.parts[1] if len(rel.parts) > 2 else None  # engine/<room>/...; None for engine/__init__.py
    out = []
    for line, module in imports(source):
        room = room_of(module)
        if room is None:
            continue
        if room == "rules" and mine != "rules" and module.count(".") >= 2:
            out.append(f"{rel}:{line}: imports the ruleset {module} (find it through the registry)")
        elif mine in ROOMS and room in ROOMS and ROOMS.index(room) > ROOMS.index(mine) \
                and not module.startswith(SEAMS):
            out.append(f"{rel}:{line}: engine/{mine}/ imports {module}, a room above it")
    return out


def test_every_engine_module_lives_in_a_room():
    loose = [p.name for p in (ROOT / "engine").glob("*.py") if p.name != "__init__.py"]
    assert loose == []
    rooms = {p.name for p in (ROOT / "engine").iterdir() if p.is_dir() and not p.name.startswith("__")}
    assert rooms == set(ROOMS)


def test_rooms_import_only_the_rooms_below():
    found = [v for p in sorted((ROOT / "engine").rglob("*.py")) for v in violations(p.relative_to(ROOT), p.read_text(encoding="utf-8"))]
    assert found == []


def test_the_client_never_imports_a_ruleset():
    found = [f"{p.relative_to(ROOT)}:{line}: {m}" for p in sorted((ROOT / "tui").rglob("*.py"))
             for line, m in imports(p.read_text(encoding="utf-8")) if m.startswith("engine.rules.")]
    assert found == []


@pytest.mark.parametrize("source, room, bad", [
    ("from engine.play.game import Game", "core", True),
    ("from engine.core.dice import Dice", "play", False),
    ("from engine.rules.xcom_trpg import psionics", "ai", True),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.play.game import Game", "core", False),
    ("def f():\n    from engine.ai.planner import Ai", "map", True),
])
def test_the_checker_catches_what_it_must(source, room, bad):
    assert bool(violations(Path("engine", room, "probe.py"), source)) is bad
