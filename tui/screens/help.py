"""Every key of the screen underneath, as the key map has them now; the ones valid right now marked."""

from __future__ import annotations

import itertools
import textwrap
from typing import Callable

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tui import keys

INTRO = {
    "battle": ("The cursor previews a path, {move} walks it. {fire} fires ({next_target}: the target), {throw} "
               "throws (the cursor: the blast cell); the panel shows the odds. {actions}: all else (melee, shared "
               "among adjacent foes with several attacks; items, aim, overwatch, stances, psionics, episode "
               "end...); a cone hits all. {next_soldier}: next soldier; {spotted}: next hostile in sight. Every command is saved."),
    "title": "Pick with ↑↓ and ⏎, or press the letter.",
    "inventory": ("What the soldier carries, where and how big, and the encumbrance it gives. {choose} on a thing "
                  "lists the moves it can make now at their TU (hands, straps, belt, backpack, the floor, load and "
                  "unload, grip or let hang a strapped thing); {choose} again does it; {back} goes back."),
    "roster": ("The characters kept across missions: a new mission deploys them first, in this order. "
               "{roster_train} trains the highlighted one: type skill=level,... (annihilation buys skill levels with "
               "the slots its Education gave, A-4.1), as `xenotac roster train` does."),
    "creation": ("Spend every point: {stat_prev} {stat_next} pick a row, {stat_less} {stat_more} change it. Caps "
                 "and points left show as you go, and a refused change says why. {save_character} saves the "
                 "character; its HP is rolled then, once."),
    "campaign": ("{camp_up} {camp_down} move the roster's cursor (a long roster scrolls; the highlighted one's "
                 "note is written out whole below it). Days go by with {camp_advance} to the next event (a mission "
                 "offered, a deadline, a timer due, the first of a month) and stop there. {camp_deploy} picks a "
                 "squad for a mission on offer (one busy with a course is left out at first, and asked about) and "
                 "flies it on the battle screen; the debrief then lists every change with its roll. {camp_orders}: "
                 "the ruleset's orders (train, gamble...); {camp_base} the base, where facilities are built. "
                 "Ironman: every decision is saved at once, with no undo."),
    "loadout": ("The roster soldiers who deploy, left; the highlighted one's loadout lines (armour, weapon, sights, "
                "spare clips, explosives and items), middle; that line's options, right (• the one worn). "
                "{loadout_left} {loadout_right} change column, {loadout_up} {loadout_down} the row; {loadout_set} on "
                "an option chooses it, {loadout_more} {loadout_fewer} change a count. What the kit amounts to (hands, "
                "belt, encumbrance, TU a turn) is shown below, and a refused choice says why. {loadout_accept} "
                "starts the mission with this kit; {back} goes back with nothing changed."),
    "basemap": ("The base, a layer at a time, its squares named by column letter and row number (E5). "
                "{base_next} picks the facility to build, the arrow keys move its footprint and {base_rotate} "
                "turns it (never mirrored); {base_higher} {base_deeper} change layer. {base_mode} switches to moving "
                "a facility that stands (its man-days again, no funding) and back; {base_site} goes to the next "
                "base once there are two. The footprint shows + where it fits and x where it is refused, with the "
                "reason below; {base_place} orders it built or moved. Lower-case letters are still being built."),
    "summary": "The mission is over; its seed is revealed, so `xenotac audit LOG` can re-derive every die.",
    "viewer": ("A mission log replayed: step by record or by turn, or {jump} to go to a turn (#N: a record). "
               "{view_squad} and {view_aliens} show the map as the squad or the aliens saw it then; {view_full} "
               "the full map once the mission has ended. {pan_north} {pan_west} {pan_south} {pan_east} pan the "
               "view. {next_roll} picks a roll of the record on show, {explain} shows why it fell as it did."),
}
HEX_CURSOR = ("On hexes (every odd row drawn half a hex east): {west} {east} west and east, {north_west} "
              "{north_east} {south_west} {south_east} the four slanted sides, {north} {south} the hex above or below "
              "in the same column (north-east or north-west of it by row).")
