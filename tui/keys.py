"""The key map: every action's id, default keys and words, and the TOML file that overrides them.

Screens build their BINDINGS from these tables, so a key map file can rebind any id. The defaults
avoid what terminals confuse over SSH: Ctrl+I is Tab, Ctrl+H is Backspace, Ctrl+M is Enter, and a
lone Esc can merge with the next key under lag, so every Esc has a Backspace twin.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import attrs
from textual.binding import Binding
from textual.keys import Keys, _character_to_key


@attrs.frozen
class Key:
    id: str
    keys: str  # Textual key names, comma-separated
    action: str
    words: str  # what the footer and the help say
    show: bool = True


MOVES = {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0),
         "north_west": (-1, -1), "north_east": (1, -1), "south_west": (-1, 1), "south_east": (1, 1)}
_MOVE_KEYS = {"north": "up,k,8", "south": "down,j,2", "west": "left,h,4", "east": "right,l,6",
              "north_west": "y,7,home", "north_east": "u,9,pageup", "south_west": "b,1,end",
              "south_east": "n,3,pagedown"}

BATTLE: tuple[Key, ...] = (
    *(Key(name, _MOVE_KEYS[name], f"cursor({dx},{dy})", f"cursor {name.replace('_', '-')}", show=False)
      for name, (dx, dy) in MOVES.items()),
    Key("move", "enter", "go", "move"),
    Key("next_soldier", "tab", "cycle(1)", "next"),
    Key("prev_soldier", "shift+tab", "cycle(-1)", "prev", show=False),
    Key("soldiers", "S", "soldiers", "squad"),
    Key("spotted", "s", "spotted", "in sight", show=False),  # the in-sight bar names its key
    Key("fire", "f", "fire", "fire"),
    Key("fire_cell", "d", "fire_cell", "fire at cell"),  # d: into the dark
    Key("throw", "t", "throw", "throw"),
    Key("reload", "r", "reload", "reload"),
    Key("operate", "o", "operate", "use"),
    Key("actions", "a", "actions", "actions"),
    Key("inventory", "I", "inventory", "inventory"),
    Key("combo", "c", "combo", "combo"),
    Key("wait", "w", "wait", "wait"),
    Key("end_turn", "e", "end_turn", "end turn"),
    Key("undo", "U", "undo", "undo"),
    Key("look", "x", "look", "look"),
    Key("turn_left", "left_square_bracket", "turn(-1)", "turn left"),  # in place, one facing step
    Key("turn_right", "right_square_bracket", "turn(1)", "turn right"),
    Key("level_up", "greater_than_sign", "level(1)", "level up", show=False),  # the top bar names the level
    Key("level_down", "less_than_sign", "level(-1)", "level down", show=False),
    Key("next_target", "tab", "cycle_target(1)", "next target"),
    Key("prev_target", "shift+tab", "cycle_target(-1)", "prev target", show=False),
    Key("fire_mode", "m", "fire_mode", "fire mode"),
    Key("confirm_fire", "enter,f", "shoot", "FIRE"),
    Key("confirm_throw", "enter,t", "lob", "THROW"),
    Key("throw_item", "i", "pick_item", "item"),
    Key("cancel", "escape,backspace", "cancel", "cancel"),
    Key("full_log", "L", "full_log", "log"),
    Key("help", "question_mark", "help", "help"),
    Key("quit", "q", "quit", "save+quit"),
)

# Each battle mode is a screen of its own with its own share of BATTLE (one table, so a key map and the help
# know every battle key): moving is the battle screen, the others return to it.
_ALWAYS = ("full_log", "help", "quit")
BATTLE_MODES: dict[str, tuple[str, ...]] = {
    "move": (*MOVES, "move", "next_soldier", "prev_soldier", "soldiers", "spotted", "fire", "fire_cell", "throw",
             "reload", "operate", "actions", "inventory", "combo", "wait", "end_turn", "undo", "look", "turn_left",
             "turn_right", "level_up", "level_down", "cancel", *_ALWAYS),
    "target": ("next_target", "prev_target", "fire_mode", "confirm_fire", "cancel", *_ALWAYS),
    "cell": (*MOVES, "next_target", "prev_target", "fire_mode", "confirm_fire", "cancel", *_ALWAYS),
    "throw": (*MOVES, "next_target", "prev_target", "spotted", "throw_item", "confirm_throw", "cancel", *_ALWAYS),
    "look": (*MOVES, "next_target", "prev_target", "spotted", "level_up", "level_down", "cancel", *_ALWAYS),
}

TITLE: tuple[Key, ...] = (
    Key("title_new", "n", "pick('new')", "new mission"),
    Key("title_resume", "r", "pick('resume')", "resume"),
    Key("title_replays", "p", "pick('replays')", "replays"),
    Key("title_squad", "s", "pick('squad')", "squad"),
    Key("title_campaign", "c", "pick('campaign')", "campaign"),
    Key("help", "question_mark", "help", "help"),
    Key("quit", "q", "pick('quit')", "quit"),
)

FORM: tuple[Key, ...] = (
    Key("back", "escape", "back", "back"),
    Key("help", "f1", "help", "help"),
)

LIST: tuple[Key, ...] = (
    Key("open", "enter", "open", "open"),
    Key("view_replay", "v", "view", "view replay"),
    Key("back", "escape,backspace,q", "back", "back"),
    Key("help", "question_mark", "help", "help"),
)

SUMMARY: tuple[Key, ...] = (
    Key("full_log", "L", "full_log", "log"),
    Key("back", "enter,escape,backspace", "back", "title menu"),
    Key("help", "question_mark", "help", "help"),
    Key("quit", "q", "app.quit", "quit"),
)

READER: tuple[Key, ...] = (
    Key("search", "slash", "search", "search"),
    Key("next_match", "n", "next_match(1)", "next match"),
    Key("prev_match", "N", "next_match(-1)", "prev match"),
    Key("back", "escape,backspace,q,L", "back", "close"),
)

CLOSE: tuple[Key, ...] = (
    Key("back", "escape,backspace,q,question_mark,enter", "back", "close"),
)

DEBRIEF: tuple[Key, ...] = (  # a campaign's debrief and story: in brief first, every note and roll on `r`
    Key("debrief_whole", "r", "whole", "every roll"),
    Key("back", "escape,backspace,q,question_mark,enter", "back", "close"),
)

CONFIRM: tuple[Key, ...] = (
    Key("yes", "y,enter", "answer(True)", "yes"),
    Key("no", "n,escape,backspace", "answer(False)", "no"),
)

VIEWER: tuple[Key, ...] = (
    Key("record_back", "left,h", "step(-1)", "record-"),
    Key("record_forward", "right,l", "step(1)", "record+"),
    Key("turn_back", "pageup,p", "turn(-1)", "turn-"),
    Key("turn_forward", "pagedown,n", "turn(1)", "turn+"),
    Key("first_record", "home", "ends(-1)", "first record", show=False),
    Key("last_record", "end", "ends(1)", "last record", show=False),
    Key("prev_dice", "left_square_bracket", "dice(-1)", "prev dice", show=False),
    Key("next_dice", "right_square_bracket", "dice(1)", "next dice"),
    Key("jump", "g", "jump", "go to"),
    Key("pan_north", "shift+up,K", "pan(0,-1)", "pan", show=False),
    Key("pan_south", "shift+down,J", "pan(0,1)", "pan", show=False),
    Key("pan_west", "shift+left,H", "pan(-1,0)", "pan", show=False),
    Key("pan_east", "shift+right,L", "pan(1,0)", "pan", show=False),
    Key("view_squad", "s", "view('xcom')", "squad"),
    Key("view_aliens", "a", "view('aliens')", "aliens"),
    Key("view_full", "f", "view('full')", "full"),
    Key("level_up", "greater_than_sign", "level(1)", "level up", show=False),  # the top bar names the level
    Key("level_down", "less_than_sign", "level(-1)", "level down", show=False),
    Key("next_roll", "tab", "roll(1)", "roll"),
    Key("prev_roll", "shift+tab", "roll(-1)", "prev roll", show=False),
    Key("explain", "enter,e", "explain", "why"),
    Key("help", "question_mark", "help", "help"),
    Key("back", "escape,backspace", "back", "back"),
    Key("quit", "q", "app.quit", "quit"),
)

MENU: tuple[Key, ...] = (
    Key("menu_up", "up,k", "move(-1)", "up"),
    Key("menu_down", "down,j", "move(1)", "down"),
    Key("less", "left,h,minus", "more(-1)", "less", show=False),
    Key("more", "right,l,plus", "more(1)", "more", show=False),
    Key("choose", "enter", "choose", "do it"),
    Key("back", "escape,backspace,a", "back", "close"),
)

INVENTORY: tuple[Key, ...] = (
    Key("item_up", "up,k", "move(-1)", "up"),
    Key("item_down", "down,j", "move(1)", "down"),
    Key("choose", "enter", "choose", "choose"),
    Key("back", "escape,backspace,I", "back", "back"),
    Key("help", "question_mark", "help", "help"),
)

DISPUTE: tuple[Key, ...] = (
    Key("next_roll", "tab", "roll(1)", "next roll"),
    Key("prev_roll", "shift+tab", "roll(-1)", "prev roll"),
    Key("back", "escape,backspace,q,enter", "back", "close"),
)

ROSTER: tuple[Key, ...] = (
    Key("roster_new", "n", "create", "new character"),
    Key("roster_delete", "d", "delete", "delete"),
    Key("roster_train", "t", "train", "train skills"),
    Key("back", "escape,backspace,q", "back", "back"),
    Key("help", "question_mark", "help", "help"),
)

CREATION: tuple[Key, ...] = (  # letters typed into the name field stay there: the field takes them first
    Key("stat_prev", "up,k", "select(-1)", "up"),
    Key("stat_next", "down,j", "select(1)", "down"),
    Key("stat_less", "left,h,minus", "change(-1)", "less"),
    Key("stat_more", "right,l,plus", "change(1)", "more"),
    Key("save_character", "enter", "save", "save"),
    Key("back", "escape", "back", "back"),
    Key("help", "question_mark,f1", "help", "help"),
)

CAMPAIGN: tuple[Key, ...] = (
    Key("camp_advance", "space,t", "advance", "advance time"),
    Key("camp_deploy", "d", "deploy", "deploy"),
    Key("camp_orders", "o", "orders", "orders"),
    Key("camp_base", "b", "base", "base"),
    Key("camp_news", "L", "news", "log"),
    Key("camp_up", "up,k", "pick(-1)", "roster up", show=False),
    Key("camp_down", "down,j", "pick(1)", "roster down", show=False),
    Key("help", "question_mark", "help", "help"),
    Key("back", "escape,backspace,q", "back", "save+leave"),
)

SQUAD_PICK: tuple[Key, ...] = (
    Key("menu_up", "up,k", "move(-1)", "up"),
    Key("menu_down", "down,j", "move(1)", "down"),
    Key("squad_toggle", "space,x", "toggle", "in/out"),
    Key("choose", "enter", "choose", "deploy"),
    Key("back", "escape,backspace", "back", "cancel"),
)

LOADOUT: tuple[Key, ...] = (  # the loadout before a mission: soldier, line, option, left to right
    Key("loadout_up", "up,k", "move(-1)", "up", show=False),  # the footer's first piece says ←↑↓→
    Key("loadout_down", "down,j", "move(1)", "down", show=False),
    Key("loadout_right", "right,l,tab", "column(1)", "next column", show=False),
    Key("loadout_left", "left,h,shift+tab", "column(-1)", "prev column", show=False),
    Key("loadout_set", "space,x", "set", "choose"),
    Key("loadout_more", "plus", "count(1)", "one more"),
    Key("loadout_fewer", "minus", "count(-1)", "one fewer"),
    Key("loadout_accept", "enter", "accept", "start mission"),
    Key("back", "escape,backspace", "back", "back, unchanged"),
    Key("help", "question_mark", "help", "help"),
)

BASEMAP: tuple[Key, ...] = (  # the base screen: a facility's footprint moved over a layer of the base
    Key("base_north", "up,k", "shift(0,-1)", "up", show=False),
    Key("base_south", "down,j", "shift(0,1)", "down", show=False),
    Key("base_west", "left,h", "shift(-1,0)", "left", show=False),
    Key("base_east", "right,l", "shift(1,0)", "right", show=False),
    Key("base_rotate", "r", "rotate", "rotate"),
    Key("base_next", "tab", "facility(1)", "next facility"),
    Key("base_prev", "shift+tab", "facility(-1)", "prev facility", show=False),
    Key("base_deeper", "greater_than_sign", "layer(1)", "layer down"),
    Key("base_higher", "less_than_sign", "layer(-1)", "layer up"),
    Key("base_mode", "m", "mode", "build/move"),
    Key("base_site", "b", "site", "next base"),
    Key("base_place", "enter", "place", "place here"),
    Key("back", "escape,backspace,q", "back", "back"),
    Key("help", "question_mark", "help", "help"),
)

TABLES = {"battle": BATTLE, "title": TITLE, "form": FORM, "list": LIST, "summary": SUMMARY, "reader": READER,
          "close": CLOSE, "debrief": DEBRIEF, "confirm": CONFIRM, "viewer": VIEWER, "dispute": DISPUTE, "menu": MENU,
          "inventory": INVENTORY,
          "roster": ROSTER, "creation": CREATION, "campaign": CAMPAIGN, "squad_pick": SQUAD_PICK,
          "loadout": LOADOUT, "basemap": BASEMAP}
CONFUSED = {"ctrl+i": "Tab", "ctrl+h": "Backspace", "ctrl+m": "Enter", "ctrl+j": "Enter",
            "ctrl+left_square_bracket": "Esc"}
_NAMED = {k.value for k in Keys} | {"enter", "tab", "escape", "backspace", "space"}


def action_of(key: Key) -> tuple[str, tuple[object, ...]]:
    """A key's action name and arguments, as Textual parses them: "view('full')" -> ("view", ("full",))."""
    from textual.actions import parse

    _namespace, name, args = parse(key.action)
    return name, args


