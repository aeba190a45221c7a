"""xxxzone's sight lines kept between commands (`seen.sightlines`): after every command, and on states it jumps
between (a unit gone and back, a unit changing sides, smoke standing, another map), they are the lines drawn afresh
for every pair of units of different sides."""

from __future__ import annotations

import attrs

from engine.core.commands import EndTurn, Move, Rejected
from engine.core.dice import seed_from_int
from engine.map.grid import NEIGHBOURS
from engine.play.game import Game
from engine.rules.xxxzone import seen, smoke
from engine.rules.xxxzone.units import battle


def _afresh(book, state) -> dict[str, set[str]]:
    cells = smoke.smoky(state)
    return {t.id: {o.id for o in state.units.values()
                   if o.side != t.side and seen._line(book, state, o.pos, t.pos, cells)}
            for t in state.units.values()}


def _turned(state, uid: str):
    """The state with that unit gone over to the other side, where it stands."""
    return attrs.evolve(state, units={i: attrs.evolve(u, side="aliens" if u.side == "xcom" else "xcom") if i == uid
                                      else u for i, u in state.units.items()})


def _smoked(state, cell):
    return attrs.evolve(state, record=attrs.evolve(battle(state), smoke=((cell, 4, 3, "aliens"),)))


def _moves(game: Game, commands: int):
    """Walk the squad about for `commands` commands (the other side ends its turns): each state on the way."""
    rules = game.ruleset
    for _ in range(commands):
        state = game.state
        turn = rules.turn(state)
        if turn.side != "xcom":
            game.submit(EndTurn(side=turn.side))
        else:
            moved = False
            for unit in state.side_units("xcom"):
                if not (unit.conscious and rules.budget(state, unit).moves_left > 0):
                    continue
                for dx, dy in NEIGHBOURS:
                    step = ((unit.pos[0] + dx, unit.pos[1] + dy),)
                    if not isinstance(game.submit(Move(unit=unit.id, path=step)), Rejected):
                        moved = True
                        break
                if moved:
                    break
            if not moved:
                game.submit(EndTurn(side="xcom"))
        yield game.state


def test_the_lines_kept_are_the_lines_drawn_afresh(content, tmp_path):
    game = Game.new(content, "xxxzone", "eliminate", seed_from_int(5), tmp_path / "lines.jsonl")
    book = game.ruleset.book
    states = list(_moves(game, 60))
    game.close()
    assert len({tuple(u.pos for u in s.units.values()) for s in states}) > 20  # the squad did walk
    for state in states:
        assert seen.sightlines(book, state) == _afresh(book, state)
    first, last = states[0], states[-1]
    some = next(iter(last.units))
    fewer = attrs.evolve(last, units={uid: u for uid, u in last.units.items() if uid != some})
    cloud = last.units[some].pos
    pairs = ((_turned(last, uid), _smoked(_turned(last, uid), cloud)) for uid in last.units)
    turned, smoky = next((t, s) for t, s in pairs if _afresh(book, s) != _afresh(book, t))  # smoke that hides someone
    # jumps back and forth: a unit gone and back, a unit gone over to the other side, smoke
    for state in (first, fewer, last, turned, smoky, fewer, first, turned, last):
        lines = seen.sightlines(book, state)
        assert lines == _afresh(book, state)
        assert set(lines) == set(state.units)
    assert _afresh(book, turned) != _afresh(book, last)  # the side matters: its own side's lines are not drawn


def test_each_thread_keeps_its_own_lines(content, tmp_path):
    import threading

    game = Game.new(content, "xxxzone", "eliminate", seed_from_int(5), tmp_path / "lines.jsonl")
    book = game.ruleset.book
    states = list(_moves(game, 30))
    game.close()
    failures = []

    def walk(order):
        for state in order:
            if seen.sightlines(book, state) != _afresh(book, state):
                failures.append(state)

    threads = [threading.Thread(target=walk, args=(states,)), threading.Thread(target=walk, args=(states[::-1],))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
