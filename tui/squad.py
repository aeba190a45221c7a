"""The squad roster as the client and the command line read it: where it lives, who deploys, one line per character."""

from __future__ import annotations

import secrets
from pathlib import Path

from engine.content.models import Content
from engine.core.model import State
from engine.play import roster


def path_of(saves: Path) -> Path:
    return saves / roster.FILE


def read(content: Content, path: Path, bad, only: str | None = None) -> list[roster.Character]:
    try:
        return roster.load(path, content, only)
    except roster.RosterError as exc:
        raise bad(f"{exc} (fix or move the file; it is never overwritten)") from None


def squad_for(content: Content, saves: Path, ruleset: str, mission: str, bad) -> list[roster.Character]:
    """The roster characters a new mission deploys: those of its ruleset."""
    return roster.deploying(content, ruleset, mission, read(content, path_of(saves), bad, only=ruleset))


def keep_kits(content: Content, saves: Path, chars: list[roster.Character]) -> str | None:
    """The loadout's answer written back to roster.toml, so each soldier's last kit is where the next loadout
    starts; a problem in one line (the mission goes on: the log holds the kit)."""
    try:
        path = path_of(saves)
        before = roster.load(path, content)
        chosen = {(c.ruleset, roster.key(c.name)): c for c in chars}
        after = [chosen.get((c.ruleset, roster.key(c.name)), c) for c in before]
        if after != before:
            roster.save(path, after)
    except roster.RosterError as exc:
        return f"Roster not updated with the kit: {exc}"
    return None


def debrief(content: Content, saves: Path, header: dict, state: State) -> list[str]:
    """After a mission that deployed roster characters: the roster as their ruleset keeps them (annihilation: improved
    by use, promoted, the dead gone), saved; the lines that say so, for the summary."""
    ruleset = str(header["ruleset"])
    try:
        deployed = roster.from_header(content, ruleset, header["mission"].get("squad"))
        if not deployed:
            return []
        path = path_of(saves)
        before = roster.load(path, content)
        after, rolls = roster.debrief(content, ruleset, before, state, roster.dice_for(secrets.token_bytes(32)))
        if after == before:
            return []
        roster.save(path, after)
    except roster.RosterError as exc:
        return ["", f"Roster not updated: {exc}"]
    kept = {roster.key(c.name): c for c in after}
    out = ["", "Roster after the mission:"]
    for ch in deployed:
        now = kept.get(roster.key(ch.name))
        out.append(f"  {ch.name}: " + ("fallen, off the roster" if now is None else
                                       roster.describe(content, now, wide=True)[1]))
    return out + [f"  {r.actor}: {r.purpose}, {r.formula}" for r in rolls]


def line(content: Content, ch: roster.Character) -> str:
    """One character for `xenotac roster`: name, kind, its numbers, and its ruleset."""
    kind, numbers = roster.describe(content, ch, wide=True)
    return f"{ch.name:<14} {kind:<16} {numbers}  [{ch.ruleset}]"


def short_line(content: Content, ch: roster.Character, width: int = 76) -> str:
    """One character for the roster screen: name, kind, its numbers, cut to `width`."""
    kind, numbers = roster.describe(content, ch)
    return f"{ch.name[:16]:<16} {kind[:15]:<15} {numbers}"[:width]
