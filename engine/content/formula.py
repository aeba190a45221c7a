"""A restricted arithmetic language for formulas written in content files.

`(strength - 1) * 10 + 1d10`, `2 * strength`, `max(1, strength / 3)`: integers, names, dice,
+ - * /, parentheses, min and max. Parsed once into a tree; never `eval`.
Fractions are kept exact and the result is rounded half up (xcom-trpg 1.2).

What a formula may ask for is bounded when it is parsed (its length, nesting, numbers and dice), and
`bounds` proves by interval arithmetic that it can be evaluated for every value its names can take
(no division by zero, no number past MAGNITUDE), so `content check` refuses what would fail in play.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Callable, Literal, Mapping

import attrs

_TOKEN = re.compile(r"\s*(?:(\d+)d(\d+)|(\d+)|([a-z_][a-z_0-9]*)|(.))")
_FUNCS = {"min": min, "max": max}
MAX_TEXT = 200  # characters of a formula
MAX_DEPTH = 16  # nested parentheses, calls and signs
MAX_NUMBER = 10**6  # a number written in a formula
MAX_DICE, MAX_SIDES = 100, 1000  # in one `NdM`: 1000000000d1000000000 would never finish rolling
MAGNITUDE = 10**9  # the most any part of a formula may come to


class FormulaError(ValueError):
    pass


@attrs.frozen
class Num:
    value: int


@attrs.frozen
class Name:
    name: str


@attrs.frozen
class DiceTerm:
    count: int
    sides: int


@attrs.frozen
class BinOp:
    op: str
    left: object
    right: object


@attrs.frozen
class Neg:
    operand: object


@attrs.frozen
class Call:
    func: str
    args: tuple


def _number(digits: str, col: int, most: int = MAX_NUMBER) -> int:
    if len(digits) > len(str(most)) or int(digits) > most:
        raise FormulaError(f"number {digits[:12]}{'…' if len(digits) > 12 else ''} at column {col} is above {most}")
    return int(digits)


def _tokens(text: str) -> list[tuple[str, object, int]]:
    out: list[tuple[str, object, int]] = []
    pos = 0
    text = text.rstrip()
    if len(text) > MAX_TEXT:
        raise FormulaError(f"a formula of {len(text)} characters; at most {MAX_TEXT}")
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None
        col = m.start(m.lastindex or 0) + 1
        if m.group(1):
            col = m.start(1) + 1
            count, sides = m.group(1), m.group(2)
            if len(count) > 3 or len(sides) > 4 or int(count) > MAX_DICE or int(sides) > MAX_SIDES:
                raise FormulaError(f"dice {count[:12]}d{sides[:12]} at column {col}: at most {MAX_DICE} dice "
                                   f"of at most {MAX_SIDES} sides")
            out.append(("dice", (int(count), int(sides)), col))
        elif m.group(3):
            out.append(("num", _number(m.group(3), col), col))
        elif m.group(4):
            out.append(("name", m.group(4), col))
        elif m.group(5) in "+-*/(),":
            out.append((m.group(5), None, col))
        else:
            raise FormulaError(f"unexpected {m.group(5)!r} at column {col}")
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, object, int]:
        if self.i >= len(self.toks):
            raise FormulaError("unexpected end of formula")
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expr(self) -> object:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()[0]
            node = BinOp(op, node, self.term())
        return node

    def term(self) -> object:
        node = self.factor()
        while self.peek() in ("*", "/"):
            op = self.take()[0]
            node = BinOp(op, node, self.factor())
        return node

    def factor(self) -> object:
        self.depth += 1
        try:
            return self._factor()
        finally:
            self.depth -= 1

    def _factor(self) -> object:
        kind, value, col = self.take()
        if self.depth > MAX_DEPTH:
            raise FormulaError(f"nested more than {MAX_DEPTH} deep at column {col}")
        if kind == "num":
            return Num(value)  # type: ignore[arg-type]
        if kind == "dice":
            count, sides = value  # type: ignore[misc]
            if count < 1 or sides < 1:
                raise FormulaError(f"bad dice {count}d{sides} at column {col}")
            return DiceTerm(count, sides)
        if kind == "-":
            return Neg(self.factor())
        if kind == "(":
            node = self.expr()
            self.expect(")")
            return node
        if kind == "name":
            if self.peek() == "(":
                if value not in _FUNCS:
                    raise FormulaError(f"unknown function {value!r} at column {col}")
                self.take()
                args = [self.expr()]
                while self.peek() == ",":
                    self.take()
                    args.append(self.expr())
                self.expect(")")
                return Call(value, tuple(args))  # type: ignore[arg-type]
            return Name(value)  # type: ignore[arg-type]
        raise FormulaError(f"unexpected {kind!r} at column {col}")

    def expect(self, kind: str) -> None:
        got = self.take()
        if got[0] != kind:
            raise FormulaError(f"expected {kind!r} at column {got[2]}")


def names_in(node: object) -> set[str]:
    if isinstance(node, Name):
        return {node.name}
    if isinstance(node, BinOp):
        return names_in(node.left) | names_in(node.right)
    if isinstance(node, Neg):
        return names_in(node.operand)
    if isinstance(node, Call):
        return set().union(*(names_in(a) for a in node.args))
    return set()


@attrs.frozen
class Formula:
    """A parsed formula; `text` is what the content file said."""

    text: str
    tree: object = attrs.field(eq=False, repr=False)

    @classmethod
    def parse(cls, text: str, allowed: set[str] | frozenset[str] | None = None) -> "Formula":
        p = _Parser(text)
        if not p.toks:
            raise FormulaError("empty formula")
        tree = p.expr()
        if p.i != len(p.toks):
            raise FormulaError(f"unexpected {p.toks[p.i][0]!r} at column {p.toks[p.i][2]}")
        if allowed is not None:
            unknown = sorted(names_in(tree) - set(allowed))
            if unknown:
                raise FormulaError(f"unknown name {unknown[0]!r}")
        return cls(text, tree)

    @property
    def has_dice(self) -> bool:
        return _has_dice(self.tree)

    def bounds(self, ranges: Mapping[str, tuple[int, int]]) -> tuple[Fraction, Fraction]:
        """The least and most the formula can come to when each name lies in its range (dice anywhere from
        all ones to all sides). FormulaError if some values could divide by zero or pass MAGNITUDE."""
        return _interval(self.tree, ranges)

    def evaluate(self, env: Mapping[str, int], roll: Callable[[int], int] | None = None,
                 rounding: Rounding = "half_up") -> tuple[int, str, list[int]]:
        """Value, the formula with numbers filled in (`(4-1)*10+3=33`), and the faces rolled. Fractions stay
        exact to the end, then round once: half up (xcom-trpg 1.2), or down (annihilation: every result floors)."""
        names = _NAMES.get(self.text, _UNSEEN)
        if names is _UNSEEN:
            names = _NAMES[self.text] = None if _has_dice(self.tree) else tuple(sorted(names_in(self.tree)))
        if names is not None:  # no dice: the same formula on the same integers gives the same answer
            values = tuple(env.get(n) for n in names)
            if all(type(v) is int for v in values):  # noqa: E721 - 1, 1.0 and True print differently
                key = (self.text, rounding, values)
                known = _KNOWN.get(key)
                if known is not None:
                    return known[0], known[1], []
                result, shown, _faces = self._evaluate(env, roll, rounding)
                if len(_KNOWN) >= _KNOWN_MAX:
                    _KNOWN.clear()  # memory stays bounded however many distinct stats a run meets
                _KNOWN[key] = (result, shown)
                return result, shown, []
        return self._evaluate(env, roll, rounding)

    def _evaluate(self, env: Mapping[str, int], roll: Callable[[int], int] | None,
                  rounding: Rounding) -> tuple[int, str, list[int]]:
        faces: list[int] = []
        value, shown = _eval(self.tree, env, roll, faces)
        result = round_half_up(value) if rounding == "half_up" else math.floor(value)
        return result, f"{shown}={result}", faces


# Dice-free formulas are pure in their names' values: each formula's names (None when it rolls), and the
# answers already worked out, keyed by (text, rounding, values). The rules evaluate the same few formulas on
# the same stats thousands of times a mission (xxxzone derives every operative's statistics per check).
_NAMES: dict[str, tuple[str, ...] | None] = {}
_KNOWN: dict[tuple[str, str, tuple[int | None, ...]], tuple[int, str]] = {}
_KNOWN_MAX = 100_000
_UNSEEN: Any = object()  # a formula not met yet


def _has_dice(node: object) -> bool:
    if isinstance(node, DiceTerm):
        return True
    if isinstance(node, BinOp):
        return _has_dice(node.left) or _has_dice(node.right)
    if isinstance(node, Neg):
        return _has_dice(node.operand)
    if isinstance(node, Call):
        return any(_has_dice(a) for a in node.args)
    return False


Rounding = Literal["half_up", "down"]


def round_half_up(value: Fraction | int) -> int:
    """Nearest integer, halves away from zero (xcom-trpg 1.2)."""
    return int(Fraction(value) + Fraction(1, 2)) if value >= 0 else -int(-Fraction(value) + Fraction(1, 2))


def div_round(a: int, b: int) -> int:
    """round_half_up(a / b) in integers, for the hot paths."""
    if b < 0:
        a, b = -a, -b
    return (2 * a + b) // (2 * b) if a >= 0 else -((-2 * a + b) // (2 * b))


def _eval(node: object, env: Mapping[str, int], roll: Callable[[int], int] | None,
          faces: list[int]) -> tuple[Fraction, str]:
    if isinstance(node, Num):
        return Fraction(node.value), str(node.value)
    if isinstance(node, Name):
        if node.name not in env:
            raise FormulaError(f"no value for {node.name!r}")
        return Fraction(env[node.name]), str(env[node.name])
    if isinstance(node, DiceTerm):
        if roll is None:
            raise FormulaError("this formula rolls dice but no dice were given")
        got = [roll(node.sides) for _ in range(node.count)]
        faces.extend(got)
        return Fraction(sum(got)), "+".join(map(str, got)) if len(got) > 1 else str(got[0])
    if isinstance(node, Neg):
        v, s = _eval(node.operand, env, roll, faces)
        return -v, f"-{s}"
    if isinstance(node, Call):
        vals = [_eval(a, env, roll, faces) for a in node.args]
        return _FUNCS[node.func](v for v, _ in vals), f"{node.func}({', '.join(s for _, s in vals)})"
    assert isinstance(node, BinOp)
    lv, ls = _eval(node.left, env, roll, faces)
    rv, rs = _eval(node.right, env, roll, faces)
    if isinstance(node.left, BinOp) and node.op in "*/" and node.left.op in "+-":
        ls = f"({ls})"
    if isinstance(node.right, BinOp) and (node.op in "*/" or node.op == "-") and node.right.op in "+-":
        rs = f"({rs})"
    if node.op == "+":
        return lv + rv, f"{ls}+{rs}"
    if node.op == "-":
        return lv - rv, f"{ls}-{rs}"
    if node.op == "*":
        return lv * rv, f"{ls}*{rs}"
    if rv == 0:
        raise FormulaError("division by zero")
    return lv / rv, f"{ls}/{rs}"


Interval = tuple[Fraction, Fraction]


def _interval(node: object, ranges: Mapping[str, tuple[int, int]]) -> Interval:
    if isinstance(node, Num):
        out = (Fraction(node.value), Fraction(node.value))
    elif isinstance(node, Name):
        if node.name not in ranges:
            raise FormulaError(f"no range for {node.name!r}")
        low, high = ranges[node.name]
        out = (Fraction(low), Fraction(high))
    elif isinstance(node, DiceTerm):
        out = (Fraction(node.count), Fraction(node.count * node.sides))
    elif isinstance(node, Neg):
        low, high = _interval(node.operand, ranges)
        out = (-high, -low)
    elif isinstance(node, Call):
        parts = [_interval(a, ranges) for a in node.args]
        pick = _FUNCS[node.func]
        out = (pick(p[0] for p in parts), pick(p[1] for p in parts))
    else:
        assert isinstance(node, BinOp)
        (a, b), (c, d) = _interval(node.left, ranges), _interval(node.right, ranges)
        if node.op == "+":
            out = (a + c, b + d)
        elif node.op == "-":
            out = (a - d, b - c)
        else:
            if node.op == "/":
                if c == d == 0:
                    raise FormulaError("divides by zero")
                if c <= 0 <= d:
                    raise FormulaError(f"may divide by zero: {_text(node.right)} can be 0 "
                                       f"(it ranges over {_show(c)} to {_show(d)})")
                c, d = 1 / d, 1 / c
            products = (a * c, a * d, b * c, b * d)
            out = (min(products), max(products))
    if max(abs(out[0]), abs(out[1])) > MAGNITUDE:
        raise FormulaError(f"{_text(node)} can reach {_show(max(abs(out[0]), abs(out[1])))}, past {MAGNITUDE}")
    return out


def _text(node: object) -> str:
    """The sub-formula as a player would write it, for messages."""
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, DiceTerm):
        return f"{node.count}d{node.sides}"
    if isinstance(node, Neg):
        return f"-{_text(node.operand)}"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(_text(a) for a in node.args)})"
    assert isinstance(node, BinOp)
    return f"({_text(node.left)} {node.op} {_text(node.right)})"


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.3g}"
