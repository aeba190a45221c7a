"""Content loading: every mistake in a content bundle becomes one located line.

Broken bundles are copies of content/ with one mistake each (or several), made in tmp_path.
The messages are compared with tests/golden/content_errors.txt. After a deliberate change of
wording, regenerate it with

    XENOTAC_UPDATE_GOLDEN=1 python -m pytest tests/test_content.py

and review the diff.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content import loader
from tui.cli import main

CONTENT = loader.default_dir()
GOLDEN = Path(__file__).parent / "golden" / "content_errors.txt"
UPDATE = os.environ.get("XENOTAC_UPDATE_GOLDEN") == "1"


# -- making broken bundles ----------------------------------------------------------------------


@attrs.frozen
class Set:
    """`key = value` (raw TOML) in [table] of file; value None removes the key."""

    file: str
    table: str
    key: str
    value: str | None


@attrs.frozen
class Replace:
    """Replace text that occurs exactly once in the file."""

    file: str
    old: str
    new: str


@attrs.frozen
class Remove:
    file: str


@attrs.frozen
class WriteBytes:
    file: str
    data: bytes


def set_key(path: Path, table: str, key: str, value: str | None) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if ln.split("#")[0].strip() == f"[{table}]"), None)
    assert start is not None, f"{path.name} has no [{table}]"
    end = next((j for j in range(start + 1, len(lines)) if lines[j].lstrip().startswith("[")), len(lines))
    key_line = re.compile(rf"\s*{re.escape(key)}\s*=")
    at = next((i for i in range(start + 1, end) if key_line.match(lines[i])), None)
    if value is None:
        assert at is not None, f"[{table}] has no {key}"
        del lines[at]
    elif at is None:
        lines.insert(start + 1, f"{key} = {value}\n")
    else:
        lines[at] = f"{key} = {value}\n"
    path.write_text("".join(lines), encoding="utf-8")


def broken_bundle(root: Path, mistakes) -> Path:
    folder = root / "content"
    shutil.copytree(CONTENT, folder)
    for m in mistakes:
        path = folder / m.file
        if isinstance(m, Set):
            set_key(path, m.table, m.key, m.value)
        elif isinstance(m, Replace):
            text = path.read_text(encoding="utf-8")
            assert text.count(m.old) == 1, f"{m.old!r} must occur once in {m.file}"
            path.write_text(text.replace(m.old, m.new), encoding="utf-8")
        elif isinstance(m, Remove):
            path.unlink()
        else:
            path.write_bytes(m.data)
    return folder


def messages(folder: Path) -> list[str]:
    with pytest.raises(loader.ContentError) as caught:
        loader.load(folder)
    return caught.value.messages


# One mistake per case unless the name says otherwise. Kept small on purpose: each case is one
# thing a content author gets wrong, and its golden section is the whole answer they see.
CASES = {
    "wrong_type": [Set("weapons.toml", "shotgun", "damage", '"eight"')],
    "float_for_integer": [Set("weapons.toml", "shotgun", "damage", "8.5")],
    "bool_for_integer": [Set("armor.toml", "heavy", "tier", "true")],
    "integer_for_bool": [Set("terrain.toml", "wall", "walkable", "0")],
    "array_for_table": [Set("units.toml", "anton", "stats", "[7, 4]")],
    "number_for_table": [Replace("weapons.toml", 'modes.single = { name = "Blast" }', "modes = 3")],
    "top_level_value": [Replace("factions.toml", "[xcom]", "stray = 3\n\n[xcom]")],
    "wrong_type_in_nested_table": [Set("weapons.toml", "shotgun", "modes.single", '{ name = "Blast", shots = "4" }')],
    "unknown_key": [Set("weapons.toml", "rifle", "armour_ignore", "1")],
    "unknown_key_in_inline_table": [
        Set("weapons.toml", "machine_gun", "modes.burst", '{ name = "Burst", shots = 3, stamin = 1 }')],
    "missing_key": [Set("armor.toml", "medium", "tier", None)],
    "bad_literal": [Set("terrain.toml", "fence", "cover", '"half"')],
    "bad_behaviour_literal": [Set("behaviour.toml", "berserker", "unconscious", '"finsh"')],
    "bad_reference": [Set("units.toml", "sectoid", "weapon", '"plasma_pistl"')],
    "bad_reference_in_array": [Set("missions/eliminate.toml", "eliminate", "squad", '["anton", "juliaa"]')],
    "bad_reference_as_key": [Set("missions/eliminate.toml", "eliminate", "enemies", "{ sectoid = 5, mutton = 2 }")],
    "bad_armour_reference": [Set("weapons.toml", "machine_gun", "headshot_kills", '["none", "lite"]')],
    "bad_tile_reference": [Set("terrain.toml", "wall", "destroyed", '"rubbel"')],
    "bad_ruleset_reference": [Set("missions/eliminate.toml", "eliminate", "ruleset", '"xcom-trgp"')],
    "unknown_stat": [Set("races.toml", "sectoid", "caps", "{ strenght = 5 }")],
    "unknown_stat_minimum": [Set("rulesets.toml", "xcom-trpg", "stat_minimums", "{ psionic = 0 }")],
    "bad_formula_unknown_name": [Set("weapons.toml", "hand_grenade", "throw_range", '"2 * strenght"')],
    "thrown_weapon_without_range": [Set("weapons.toml", "hand_grenade", "throw_range", None)],
    "weapon_without_modes": [Replace("weapons.toml", 'modes.single = { name = "Blast" }', "modes = {}")],
    "long_glyph": [Set("units.toml", "anton", "glyph", '"11"')],
    "bad_colour": [Set("terrain.toml", "grass", "color", '"green"')],
    "bad_background_colour": [Set("terrain.toml", "wall", "background", '"#3a3a3g"')],
    "toml_syntax_error": [Replace("factions.toml", 'name = "X-COM"', 'name = "X-COM')],
    "not_utf8": [WriteBytes("armor.toml", b'[none]\nname = "No \xff armour"\ntier = 0\n')],
    "missing_file": [Remove("races.toml")],
    "many_mistakes_at_once": [
        Set("weapons.toml", "shotgun", "damage", '"eight"'),
        Set("weapons.toml", "rifle", "armour_ignore", "1"),
        Set("armor.toml", "medium", "tier", None),
        Set("terrain.toml", "fence", "cover", '"half"'),
        Set("terrain.toml", "grass", "color", '"green"'),
        Set("units.toml", "sectoid", "weapon", '"plasma_pistl"'),
        Set("weapons.toml", "hand_grenade", "throw_range", '"2 * strenght"'),
        Set("missions/eliminate.toml", "eliminate", "enemies", "{ sectoid = 5, mutton = 2 }"),
    ],
}


def render(results: dict[str, list[str]]) -> str:
    return "".join(f"## {name}\n" + "".join(m + "\n" for m in msgs) + "\n" for name, msgs in results.items())


def read_golden() -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = None
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = sections.setdefault(line[3:], [])
        elif line and current is not None:
            current.append(line)
    return sections


@pytest.fixture(scope="module")
def actual(tmp_path_factory) -> dict[str, list[str]]:
    """The messages of every case, computed once."""
    out = {}
    for name, mistakes in CASES.items():
        out[name] = messages(broken_bundle(tmp_path_factory.mktemp(name), mistakes))
    if UPDATE:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(render(out), encoding="utf-8")
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_messages_match_the_golden_file(case, actual):
    golden = read_golden()
    assert case in golden, f"no golden section for {case}; run with XENOTAC_UPDATE_GOLDEN=1"
    assert actual[case] == golden[case]


def test_golden_file_has_no_stale_sections():
    assert set(read_golden()) == set(CASES)


def test_the_issue_examples_verbatim(actual):
    assert actual["wrong_type"] == ['weapons.toml: [shotgun].damage: expected integer, got "eight"']
    assert actual["bad_reference"] == [
        "units.toml: [sectoid].weapon: unknown weapon 'plasma_pistl' (did you mean 'plasma_pistol'?)"]


@pytest.mark.parametrize("case", list(CASES))
def test_every_message_is_one_located_line(case, actual):
    for message in actual[case]:
        assert "\n" not in message
        file, _, rest = message.partition(": ")
        assert loader.is_content_file(file), message
        assert rest.strip(), message


def test_many_mistakes_are_all_listed_and_none_repeated(actual):
    """One bundle, eight independent mistakes: eight messages, each the one its own case gives."""
    many = actual["many_mistakes_at_once"]
    singles = ["wrong_type", "unknown_key", "missing_key", "bad_literal", "bad_colour", "bad_reference",
               "bad_formula_unknown_name", "bad_reference_as_key"]
    assert sorted(many) == sorted(m for case in singles for m in actual[case])
    assert len(many) == len(set(many)) == 8


def test_a_typo_gets_a_suggestion_and_nonsense_does_not(actual, tmp_path):
    assert "(did you mean 'armor_ignore'?)" in actual["unknown_key"][0]
    assert "(did you mean 'strength'?)" in actual["unknown_stat"][0]
    far = messages(broken_bundle(tmp_path, [Set("units.toml", "sectoid", "weapon", '"banana"')]))
    assert far == ["units.toml: [sectoid].weapon: unknown weapon 'banana'"]


@pytest.mark.parametrize("mistake, message", [
    (Set("rulesets.toml", "xcom-trpg", "hp", '"(strength - 1 * 10 + 1d10"'),
     'rulesets.toml: [xcom-trpg].hp: bad formula "(strength - 1 * 10 + 1d10": unexpected end of formula'),
    (Set("rulesets.toml", "xcom-trpg.morale", "kill", '"ten"'),
     'rulesets.toml: [xcom-trpg].morale.kill: expected integer, got "ten"'),
], ids=["bad_formula", "wrong_type_in_morale"])
def test_one_mistake_in_the_ruleset_gives_one_message(mistake, message, tmp_path):
    assert messages(broken_bundle(tmp_path, [mistake])) == [message]


def test_a_bad_formula_is_reported_with_where_it_breaks(tmp_path):
    found = messages(broken_bundle(tmp_path, [Set("rulesets.toml", "xcom-trpg", "god_of_random", '"10 ** 1d100"')]))
    assert found[0] == 'rulesets.toml: [xcom-trpg].god_of_random: bad formula "10 ** 1d100": unexpected \'*\' at column 5'


def test_array_elements_are_located_like_cross_references(tmp_path):
    found = messages(broken_bundle(tmp_path, [Set("missions/eliminate.toml", "eliminate", "squad", '[1, "anton"]')]))
    assert found == ["missions/eliminate.toml: [eliminate].squad[0]: expected string, got 1"]


def test_the_unbroken_copy_loads_with_the_same_hash(tmp_path, content):
    assert loader.load(broken_bundle(tmp_path, [])).sha256 == content.sha256


def test_the_hash_covers_every_byte(tmp_path, content):
    """Logs pin the content hash: even a comment changes it."""
    folder = broken_bundle(tmp_path, [Replace("armor.toml", "[none]", "# tweaked\n[none]")])
    assert loader.load(folder).sha256 != content.sha256


def test_a_missing_folder_is_one_message(tmp_path):
    assert messages(tmp_path / "nowhere") == [f"{tmp_path / 'nowhere'}: not a content directory"]


# -- `xenotac content check DIR` ------------------------------------------------------------------


@pytest.mark.parametrize("case", list(CASES))
def test_content_check_lists_every_message_and_exits_2(case, actual, tmp_path, capsys):
    folder = broken_bundle(tmp_path, CASES[case])
    assert main(["content", "check", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == actual[case]
    assert err == f"{len(actual[case])} problem(s)\n"
    assert "Traceback" not in out + err


def test_content_check_of_good_content(capsys):
    assert main(["content", "check", str(CONTENT)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("content OK: ") and err == ""


def test_content_check_of_a_missing_folder(tmp_path, capsys):
    assert main(["content", "check", str(tmp_path / "nowhere")]) == 2
    out, err = capsys.readouterr()
    assert out == f"{tmp_path / 'nowhere'}: not a content directory\n"


def test_other_commands_refuse_broken_content_in_one_line(tmp_path, capsys):
    folder = broken_bundle(tmp_path, CASES["many_mistakes_at_once"])
    assert main(["--content", str(folder), "simulate", "--seed", "1", "--out", str(tmp_path / "m.jsonl")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("xenotac: content does not load (8 problems; run `xenotac content check`): ")
    assert not (tmp_path / "m.jsonl").exists()


# -- any single-line mistake: located messages, never a crash ---------------------------------------

_SOURCES = {p.relative_to(CONTENT).as_posix(): p.read_text(encoding="utf-8").splitlines(keepends=True)
            for p in sorted(CONTENT.rglob("*.toml"))}
_KEY_LINES = [(name, i) for name, lines in _SOURCES.items() for i, line in enumerate(lines)
              if re.match(r"\s*[\w.\-]+\s*=", line)]
_VALUES = ['"x"', "1", "0", "-1", "true", "[]", "{}", "[1]", "{ a = 1 }", '""', "1.5", '"#zzzzzz"']


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(_KEY_LINES), value=st.none() | st.sampled_from(_VALUES))
def test_any_one_line_mistake_is_reported_not_raised(where, value, tmp_path_factory):
    name, i = where
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "missions").mkdir()
    for other, lines in _SOURCES.items():
        (folder / other).parent.mkdir(parents=True, exist_ok=True)
        (folder / other).write_text("".join(lines), encoding="utf-8")
    lines = list(_SOURCES[name])
    key = lines[i].split("=", 1)[0]
    lines[i] = "" if value is None else f"{key}= {value}\n"  # None: the line is deleted
    (folder / name).write_text("".join(lines), encoding="utf-8")
    try:
        loader.load(folder)
    except loader.ContentError as exc:
        assert exc.messages
        for message in exc.messages:
            assert _located(message.partition(": ")[0]) and "\n" not in message, message


def _located(label: str) -> bool:
    """A shared content file, or a file of a registered ruleset's own folder (`neo-troops/cover.toml`): every
    registered ruleset's tables are loaded and checked with the shared ones."""
    from engine.core import ruleset

    folder, _, name = label.partition("/")
    return loader.is_content_file(label) or (folder in ruleset.available() and name.endswith(".toml"))
