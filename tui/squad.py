"""The squad roster as the client and the command line read it: where it lives, who deploys, one line per character."""

from __future__ import annotations

from pathlib import Path

from engine.content.models import Content
from engine.play import roster

SHORT_NAMES = {"strength": "Str", "agility": "Agi", "intelligence": "Int", "bravery": "Bra", "charisma": "Cha",
               "luck": "Lck", "psionics": "Psi"}


def path_of(saves: Path) -> Path:
    return saves / roster.FILE


def read(content: Content, path: Path, bad) -> list[roster.Character]:
    try:
        return roster.load(path, content)
    except roster.RosterError as exc:
        raise bad(f"{exc} (fix or move the file; it is never overwritten)") from None


def squad_for(content: Content, saves: Path, ruleset: str, mission: str, bad) -> list[roster.Character]:
    """The roster characters a new mission deploys (none for another ruleset)."""
    return roster.deploying(content, ruleset, mission, read(content, path_of(saves), bad))


def psi_word(content: Content, ch: roster.Character) -> str:
    race = roster.races(content)[ch.race]
    if ch.initiation and not ch.psi_awakened:
        return "psi lost"
    if ch.stats.get("psionics", 0) == 0:
        return "no psi"
    if race.psi_locked and not ch.psi_awakened:
        return "psi locked until initiation"
    return "psi active"


def line(content: Content, ch: roster.Character) -> str:
    final = roster.final_stats(content, ch)
    cells = [f"{SHORT_NAMES.get(k, k)} {final[k]}" + (f"({v}{final[k] - v:+d})" if final[k] != v else "")
             for k, v in ch.stats.items()]
    return f"{ch.name:<14} {roster.races(content)[ch.race].name:<16} {' '.join(cells)}  HP {ch.hp}  {psi_word(content, ch)}"
