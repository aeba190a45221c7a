"""Where the parts of the xcom-trpg ruleset plug into its turn loop, so each rule lives in its own module.

- `ACTS[name]`: the handler of `Act(action=name)` — (rs, state, cmd, dice) -> Rejected | events.
- `OPTIONS`: what a unit could do now beyond moving and shooting, for the client's action menu and the
  AI — (rs, state, unit) -> [Option].
- `TURN_START`: run for each conscious unit of a side as its turn begins, after its actions are reset —
  (rs, ledger, uid, dice) -> extra events (unit changes go through the ledger).
- `PHASE_END`: run once as a phase ends, before the next begins — (rs, ledger, dice) -> extra events.
- `AFTER`: run after every decided command, before the mission's verdict — (rs, before, events, dice)
  -> extra events (a bravery check on first sight, a sleeper woken by damage...).
- `GUARDS`: asked before any unit command is decided — (rs, state, command) -> Rejected | None; a
  grabbed unit cannot move, a persuaded one keeps its word (melee.py, charisma.py).
- `REFEREES[type]`: `xenotac resolve` for one scenario action type —
  (content, rules, units, action, dice) -> Verdict.

Modules register at import; `engine.rules.xcom_trpg` imports them all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from engine.core.ruleset import Option  # noqa: F401  (rule modules build their menu entries from it)

if TYPE_CHECKING:
    from engine.core.events import Event

ACTS: dict[str, Callable[..., Any]] = {}
OPTIONS: list[Callable[..., list["Option"]]] = []
TURN_START: list[Callable[..., list["Event"]]] = []
PHASE_END: list[Callable[..., list["Event"]]] = []
AFTER: list[Callable[..., list["Event"]]] = []
REFEREES: dict[str, Callable[..., Any]] = {}
GUARDS: list[Callable[..., Any]] = []


def act(*names: str) -> Callable:
    def register(fn: Callable) -> Callable:
        for name in names:
            ACTS[name] = fn
        return fn
    return register


def referee(*types: str) -> Callable:
    def register(fn: Callable) -> Callable:
        for t in types:
            REFEREES[t] = fn
        return fn
    return register


def options(fn: Callable) -> Callable:
    OPTIONS.append(fn)
    return fn


def turn_start(fn: Callable) -> Callable:
    TURN_START.append(fn)
    return fn


def phase_end(fn: Callable) -> Callable:
    PHASE_END.append(fn)
    return fn


def after(fn: Callable) -> Callable:
    AFTER.append(fn)
    return fn


def guard(fn: Callable) -> Callable:
    GUARDS.append(fn)
    return fn
