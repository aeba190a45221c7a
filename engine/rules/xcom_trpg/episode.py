"""xcom-trpg's episode end (4.8): "the episode ends when all main objectives are done; the GM may allow a limited
number of extra turns; a character that confirms its episode end stops acting".

The number of extra turns is the mission header's `extra_turns` (Setup.extra_turns; a campaign takes it from
campaign.toml), never content, so a mission without it (0) ends the moment its objectives are met, as before.
With it, the squad's win is held: the `Episode` record notes the phase it came in and the last phase of the
episode, so that the squad gets `extra_turns` turns begun after the objectives were done (met during its own turn
or the aliens': the rest of that phase, then that many phases; met as its turn began: that turn is the first).
The episode ends at the end of its last phase, or as soon as no soldier of the squad is left standing who has not
confirmed its end (`Act(unit, "end_episode")`). The verdict stays the win.

The AI (`ai_confirm`, through `Ruleset.ai_chore`'s "idle" stage) confirms a soldier's end when it has nothing
better to do: no shot, no objective, no hostile in sight. The top bar says the extra turns left (`label`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.content import missions
from engine.core.commands import Act, Command, EndTurn, Rejected, StartMission
from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Noted, Resolved, SideStarted
from engine.core.model import State, Unit
from engine.core.records import record
from engine.core.reducer import fold
from engine.core.seam import Option

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

ACTION = "end_episode"


@record("xcom-trpg.episode")
@attrs.frozen(kw_only=True, slots=False)
class Episode:
    met: int  # the phase in which the main objectives were done
    last: int  # the episode's last phase: it ends as that phase does
    reason: str  # the verdict's words then: the mission's end says them
    confirmed: tuple[str, ...] = ()  # squad unit ids that confirmed their episode end, in order


def of(state: State) -> Episode | None:
    return state.record if isinstance(state.record, Episode) else None


def confirmed(state: State) -> tuple[str, ...]:
    """The squad's units that confirmed their episode end (none while the episode is not held)."""
    episode = of(state)
    return episode.confirmed if episode is not None else ()


def extra_turns(rs: "XcomTrpg") -> int:
    return rs.setup.extra_turns if rs.setup is not None else 0


def held(rs: "XcomTrpg", before: State, events: list[Event], found: list[Event]) -> list[Event]:
    """After a command (field.after's `found`, the smoke, the risen dead and the verdict): with extra turns, the
    squad's win becomes the Episode record; once it is held, no verdict ends the mission but its episode end."""
    if not extra_turns(rs) or any(isinstance(e, MissionEnded) for e in events):
        return found
    episode = next((e.record for e in reversed(events) if isinstance(e, Noted) and isinstance(e.record, Episode)),
                   of(before))
    if episode is None:
        won = next((e for e in found if isinstance(e, MissionEnded) and e.winner == missions.PLAYER), None)
        if won is None:
            return found
        now = fold(before, events)
        begun = any(isinstance(e, SideStarted) and e.side == missions.PLAYER for e in events)
        last = now.phase + extra_turns(rs) - (1 if begun else 0)
        return [e if e is not won else Noted(record=Episode(met=now.phase, last=last, reason=won.reason),
                                             cause=f"main objectives done: {extra_turns(rs)} extra turns (4.8)")
                for e in found]
    kept = [e for e in found if not isinstance(e, MissionEnded)]
    now = fold(fold(before, events), kept)
    if any(u.conscious and u.id not in episode.confirmed for u in now.side_units(missions.PLAYER)):
        return kept
    return kept + [MissionEnded(winner=missions.PLAYER,
                                reason=f"{episode.reason}; the squad confirmed the episode's end")]


def over(rs: "XcomTrpg", state: State) -> MissionEnded | None:
    """At a phase's end: the episode's end when its extra turns have run out (or the mission's phase limit)."""
    episode = of(state) if extra_turns(rs) else None
    if episode is None:
        return None
    limit = rs.setup.max_phases if rs.setup else 0
    if state.phase < episode.last and not (limit and state.phase >= limit):
        return None
    return MissionEnded(winner=missions.PLAYER, reason=f"{episode.reason}; the extra turns are over")


def confirm(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    """`Act(unit, "end_episode")`: the soldier stops acting (4.8). It costs nothing and rolls nothing."""
    episode = of(state) if extra_turns(rs) else None
    if episode is None:
        return Rejected("episode_running", "The main objectives are not done: the episode is not ending yet (4.8)")
    unit = rs._actor(state, cmd.unit)  # noqa: SLF001 - the ruleset's own check of whose turn it is
    if isinstance(unit, Rejected):
        return unit
    if unit.side != missions.PLAYER:
        return Rejected("not_yours", "Only the squad's soldiers confirm the episode's end")
    return [Resolved(actor=unit.id, action=ACTION, rolls=(), outcome="confirmed",
                     text=f"{unit.name} confirms the episode's end and stops acting"),
            Noted(record=attrs.evolve(episode, confirmed=episode.confirmed + (unit.id,)),
                  cause=f"{unit.name} confirms the episode's end")]


def stopped(rs: "XcomTrpg", state: State, cmd: Command) -> Rejected | None:
    """A guard: a soldier that confirmed its episode end is refused every command."""
    if isinstance(cmd, (StartMission, EndTurn)):
        return None
    episode = of(state)
    uid = getattr(cmd, "unit", "")
    if episode is None or uid not in episode.confirmed:
        return None
    return Rejected("episode_ended", f"{state.units[uid].name} confirmed the episode's end and acts no more (4.8)")


def label(rs: "XcomTrpg", state: State, name: str) -> str:
    """The turn's words for the top bar: with the episode held, how many extra turns are left after this phase
    ("X-COM turn, 2 extra turns left"; "last extra turn" in its last phase)."""
    episode = of(state) if extra_turns(rs) else None
    if episode is None:
        return name
    left = episode.last - state.phase
    return f"{name}, last extra turn" if left <= 0 else f"{name}, {left} extra turn{'s' if left > 1 else ''} left"


def ai_confirm(rs: "XcomTrpg", state: State, unit: Unit, in_sight: list[Unit]) -> Act | None:
    """The AI's squad soldier confirms its episode end when it has nothing better to do (`ai_chore` "idle": no
    shot, no objective, no other chore) and no conscious hostile is in sight: the win is held, and walking on
    only spends the extra turns (4.8). One with a hostile in sight goes on fighting."""
    episode = of(state) if extra_turns(rs) else None
    if episode is None or unit.side != missions.PLAYER or unit.id in episode.confirmed:
        return None
    if any(u.conscious for u in in_sight):
        return None
    return Act(unit=unit.id, action=ACTION)


def menu(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    episode = of(state) if extra_turns(rs) else None
    if episode is None or unit.side != missions.PLAYER or unit.id in episode.confirmed:
        return []
    left = episode.last - state.phase
    when = "at this phase's end" if left <= 0 else f"after this phase and {left} more"
    return [Option("Episode", "Confirm the episode's end", Act(unit=unit.id, action=ACTION),
                   f"4.8: the main objectives are done; this soldier stops acting. The episode ends when every "
                   f"soldier has, or {when}")]
