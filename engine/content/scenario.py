"""`xenotac resolve`: what every ruleset's referee gives back, whatever its scenario file says.

Each ruleset declares its own scenario file (its `scenario` model: `ruleset = "<id>"`, its `[units.*]` and
`[action]`, documented in the README) and builds the units its referee stages; the verdict and the per-unit report
are shared, so the command line and `--trials` print every ruleset alike.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.core.dice import Faces, Roll
from engine.core.model import Unit, replace


@attrs.frozen
class Verdict:
    rolls: list[Roll]
    before: dict[str, Unit]
    changes: dict[str, dict[str, Any]]  # unit id -> fields that changed, with their new values
    summary: str
    outcome: str = ""  # the action's outcome in the ruleset's words (xxxzone: the worst roll of a shot)

    @property
    def after(self) -> dict[str, Unit]:
        return {uid: replace(u, self.changes[uid]) if uid in self.changes else u for uid, u in self.before.items()}


@attrs.frozen
class UnitReport:
    """A unit after a verdict: the line `resolve` prints, and its numbers for `--json` (`*_lost` ones are averaged
    by `--trials`)."""

    line: str
    numbers: dict[str, int | str]


def seeded(seed: int) -> Faces:
    from engine.core.dice import seed_from_int

    return Faces(seed_from_int(seed))
