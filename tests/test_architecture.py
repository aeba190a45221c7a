"""Layering and safety rules checked on the source itself, with `ast`.

- engine/ never imports the client (`tui`) or Textual, so the rules run headless;
- engine/ never imports `random`: every die comes from the seeded HMAC in engine.dice;
- neither engine/ nor tui/ uses pickle, eval or exec (logs and content are data, never code).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
TUI = ROOT / "tui"


def python_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) for every import anywhere in the file, including inside functions."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and _dotted(node.func) in ("importlib.import_module", "__import__") \
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            out.append((node.lineno, node.args[0].value))
    return out


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def banned_imports(source: str, banned: set[str]) -> list[str]:
    """`line N: import X` for every import whose top-level package is banned."""
    tree = ast.parse(source)
    return [f"line {line}: import {name}" for line, name in imported_modules(tree)
            if name.split(".")[0] in banned]


def banned_calls(source: str, banned: set[str]) -> list[str]:
    """`line N: eval(...)` for calls of banned builtins, also as `builtins.eval`."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            if name in banned or name.removeprefix("builtins.") in banned:
                out.append(f"line {node.lineno}: {name}(...)")
    return out


def scan(folders: list[Path], check) -> list[str]:
    problems = []
    for folder in folders:
        for path in python_files(folder):
            for problem in check(path.read_text(encoding="utf-8")):
                problems.append(f"{path.relative_to(ROOT)} {problem}")
    return problems


# -- the scanners themselves catch what they must (so the real checks can fail) ---------------


@pytest.mark.parametrize("source", [
    "import textual",
    "import textual.app as app",
    "from textual.widgets import Static",
    "def f():\n    from tui import cli\n",
    "import importlib\nimportlib.import_module('tui.cli')",
])
def test_scanner_sees_client_imports(source):
    assert banned_imports(source, {"textual", "tui"})


@pytest.mark.parametrize("source", ["import tuition", "from engine import tui_helpers", "from . import tui"])
def test_scanner_ignores_lookalikes(source):
    assert banned_imports(source, {"textual", "tui"}) == []


@pytest.mark.parametrize("source", ["eval('1')", "x = exec(code)", "import builtins\nbuiltins.eval('2')"])
def test_scanner_sees_eval_and_exec(source):
    assert banned_calls(source, {"eval", "exec"})


def test_scanner_ignores_methods_named_like_builtins():
    # Formula.evaluate and a method called .exec are not the builtins
    assert banned_calls("f.evaluate(env)\nquery.exec()\n", {"eval", "exec"}) == []


# -- the rules ------------------------------------------------------------------------------


def test_source_folders_are_found():
    assert len(python_files(ENGINE)) > 10 and python_files(TUI)


def test_engine_never_imports_the_client_or_textual():
    assert scan([ENGINE], lambda src: banned_imports(src, {"textual", "tui"})) == []


def test_engine_never_imports_random():
    # dice come only from engine.dice (HMAC of the committed seed); `random` would break replay
    assert scan([ENGINE], lambda src: banned_imports(src, {"random"})) == []


def test_no_pickle_anywhere():
    assert scan([ENGINE, TUI], lambda src: banned_imports(src, {"pickle", "cPickle", "_pickle", "shelve"})) == []


def test_no_eval_or_exec_anywhere():
    assert scan([ENGINE, TUI], lambda src: banned_calls(src, {"eval", "exec"})) == []


def test_headless_commands_do_not_load_textual(tmp_path):
    """`simulate`, `replay --verify` and `content check` run where Textual is not even installed.

    A fresh interpreter, because the test session itself may have imported Textual already.
    """
    log = tmp_path / "short.jsonl"
    script = (
        "import sys\n"
        "from tui.cli import main\n"
        f"assert main(['simulate', '--seed', '3', '--max-turns', '1', '--out', {str(log)!r}]) == 0\n"
        f"assert main(['replay', {str(log)!r}, '--verify']) == 0\n"
        "assert main(['content', 'check']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_title_menu_path_imports_no_engine():
    """A bare `xenotac` builds the whole command line and the title screen before its first frame: none of it
    may import the engine, tcod or numpy (they load in a thread once the menu is up).

    A fresh interpreter, because the test session itself has imported them already.
    """
    script = (
        "import sys\n"
        "from tui.cli import build_parser\n"
        "build_parser().parse_args([])\n"
        "import tui.app, tui.launch, tui.screens.title\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'engine', 'tcod', 'numpy', 'cattrs'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_process_imports_only_the_ruleset_it_names(tmp_path):
    """The registry lists every built-in ruleset from its folder without importing it; `simulate`, `replay --verify`
    and `audit` of an xcom-trpg log import that ruleset alone (start-up: each ruleset costs its imports).

    A fresh interpreter, because the test session itself has imported every ruleset already.
    """
    log = tmp_path / "short.jsonl"
    script = (
        "import sys\n"
        "from engine.core import ruleset\n"
        "print(ruleset.available())\n"
        "from tui.cli import main\n"
        f"assert main(['simulate', '--seed', '3', '--max-turns', '1', '--out', {str(log)!r}]) == 0\n"
        f"assert main(['replay', {str(log)!r}, '--verify']) == 0\n"
        f"assert main(['audit', {str(log)!r}]) == 0\n"
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('engine.rules.')}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "['annihilation', 'neo-troops', 'xcom-trpg', 'xxxzone']"
    assert lines[-1] == "['xcom_trpg']"
