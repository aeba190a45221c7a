"""Opportunity fire resolved (A-14.9): after the actor paid for its step or action, every observer that may answer
does, in the order of its reaction score, one snap shot each; the actor's action is cancelled if it is put down."""

from __future__ import annotations

import attrs

from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.rules.annihilation import actions, fire
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.inventory import Carried


@attrs.frozen
class Watcher:
    """An enemy that sees the actor: its fighter, the gun it holds and where it stands."""

    id: str
    fighter: Fighter
    gun: Carried | None
    at: Pos


@attrs.frozen
class Opportunity:
    actor: Fighter
    watchers: tuple[Watcher, ...]  # as they are after their shots, in the order given
    answers: tuple[fire.Reaction, ...]  # every watcher's answer and why, firers first
    rolls: tuple[Roll, ...]
    lines: tuple[str, ...]
    cancelled: bool  # the actor was put down: its action does not happen (the TUs stay spent)


def react(book: Book, dice: Dice, actor: Fighter, actor_at: Pos, watchers: list[Watcher]) -> Opportunity:
    """A-14.9: scores compared once, with the actor's TUs after it paid; firers in descending score, each one snap
    shot without sights; they stop once the actor is down."""
    answers = fire.reactions(book, actor, [(w.id, w.fighter, w.gun.id if w.gun else None,
                                             w.gun.rounds if w.gun else 0) for w in watchers])
    by_id = {w.id: w for w in watchers}
    rolls: list[Roll] = []
    lines: list[str] = []
    for answer in answers:
        if not answer.fires or actor.status != "awake":
            continue
        w = by_id[answer.observer]
        shot = actions.shoot(book, dice, w.fighter, w.gun, actor, w.at, actor_at, "snap")
        if isinstance(shot, actions.Outcome):
            actor = shot.target
            by_id[w.id] = attrs.evolve(w, fighter=shot.actor, gun=shot.gun)
            rolls += shot.rolls
            lines.append(f"{w.id} reacts ({answer.reason}): {shot.hits} hit" + "".join(f"; {x}" for x in shot.lines))
        else:
            lines.append(f"{w.id} cannot react: {shot.reason}")
    return Opportunity(actor, tuple(by_id[w.id] for w in watchers), tuple(answers), tuple(rolls), tuple(lines),
                       actor.status != "awake")
