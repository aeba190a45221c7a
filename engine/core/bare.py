"""Bare faces for `resolve --trials` fast plans: the same faces `Dice` hands out, without Roll objects or texts.

`Words` draws faces of any size from the streams in the order `Dice` would, by the derivation of
engine.core.dice (eight 32-bit words per HMAC, the rejected sliver retried by `derive`). `Steps` memoises a
ruleset's own rule step (a function of dice, e.g. one attack roll) over the faces it draws: the step is run on
scripted faces once per distinct run of faces, and each later trial walks to its result by drawing bare faces.
So a fast plan decides nothing itself: every result is the rule's own code on those faces. A step that reads its
faces only as a multiset (a pool of d6 keeping the best) is memoised `orderless`: runs of faces that are the same
faces in another order share one node, so 5d6 runs the step for 462 multisets rather than 9,331 sequences.
"""

from __future__ import annotations

import hmac
import struct
from typing import Any, Callable, Hashable

from engine.core.dice import Dice, Faces, derive


class Words:
    """Faces of each stream from given indices (a trial's start), drawn as `Dice.d` would draw them."""

    def __init__(self, faces: Faces, counters: dict[str, int] | None = None) -> None:
        self.seed = faces.seed
        self._counters = dict(counters or {})
        self._blocks: dict[str, tuple[int, tuple[int, ...]]] = {}
        # the main stream, where nearly every die is drawn, kept in plain attributes
        self._index = self._counters.pop("main", 0)
        self._block, self._words = -1, (0,) * 8

    @property
    def counters(self) -> dict[str, int]:
        return self.at(self.mark())

    def mark(self) -> int | tuple[int, dict[str, int]]:
        """Where the streams stand, cheaply (a trial's start): the main stream's index alone while no other
        stream is drawn; `at` turns it into counters."""
        return (self._index, dict(self._counters)) if self._counters else self._index

    @staticmethod
    def at(mark: int | tuple[int, dict[str, int]]) -> dict[str, int]:
        index, other = (mark, {}) if isinstance(mark, int) else mark
        return {**({"main": index} if index else {}), **other}

    def draw(self, sides: int, stream: str = "main") -> int:
        if stream != "main":
            return self._other(sides, stream)
        index = self._index
        self._index = index + 1
        block = index >> 3
        if block != self._block:
            self._block = block
            self._words = struct.unpack(">8I", hmac.digest(self.seed, b"main:%d" % block, "sha256"))
        word = self._words[index & 7]
        if word < (1 << 32) - (1 << 32) % sides:
            return word % sides + 1
        return derive(self.seed, stream, index, sides).face

    def _other(self, sides: int, stream: str) -> int:
        index = self._counters.get(stream, 0)
        self._counters[stream] = index + 1
        block, slot = divmod(index, 8)
        cached = self._blocks.get(stream)
        if cached is None or cached[0] != block:
            words = struct.unpack(">8I", hmac.digest(self.seed, f"{stream}:{block}".encode(), "sha256"))
            self._blocks[stream] = cached = (block, words)
        word = cached[1][slot]
        if word < (1 << 32) - (1 << 32) % sides:
            return word % sides + 1
        return derive(self.seed, stream, index, sides).face


class _Need(Exception):
    """A probed step wants another die: which size and stream."""

    def __init__(self, sides: int, stream: str) -> None:
        self.sides, self.stream = sides, stream


class _Probe(Dice):
    """Scripted faces for a step; past them it says what the step needs next instead of failing."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        super().__init__(None, script=list(faces))

    def d(self, sides: int, actor: str, purpose: str, stream: str = "main") -> tuple[int, int]:
        if not self._script:
            raise _Need(sides, stream)
        return super().d(sides, actor, purpose, stream)


class Node:
    """A run of faces into a step: either the die it needs next (`sides`, `stream`) or its `result`. `then` is
    the caller's, to link a result to the step that follows it (so a trial hashes no rule objects)."""

    __slots__ = ("key", "faces", "sides", "stream", "kids", "result", "rid", "then")

    def __init__(self, key: Hashable, faces: tuple[int, ...], sides: int = 0, stream: str = "",
                 result: Any = None) -> None:
        self.key, self.faces, self.sides, self.stream, self.result = key, faces, sides, stream, result
        self.kids: dict[int, Node] = {}
        self.rid = -1  # the same number for equal results of one Steps: an outcome key that hashes only ints
        self.then: dict[Hashable, Node] = {}


