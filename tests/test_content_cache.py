"""The content cache: the same documents as TOML gives, and anything wrong with an entry is ignored."""

from __future__ import annotations

import json

import pytest

from engine.content import cache, loader, strict


def test_the_cache_gives_what_toml_gives_and_a_bad_entry_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("XENOTAC_CACHE", str(tmp_path))
    monkeypatch.setattr(strict, "_parsed", {})
    first = loader.load()
    entries = sorted(tmp_path.glob("*.json"))
    assert entries, "the built-in content is cached"
    monkeypatch.setattr(strict, "_parsed", {})
    assert loader.load() == first  # read back from the cache
    for i, entry in enumerate(entries):  # corrupt, foreign, tampered, not an object
        data = json.loads(entry.read_text())
        bad = ["{not json", json.dumps({**data, "sha256": "0" * 64}),
               json.dumps({**data, "doc": {**data["doc"], "extra": {}}}), "[]"][i % 4]
        entry.write_text(bad)
    monkeypatch.setattr(strict, "_parsed", {})
    assert loader.load() == first
    assert all(json.loads(e.read_text())["doc"] for e in entries)  # rewritten whole


def test_other_content_is_not_cached_and_off_means_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XENOTAC_CACHE", "off")
    assert cache.folder() is None and cache.get(b"\0" * 32) is None
    cache.put(b"\0" * 32, {"a": 1})
    monkeypatch.setenv("XENOTAC_CACHE", str(tmp_path / "c"))
    cache.put(b"\1" * 32, {"when": float("nan")})  # not plain data: not kept
    assert not (tmp_path / "c").exists() or not list((tmp_path / "c").glob("*.json"))


def test_the_quick_converter_gives_what_the_detailed_one_gives(monkeypatch):
    quick = loader.load()
    detailed = strict.make_converter()
    monkeypatch.setattr(strict, "_plain", detailed)
    assert loader.load() == quick  # every ruleset's tables and missions, field for field


def test_a_mistake_is_still_located_through_the_quick_converter():
    from engine.content import models

    messages: list[str] = []
    assert strict.structure("terrain.toml", {"mud": {"glyph": 7}}, models.Terrain, messages) == {}
    assert any(m.startswith("terrain.toml: [mud].glyph: expected string") for m in messages), messages


def test_the_quick_converter_refuses_an_unknown_or_a_missing_key():
    from engine.content import models

    good = {"name": "mud", "glyph": ".", "color": "#553311", "walkable": True, "transparent": True}
    assert strict._plain.structure(good, models.Terrain).cover == "none"
    for bad in ({**good, "glyf": "."}, {k: v for k, v in good.items() if k != "glyph"}):
        with pytest.raises(Exception):
            strict._plain.structure(bad, models.Terrain)  # never a value for what the detailed one refuses
    messages: list[str] = []
    strict.structure("terrain.toml", {"mud": {**good, "glyf": "."}, "bog": {k: v for k, v in good.items() if k != "glyph"}}, models.Terrain, messages)
    assert any("[mud]: unknown key 'glyf' (did you mean 'glyph'?)" in m for m in messages), messages
    assert any("[bog].glyph: missing required key" in m for m in messages), messages
