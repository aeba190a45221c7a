"""Quick structuring of the tuples typed in unit records (skills, wounds, a kit) for the log's converter.

A viewer jump types every unit record of up to a checkpoint's worth of records, and cattrs' generic tuple
hook keeps per-item bookkeeping for its error notes. The quick path takes only what it can prove plain (a
JSON list of the right types); anything else goes to cattrs' own hook, which gives the same value, or words
the same error, as before.
"""

from __future__ import annotations

import typing
from typing import Any, get_origin

import cattrs

_LEAF = {int: int, str: str, bool: bool}  # a leaf type -> the one JSON type it takes (no bool for an int)


def _leaf_check(t: Any) -> Any:
    """For a leaf, or a fixed tuple of leaves (`tuple[str, int]`): a test of a JSON value that, when true,
    means cattrs would structure it to `tuple(value)` (or the value itself); None for anything else."""
    if t in _LEAF:
        want = _LEAF[t]
        return lambda v: type(v) is want
    args = typing.get_args(t) if get_origin(t) is tuple else ()
    if args and Ellipsis not in args and all(a in _LEAF for a in args):
        wants = tuple(_LEAF[a] for a in args)
        if len(wants) == 2:  # (skill, percentage), (part, wounds): the commonest
            first, second = wants
            return lambda v: type(v) is list and len(v) == 2 and type(v[0]) is first and type(v[1]) is second
        size = len(wants)
        return lambda v: type(v) is list and len(v) == size and all(type(x) is w for x, w in zip(v, wants))
    return None


def _hook(conv: cattrs.Converter, t: Any) -> Any:
    """Tuples typed in the records (skills, wounds, a kit) structured without cattrs' per-item bookkeeping:
    a viewer jump types every unit record of up to a checkpoint's worth of records. Whatever the quick test
    does not take goes to cattrs itself, which gives the same value or words the same error as before."""
    args = typing.get_args(t)
    slow = conv._structure_tuple
    if len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        check = _leaf_check(item)
        if check is not None:
            nested = item not in _LEAF

            def leaves(v: Any, _t: Any) -> tuple:
                if type(v) is list and all(map(check, v)):
                    return tuple(map(tuple, v)) if nested else tuple(v)
                return slow(v, t)
            return leaves
        one = conv.get_structure_hook(item)

        def each(v: Any, _t: Any) -> tuple:
            if type(v) is list:
                try:
                    return tuple([one(x, item) for x in v])
                except Exception:  # noqa: BLE001 - cattrs words it, below
                    pass
            return slow(v, t)
        return each
    check = _leaf_check(t)
    if check is not None:
        return lambda v, _t: tuple(v) if check(v) else slow(v, t)
    return lambda v, _t: slow(v, t)


def quick(conv: cattrs.Converter) -> None:
    """Registers the quick tuple hook on `conv` (whose int, str and bool hooks are already the strict ones)."""
    conv.register_structure_hook_factory(lambda t: get_origin(t) is tuple and bool(typing.get_args(t)),
                                         lambda t: _hook(conv, t))
