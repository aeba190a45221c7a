"""The squad's roster: characters made by each ruleset's creation rules (`Ruleset.creation()`), kept across
missions.

Saved as TOML (tomli-w) in `saves/roster.toml`, one `[[character]]` table each, in squad order: `ruleset` (the one
it was made in) and that ruleset's own record's fields. A table without `ruleset` is xcom-trpg's, as every
character was before the other rulesets could make them. A log's header holds the characters it deploys, all of
the header's ruleset, without the key. Besides `engine.loader` and `engine.log`, this is the one module that reads
and writes a file.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from engine.content.models import Content
from engine.core import files
from engine.core.dice import Dice, Faces, Roll
from engine.core.model import State
from engine.core.records import later_fields
from engine.core.ruleset import make

if TYPE_CHECKING:
    from engine.core.creation import Character, Creation, Draft

FILE = "roster.toml"
FIRST = "xcom-trpg"  # the ruleset of a character written before characters named theirs
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 '\-]{0,23}$")


def __getattr__(name: str) -> Any:
    """`roster.Character` and the rest of the creation seam, imported when first asked for: a battle without roster
    characters (the first frame of `xenotac play`) never needs engine.core.creation."""
    if name in ("Character", "Creation", "Draft"):
        from engine.core import creation

        return getattr(creation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class RosterError(ValueError):
    """A refused choice or an unreadable roster, in one line a player can act on."""


def key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def creation(content: Content, ruleset_id: str) -> Creation:
    """The ruleset's creation rules; RosterError when it has none (or is not known)."""
    from engine.core.ruleset import available

    if ruleset_id not in available():
        raise RosterError(f"unknown ruleset {ruleset_id!r}; one of {', '.join(sorted(creators(content)))}")
    found = make(ruleset_id, content, None).creation()
    if found is None:
        raise RosterError(f"{ruleset_id} has no character creation")
    return found


def creators(content: Content) -> list[str]:
    """The playable rulesets that can make characters, the default first."""
    from engine.play import catalog

    return [rid for rid in catalog.rulesets(content) if make(rid, content, None).creation() is not None]


def dice_for(seed: bytes) -> Dice:
    return Dice(Faces(seed))


def create(content: Content, ruleset_id: str, draft: Draft, dice: Dice) -> tuple[Character, tuple[Roll, ...]]:
    """A new character of the ruleset, its dice drawn once, now; RosterError says why not, in one line."""
    from engine.core.creation import Character

    if not NAME.match(draft.name):
        raise RosterError(f"{draft.name!r}: a name is 1-24 letters, digits, spaces, ' or -, starting with a letter")
    rules = creation(content, ruleset_id)
    problems = rules.check(draft)
    if problems:
        raise RosterError("; ".join(problems))
    try:
        record, rolls = rules.create(draft, dice)
    except ValueError as exc:
        raise RosterError(str(exc)) from None
    return Character(ruleset_id, record), rolls


def parse_numbers(content: Content, ruleset_id: str, draft: Draft, text: str) -> dict[str, int]:
    """`str=7,agi=4,...` as `roster new --stats` takes them: each number by its id, its short name or the start
    of its id (3 letters or more)."""
    numbers = creation(content, ruleset_id).form(draft).numbers
    out: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, eq, value = part.partition("=")
        word = name.strip().lower()
        found = [n.id for n in numbers if word in (n.id, n.short.lower())]
        found = found or [n.id for n in numbers if len(word) >= 3 and n.id.startswith(word)]
        if not eq or not value.strip().lstrip("-").isdigit():
            raise RosterError(f"{part!r}: write each stat as name=number, e.g. "
                              f"{(numbers[0].short or numbers[0].id).lower() if numbers else 'str'}=7")
        if len(found) != 1 and not numbers:
            raise RosterError(f"{word} is not a stat: a player sets none in {ruleset_id}")
        if len(found) != 1:
            raise RosterError(f"{word} is not a stat; one of {', '.join(n.id for n in numbers)}")
        if found[0] in out:
            raise RosterError(f"{found[0]} is given twice")
        out[found[0]] = int(value)
    return out