class Steps:
    """One rule step memoised over faces, per input: `walk(root(key), words)` ends on the node whose `result` is
    `step(key, dice)` on the faces `words` gives next. The step must be a pure function of its key and its dice;
    `orderless`: also of the multiset of its faces alone (which dice it asks for next and its result), so it runs
    on each multiset once, on its faces sorted."""

    def __init__(self, step: Callable[[Any, Dice], Any], orderless: bool = False) -> None:
        self.step = step
        self._roots: dict[Hashable, Node] = {}
        self._results: dict[Hashable, int] = {}
        self._sorted: dict[tuple, Node] | None = {} if orderless else None  # (key, sorted faces) -> node
        self.runs = 0  # how often the step itself ran (its cost), for tests and tuning

    def _expand(self, key: Hashable, faces: tuple[int, ...]) -> Node:
        self.runs += 1
        try:
            result = self.step(key, _Probe(faces))
        except _Need as need:
            return Node(key, faces, need.sides, need.stream)
        node = Node(key, faces, result=result)
        node.rid = self._results.setdefault((key, result), len(self._results))
        return node

    def root(self, key: Hashable) -> Node:
        node = self._roots.get(key)
        if node is None:
            node = self._roots[key] = self._expand(key, ())
        return node

    def walk(self, node: Node, words: "Words") -> Node:
        key = node.key
        while node.sides:
            face = words.draw(node.sides, node.stream)
            kid = node.kids.get(face)
            if kid is None:
                kid = node.kids[face] = self._kid(key, node.faces + (face,))
            node = kid
        return node

    def _kid(self, key: Hashable, faces: tuple[int, ...]) -> Node:
        if self._sorted is None:
            return self._expand(key, faces)
        faces = tuple(sorted(faces))
        node = self._sorted.get((key, faces))
        if node is None:
            node = self._sorted[(key, faces)] = self._expand(key, faces)
        return node


def count(referee: Callable[[Dice], Any], faces: Faces, n: int, outcome: Callable[[Words], Hashable | None],
          counters: dict[str, int] | None = None) -> tuple[list[tuple[Any, int]], dict[str, int]]:
    """n trials from `counters`: each trial's outcome key on bare faces, and `referee(dice)` once per distinct key
    on the faces of the first trial that ended so: (its verdict, how many trials). A trial whose key is None, or
    whose key the referee decided drawing other dice than the plan (something after the planned rolls, such as
    the end of a slot, rolled too), is decided by the referee from its first die on, and the next trial starts
    where the referee stopped. Also gives the counters after the last trial (the dice drawn)."""
    trials: dict[Hashable, int] = {}  # key -> its trials, for the keys whose verdict is known
    verdicts: dict[Hashable, Any] = {}  # key -> the referee's verdict on its first trial; None: the referee's key
    slow: list[tuple[Any, int]] = []
    words = Words(faces, counters)
    for _ in range(n):
        start = words.mark()
        key = outcome(words)
        if key in trials:
            trials[key] += 1
            continue
        dice = Dice(faces, words.at(start))
        verdict = referee(dice)
        if key is not None and key not in verdicts and dice.counters == words.counters:
            verdicts[key], trials[key] = verdict, 1
            continue
        if key is not None:
            verdicts[key] = None
        slow.append((verdict, 1))
        words = Words(faces, dice.counters)
    return [(verdicts[key], k) for key, k in trials.items()] + slow, words.counters
