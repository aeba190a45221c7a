"""The key map: defaults that terminals do not confuse, and TOML overrides that fail in one clear line."""

from __future__ import annotations

import pytest

from tui import keys
from tui.screens.battle import BattleScreen
from tui.screens.modes import LookScreen, TargetScreen, ThrowScreen


def test_every_binding_id_is_unique_within_its_table():
    for name, table in keys.TABLES.items():
        ids = [k.id for k in table]
        assert len(ids) == len(set(ids)), name


def test_defaults_avoid_keys_terminals_confuse_and_every_esc_has_a_twin():
    for table in keys.TABLES.values():
        for k in table:
            names = k.keys.split(",")
            assert not set(names) & set(keys.CONFUSED), k.id
            if "escape" in names and k.id != "back" or k.id == "cancel":
                assert "backspace" in names, k.id


def test_the_issues_keys_are_bound_in_battle():
    bound = {k.id: k.keys.split(",") for k in keys.BATTLE}
    assert "f" in bound["fire"] and "t" in bound["throw"] and "r" in bound["reload"] and "c" in bound["combo"]
    assert "e" in bound["end_turn"] and "q" in bound["quit"] and "question_mark" in bound["help"]
    assert "L" in bound["full_log"] and "tab" in bound["next_soldier"] and "shift+tab" in bound["prev_soldier"]
    assert bound["turn_left"] == ["left_square_bracket"] and bound["turn_right"] == ["right_square_bracket"]
    for move, vi in zip(keys.MOVES, "kjhlyubn"):
        assert vi in bound[move] and len(bound[move]) == 3  # arrow or vi key, and the numpad


def test_the_battle_screens_share_the_battle_table_between_them():
    screens = (BattleScreen, TargetScreen, ThrowScreen, LookScreen)
    assert {b.id for s in screens for b in s.BINDINGS} == {k.id for k in keys.BATTLE}
    for screen in screens:
        assert {b.id for b in screen.BINDINGS} == set(keys.BATTLE_MODES[screen.keyset])


def test_a_valid_key_map_becomes_a_textual_keymap():
    keymap = keys.parse('[keys]\nfire = "F"\nhelp = ["?", "f1"]\nend_turn = "ctrl+e"\n')
    assert keymap == {"fire": "F", "help": "question_mark,f1", "end_turn": "ctrl+e"}


@pytest.mark.parametrize("text,message", [
    ("[keys]\nfier = 'F'\n", "unknown action 'fier' (did you mean 'fire'?)"),
    ("[keys]\nfire = 'ctrl+i'\n", "reaches the game as Tab"),
    ("[keys]\nfire = 'ctrl+h'\n", "as Backspace"),
    ("[keys]\nfire = 'hyper+x'\n", "unknown modifier"),
    ("[keys]\nfire = 'nosuchkey'\n", "unknown key 'nosuchkey'"),
    ("[keys]\nfire = ''\n", "an empty key"),
    ("[keys]\nfire = 3\n", "must be a key name or a list"),
    ("[keys]\nfire = 'k'\n", "'k' is bound to both"),
    ("fire = 'F'\n", "put bindings under [keys]"),
    ("[keys\n", "not valid TOML"),
])
def test_a_bad_key_map_is_one_line_naming_the_problem(text, message):
    with pytest.raises(keys.KeyMapError) as err:
        keys.parse(text, "my.toml")
    assert message in str(err.value) and str(err.value).startswith("my.toml: ")
    assert "\n" not in str(err.value)


def test_a_missing_key_map_file_is_one_line(tmp_path):
    with pytest.raises(keys.KeyMapError, match="no such key map file"):
        keys.load(tmp_path / "nope.toml")


def test_the_cli_refuses_a_bad_key_map_before_the_terminal_is_touched(tmp_path, capsys, monkeypatch):
    from tui.cli import main

    bad = tmp_path / "keys.toml"
    bad.write_text("[keys]\nfier = 'F'\n")
    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    assert main(["--keys", str(bad), "play", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown action 'fier'" in err
    assert not list(tmp_path.glob("*.jsonl"))  # nothing started, nothing lost
