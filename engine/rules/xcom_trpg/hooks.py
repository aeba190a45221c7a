"""The xcom-trpg rule table: which rule runs where in the turn loop, in an order written down here.

The order of each list decides the order of events and which dice each rule draws, so it is part of the
log format: the golden logs in `tests/golden/` pin it, and changing it is a rules change (regenerate them
and say so in the CHANGELOG). Nothing registers itself at import time; re-sorting imports changes nothing.

- `ACTS[name]`: the handler of `Act(action=name)` — (rs, state, cmd, dice) -> Rejected | events.
- `OPTIONS`: what a unit could do now beyond moving and shooting, for the client's action menu and the AI —
  (rs, state, unit) -> [Option], listed in this order.
- `TURN_START`: run for each conscious unit of a side as its turn begins, after its actions are reset —
  (rs, ledger, uid, dice) -> extra events (unit changes go through the ledger).
- `PHASE_END`: run once as a phase ends, before the next begins — (rs, ledger, dice) -> extra events.
- `AFTER`: run after every decided command, before the mission's verdict — (rs, before, events, dice)
  -> extra events (a bravery check on first sight, a sleeper woken by damage...).
- `GUARDS`: asked before any unit command is decided — (rs, state, command) -> Rejected | None; a grabbed
  unit cannot move, a persuaded one keeps its word.
- `REFEREES[type]`: `xenotac resolve` for a scenario action type with no map command (bravery, special, search,
  initiation) — (content, rules, units, action, dice) -> Verdict; the others are decided on the play path
  (arena.py).
"""

from __future__ import annotations

from typing import Any, Callable

from engine.rules.xcom_trpg import (charisma, consumables, episode, field, melee, morale, psi_abilities, psi_menu, psi_referee,
                                    psi_turns, scenery, search, sniper, tokens, tranquilizer)
from engine.rules.xcom_trpg.record import EMPTY

ACTS: dict[str, Callable[..., Any]] = {
    **{name: field.act for name in field.ACTIONS},  # open, close, shut_down
    "speech": morale.speech,
    "use": consumables.use,
    "rest": consumables.rest,
    "carry": scenery.carry,
    "take": scenery.take,
    "special": scenery.special,
    "search": search.search,
    "psi": psi_abilities.act_psi,
    "gather_thoughts": psi_menu.gather,
    "meditate": psi_menu.meditate,
    "esp_027": psi_menu.esp,
    "grab": melee.act,
    "escape": melee.act,
    "shove": melee.act,
    "persuade": charisma.act,
    "reload_quick": tranquilizer.reload,
    "reload_careful": tranquilizer.reload,
    "snipe": sniper.act,
    "prone": sniper.act,
    episode.ACTION: episode.confirm,  # end_episode (4.8)
}

OPTIONS: tuple[Callable[..., list], ...] = (
    morale.speech_options,
    consumables.options,
    scenery.options,
    search.options,
    psi_menu.options,
    melee.menu,
    charisma.menu,
    tranquilizer.menu,
    sniper.menu,
    episode.menu,
)

TURN_START: tuple[Callable[..., list], ...] = (
    tokens.actions,  # crit tokens turn into actions first (3.5): later rules see the turn's real budget
    consumables.turn_start,
    psi_turns.turn_start,
    charisma.keep_word,
    tranquilizer.clouded,
)


def turn_start_idle(rec: Any) -> bool:
    """Whether every rule of TURN_START leaves this record be (each returns at its first test: no buff, no rest or
    after-effect, no psi state that ticks, no persuasion, no sedative), so the turn's start need not ask them."""
    if rec is None:
        rec = EMPTY
    return not (rec.buff_plus or rec.buff_minus or rec.rest or rec.after or rec.cha_demand or rec.cha_from
                or rec.cha_away or rec.tranq_age is not None or psi_turns.ticks(rec))


PHASE_END: tuple[Callable[..., list], ...] = (
    tranquilizer.sedation,
)

AFTER: tuple[Callable[..., list], ...] = (
    morale.first_sight,
    tokens.after,
    consumables.after,
    psi_turns.after,
    melee.loose_grips,
    charisma.in_earnest,
    sniper.stand_up,
)

GUARDS: tuple[Callable[..., Any], ...] = (
    episode.stopped,  # a soldier that confirmed its episode end does nothing more (4.8)
    psi_abilities.compelled_and_risen,
    melee.held_cannot_move,
    charisma.bound,
)

REFEREES: dict[str, Callable[..., Any]] = {
    "bravery": morale.referee,
    "special": scenery.special_referee,
    "search": search.search_referee,
    "initiation": psi_referee.initiation,
}
