"""Bad input everywhere: hundreds of mutated content files and malformed command lines.

Every mutated bundle either loads or yields located messages; every bad command line gets one
line on stderr and exit 2. Never a traceback.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content import loader, tables
from engine.core import ruleset
from tui.cli import main
from tui.saves import new_log_path

CONTENT = loader.default_dir()
MUTATIONS_PER_FILE = 300  # each loads the whole four-ruleset bundle: 500 took the CI run near its 20 minutes
TABLE_MUTATIONS = 60  # a ruleset folder read alone: cheap, and its schema is what is fuzzed


def _folders() -> dict[str, tables.Schema]:
    """Each ruleset folder of the built-in content with its schema: a registered ruleset's through the registry, a
    ruleset still being built (not registered yet) through its package's `schema.SCHEMA`."""
    import importlib

    out = {}
    for folder in sorted(p.name for p in CONTENT.iterdir() if p.is_dir() and p.name != "missions"):
        if folder in ruleset.available():
            schema = ruleset.schema(folder)
        else:
            try:
                schema = importlib.import_module(f"engine.rules.{folder.replace('-', '_')}.schema").SCHEMA
            except ModuleNotFoundError:
                schema = None
        if schema is not None:
            out[folder] = schema
    return out


FOLDERS = _folders()
OWN = {f"{folder}/{name}" for folder, schema in FOLDERS.items() for name in schema.files}
REGISTERED = {name for name in OWN if name.split("/")[0] in ruleset.available()}
# What the loader reads: the shared tables, the missions and the registered rulesets' own files.
FILES = sorted(p.relative_to(CONTENT).as_posix() for p in CONTENT.rglob("*.toml")
               if p.parent == CONTENT or p.parent.name == "missions" or p.relative_to(CONTENT).as_posix() in REGISTERED)
FOLDER_FILES = sorted(name for name in OWN - REGISTERED if (CONTENT / name).is_file())
# The shared tables, the missions and the default ruleset's get the most mutations; the other rulesets' files, each
# loaded with the whole bundle, fewer, or the slow run would outgrow the CI budget.
PRIMARY = {name for name in FILES if "/" not in name or name.split("/")[0] in ("missions", "xcom-trpg")}

VALUES = st.one_of(
    st.integers(-10**6, 10**6).map(str), st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["true", "false", '""', '"x"', "[]", "{}", "[1, 2]", '["a", 1]', "{ a = 1 }", '"#zzzzzz"',
                     '"(strength"', '"1d0"', '"eval(1)"', "inf", "nan", "-0"]),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters='"\\\n\r'),
            max_size=12).map(lambda t: f'"{t}"'),
)


