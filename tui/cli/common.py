"""What every subcommand shares: the parser that exits 2, the one-line error, argument types and checks."""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path
from typing import NoReturn

EXIT_BAD_INPUT = 2


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


class BadInput(Exception):
    """Reported as one line, exit 2."""


def positive(text: str) -> int:
    try:
        value = int(text) if len(text) <= 40 else None
    except ValueError:
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def at_most(most: int, what: str):
    """An argument type: a whole number from 1 to `most` (more would run for hours or eat the memory)."""
    def parse(text: str) -> int:
        value = positive(text)
        if value > most:
            raise argparse.ArgumentTypeError(f"at most {most} {what}, got {value}")
        return value
    return parse


MAX_SEED = 10**18 - 1  # the most a header records as a public seed


def seed(text: str) -> int:
    try:
        value = int(text) if len(text) <= 40 else -2
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, got {text[:40]!r}") from None
    if value == -2:
        raise argparse.ArgumentTypeError(f"a seed is a whole number of at most 18 digits, got {len(text)} characters")
    if value < 0:
        raise argparse.ArgumentTypeError("a seed cannot be negative")
    if value > MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is at most {MAX_SEED}")
    return value


def dice_list(text: str) -> list[int]:
    try:
        faces = [int(f) for f in text.replace(" ", "").split(",") if f]
    except ValueError:
        raise argparse.ArgumentTypeError(f"dice are comma-separated whole numbers, got {text!r}") from None
    if not faces:
        raise argparse.ArgumentTypeError("give at least one die")
    return faces


def load_content(directory: str | None = None, rulesets: list[str] | None = None):
    """The content bundle; with `rulesets`, only their own tables are read (and only those rulesets imported). A name
    the registry has not (`--ruleset xcom-trgp`) reads them all, so the message that follows lists the choices; so
    does a plug-in registered at run time (a test's stub), which has no content folder and may read any tables."""
    from engine.content import loader
    from engine.core import ruleset

    if rulesets is not None and not all(ruleset.built_in(r) for r in rulesets):
        rulesets = None
    try:
        return loader.load(directory, rulesets)
    except loader.ContentError as exc:
        raise BadInput(f"content does not load ({len(exc.messages)} problems; run `xenotac content check`): "
                       f"{exc.messages[0]}") from None


def secret(seed: int | None) -> tuple[bytes, int | None]:
    """(the seed, the public number it was made from): 32 bytes from the operating system when no number
    is given, so nobody can foresee the dice; with a number, reproducible by anyone (the header says so)."""
    from engine.core.dice import seed_from_int

    if seed is None:
        return secrets.token_bytes(32), None
    return seed_from_int(seed), seed


def mission_at(content, mission: str, difficulty: str | None) -> str:
    """The mission id to play: `ID`, or `ID@LEVEL` when a difficulty level is named."""
    check_choice("mission", mission.partition("@")[0], content.missions)
    if difficulty is not None:
        if "@" in mission:
            raise BadInput(f"--mission {mission} already names a difficulty; leave out --difficulty")
        check_choice("difficulty", difficulty, content.difficulty)
        return f"{mission}@{difficulty}"
    if "@" in mission:
        check_choice("difficulty", mission.partition("@")[2], content.difficulty)
    return mission


def check_playable(content, ruleset_id: str, mission: str | None = None) -> None:
    """A ruleset the registry has with missions to play, and a mission it has forces for: one line if not."""
    from engine.play import catalog

    check_choice("ruleset", ruleset_id, catalog.rulesets(content))
    if mission is not None:
        base = mission.partition("@")[0]
        if base in content.missions and base not in catalog.missions_for(content, ruleset_id):
            raise BadInput(f"{ruleset_id} has no forces for mission {base!r}; it plays "
                           f"{', '.join(catalog.missions_for(content, ruleset_id))}")


def check_choice(what: str, value: str, choices) -> None:
    from engine.content.strict import did_you_mean

    if value not in choices:
        raise BadInput(f"unknown {what} {value!r}{did_you_mean(value, choices)}; one of {', '.join(choices)}")


def print_lines(lines) -> None:
    """Print a report's lines; a `warning: ` line (a damaged log: the report stops there) becomes the one line
    on stderr, exit 2, once the good part is out."""
    damage = None
    for line in lines:
        if line.startswith("warning: ") and damage is None:
            damage = line.removeprefix("warning: ")
            continue
        print(line)
    if damage is not None:
        raise BadInput(damage)


def log_ruleset(path: Path) -> list[str] | None:
    """The ruleset a log's header names, for `load_content`; None (read every ruleset) when the header cannot be
    read: the reader that follows then says why, in its own words."""
    from engine.log import writer as log

    try:
        named = log.read_header(path).get("ruleset")
    except (log.LogError, OSError, ValueError, RecursionError):
        return None
    return [named] if isinstance(named, str) else None


def log_sides(content, path: Path):
    """What the messages call the sides of the log's ruleset (engine.log.story.Sides)."""
    from engine.log.story import sides_of

    return sides_of(content, (log_ruleset(path) or [None])[0])


def readable(path: Path) -> None:
    if path.is_dir():
        raise BadInput(f"{path}: is a directory, not a log")
    if not path.exists():
        raise BadInput(f"{path}: no such file")


def player_view(content, path: Path):
    """What the squad saw of the log at `path` (engine.log.view), or None when the mission has ended and
    everything is told. An unfinished log this content cannot rebuild is refused: its fog cannot be known."""
    from engine.content.missions import PLAYER
    from engine.log import reading
    from engine.log import writer as log
    from engine.log.view import View, ended
    from engine.play.game import build, check_header

    records, _broken = reading.records(path)
    if ended(records):
        return None
    try:
        check_header(content, records[0][1])
    except log.LogError as exc:
        raise BadInput(f"{path}: the mission is not over and what the squad saw cannot be rebuilt ({exc})") from None
    ruleset, initial = build(content, records[0][1])
    return View(ruleset, initial, PLAYER)
