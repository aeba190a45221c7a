"""Commands are a player's (or the AI's) intent. A ruleset turns one into events or a Rejected."""

from __future__ import annotations

from typing import ClassVar, Union

import attrs

from engine.core.geometry import Pos


@attrs.frozen
class Rejected:
    """Why a command cannot happen: a stable code and a sentence for the player."""

    code: str
    reason: str

    def __str__(self) -> str:
        return f"{self.code}: {self.reason}"


@attrs.frozen(kw_only=True)
class StartMission:
    """The first record of every log: spawns the units and rolls what must be rolled."""

    kind: ClassVar[str] = "start"


@attrs.frozen(kw_only=True)
class Move:
    kind: ClassVar[str] = "move"
    unit: str
    path: tuple[Pos, ...]  # cells entered, in order
    levels: tuple[int, ...] = ()  # the storey of each cell entered; (): all on the unit's own storey


@attrs.frozen(kw_only=True)
class Combo:
    """xcom-trpg 4.3: an uninterrupted 2-sector move for 1 stamina, leaving one action."""

    kind: ClassVar[str] = "combo"
    unit: str
    path: tuple[Pos, ...]


@attrs.frozen(kw_only=True)
class Face:
    kind: ClassVar[str] = "face"
    unit: str
    facing: int


@attrs.frozen(kw_only=True)
class Shoot:
    kind: ClassVar[str] = "shoot"
    unit: str
    target: str
    mode: str = "single"


@attrs.frozen(kw_only=True)
class Throw:
    kind: ClassVar[str] = "throw"
    unit: str
    item: str
    cell: Pos
    target: str | None = None  # declared unit for a head-strike


@attrs.frozen(kw_only=True)
class Reload:
    kind: ClassVar[str] = "reload"
    unit: str


@attrs.frozen(kw_only=True)
class Wait:
    """The unit gives up the rest of its turn."""

    kind: ClassVar[str] = "wait"
    unit: str


@attrs.frozen(kw_only=True)
class Act:
    """A ruleset's own action beyond the common ones: aim, kneel, overwatch, an encouraging speech...

    The kernel passes it through untouched; each ruleset names the actions it knows and rejects
    the rest, so a new ruleset never needs a new command type.
    """

    kind: ClassVar[str] = "act"
    unit: str
    action: str
    target: str | None = None
    cell: Pos | None = None
    option: str | None = None  # which kind: a psi ability, a demand, a body part, an item...
    amount: int = 0  # how much: overload SS, ...
    targets: tuple[str, ...] = ()  # more than one target: mass psi abilities


@attrs.frozen(kw_only=True)
class EndTurn:
    """The side hands over to the next one."""

    kind: ClassVar[str] = "end_turn"
    side: str


Command = Union[StartMission, Move, Combo, Face, Shoot, Throw, Reload, Wait, Act, EndTurn]
COMMAND_TYPES: dict[str, type] = {t.kind: t for t in Command.__args__}  # type: ignore[attr-defined]