def bindings(table: str, only: tuple[str, ...] | None = None) -> list[Binding]:
    """A screen's BINDINGS: the table's keys, or those of its ids in `only`, in the table's order."""
    return [Binding(k.keys, k.action, k.words, show=k.show, id=k.id) for k in TABLES[table]
            if only is None or k.id in only]


class KeyMapError(ValueError):
    """A key map file that cannot be used: one line saying where and why."""


def normal(key: str) -> str:
    """Textual's name for one key as a person writes it: "?" -> "question_mark", "Ctrl+S" -> "ctrl+s"."""
    key = key.strip()
    if len(key) == 1:
        return _character_to_key(key)
    *mods, base = key.split("+")
    mods = [m.lower() for m in mods]
    base = base if len(base) == 1 else base.lower()
    if len(base) == 1:
        base = _character_to_key(base)
    return "+".join([*mods, base])


def _check_key(key: str) -> str | None:
    *mods, base = key.split("+")
    if any(m not in ("ctrl", "shift", "alt") for m in mods):
        return f"unknown modifier in {key!r} (use ctrl+, shift+ or alt+)"
    if key in CONFUSED:
        return f"{key!r} reaches the game as {CONFUSED[key]} in most terminals; pick another key"
    if not base:
        return "an empty key"
    if len(base) == 1 or base in _NAMED or base.isidentifier() and len(base) > 1 and _is_char_name(base):
        return None
    return f"unknown key {key!r}"