def mutate(text: str, data) -> str:
    lines = text.splitlines(keepends=True)
    i = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["value", "delete", "duplicate", "new_key", "byte", "header"]))
    if how == "value" and "=" in lines[i] and not lines[i].lstrip().startswith("#"):
        lines[i] = lines[i].split("=", 1)[0] + "= " + data.draw(VALUES) + "\n"
    elif how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "new_key":
        key = data.draw(st.sampled_from(["damage", "tier", "nonsense", "stats", "name", "glyph", "x y", "a.b"]))
        lines.insert(i, f"{key} = {data.draw(VALUES)}\n")
    elif how == "header":
        lines.insert(i, data.draw(st.sampled_from(["[broken\n", "[[twice]]\n", "[ok]\n", "[anton.stats]\n"])))
    else:
        at = data.draw(st.integers(0, len(text)))
        char = data.draw(st.characters(blacklist_categories=["Cs"]))
        return text[:at] + char + text[at + 1:] if data.draw(st.booleans()) else text[:at] + text[at + 1:]
    return "".join(lines)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pristine")
    shutil.copytree(CONTENT, folder / "content")
    return folder / "content"


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_mutated_content_loads_or_is_located(name, pristine, tmp_path_factory):
    original = (pristine / name).read_text(encoding="utf-8")
    folder = tmp_path_factory.mktemp("fuzz") / "content"
    shutil.copytree(pristine, folder)
    target = folder / name
    prefix = re.compile(rf"^{re.escape(Path(name).name)}: |^[\w/.-]+\.toml: ")

    @settings(max_examples=MUTATIONS_PER_FILE if name in PRIMARY else TABLE_MUTATIONS, deadline=None,
              derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(data) -> None:
        target.write_text(mutate(original, data), encoding="utf-8")
        try:
            loader.load(folder)
        except loader.ContentError as exc:
            assert exc.messages and all(prefix.match(m) and "\n" not in m for m in exc.messages), exc.messages

    check()


@pytest.mark.slow
@pytest.mark.parametrize("name", FOLDER_FILES)
def test_a_mutated_ruleset_table_loads_or_is_located(name, pristine, tmp_path_factory):
    """A ruleset folder not read by the loader yet (its ruleset unregistered), fuzzed through its own schema."""
    folder_id = name.split("/")[0]
    original = (pristine / name).read_text(encoding="utf-8")
    root = tmp_path_factory.mktemp("tables")
    shutil.copytree(pristine / folder_id, root / folder_id)
    target = root / name
    prefix = re.compile(r"^[\w/.-]+\.toml: ")

    @settings(max_examples=TABLE_MUTATIONS, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(data) -> None:
        target.write_text(mutate(original, data), encoding="utf-8")
        try:
            tables.load_folder(root, folder_id, FOLDERS[folder_id])
        except loader.ContentError as exc:
            assert exc.messages and all(prefix.match(m) and "\n" not in m for m in exc.messages), exc.messages

    check()


# -- the command line ------------------------------------------------------------------------------

BAD_COMMAND_LINES = [
    ["--nonsense"], ["simulate", "--seed"], ["simulate", "--seed", "abc"], ["simulate", "--seed", "-1"],
    ["simulate", "--max-turns", "0"], ["simulate", "--mission", "nowhere"], ["simulate", "--ruleset", "chess"],
    ["simulate", "--out", "{dir}"], ["simulate", "--resume", "{missing}"], ["simulate", "--resume", "{dir}"],
    ["simulate", "--resume", "{notalog}"], ["replay"], ["replay", "{missing}", "--verify"],
    ["replay", "{dir}", "--verify"], ["replay", "{empty}"], ["audit", "{missing}"], ["audit", "{dir}"],
    ["audit", "{log}", "--record", "x"], ["audit", "{log}", "--record", "-3"], ["audit", "{log}", "--explain"],
    ["audit", "{notalog}", "--stats"], ["resolve"], ["resolve", "{missing}"], ["resolve", "{dir}"],
    ["resolve", "{notalog}"], ["resolve", "{empty}", "--dice", "1,2"], ["resolve", "{log}", "--dice", "x"],
    ["resolve", "{log}", "--trials", "0"], ["content", "check", "{missing}"], ["content", "check", "{notalog}"],
    ["content"], ["play", "--seed", "x"], ["play", "--mission", "nowhere"], ["play", "--ruleset", "chess"],
    ["play", "--keys", "{missing}"], ["play", "--keys", "{dir}"], ["resume", "{missing}"], ["resume", "{dir}"],
    ["resume", "{notalog}"], ["--content", "{missing}", "simulate"], ["--content", "{empty}", "simulate"],
    ["--saves", "{notalog}", "simulate"],
]


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("cli")
    (folder / "empty.toml").write_text("")
    (folder / "notalog.jsonl").write_text('{"hello": "world"}\n')
    log_path = folder / "m.jsonl"
    assert main(["simulate", "--seed", "3", "--max-turns", "2", "--out", str(log_path)]) == 0
    return {"dir": str(folder), "missing": str(folder / "missing.jsonl"), "notalog": str(folder / "notalog.jsonl"),
            "empty": str(folder / "empty.toml"), "log": str(log_path)}


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


# (`replay X --verify` of a file that is not a log exits 1 with one line: verification failed at line 1.)
@pytest.mark.parametrize("argv", BAD_COMMAND_LINES, ids=lambda a: " ".join(a))
def test_a_bad_command_line_is_one_line_and_exit_2(argv, places, capsys, monkeypatch):
    monkeypatch.setenv("XENOTAC_SAVES", places["dir"])
    code, _out, err = run([a.format(**places) for a in argv], capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err


@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(argv=st.lists(st.sampled_from(["simulate", "replay", "audit", "resolve", "content", "check", "--seed",
                                      "--record", "--dice", "--trials", "--verify", "--json", "--stats", "--unit",
                                      "-1", "0", "x", "1,2", "{missing}", "{dir}", "{notalog}", "--out",
                                      "--max-turns", "--mission", "--explain", "--", "=", "\x00"]),
                     min_size=1, max_size=5))
def test_random_command_lines_never_raise(argv, places, capsys):
    if argv[0] == "simulate" and "--out" not in argv:
        argv = argv + ["--out", places["dir"]]  # never write a new log into the real save folder
    code, _out, err = run([a.format(**places) for a in argv], capsys)
    assert code in (0, 1, 2) and "Traceback" not in err
    if code == 2:
        assert err.count("\n") == 1, err


@pytest.mark.parametrize("stem", ["../../etc/passwd", "/abs/path", "a/b\\c", "..", "", "\x00evil", "ok-name_1.2"])
def test_save_names_never_leave_the_save_folder(stem, tmp_path):
    path = new_log_path(tmp_path, stem)
    assert path.parent == tmp_path and os.sep not in path.name and not path.name.startswith(".")
