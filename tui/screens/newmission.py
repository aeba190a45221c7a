"""New mission: a ruleset, a mission, a seed (empty: a secret one; a number: public and reproducible),
a difficulty level, and the briefing: the map, the squad, the hostiles and the objectives."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from engine.content import missions
from engine.play import catalog
from tui import keys
from tui.screens.base import Sized
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine



class NewMission(Sized):
    BINDINGS = keys.bindings("form")

    def compose(self) -> ComposeResult:
        content = self.app.content
        self.rulesets = catalog.rulesets(content)
        self.levels = list(content.difficulty)
        with Horizontal(id="form"):
            with Vertical(id="form-left"):
                yield Static("Ruleset", classes="label")
                yield OptionList(*(Option(catalog.title(content, r) + f" ({r})", id=r) for r in self.rulesets),
                                 id="ruleset")
                yield Static("Mission", classes="label")
                yield OptionList(id="mission")
                yield Static("Seed (empty: secret; number: public)", classes="label")
                yield Input("", id="seed", restrict=r"[0-9]*", max_length=18, select_on_focus=False,
                            placeholder="secret")
                yield Button("Start mission", id="start", variant="primary")
                if self.levels:
                    yield Static("Difficulty", classes="label")
                    yield OptionList(*(Option(d.name, id=k) for k, d in content.difficulty.items()),
                                     id="difficulty")
            with VerticalScroll(id="briefing"):  # a long squad or briefing scrolls rather than being cut
                yield Static(id="squad")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def on_mount(self) -> None:
        rulesets = self.query_one("#ruleset", OptionList)
        rulesets.highlighted = 0
        rulesets.focus()
        if self.levels:
            default = self.app.content.default_difficulty()
            self.query_one("#difficulty", OptionList).highlighted = self.levels.index(default) if default else 0
        self._fill_missions()
        self.query_one(StatusLine).message = "Tab/⇧Tab: next/previous field · ↑↓ choose · ⏎ on the seed starts"

    def _ruleset(self) -> str:
        menu = self.query_one("#ruleset", OptionList)
        return self.rulesets[menu.highlighted or 0]

    def _level(self) -> str | None:
        if not self.levels:
            return None
        menu = self.query_one("#difficulty", OptionList)
        return self.levels[menu.highlighted or 0]

    def _mission(self) -> str | None:
        menu = self.query_one("#mission", OptionList)
        if menu.highlighted is None or menu.option_count == 0:
            return None
        return menu.get_option_at_index(menu.highlighted).id

    def _mission_id(self) -> str | None:
        """The id the log will name: the mission, at the chosen level unless it is the default one."""
        mid = self._mission()
        level = self._level()
        if mid is None or level is None or level == self.app.content.default_difficulty():
            return mid
        return f"{mid}@{level}"

    def _fill_missions(self) -> None:
        content = self.app.content
        menu = self.query_one("#mission", OptionList)
        menu.clear_options()
        ruleset = self._ruleset()
        for mid in catalog.missions_for(content, ruleset):  # one line each: the briefing beside the list describes it
            menu.add_option(Option(content.missions[mid].name, id=mid))
        if menu.option_count:
            menu.highlighted = 0
        self._show_squad()

    def _show_squad(self) -> None:
        content = self.app.content
        mid = self._mission_id()
        if mid is None:
            self.query_one("#squad", Static).update("No mission for this ruleset")
            return
        mission = content.missions[mid]
        level = missions.difficulty(content, mission)
        lines = [f"{mission.name}: {mission.description}",
                 f"{mission.width}×{mission.height} {mission.generator.replace('_', ' ')}, ≤{mission.max_phases} phases"]
        if level is not None:
            lines.append(f"{level.name}: {level.description}")
        squad, notes = self._squad_lines(mid)
        lines += notes  # the dice first: they matter before the seed is typed
        lines.append("Objectives:")
        names = {m.template: m.name for m in catalog.roster(content, self._ruleset(), mid)}
        for o in missions.objectives(mission).values():
            lost = missions.lost_if(o, names)
            lines.append(f" · {o.text}" + (f"; {lost}" if lost else ""))
        lines.append(" · lost, as every mission, if the whole squad is down")
        if any(o.kind == "hold" for o in missions.objectives(mission).values()):
            lines.append("   (outnumbered: more conscious hostiles than soldiers in the zone)")
        deployed = catalog.roster(content, self._ruleset(), mid)
        kinds: dict[str, list[missions.Member]] = {}
        for m in deployed:
            kinds.setdefault(m.template, []).append(m)
        hostiles = ", ".join(f"{len(ms)} {ms[0].name.rsplit(' ', 1)[0].lower()}" for ms in kinds.values()
                             if ms[0].side == missions.ALIENS)
        lines.append(f"Hostiles: {hostiles}")
        civilians = [m for m in deployed if m.side == missions.CIVILIANS]
        if civilians:
            lines.append(f"Civilians: {len(civilians)} ({civilians[0].glyph})")
        lines += squad  # the briefing scrolls when it does not fit
        self.query_one("#squad", Static).update("\n".join(lines))

    def _squad_lines(self, mid: str) -> tuple[list[str], list[str]]:
        """Who deploys (the roster's characters first, then the mission's own), and notes on what decides the
        dice."""
        from engine.play import roster
        from tui import squad

        content = self.app.content
        try:
            chars = squad.squad_for(content, self.app.saves, self._ruleset(), mid, roster.RosterError)
        except roster.RosterError as exc:
            return [f"Squad: ✗ {exc}"], []
        ruleset = self._ruleset()
        own = [m.name for m in catalog.roster(content, ruleset, mid) if m.side == missions.PLAYER]
        squad = [m for m in catalog.roster(roster.with_squad(content, ruleset, mid, chars), ruleset, mid)
                 if m.side == missions.PLAYER]
        lines = [f"Squad{f' ({len(chars)} from the roster)' if chars else ''}:"]
        lines += [f" {m.glyph} {m.name}" + (f" ({m.note})" if m.note else "") for m in squad]
        notes = ["The same seed with the same squad rolls the same dice."]
        if chars:
            deployed = {m.name for m in squad}
            replaced = ", ".join(name for name in own if name not in deployed)
            notes.append(f"Your roster changes the squad{f' (in place of {replaced})' if replaced else ''}: "
                         "with it the same seed plays out otherwise.")
        return lines, notes

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "ruleset":
            self._fill_missions()
        else:
            self._show_squad()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.focus_next()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self._start()

    def on_button_pressed(self, _event: Button.Pressed) -> None:
        self._start()

    def _start(self) -> None:
        text = self.query_one("#seed", Input).value.strip()
        status = self.query_one(StatusLine)
        if text and not text.isdigit():
            status.message = f"✗ A seed is a whole number, not {text!r}"
            return
        mid = self._mission_id()
        if mid is None:
            status.message = "✗ Pick a mission"
            return
        problem = self.app.start_mission(self._ruleset(), mid, int(text) if text else None)
        if problem:
            status.message = f"✗ {problem}"

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("form", self))
