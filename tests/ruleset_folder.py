"""Helpers for a ruleset's content-folder tests: a scratch copy of `content/<id>/`, one-line edits to its files, and
the located messages its schema gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.content import loader, tables


def copy(tmp_path: Path, folder: str) -> Path:
    """A bundle root holding a copy of the built-in `content/<folder>/` alone."""
    root = tmp_path / "bundle"
    shutil.copytree(loader.default_dir() / folder, root / folder)
    return root


def edit(root: Path, folder: str, name: str, old: str, new: str) -> None:
    path = root / folder / name
    text = path.read_text()
    assert old in text, f"{name} has no {old!r} to change"
    path.write_text(text.replace(old, new, 1))


def problems(root: Path, folder: str, schema: tables.Schema) -> list[str]:
    with pytest.raises(loader.ContentError) as caught:
        tables.load_folder(root, folder, schema)
    return caught.value.messages
