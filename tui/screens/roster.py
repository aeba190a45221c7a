"""The squad roster (saves/roster.toml): n creates a character, d deletes one (after a yes), t trains one (its
ruleset's later numbers, typed `skill=level,...` in the status line as `xenotac roster train` takes them:
annihilation's skill slots), esc goes back.

In a new mission the first characters take the squad's places, in this order.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.play import catalog, roster
from tui.squad import short_line
from tui import keys
from tui.screens.base import Sized
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine

MAX_TYPED = 60  # a training line: a few skill=level pairs


class RosterScreen(Sized):
    BINDINGS = keys.bindings("roster")

    def __init__(self, seed: bytes | None = None) -> None:
        super().__init__()
        self.seed = seed  # of the HP dice of the characters made here; None: a fresh secret each
        self.characters: list[roster.Character] = []
        self.problem: str | None = None  # why the roster file does not read
        self.typed: str | None = None  # t: the numbers typed so far for `trainee`; None: not training
        self.trainee: roster.Character | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="roster-head")
        yield OptionList(id="roster-list")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def on_mount(self) -> None:
        self.reload()
        self.query_one(OptionList).focus()

    @property
    def path(self):
        return self.app.saves / roster.FILE

    def reload(self, message: str | None = None) -> None:
        """Reads the file again; a file that does not read is shown, never written over."""
        content = self.app.content
        status = self.query_one(StatusLine)
        self.problem = None
        try:
            self.characters = roster.load(self.path, content)
        except roster.RosterError as exc:
            self.characters, self.problem = [], str(exc)
        menu = self.query_one(OptionList)
        before = self._chosen()
        menu.clear_options()
        for rid in dict.fromkeys(c.ruleset for c in self.characters):  # a heading per ruleset, in roster order
            if len({c.ruleset for c in self.characters}) > 1:
                menu.add_option(Option(Text(catalog.title(content, rid), style="bold"), disabled=True))
            for i, ch in enumerate(self.characters):
                if ch.ruleset == rid:
                    menu.add_option(Option(Text(short_line(content, ch)), id=str(i)))
        if self.characters:
            self._highlight(min(before if before is not None else 0, len(self.characters) - 1))
        self.query_one("#roster-head", Static).update(Text(
            f"Squad roster · in a new mission the first {self._span()} of its ruleset deploy, in order"))
        if self.problem:
            status.message = f"✗ {self.problem.replace(str(self.path), self.path.name)} (fix or move it)"
        elif message is not None:
            status.message = message
        elif not self.characters:
            status.message = "No characters yet: n creates one (meanwhile the built-in squad deploys)"
        else:
            status.message = ""
        self.refresh_bindings()

    def _chosen(self) -> int | None:
        """The roster index of the highlighted character (headings have no id)."""
        menu = self.query_one(OptionList)
        if menu.highlighted is None:
            return None
        found = menu.get_option_at_index(menu.highlighted).id
        return int(found) if found is not None else None

    def _highlight(self, at: int) -> None:
        menu = self.query_one(OptionList)
        menu.highlighted = menu.get_option_index(str(at))

    def _span(self) -> str:
        """How many deploy: the fewest to the most squad places over the missions of the rulesets here."""
        content = self.app.content
        places = sorted({roster.creation(content, rid).places(m) for rid in roster.creators(content)
                         for m in catalog.missions_for(content, rid)} - {0}) or [0]
        return f"{places[0]}–{places[-1]}" if len(places) > 1 else str(places[0])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.typed is not None:
            return False  # the keys are the line's
        if self.too_small and action not in ("back", "help"):
            return False
        if action in ("delete", "train"):
            return bool(self.characters) and self.problem is None
        if action == "create":
            return self.problem is None
        return True

    def on_option_list_option_selected(self, _event: OptionList.OptionSelected) -> None:
        pass  # nothing to open yet: the line shows the whole character

    def action_create(self) -> None:
        from tui.screens.creation import Creation

        self.app.push_screen(Creation(self.seed), self._created)

    def _created(self, ch: roster.Character | None) -> None:
        if ch is None:
            self.reload()
            return
        self.reload(f"{ch.name} joins the roster: {roster.made(self.app.content, ch)}")
        self._highlight(len(self.characters) - 1)

    def action_delete(self) -> None:
        from tui.screens.dialogs import Confirm

        at = self._chosen()
        if at is None or not self.characters:
            return
        ch = self.characters[at]

        def answer(yes: bool | None) -> None:
            if not yes:
                self.query_one(StatusLine).message = f"{ch.name} stays"
                return
            self._delete(ch)

        self.app.push_screen(Confirm(f"Delete {ch.name} from the roster? What was rolled for them is lost for good."),
                             answer)

    def _on_disk(self) -> list[roster.Character] | None:
        """The roster as it is now on disk, or None (the problem shown)."""
        try:
            return roster.load(self.path, self.app.content)
        except roster.RosterError as exc:
            self.reload()
            self.query_one(StatusLine).message = f"✗ {exc}"
            return None

    def on_key(self, event: events.Key) -> None:
        # t opens the line here and not through its binding: bindings run later, in the App, so letters typed
        # ahead ("tmedic=5⏎" in one packet) would reach the list (d: delete) before the line was open
        keymap = self.app._keymap  # noqa: SLF001 - the keymap Textual applies
        default = next(k.keys for k in keys.ROSTER if k.id == "roster_train")
        opens = self.typed is None and event.key in keymap.get("roster_train", default).split(",") \
            and self.check_action("train", ()) is True
        if self.typed is None and not opens:
            return
        event.stop()
        event.prevent_default()
        if opens:
            self.action_train()
        else:
            self._type(event.key, event.character)

    def action_train(self) -> None:
        at = self._chosen()
        if at is None or not self.characters or self.typed is not None:
            return
        self.trainee, self.typed = self.characters[at], ""
        self.refresh_bindings()
        self._prompt()

    def _prompt(self) -> None:
        self.query_one(StatusLine).message = (f"Train {self.trainee.name}, skill=level,...: {self.typed}▏ · "
                                              "⏎ trains, esc cancels")

    def _type(self, key: str, character: str | None) -> None:
        typed, ch = self.typed or "", self.trainee
        if key in ("escape", "enter") or (key == "backspace" and not typed):
            self.typed = self.trainee = None
            self.refresh_bindings()
            if key == "enter" and typed.strip():
                self._train(ch, typed.strip())
            else:
                self.query_one(StatusLine).message = f"{ch.name} is not trained"
            return
        if key == "backspace":
            self.typed = typed[:-1]
        elif character and character.isprintable() and len(typed) < MAX_TYPED:
            self.typed = typed + character
        self._prompt()

    def _train(self, ch: roster.Character, text: str) -> None:
        characters = self._on_disk()
        at = None if characters is None else roster.find(characters, ch.name)
        if characters is None or at is None:
            return
        try:
            characters[at] = roster.train(self.app.content, characters[at], text)
        except roster.RosterError as exc:
            self.query_one(StatusLine).message = f"✗ {exc}"
            return
        roster.save(self.path, characters)
        self.reload(f"{ch.name} trained: {roster.describe(self.app.content, characters[at], wide=True)[1]}")

    def _delete(self, ch: roster.Character) -> None:
        characters = self._on_disk()
        if characters is None:
            return
        at = roster.find(characters, ch.name)
        if at is not None:
            characters.pop(at)
            roster.save(self.path, characters)
        self.reload(f"{ch.name} left the roster")

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("roster", self))
