"""Strict TOML -> attrs: the converter, located messages and the file reader every content table goes through.

Every mistake becomes one located line, `weapons.toml: [shotgun].damage: expected integer, got "eight"`.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import tomllib
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import attrs
import cattrs
from cattrs.cols import list_structure_factory, mapping_structure_factory
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError
from cattrs.gen import make_dict_structure_fn

try:  # cattrs' own choice of a field's hook; private, so a cattrs that moves it makes the quick reader compile again
    from cattrs.gen._shared import find_structure_handler
except ImportError:  # pragma: no cover - depends on the installed cattrs
    find_structure_handler = None

from engine.content import cache
from engine.content.formula import Formula, FormulaError
from engine.core import files


@functools.cache  # resolving the path costs a system call per folder, and every file read asks it
def default_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "content"


class ContentError(Exception):
    """All the located messages of a content bundle that failed to load."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


class Bad(ValueError):
    """A value of the wrong shape; its text is the whole message."""


def show(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _strict(kind: type, label: str):
    def hook(value: Any, _t: Any) -> Any:
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            raise Bad(f"expected {label}, got {show(value)}")
        return value
    return hook


def _literal(t: Any):
    choices = get_args(t)

    def hook(value: Any, _t: Any) -> Any:
        if value not in choices or isinstance(value, bool):
            raise Bad(f"expected one of {', '.join(map(str, choices))}, got {show(value)}")
        return value
    return hook


def _formula(value: Any, _t: Any) -> Formula:
    if not isinstance(value, str):
        raise Bad(f"expected a formula string, got {show(value)}")
    try:
        return Formula.parse(value)
    except FormulaError as exc:
        raise Bad(f"bad formula {show(value)}: {exc}") from None


def _shape_checked(kind: type, label: str, factory):
    def make(t: Any, conv: cattrs.Converter):
        inner = factory(t, conv)

        def hook(value: Any, _t: Any) -> Any:
            if not isinstance(value, kind):
                raise Bad(f"expected {label}, got {show(value)}")
            return inner(value, _t)
        return hook
    return make


def _read_fields(cl: type, conv: cattrs.Converter):
    """An attrs class's hook that walks its fields as it runs rather than compiling a function for the class: the
    values and the failures are those of cattrs' code without detailed validation (missing key, unknown key, a
    field's own hook), and start-up does not compile one function per content model. Generic and annotated fields
    go to cattrs."""
    if any(isinstance(a.type, str) for a in attrs.fields(cl)):
        attrs.resolve_types(cl)
    fields = [a for a in attrs.fields(cl) if a.init]
    if find_structure_handler is None or getattr(cl, "__parameters__", ()) or any(
            isinstance(a.type, typing.TypeVar) or get_origin(a.type) is typing.Annotated for a in fields):
        return make_dict_structure_fn(cl, conv)
    keys = frozenset(a.name for a in fields)
    plan: list[tuple[str, str, Any, Any, bool]] = []

    def hook(value: dict, _t: Any) -> Any:
        if not plan:  # when first used, so a model may name itself; whole at once, as two threads may load content
            plan[:] = [(a.name, a.alias, find_structure_handler(a, a.type, conv, conv._prefer_attrib_converters),
                        a.type, a.default is attrs.NOTHING) for a in fields]
        extra = value.keys() - keys
        if extra:
            raise ForbiddenExtraKeysError("", cl, set(extra))
        args = {}
        for name, alias, handler, kind, required in plan:
            if name in value:
                args[alias] = value[name] if handler is None else handler(value[name], kind)
            elif required:
                raise KeyError(name)
        return cl(**args)
    return hook


def _read_mapping(t: Any, conv: cattrs.Converter):
    """`dict[K, V]` as cattrs' code without detailed validation structures it, without compiling a function."""
    args = get_args(t)
    if not args or all(a is Any for a in args):
        return lambda value, _t: dict(value)
    kt, vt = args
    kh, vh = conv.get_structure_hook(kt, cache_result=False), conv.get_structure_hook(vt, cache_result=False)
    return lambda value, _t: {kh(k, kt): vh(v, vt) for k, v in value.items()}


def make_converter(detailed: bool = True) -> cattrs.Converter:
    """`detailed`: failures carry the notes `walk` locates them by; without, cattrs generates about half the code, so
    the first use of each model (a start-up's whole content load) is quicker and the values are the same."""
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=detailed)
    conv.register_structure_hook(int, _strict(int, "integer"))
    conv.register_structure_hook(float, _strict(float, "number"))
    conv.register_structure_hook(str, _strict(str, "string"))
    conv.register_structure_hook(bool, _strict(bool, "true or false"))
    conv.register_structure_hook(Formula, _formula)
    conv.register_structure_hook_func(lambda t: get_origin(t) is Literal, lambda v, t: _literal(t)(v, t))
    conv.register_structure_hook_factory(
        lambda t: get_origin(t) is list, _shape_checked(list, "an array", list_structure_factory))
    conv.register_structure_hook_factory(
        lambda t: get_origin(t) is dict,
        _shape_checked(dict, "a table", mapping_structure_factory if detailed else _read_mapping))
    model = (lambda t, cv: make_dict_structure_fn(t, cv)) if detailed else _read_fields
    conv.register_structure_hook_factory(attrs.has, _shape_checked(dict, "a table", model))
    return conv


