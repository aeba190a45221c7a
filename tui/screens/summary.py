"""The mission summary: outcome, kills and losses per side, dice statistics, the log and the seed."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from engine.log import audit
from engine.log import writer as log
from engine.content.models import Content
from engine.log.reading import seed_note
from engine.log.story import sides_of, verdict
from tui import keys
from tui.screens.base import Sized
from tui.session import read_chronicle
from tui.widgets.keybar import KeyBar


def shown_path(path: Path) -> str:
    """Relative to the working folder when it is inside it: shorter, and the same on every machine."""
    try:
        return os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    except ValueError:
        return str(path)


def summary_lines(path: Path, content: Content) -> list[str]:
    chron = read_chronicle(content, path)
    state = chron.state
    header = log.read_header(path)
    sides = sides_of(content, state.ruleset)
    out = [f"MISSION OVER — {verdict(state.winner, state.ended or '', sides)}" if state.winner else "MISSION NOT FINISHED",
           f"{content.missions[state.mission].name}: {state.ended or ''} · {state.phase} phases", ""]
    for side in state.sides if state.winner else [chron.side]:  # until the end, only what the squad knows
        units = state.side_units(side)
        dead = [u for u in units if u.status == "dead"]
        out_cold = [u for u in units if u.status == "unconscious"]
        enemies = [u for u in state.units.values() if u.side != side and u.side in state.sides]  # not civilians
        kills = sum(u.status == "dead" for u in enemies)
        stunned = sum(u.status == "unconscious" for u in enemies)
        done = f"kills {kills}, knocked out {stunned} · " if state.winner else ""
        out.append(f"{sides.name(side):<7} {done}lost {len(dead)} dead, "
                   f"{len(out_cold)} unconscious · {len(units) - len(dead) - len(out_cold)} standing")
        if dead or out_cold:
            names = ", ".join([f"{u.name} †" for u in dead] + [f"{u.name} (KO)" for u in out_cold])
            out.append("        " + (names if len(names) <= 70 else names[:69] + "…"))
    others = sorted({u.side for u in state.units.values()} - set(state.sides)) if state.winner else []
    for side in others:  # those who take no turn (civilians): their losses, counted as nobody's kills
        units = state.side_units(side)
        dead = sum(u.status == "dead" for u in units)
        out.append(f"{sides.name(side):<7} lost {dead} dead · {len(units) - dead} standing")
    if not state.winner:
        out.append("The hostiles' losses stay in the fog of war until the mission ends")
    out.append("")
    stats = list(audit.render(path, named=sides))  # its statistics count every die, seen or not
    start = next((i for i, line in enumerate(stats) if line.startswith("Dice statistics")), len(stats))
    out += stats[start:]
    out += ["", f"Log:   {shown_path(path)}", f"Audit: xenotac audit {shown_path(path)}"]
    seed = _revealed(path)
    commitment = header.get("seed_commitment", "")
    if seed:
        ok = hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        out += [f"Seed:  {seed}", f"       sha256 = commitment {commitment[:16]}… " + ("✓" if ok else "✗ MISMATCH")]
    else:
        out.append("Seed:  not revealed yet (the mission is not over)")
    if header.get("seed_public") is not False:  # public (or too old to tell): never pass for a secret one
        out.append(f"       {seed_note(header)}")
    return out


def _revealed(path: Path) -> str | None:
    lines, _size = log.tail(path, "reveal")
    for _off, _len, raw in lines:
        record = log.parse(raw, 0)
        if record.get("kind") == "reveal":
            return str(record.get("seed"))
    return None


class Summary(Sized):
    BINDINGS = keys.bindings("summary")

    def __init__(self, path: Path, content: Content, lines: list[str] | None = None) -> None:
        super().__init__()
        self.path = path
        self.content = content
        self.lines = lines if lines is not None else summary_lines(path, content)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary-box"):
            yield Static("\n".join(self.lines), id="summary-text")
        yield KeyBar()
        yield from super().compose()

    def action_full_log(self) -> None:
        from tui.screens.reader import Reader

        self.app.push_screen(Reader("Mission log", read_chronicle(self.content, self.path).journal))

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("summary", self))

    def action_back(self) -> None:
        """Back to the title menu: the one below if the mission was opened from it, else a new one."""
        from tui.screens.title import Title

        if len(self.app.screen_stack) > 1 and isinstance(self.app.screen_stack[-2], Title):
            self.app.pop_screen()
        else:
            self.app.to_menu()
            self.app.switch_screen(Title())