def improve(content: Content, ch: Character, dice: Dice) -> tuple[Character, Roll]:
    """The character's between-missions roll (xcom-trpg: the psi initiation); RosterError why not."""
    from engine.core.creation import Character

    done = creation(content, ch.ruleset).improve(ch.record, dice)
    if isinstance(done, str):
        raise RosterError(done)
    record, roll = done
    return Character(ch.ruleset, record), roll


def debrief(content: Content, ruleset_id: str, characters: list[Character], state: State,
            dice: Dice) -> tuple[list[Character], tuple[Roll, ...]]:
    """The roster after a mission of the ruleset that ended in `state`: its characters as that ruleset keeps them
    (`Creation.debrief`: annihilation's improved by use and promoted, its dead gone), in their places; the other
    rulesets' characters as they were."""
    from engine.core.creation import Character

    own = [c.record for c in characters if c.ruleset == ruleset_id]
    records, rolls = creation(content, ruleset_id).debrief(own, state, dice)
    after = {key(r.name): r for r in records}
    out = [c if c.ruleset != ruleset_id else Character(ruleset_id, after[key(c.name)]) for c in characters
           if c.ruleset != ruleset_id or key(c.name) in after]
    return out, rolls


def train(content: Content, ch: Character, text: str) -> Character:
    """The character with numbers of its ruleset's form set after it was made (`skill=level,...`, as `--stats`
    writes them); RosterError why not."""
    from engine.core.creation import Character

    rules = creation(content, ch.ruleset)
    done = rules.train(ch.record, parse_numbers(content, ch.ruleset, rules.draft(), text))
    if isinstance(done, str):
        raise RosterError(done)
    return Character(ch.ruleset, done)


def describe(content: Content, ch: Character, wide: bool = False) -> tuple[str, str]:
    return creation(content, ch.ruleset).describe(ch.record, wide)


def made(content: Content, ch: Character) -> str:
    return creation(content, ch.ruleset).made(ch.record)


# -- the file ----------------------------------------------------------------------------------


def _converter():
    from engine.content.strict import make_converter

    return make_converter()


def _located(exc: Exception, at: str) -> list[str]:
    from engine.content.strict import walk

    found: list[str] = []
    walk(exc, at, found)
    return found or [f"{at}: {exc}"]


def structure(content: Content, doc: Any, where: str, ruleset_id: str | None = None,
              only: str | None = None) -> list[Character]:
    """Characters from a TOML document or a log header (`ruleset_id`: the header's, for all), strictly: one located
    line on a mistake. `only`: keep that ruleset's characters and leave the others unread (a mission's content may
    hold its own ruleset's tables alone)."""
    from engine.core.creation import Character

    problems: list[str] = []
    out: list[Character] = []
    if not isinstance(doc, dict):
        problems.append("expected a table")
        doc = {}
    problems += [f"unknown key {k!r}" for k in doc if k != "character"]
    tables = doc.get("character", [])
    if not isinstance(tables, list):
        problems.append("character: expected a list of tables")
        tables = []
    for i, table in enumerate(tables):
        at = f"character[{i}]"
        if not isinstance(table, dict):
            problems.append(f"{at}: expected a table")
            continue
        table = dict(table)
        rid = table.pop("ruleset", FIRST) if ruleset_id is None else ruleset_id
        if only is not None and rid != only:
            continue
        try:
            rules = creation(content, str(rid))
        except RosterError as exc:
            problems.append(f"{at}.ruleset: {exc}")
            continue
        try:
            out.append(Character(str(rid), _converter().structure(table, rules.record)))
        except Exception as exc:  # noqa: BLE001 - every failure becomes located messages
            problems += _located(exc, at)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise RosterError(f"{where}: {problems[0]}{more}")
    return out


