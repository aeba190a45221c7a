"""One mission in play for the client: the game, the AI for the other side, and the chronicle.

Only a Session (driven by the battle screen) submits commands. Every accepted command is on disk
before `submit` returns; the chronicle then reads the new records back from the log, so what the
screen shows is exactly what a resume will rebuild.
"""

from __future__ import annotations

from pathlib import Path

from engine.log import writer as log
from engine.log.view import ended
from engine.core.commands import Command, Rejected
from engine.content.models import Content
from engine.core.events import Event
from engine.play.game import Game, build, check_header
from engine.core.model import State, Unit
from tui.chronicle import Chronicle

PLAYER = "xcom"


class Session:
    def __init__(self, game: Game, side: str = PLAYER) -> None:
        if game.path is None:
            raise ValueError("a client session needs a log file")
        self.game = game
        self.side = side
        self.path: Path = game.path
        first = game.history[0]  # a new game still holds the state before its first command: no second map
        initial = first.state if first.n == 1 else build(game.content, game.header)[1]
        self.chronicle = Chronicle(game.ruleset, initial, side)
        self._offset = 0
        self.catch_up()

    @classmethod
    def new(cls, content: Content, ruleset_id: str, mission_id: str, seed: bytes, path: Path,
            casual: bool = False, squad: list | None = None, public: int | None = None) -> "Session":
        """`squad`: roster characters (engine.roster.Character) in the first squad places; `public`: the
        number a reproducible seed was made from (None: a secret seed)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        return cls(Game.new(content, ruleset_id, mission_id, seed, path, casual=casual, squad=squad, public=public))

    @classmethod
    def resume(cls, content: Content, path: Path, recover: bool = False) -> "Session":
        """Carry on a log; with `recover`, its good part in a new file beside it (the log is kept)."""
        if not recover:
            return cls(Game.resume(content, path))
        from engine.play.recovery import recover as recover_log
        from tui.saves import new_log_path

        game, note = recover_log(content, path, new_log_path(path.parent, f"{path.stem}-recovered"))
        game.notes.append(note)
        return cls(game)

    # -- what the screen reads -------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def ruleset(self):
        return self.game.ruleset

    @property
    def content(self) -> Content:
        return self.game.content

    @property
    def over(self) -> bool:
        return self.state.winner is not None

    @property
    def players_turn(self) -> bool:
        return not self.over and self.ruleset.turn(self.state).side == self.side

    def squad(self) -> list[Unit]:
        return self.state.side_units(self.side)

    def ready(self) -> list[Unit]:
        """Soldiers who can still act now: with turns by slot or an interrupt, only those the ruleset names."""
        turn = self.ruleset.turn(self.state)
        return [u for u in self.squad() if turn.allows(u.id) and self.ruleset.budget(self.state, u).can_act]

    # -- doing -----------------------------------------------------------------------------------

    def submit(self, command: Command) -> Rejected | list[Event]:
        result = self.game.submit(command)
        if not isinstance(result, Rejected):
            self.catch_up()
        return result

    def undo(self) -> Rejected | None:
        if self.game.history[-1].n <= self.chronicle.turn_start or not self.players_turn:
            return Rejected("turn_start", "Undo stops at the start of your turn")
        result = self.game.undo()
        if isinstance(result, Rejected):
            return result
        self.catch_up()
        return None

    def ai_step(self) -> Rejected | list[Event]:
        """One command of the side that is not the player's, as the AI chooses it."""
        result = self.game.ai_step()  # the game's own AI: what it remembers is in the log, so a resume goes on the same
        if not isinstance(result, Rejected):
            self.catch_up()
        return result

    def catch_up(self) -> None:
        """Feed the chronicle every record written since the last call; the command the game just wrote comes with its
        events and state as the game holds them, the same as decoding and folding the record (replay --verify holds
        the log to that), so the chronicle skips that work."""
        with open(self.path, "rb") as f:
            f.seek(self._offset)
            data = f.read()
        end = data.rfind(b"\n") + 1
        decided, head = self.game.decided, self.game.history[-1]
        for n, raw in enumerate(data[:end].splitlines(), start=1):
            record = log.parse(raw, n)
            if record.get("kind") == "header":
                continue
            mine = decided is not None and record.get("n") == decided[0] == head.n  # the game's own, just written
            self.chronicle.feed(record, (decided[1], head.state) if mine else None)
        self._offset += end

    def close(self) -> None:
        self.game.close()


def read_chronicle(content: Content, path: Path, side: str = PLAYER) -> Chronicle:
    """The chronicle of a log on disk, finished or not, without resuming it: an unfinished one as `side` saw it."""
    header = log.read_header(path)
    check_header(content, header)
    ruleset, initial = build(content, header)
    records = [(n, log.parse(raw, n)) for n, _offset, raw in log.read_lines(path)]
    chron = Chronicle(ruleset, initial, side, opened=ended(records))  # a finished mission is told whole
    for _n, record in records:
        if record.get("kind") != "header":
            chron.feed(record)
    return chron
