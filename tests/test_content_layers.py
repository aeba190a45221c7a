"""Content in layers: a mod folder (one holding mod.toml) patches fields by id, adds ids and deletes them; the
merged bundle is checked as one, every mistake one line naming the layer's file, and its hash covers every layer."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.content import loader
from tui.cli import main
from engine.rules.xcom_trpg.tables import xcom


def mod(folder: Path, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mod.toml").write_text('[mod]\nname = "test"\n')
    for name, text in files.items():
        path = folder / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def problems(*folders) -> list[str]:
    with pytest.raises(loader.ContentError) as caught:
        loader.load(list(folders))
    return caught.value.messages


def test_a_mod_patches_adds_and_deletes_by_id(content, tmp_path):
    m = mod(tmp_path / "heavy", **{"xcom-trpg/weapons.toml": "[rifle]\ndamage = 99\n\n[rifle.modes.single]\nname = 'Aimed'\n",
                                   "xcom-trpg/items.toml": "[esp_027]\ndelete = true\n",
                                   "missions__eliminate.toml": "[eliminate]\nmax_phases = 12\n"})
    patched = loader.load([m])
    rifle, base = xcom(patched).weapons["rifle"], xcom(content).weapons["rifle"]
    assert rifle.damage == 99 and rifle.modes["single"].name == "Aimed"
    assert rifle.modes["single"].shots == base.modes["single"].shots  # a nested table is patched field by field
    assert rifle.name == base.name and set(xcom(patched).weapons) == set(xcom(content).weapons)
    assert "esp_027" not in xcom(patched).items and "esp_027" in xcom(content).items
    assert patched.missions["eliminate"].max_phases == 12
    assert patched.sha256 != content.sha256  # the hash covers the merged bundle actually used (a mission)
    assert patched.sha_for("xcom-trpg") != content.sha_for("xcom-trpg")


def test_mods_apply_in_order(content, tmp_path):
    first = mod(tmp_path / "a", **{"xcom-trpg/weapons.toml": "[rifle]\ndamage = 50\n"})
    second = mod(tmp_path / "b", **{"xcom-trpg/weapons.toml": "[rifle]\ndamage = 60\n"})
    assert xcom(loader.load([first, second])).weapons["rifle"].damage == 60
    assert xcom(loader.load([second, first])).weapons["rifle"].damage == 50


def test_a_new_id_is_checked_like_any_other(tmp_path):
    m = mod(tmp_path / "new", **{"xcom-trpg/units.toml": "[ghost]\nname = 'Ghost'\nrace = 'sectoid'\nfaction = 'sectoids'\n"
                                               "stats = {}\narmor = 'none'\nweapon = 'plasma_pistl'\nglyph = 'g'\n"})
    found = problems(m)
    assert any(p.startswith("new/xcom-trpg/units.toml: [ghost].weapon: unknown weapon 'plasma_pistl'") for p in found), found


def test_a_mistake_in_a_mod_names_the_mods_file(tmp_path):
    m = mod(tmp_path / "broken", **{"xcom-trpg/weapons.toml": "[rifle]\ndamage = 'lots'\n\n[rifle.modes.single]\nshots = 1\n"
                                                    "stamin = 2\n"})
    found = problems(m)
    assert any(p.startswith("broken/xcom-trpg/weapons.toml: [rifle].damage: expected integer") for p in found), found
    assert any("broken/xcom-trpg/weapons.toml: [rifle].modes.single" in p and "stamin" in p for p in found), found


def test_deleting_what_others_need_is_caught_where_it_is_needed(tmp_path):
    found = problems(mod(tmp_path / "purge", **{"xcom-trpg/units.toml": "[sectoid]\ndelete = true\n"}))
    assert any(p.startswith("missions/") and "sectoid" in p for p in found), found


@pytest.mark.parametrize("text, words", [("[nobody]\ndelete = true\n", "nothing named 'nobody' to delete"),
                                         ("[rifle]\ndelete = true\ndamage = 3\n", "stands alone")])
def test_a_bad_delete_is_one_line(tmp_path, text, words):
    found = problems(mod(tmp_path / "del", **{"xcom-trpg/weapons.toml": text}))
    assert any(p.startswith("del/xcom-trpg/weapons.toml: [") and words in p for p in found), found


def test_the_command_line_takes_mods_in_order(tmp_path, capsys):
    m = mod(tmp_path / "tweak", **{"xcom-trpg/weapons.toml": "[rifle]\ndamage = 77\n"})
    assert main(["--content", str(m), "content", "check"]) == 0
    assert "content OK" in capsys.readouterr().out
    bad = mod(tmp_path / "bad", **{"xcom-trpg/weapons.toml": "[rifle]\ndamage = 'x'\n"})
    assert main(["--content", str(m), "--content", str(bad), "content", "check"]) == 2
    assert "bad/xcom-trpg/weapons.toml: [rifle].damage" in capsys.readouterr().out


def test_a_whole_bundle_after_a_mod_is_refused(tmp_path, content):
    m = mod(tmp_path / "tweak", **{"xcom-trpg/weapons.toml": "[rifle]\ndamage = 77\n"})
    found = problems(m, loader.default_dir())
    assert found and "must come before the mods" in found[0]
