"""How the message log tells things: repeats merged (`Smoke thins ×9`), a line for every action the player
takes even when its events say nothing, one line per hostile after the other side's turn, and names where the
log has ids."""

from __future__ import annotations

import re
from typing import Any, Mapping

_DRIFT = re.compile(r"^(.* (?:thins|spreads|clears)) (?:at \d+,\d+|over \d+ cells round \d+,\d+)$")


class Repeat:
    """The last line said and how many times in a row: the same again is one line with a count."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.count = 0
        self.previous: str | None = None  # the line as it stands in the log now

    def merge(self, text: str, key: str | None = None) -> str | None:
        """The merged line when `text` repeats the last (by `key`, its words without a place), else None."""
        key = key or text
        if key == self.key:
            self.count += 1
            return f"{key} ×{self.count}"
        self.key, self.count, self.previous = key, 1, text
        return None


def drift_key(text: str) -> str | None:
    """Smoke thinning is the same news wherever it thins: its words without the place."""
    match = _DRIFT.match(text)
    return match.group(1) if match else None


def quiet_command(command: Mapping[str, Any], events: list[Mapping[str, Any]], names: Mapping[str, str]) -> str:
    """The line for a player's command whose events tell nothing (a wait, a ration, a rest): its cause in words."""
    uid = command.get("unit") or ""
    who = names.get(uid, uid)
    cause = next((e["cause"] for e in events if e.get("kind") == "changed" and e.get("unit") == uid
                  and e.get("cause")), None)
    return f"{who} {cause}" if cause else f"{who}: {command.get('action') or command.get('kind')}"


def turn_lines(deeds: Mapping[str, list[str]], names: Mapping[str, str]) -> list[str]:
    """One line per unit seen acting: what it did, its name said once, only its last move kept."""
    out = []
    for uid, lines in deeds.items():
        name = names.get(uid, uid)
        words = [line[len(name):].lstrip(" :") if line.startswith(name) else line for line in lines]
        moves = [i for i, w in enumerate(words) if w.startswith("moves ")]
        kept = [w for i, w in enumerate(words) if not moves or not w.startswith("moves ") or i == moves[-1]]
        out.append(f"{name}: {'; '.join(dict.fromkeys(kept))}")
    return out


def plain_names(text: str, names: Mapping[str, str]) -> str:
    """Ids that reached a sentence (`roster_anna_k`) read as the unit's name."""
    for uid, name in names.items():
        if "_" in uid and uid in text:
            text = re.sub(rf"\b{re.escape(uid)}\b", name, text)
    return text
