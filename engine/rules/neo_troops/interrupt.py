"""Hastening (N-7.4) and running past (N-7.5) on the kernel's interrupt (`Turn.choices`).

A Move from a cell next to an enemy, or a Run that passes one, is held up (`Battle.asking`) while each such
enemy answers "strike" or "let go", in turn: the hasteners first (they strike before the leaver moves, in
initiative order), then the enemies run past, in the order the runner passes them (the rules core's
`order.hasteners` and `order.run_past` say who). Only enemies that have spotted the mover are asked (a surprised
one gets no chance). Once all have answered, the hastened blows are rolled; any hit, saved or not, cancels the
move and spends the leaver's action, and each hastener gives up its next regular slot (`order.hasten`).
Otherwise the walk goes on, taking the run-past enemies' free blows (no action of theirs) at the cells where it
passes them. An enemy that hastened gets no run-past blow.
"""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Act, Command, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit, replace
from engine.core.reducer import fold
from engine.core.ruleset import Option, Turn
from engine.rules.neo_troops import actions, battle, fight, order
from engine.rules.neo_troops.battle import Asking, Question

ANSWERS = {"strike": "strike", "let_go": "let go"}
HASTEN_AT = 1 / 3  # the AI's least chance to hit worth a hastener's next slot (a run-past blow is free: any chance)


def _near(a: Pos, b: Pos) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def questions(rs, state: State, unit: Unit, path: tuple[Pos, ...], ran: bool) -> tuple[Question, ...]:
    """Who may strike the walk `path` of `unit`, in the order they are asked."""
    b = battle.battle(state)
    rank = {u: i for i, u in enumerate(b.order.slots)}
    full = (unit.pos, *path) if ran else (unit.pos,)
    left, right = min(c[0] for c in full) - 1, max(c[0] for c in full) + 1  # the walk's box, a cell wider: who
    top, bottom = min(c[1] for c in full) - 1, max(c[1] for c in full) + 1  # is outside it is next to none of it
    near = sorted((e for e in state.units.values() if left <= e.pos[0] <= right and top <= e.pos[1] <= bottom
                   and e.side in battle.SIDES and missions.hostile(e.side, unit.side)
                   and any(_near(e.pos, c) for c in full)), key=lambda u: (rank.get(u.id, len(rank)), u.id))
    seen = {side: battle.spots(state, side, unit.id) for side in {e.side for e in near}}  # once a side
    foes = [order.Foe(id=e.id, pos=e.pos, can_fight=e.conscious, surprised=not seen[e.side]) for e in near]
    able = [f for f in foes if not isinstance(order.hasten(b.order, f.id), Rejected)]
    hasten = tuple(Question(asker=f, kind="hasten", at=0) for f in order.hasteners(unit.pos, able))
    past = order.run_past((unit.pos, *path), foes, rs.settings) if ran else ()
    return hasten + tuple(Question(asker=f, kind="run past", at=at) for f, at in past)


def _blow(rs, state: State, a: Asking, q: Question) -> fight.Blow | None:
    mover = state.units[a.mover]
    at = (mover.pos, *a.path)[q.at]
    found = fight.blow(rs, state, state.units[q.asker], replace(mover, {"pos": at}))
    return None if isinstance(found, Rejected) else found


def turn(rs, state: State, b: battle.Battle) -> Turn | None:
    """The question the held-up Move asks now, or None."""
    a = b.asking
    q = a.next if a is not None else None
    if q is None:
        return None
    asker, mover = state.units[q.asker], state.units[a.mover]
    found = _blow(rs, state, a, q)
    what = "hasten" if q.kind == "hasten" else "strike"
    why = "leaves" if q.kind == "hasten" else "runs past"
    cost = "skips its next slot" if q.kind == "hasten" else "a free attack"
    note = f"{found.note() if found else 'no blow'} · {cost}"
    choices = (Option("Melee", f"Strike {mover.name}", Act(unit=asker.id, action="strike", target=mover.id), note),
               Option("Melee", f"Let {mover.name} go", Act(unit=asker.id, action="let_go", target=mover.id)))
    return Turn(side=asker.side, units=(asker.id,), label=f"{asker.name} may {what} as {mover.name} {why}",
                choices=choices, decline=1)


def answer(rs, state: State, command: Command, dice: Dice) -> list[Event]:
    """One answer (the caller has checked it is one of `turn`'s choices); the last one lets the Move go on."""
    b = battle.battle(state)
    a = b.asking
    q = a.next
    said = attrs.evolve(q, answer=ANSWERS[command.action])
    hastened = q.kind == "hasten" and said.answer == "strike"  # then no run-past blow of its own (N-7.5)
    a = attrs.evolve(a, questions=tuple(
        said if x is q else attrs.evolve(x, answer="hastened") if hastened and x.asker == q.asker else x
        for x in a.questions))
    name = state.units[q.asker].name
    noted = Noted(record=attrs.evolve(b, asking=a if a.next else None), cause=f"{name}: {said.answer}")
    mover = state.units[a.mover].name
    told = UnitChanged(unit=q.asker, changes={}, cause=f"strikes at {mover}" if said.answer == "strike"
                       else f"lets {mover} go")
    return [noted, told] if a.next else [noted, told, *_resolve(rs, fold(state, [noted]), a, dice)]


def _resolve(rs, state: State, a: Asking, dice: Dice) -> list[Event]:
    events: list[Event] = []
    now, hit, hastened = state, False, []
    for q in a.questions:
        if q.kind != "hasten" or q.answer != "strike":
            continue
        found = _blow(rs, now, a, q)
        if found is None or not now.units[a.mover].conscious:
            continue
        struck, hits = fight.strike(rs, found, dice, "hasten")
        h = now.units[q.asker].record
        struck.append(UnitChanged(unit=q.asker, changes={"record": attrs.evolve(
            h, spent_m=0, moved=False, ran=False, attacked=True)}, cause="hastens"))
        events += struck
        now = fold(now, struck)
        hit, hastened = hit or hits > 0, hastened + [q.asker]
    if hastened:
        b = battle.battle(now)
        o = b.order
        for h in hastened:
            o = order.hasten(o, h)
        kept = tuple(a for a in b.aids if a.helper not in hastened)  # a hastener's first aid starts again
        skip = Noted(record=attrs.evolve(b, order=o, aids=kept), cause="hastened: its next slot is given up")
        events.append(skip)
        now = fold(now, [skip])
    mover = now.units[a.mover]
    if hit or not mover.conscious:  # the leaver stays where it is, its action spent (N-7.4)
        return events + battle.end_slot(rs, state, events, dice, cause="is held in melee")
    strikes = tuple((q.at, q.asker) for q in a.questions if q.kind == "run past" and q.answer == "strike")
    return events + actions.walked(rs, now, mover, a.path, dice, strikes)


def worth(rs, state: State) -> bool:
    """The AI's answer to the question asked now: strike when the blow is worth what it costs."""
    a = battle.battle(state).asking
    found = _blow(rs, state, a, a.next)
    if found is None:
        return False
    p = fight.p_hit(found)
    return p >= HASTEN_AT if a.next.kind == "hasten" else p > 0