def _is_char_name(name: str) -> bool:
    import unicodedata

    try:
        unicodedata.lookup(name.replace("_", " "))
        return True
    except KeyError:
        return False


def parse(text: str, source: str = "keys.toml") -> dict[str, str]:
    """A [keys] table of `id = "key"` or `id = ["key", ...]` into a Textual keymap; KeyMapError on any problem."""
    from engine.core import files

    try:
        data = files.toml(text)  # nesting too deep, or a number too long, is a TOMLDecodeError too
    except tomllib.TOMLDecodeError as exc:
        raise KeyMapError(f"{source}: not valid TOML ({exc})") from None
    extra = sorted(set(data) - {"keys"})
    if extra:
        raise KeyMapError(f"{source}: unknown table or key {extra[0]!r}; put bindings under [keys]")
    table = data.get("keys", {})
    if not isinstance(table, dict):
        raise KeyMapError(f"{source}: [keys] must be a table of action = \"key\"")
    known = {k.id: name for name, keys in TABLES.items() for k in keys}
    keymap: dict[str, str] = {}
    for action, value in table.items():
        if action not in known:
            from engine.content.strict import did_you_mean

            raise KeyMapError(f"{source}: unknown action {action!r}{did_you_mean(action, list(known))}")
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            raise KeyMapError(f"{source}: keys.{action} must be a key name or a list of key names")
        names = [normal(v) for v in values]
        for raw, name in zip(values, names):
            problem = _check_key(name) if raw.strip() else "an empty key"
            if problem:
                raise KeyMapError(f"{source}: keys.{action}: {problem}")
        keymap[action] = ",".join(names)
    _check_clashes(keymap, source)
    return keymap


