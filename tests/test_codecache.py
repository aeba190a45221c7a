"""engine.core.codecache: attrs' and cattrs' generated code compiled once, kept, and found again by its source."""

from __future__ import annotations

import subprocess
import sys
import types

import attr._make
import cattrs.gen
import pytest

from engine.core import codecache

HASH = """def __hash__(self):
        return hash((
                {salt},
                self.a,
            ))
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache of this process's, saved to a file of the test's own."""
    monkeypatch.setattr(codecache, "_FILE", tmp_path / "generated.marshal")
    monkeypatch.setattr(codecache, "_code", {})
    monkeypatch.setattr(codecache, "_used", set())
    monkeypatch.setattr(codecache, "_new", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return tmp_path / "generated.marshal"


def counting(monkeypatch) -> list[str]:
    compiled: list[str] = []
    real = codecache._compile

    def compile_(source, filename, mode):
        compiled.append(filename)
        return real(source, filename, mode)
    monkeypatch.setattr(codecache, "_compile", compile_)
    return compiled


def test_attrs_and_cattrs_compile_through_the_cache():
    assert attr._make.compile is codecache._cached
    assert cattrs.gen.compile is codecache._cached


def test_a_saved_entry_is_found_by_a_later_process_without_compiling(cache, monkeypatch):
    source = "def f(x):\n    return x + 1\n"
    first = codecache._cached(source, "<attrs generated methods t.A>", "exec")
    codecache._save()
    assert cache.exists()
    monkeypatch.setattr(codecache, "_code", {})
    compiled = counting(monkeypatch)
    codecache._load()
    again = codecache._cached(source, "<attrs generated methods t.A>", "exec")
    assert compiled == [] and again == first
    body = next(c for c in again.co_consts if isinstance(c, types.CodeType))
    assert types.FunctionType(body, {})(41) == 42  # the function it holds still works


def test_another_source_or_file_name_is_another_entry(cache, monkeypatch):
    compiled = counting(monkeypatch)
    codecache._cached("x = 1\n", "<attrs generated methods t.A>", "exec")
    codecache._cached("x = 2\n", "<attrs generated methods t.A>", "exec")
    codecache._cached("x = 1\n", "<attrs generated methods t.B>", "exec")
    codecache._cached("x = 1\n", "<attrs generated methods t.A>", "exec")
    assert compiled == ["<attrs generated methods t.A>", "<attrs generated methods t.A>",
                        "<attrs generated methods t.B>"]


def test_attrs_hash_salt_is_not_part_of_the_key(cache, monkeypatch):
    """The salt is hash() of a string, new in every process: keyed with it, no class of attrs' would ever be found."""
    compiled = counting(monkeypatch)
    name = "<attrs generated methods t.A>"
    codecache._cached(HASH.format(salt=-7351280372712263653), name, "exec")
    codecache._cached(HASH.format(salt=5772688301307595227), name, "exec")
    assert compiled == [name]
    codecache._cached(HASH.format(salt=5772688301307595227), "<cattrs generated structure t.A>", "exec")
    codecache._cached(HASH.format(salt=12345678), "<cattrs generated structure t.A>", "exec")
    assert len(compiled) == 3  # only attrs' own scripts have their salt left out


@pytest.mark.parametrize("damage", [b"", b"not marshal at all", b"\xe3\x00\x00", None])
def test_a_damaged_or_foreign_cache_is_not_used(cache, monkeypatch, damage):
    import marshal

    cache.write_bytes(marshal.dumps((b"another python", {b"k": 1})) if damage is None else damage)
    codecache._load()
    assert codecache._code == {}
    codecache._cached("x = 1\n", "<attrs generated methods t.A>", "exec")
    codecache._save()
    codecache._code.clear()
    codecache._load()
    assert len(codecache._code) == 1  # and it is written anew


def test_nothing_is_written_where_bytecode_is_not(cache, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    codecache._cached("x = 1\n", "<attrs generated methods t.A>", "exec")
    codecache._save()
    assert not cache.exists()


def test_an_unwritable_cache_is_skipped_in_silence(tmp_path, cache, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(codecache, "_FILE", blocker / "sub" / "generated.marshal")
    codecache._cached("x = 1\n", "<attrs generated methods t.A>", "exec")
    codecache._save()
    assert list(tmp_path.iterdir()) == [blocker]


def test_a_full_cache_keeps_what_its_process_used(cache, monkeypatch):
    monkeypatch.setattr(codecache, "_KEEP", 2)
    codecache._code.update({b"old1": 1, b"old2": 2, b"old3": 3})
    codecache._cached("x = 1\n", "<attrs generated methods t.A>", "exec")
    codecache._save()
    codecache._code.clear()
    codecache._load()
    assert len(codecache._code) == 1


CLASS = """
import attrs, engine, engine.core.codecache as cc
compiled = []
real = cc._compile
cc._compile = lambda s, f, m: compiled.append(f) or real(s, f, m)
@attrs.frozen
class Spot:
    x: int
    y: int = 2
a, b = Spot(1), Spot(1)
assert a == b and hash(a) == hash(b) and a != Spot(2) and repr(a) == "Spot(x=1, y=2)"
assert {a: 1}[b] == 1
print(len(compiled))
"""


def test_a_class_made_from_kept_code_behaves_as_one_compiled_anew(tmp_path):
    """Two processes, each with its own hash salt: the second compiles nothing, and its class hashes, compares and
    prints as the first's did."""
    import os

    env = {**os.environ, "PYTHONHASHSEED": "random"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    script = tmp_path / "spot.py"
    script.write_text(CLASS)
    runs = [subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
            for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[-1].stderr
    assert int(runs[1].stdout) == 0


def test_xenotac_cache_off_turns_it_off():
    import os

    env = {**os.environ, "XENOTAC_CACHE": "off"}
    probe = "import attr._make, engine; print(getattr(attr._make, \"compile\", None) is None)"
    child = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert child.stdout.strip() == "True", child.stderr