_plain = make_converter(detailed=False)
_detailed: list[cattrs.Converter] = []  # made when something fails: only its errors say where


def structure_one(value: Any, model: type) -> Any:
    """`value` as a `model`, or the detailed converter's exception, with the notes `walk` reads: content that loads
    never pays for generating the detailed code."""
    try:
        return _plain.structure(value, model)
    except Exception:  # noqa: BLE001 - structured again below, to say where
        if not _detailed:
            _detailed.append(make_converter())
        return _detailed[0].structure(value, model)


def walk(exc: BaseException, path: str, out: list[str], tables: tuple[str, ...] = ()) -> None:
    """Located messages: `[shotgun].damage`, `[eliminate].squad[0]`; keys under a name in `tables`
    are tables of their own, as in TOML: `[units.anton].hp`."""
    if isinstance(exc, (ClassValidationError, IterableValidationError)):
        with_notes, without = exc.group_exceptions()
        for sub, note in with_notes:
            key = getattr(note, "name", None)
            if key is None:
                key = note.index
            if isinstance(key, int):
                where = f"{path}[{key}]"
            elif not path:
                where = f"[{key}]"
            elif path.strip("[]") in tables:
                where = f"[{path.strip('[]')}.{key}]"
            else:
                where = f"{path}.{key}"
            walk(sub, where, out, tables)
        for sub in without:
            walk(sub, path, out, tables)
    elif isinstance(exc, ForbiddenExtraKeysError):
        fields = [a.name for a in exc.cl.__attrs_attrs__]
        for extra in sorted(exc.extra_fields):
            out.append(f"{path}: unknown key {extra!r}{did_you_mean(extra, fields)}")
    elif isinstance(exc, KeyError):
        out.append(f"{path}: missing required key")
    elif isinstance(exc, Bad):
        out.append(f"{path}: {exc}")
    elif isinstance(exc, (AttributeError, TypeError)) and "items" in str(exc):
        out.append(f"{path}: expected a table")
    else:
        out.append(f"{path}: {exc}")


def did_you_mean(word: str, choices: typing.Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def read(root: Path, name: str, raw: dict[str, bytes], messages: list[str], optional: bool = False) -> dict | None:
    """The file's TOML document, or None with a message (none for a missing optional file)."""
    try:
        raw[name] = files.read_capped(root / name)  # never a device, a pipe or a file past a sane size
    except FileNotFoundError:
        if not optional:
            messages.append(f"{name}: missing file")
        return None
    except files.FileProblem as exc:
        messages.append(f"{name}: {str(exc).split(': ', 1)[-1]}")
        return None
    except OSError as exc:
        messages.append(f"{name}: cannot read ({exc.strerror})")
        return None
    key = hashlib.sha256(raw[name]).digest()
    if key in _parsed:
        return _parsed[key]
    built_in = root == default_dir()  # only the built-in content is cached on disk (cache.py)
    doc = cache.get(key) if built_in else None
    if doc is not None:
        _parsed[key] = doc
        return doc
    try:
        doc = files.toml(raw[name].decode("utf-8"))
    except UnicodeDecodeError:
        messages.append(f"{name}: not UTF-8 text")
        return None
    except tomllib.TOMLDecodeError as exc:
        messages.append(f"{name}: {exc}")
        return None
    if len(_parsed) > 256:
        _parsed.clear()
    _parsed[key] = doc
    if built_in:
        cache.put(key, doc)
    return doc


_parsed: dict[bytes, dict] = {}  # sha256 of a file's bytes -> its TOML document; documents are never changed


def structure(name: str, doc: dict[str, Any], model: type, messages: list[str]) -> dict[str, Any]:
    parsed: dict[str, Any] = {}
    for key, value in doc.items():
        if not isinstance(value, dict):
            messages.append(f"{name}: [{key}]: expected a table, got {show(value)}")
            continue
        try:
            parsed[key] = structure_one(value, model)
        except Exception as exc:  # noqa: BLE001 - every failure becomes located messages
            found: list[str] = []
            walk(exc, f"[{key}]", found)
            messages.extend(f"{name}: {m}" for m in found)
    return parsed