MODE_WORDS = {"move": "moving", "target": "targeting", "cell": "firing at a cell", "throw": "throwing",
              "look": "looking", "aliens": "the alien turn (any key skips the wait)", "over": "the mission is over"}


class Help(ModalScreen[None]):
    BINDINGS = keys.bindings("close")

    def __init__(self, table: str, under: Screen | None = None,
                 words: Callable[[str, str], str] | None = None) -> None:
        super().__init__()
        self.table = table
        self.under = under
        self.words = words or (lambda _id, w: w)  # a key's word as the screen underneath has it

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(self._text(), id="help-text", markup=False)  # keys such as "[/]" are no markup

    def _text(self) -> str:
        keymap = self.app._keymap  # noqa: SLF001 - the keymap Textual applies
        under = self.under
        mode = getattr(under, "mode", None)
        lines = [f"HELP — {self.table}" + (f", now {MODE_WORDS.get(mode, mode)}" if mode else "")]
        if self.table in INTRO:  # the keys as remapped, so the words stay true
            lines += textwrap.wrap(keys.fill(keymap, INTRO[self.table], self.table), 70)  # 70: the scroll bar
        lines.append("")
        table = keys.TABLES[self.table]
        if self.table == "battle":  # one mode's keys at a time, so the help fits 80×24 (the others: their own help)
            shown = keys.BATTLE_MODES.get(mode if mode in keys.BATTLE_MODES else "move")
            table = tuple(k for k in table if k.id in shown)
        moves = [k for k in table if k.id in keys.MOVES]
        if moves:
            lines.append("cursor " + " ".join("/".join(self._names(k, keymap)) for k in moves))
            session = getattr(under, "session", None)
            if session is not None and session.state.grid.hexes:
                lines += textwrap.wrap(keys.fill(keymap, HEX_CURSOR, self.table), 70)
        cells = []
        hidden = under.hidden_keys() if hasattr(under, "hidden_keys") else ()
        for group in _grouped([k for k in table if k.id not in keys.MOVES and k.id not in hidden], self.table):
            mark = " "
            if under is not None and any(under.check_action(*keys.action_of(k)) for k in group):
                mark = "•"
            names = "/".join(n for k in group for n in self._names(k, keymap))
            cells.append(f"{mark} {names:<13} {_joined([self.words(k.id, k.words) for k in group])}")
        half = -(-len(cells) // 2)
        for left, right in itertools.zip_longest(cells[:half], cells[half:], fillvalue=""):
            lines.append(f"{left:<37} {right}".rstrip())
        closes = "/".join(keys.display(k) for k in keymap.get("back", keys.TABLES["close"][0].keys).split(","))
        lines.append(f"• = valid now · remap keys: xenotac --keys FILE · {closes} closes")
        return "\n".join(lines)

    @staticmethod
    def _names(k: keys.Key, keymap: dict[str, str]) -> list[str]:
        return [keys.display(n) for n in keymap.get(k.id, k.keys).split(",")]

    def action_back(self) -> None:
        self.dismiss(None)


def _grouped(table: list[keys.Key], name: str) -> list[list[keys.Key]]:
    """The battle's keys one cell an action (a step each way: next/prev soldier, turn left/right, level up/down),
    so its help fits 80×24; every other table a cell a key."""
    if name != "battle":
        return [[k] for k in table]
    groups: dict[str, list[keys.Key]] = {}
    for k in table:
        groups.setdefault(keys.action_of(k)[0], []).append(k)
    return list(groups.values())


def _joined(words: list[str]) -> str:
    """ "turn left", "turn right" -> "turn left/right"; "next", "prev" -> "next/prev"."""
    heads = {w.split(" ", 1)[0] for w in words}
    if len(words) > 1 and len(heads) == 1 and all(" " in w for w in words):
        return f"{heads.pop()} " + "/".join(w.split(" ", 1)[1] for w in words)
    return "/".join(words)