def validate(content: Content, characters: list[Character]) -> list[str]:
    """What content must hold for these characters to deploy; loaded rosters are checked against it."""
    out, seen = [], set()
    for i, ch in enumerate(characters):
        at = f"character[{i}]"
        out += [f"{at}{m}" for m in creation(content, ch.ruleset).validate(ch.record)]
        if key(ch.name) in seen or not NAME.match(ch.name):
            out.append(f"{at}.name: {ch.name!r} is " + ("taken" if key(ch.name) in seen else "not a name"))
        seen.add(key(ch.name))
    return out


def load(path: Path, content: Content, only: str | None = None) -> list[Character]:
    """The roster in squad order; none if the file does not exist; RosterError in one line if it is bad."""
    try:
        text = files.read_capped(path).decode("utf-8")
    except FileNotFoundError:
        return []
    except UnicodeDecodeError:
        raise RosterError(f"{path}: not UTF-8 text") from None
    except files.FileProblem as exc:
        raise RosterError(str(exc)) from None
    except OSError as exc:
        raise RosterError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        doc = files.toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise RosterError(f"{path}: {exc}") from None
    characters = structure(content, doc, str(path), only=only)
    problems = validate(content, characters)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise RosterError(f"{path}: {problems[0]}{more}")
    return characters


def _table(ch: Character) -> dict[str, Any]:
    """The record's fields, less those it gained later (`records.added`) while at their default: an older
    character's table, and a log header's squad, keep their bytes."""
    table = _converter().unstructure(ch.record)
    for name in later_fields(type(ch.record)):
        if getattr(ch.record, name) == attrs.fields_dict(type(ch.record))[name].default:
            del table[name]
    return table


def save(path: Path, characters: list[Character]) -> None:
    """A fresh `roster.toml.tmp` (a stale one, or a link planted there, is removed, never written through),
    renamed over the roster: a crash leaves the old roster, never half a new one."""
    import tomli_w  # only to write a roster

    path.parent.mkdir(parents=True, exist_ok=True)
    text = tomli_w.dumps({"character": [{"ruleset": c.ruleset, **_table(c)} for c in characters]})
    try:
        files.replace_atomically(path, text.encode("utf-8"), 0o644)
    except (files.FileProblem, OSError) as exc:
        raise RosterError(f"{path}: cannot save ({exc})") from None


def find(characters: list[Character], name: str) -> int | None:
    return next((i for i, c in enumerate(characters) if key(c.name) == key(name)), None)


# -- deploying ---------------------------------------------------------------------------------


def deploying(content: Content, ruleset_id: str, mission_id: str, characters: list[Character]) -> list[Character]:
    """The characters a new mission of the ruleset deploys: its own, the first ones, up to its squad places."""
    own = [c for c in characters if c.ruleset == ruleset_id]
    if not own:
        return []
    return own[:creation(content, ruleset_id).places(mission_id)]


def with_squad(content: Content, ruleset_id: str, mission_id: str, characters: list[Character],
               alone: bool = False) -> Content:
    """The content of one mission with roster characters in the first squad places, in roster order; `alone`:
    and nobody else in the places they leave (a campaign's squad)."""
    if not characters:
        return content
    return creation(content, ruleset_id).deploy(mission_id, [c.record for c in characters], alone)


def to_header(characters: list[Character]) -> list[dict[str, Any]]:
    return [_table(c) for c in characters]


def from_header(content: Content, ruleset_id: str, squad: Any) -> list[Character]:
    """The roster characters a log's header deploys; RosterError if they are malformed."""
    if squad is None:
        return []
    characters = structure(content, {"character": squad}, "the header's squad", ruleset_id)
    problems = validate(content, characters)
    if problems:
        raise RosterError(f"the header's squad: {problems[0]}")
    return characters