def _check_clashes(keymap: dict[str, str], source: str) -> None:
    """Two actions live on one screen at once cannot share a key. The battle's modes are screens of their own,
    so `t` may throw in moving and confirm the throw in throwing, but not also fire while moving."""
    screens = [(name, table) for name, table in TABLES.items() if name != "battle"]
    screens += [(f"battle ({mode})", [k for k in BATTLE if k.id in ids]) for mode, ids in BATTLE_MODES.items()]
    for name, table in screens:
        owner: dict[str, str] = {}
        for k in table:
            for key in keymap.get(k.id, k.keys).split(","):
                other = owner.get(key)
                if other and other != k.id:
                    raise KeyMapError(f"{source}: {display(key)!r} is bound to both {other} and {k.id} "
                                      f"on the {name} screen")
                owner[key] = k.id


def default_path() -> Path | None:
    """$XENOTAC_KEYS, then ~/.config/xenotac/keys.toml if it exists."""
    env = os.environ.get("XENOTAC_KEYS")
    if env:
        return Path(env)
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "xenotac" / "keys.toml"
    return home if home.is_file() else None


def load(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    from engine.core import files

    try:
        text = files.read_capped(path).decode("utf-8")  # never a device or a pipe, never a huge file
    except FileNotFoundError:
        raise KeyMapError(f"{path}: no such key map file") from None
    except files.FileProblem as exc:
        raise KeyMapError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyMapError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    return parse(text, str(path))


def said(keymap: dict[str, str], binding_id: str, most: int = 2, table: str = "battle") -> str:
    """The keys bound to `binding_id` as a hint shows them, remapped ones included: "y/⏎". An id some tables
    share ("back") has each table's own default keys: `table` says whose, else the first that has it."""
    tables = [TABLES[table], *TABLES.values()]
    default = next((k.keys for t in tables for k in t if k.id == binding_id), "")
    return "/".join(display(key) for key in keymap.get(binding_id, default).split(",")[:most] if key)


def fill(keymap: dict[str, str], text: str, table: str = "battle") -> str:
    """`text` with each `{binding_id}` as its keys: "{move} walks it" -> "⏎ walks it", remapped ones included."""
    import re

    return re.sub(r"\{(\w+)\}", lambda m: said(keymap, m.group(1), 2, table), text)


def display(key: str) -> str:
    """A key as the footer shows it."""
    return {"question_mark": "?", "enter": "⏎", "escape": "esc", "backspace": "⌫", "shift+tab": "⇧tab",
            "slash": "/", "up": "↑", "down": "↓", "left": "←", "right": "→", "pageup": "pgup",
            "pagedown": "pgdn", "left_square_bracket": "[", "right_square_bracket": "]",
            "greater_than_sign": ">", "less_than_sign": "<"}.get(key, key)
