"""Moving on the map (section 4): `Move` moves quickly (1 AP a square, cancels Aim, conspicuous), `Combo` moves
cautiously (2 AP a square, keeps Aim, harder to spot); both double while Disoriented. A water square is swum at
2 AP (1 with Aqualad) in either way, and a swimmer cannot fight or work (`swimming`; Interpretation). Overwatch
(6.8) is decided here, inside the mover's own command: after each square, every enemy on watch that sees the
mover and has it in range fires its stored mode while its stored AP last, and a mover put down stops where it
fell."""

from __future__ import annotations

import attrs
import numpy as np

from engine.content import missions
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core import records
from engine.core.events import Event, Moved
from engine.core.geometry import Pos, distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.xxxzone import actions, battle, overwatch
from engine.rules.xxxzone.seen import chance
from engine.rules.xxxzone.shooting import attack
from engine.rules.xxxzone.units import changed, facing_index


# What a swimmer cannot do, in the refusal's words (the settings' `swim_refuses` says which of them apply)
SWIM_WORDS = {"shoot": "shoot or strike", "throw": "throw", "reload": "reload", "aim": "aim",
              "hunker": "hunker down", "overwatch": "go on overwatch", "medkit": "use a med-kit", "hack": "hack",
              "place_c4": "place C4", "chi_breath": "use Chi Breath"}


def step_cost(rs, unit: Unit, how: str) -> int | Rejected:
    """AP for one square moving `how` ("quickly", "cautiously", "swim")."""
    c = unit.record
    return actions.move_cost(rs.book, how, frozenset(c.op.abilities), disoriented=bool(c.condition.disoriented),
                             burden=battle.burden(rs.book, c))


_WATER: dict[int, tuple[object, np.ndarray]] = {}  # id(grid) -> (grid, its water squares): grids never change


def _water_of(rs, state: State) -> np.ndarray:
    grid = state.grid
    hit = _WATER.get(id(grid))
    if hit is None or hit[0] is not grid:
        if len(_WATER) > 64:
            _WATER.clear()
        hit = _WATER[id(grid)] = (grid, grid.cells_of(rs.book.settings.swim_tiles))
    return hit[1]


def wet(rs, state: State, cell: Pos) -> bool:
    """A water square (4: swum, not walked): a tile of the settings' `swim_tiles`."""
    return state.grid.inside(cell) and bool(_water_of(rs, state)[cell[1], cell[0]])


def water(rs, state: State, unit: Unit) -> np.ndarray | None:
    """The walk's [y, x] swim price (`Walk.water`): each water square at the unit's swim cost; None on a map
    without water, or for a unit that cannot move at all."""
    wet_cells = _water_of(rs, state)
    if not wet_cells.any():
        return None
    swim = step_cost(rs, unit, "swim")
    return None if isinstance(swim, Rejected) else np.where(wet_cells, swim, 0).astype(np.int32)


def swimming(rs, state: State, unit: Unit, doing: str) -> Rejected | None:
    """The refusal of `doing` (an Act action, "shoot", "throw", "reload") to a unit in the water, or None."""
    if doing in rs.book.settings.swim_refuses and wet(rs, state, unit.pos):
        return Rejected("swimming", f"Swimming: cannot {SWIM_WORDS.get(doing, doing)}")  # short: the throw panel
    return None


def path_problem(rs, state: State, unit: Unit, path: tuple[Pos, ...]) -> Rejected | None:
    if not path:
        return Rejected("empty_path", "A move needs at least one square")
    here = unit.pos
    for cell in path:
        if distance(here, cell) != 1:
            return Rejected("not_adjacent", f"Square {cell[0]},{cell[1]} is not next to {here[0]},{here[1]}")
        if not state.grid.inside(cell) or not (state.grid.walkable[cell[1], cell[0]] or wet(rs, state, cell)):
            name = rs.content.terrain[state.grid.tile(cell)].name if state.grid.inside(cell) else "The map's edge"
            return Rejected("blocked", f"{name} at {cell[0]},{cell[1]} blocks the way")
        others = [u for u in state.units_at(cell) if u.id != unit.id and u.status != "dead"]
        other = next((u for u in others if u.side != unit.side or cell == path[-1]), None)
        if other is not None:  # an ally's square may be passed through (Interpretation), never stopped in
            who = other.name if other.side == unit.side or other.id in rs.spotted(state, unit.side) \
                else "someone unseen"
            return Rejected("blocked", f"{who} stands at {cell[0]},{cell[1]}")
        here = cell
    return None


def move(rs, state: State, unit: Unit, path: tuple[Pos, ...], how: str, dice: Dice) -> Rejected | list[Event]:
    priced = _priced(rs, state, unit, path, how)
    if isinstance(priced, Rejected):
        return priced
    per, swim, abilities = priced
    if not _watched(state, unit):
        return _unwatched(rs, state, unit, path, how, per, swim, abilities)
    events: list[Event] = []
    now, segment = state, []
    for cell in path:
        mover = now.units[unit.id]
        rec = _step(rs, state, mover.record, cell, how, swim if wet(rs, state, cell) else per, abilities)
        now = fold(now, [Moved(unit=unit.id, path=(cell,), facing=facing_index(rec.facing, mover.facing)),
                         changed(rs.book, mover, rec, "moves " + how)])
        segment.append(cell)
        shots = reactions(rs, now, now.units[unit.id], dice)
        if shots or cell == path[-1]:
            events += _walked(rs, fold(state, events) if events else state, unit.id, tuple(segment), rec, how)
            segment = []
        if shots:
            events += shots
            now = fold(now, shots)
        if not now.units[unit.id].conscious or now.winner is not None:
            if segment:
                events += _walked(rs, fold(state, events) if events else state, unit.id, tuple(segment), rec, how)
            break
    return events


def ahead(rs, state: State, unit: Unit, path: tuple[Pos, ...], how: str) -> State | Rejected:
    """The state `move` leaves when nobody fires from overwatch on the way: what the AI plans a shot from."""
    priced = _priced(rs, state, unit, path, how)
    if isinstance(priced, Rejected):
        return priced
    return fold(state, _unwatched(rs, state, unit, path, how, *priced))


def _priced(rs, state: State, unit: Unit, path: tuple[Pos, ...], how: str) -> tuple[int, int, frozenset[str]] | Rejected:
    """What a square costs walking and swimming, and the mover's abilities; or why it cannot walk the path."""
    c = unit.record
    per = step_cost(rs, unit, how)
    if isinstance(per, Rejected):
        return per
    abilities = frozenset(c.op.abilities)
    word = "Moving quickly" if how == "quickly" else "Moving cautiously"
    swum = sum(wet(rs, state, cell) for cell in path)
    swim = step_cost(rs, unit, "swim") if swum else per
    if isinstance(swim, Rejected):
        return swim
    need = per * (len(path) - swum) + swim * swum
    have = actions.available(c.turn, "move")
    if c.turn.ended:
        return Rejected("turn_over", f"{unit.name} has ended its actions for the turn")
    if c.turn.rooted:
        return Rejected("rooted", "Chi Breath Iron Body holds it in place until its next turn")
    if have < need:
        each = f"{per} a square" + (f", {swim} a square swum" if swum else "")
        return Rejected("no_ap", f"{word} {len(path)} squares costs {need} AP ({each}); {unit.name} has {have}")
    return path_problem(rs, state, unit, path) or (per, swim, abilities)


def _step(rs, state: State, rec, cell: Pos, how: str, cost: int, abilities: frozenset[str]):
    """The mover's record one square on: its AP paid, facing and Aim as the step leaves them, a fire put out
    by the water where the settings say so."""
    turn = actions.spend(rec.turn, cost, "move", abilities)
    rec = records.evolve(battle.after_move(rec, cell, how == "quickly"), {"turn": turn})
    if rec.condition.on_fire and rs.book.settings.swim_douses and wet(rs, state, cell):
        rec = attrs.evolve(rec, condition=attrs.evolve(rec.condition, on_fire=0))
    return rec


def _watched(state: State, mover: Unit) -> bool:
    """Whether anyone could fire on the mover from overwatch: a conscious hostile with a watch set. Nothing
    else changes during a walk nobody shoots at, so it is asked once, before the first square."""
    return any(u.record is not None and u.record.watch is not None and u.conscious
               and missions.hostile(u.side, mover.side) for u in state.units.values())


def _unwatched(rs, state: State, unit: Unit, path: tuple[Pos, ...], how: str, per: int, swim: int,
               abilities: frozenset[str]) -> list[Event]:
    """The walk with no overwatch to trigger: the same squares paid one by one, written as one stretch, without
    the state after each square (only a reaction shot reads it)."""
    rec = unit.record
    for cell in path:
        rec = _step(rs, state, rec, cell, how, swim if wet(rs, state, cell) else per, abilities)
    return _walked(rs, state, unit.id, path, rec, how)


def _walked(rs, before: State, uid: str, path: tuple[Pos, ...], rec, how: str) -> list[Event]:
    """One stretch of the walk between reaction shots: one Moved, and the record after it."""
    mover = before.units[uid]
    swum = sum(wet(rs, before, cell) for cell in path)
    return [Moved(unit=uid, path=path, facing=facing_index(rec.facing, mover.facing)),
            changed(rs.book, mover, rec, f"moves {how} ({len(path)} {_squares(rs, len(path))}"
                    + (f", {swum} swum)" if swum else ")"))]


def _squares(rs, n: int) -> str:
    """Older content's logs hold "(1 squares)": the singular only where `singular_squares` is on."""
    return "square" if n == 1 and rs.book.settings.singular_squares else "squares"


def reactions(rs, state: State, mover: Unit, dice: Dice) -> list[Event]:
    """Overwatch fire at `mover`, now one square further on."""
    out: list[Event] = []
    for watcher in list(state.units.values()):
        w = state.units[watcher.id]
        c = w.record
        if c is None or c.watch is None or not w.conscious or not missions.hostile(w.side, mover.side):
            continue
        while True:
            now = state.units[mover.id]
            w = state.units[watcher.id]
            c = w.record
            if not now.conscious:
                return out
            sees = state.grid.sees(w.pos, now.pos, rs.sight_range) and _spots(rs, state, w, now)
            if not overwatch.triggered(rs.book, c.watch, c.turn, c, now.record, sees):
                break
            paid = overwatch.react(rs.book, c.watch, c.turn, now.record)
            if isinstance(paid, Rejected):
                break
            turn, shot = paid
            got = attack(rs, state, w, now, shot.weapon, shot.mode, dice, turn, reaction=True)
            if isinstance(got, Rejected):  # out of rounds, out of range: the watch ends
                ended = records.evolve(c, {"watch": None, "turn": attrs.evolve(c.turn, overwatch=0)})
                step = [changed(rs.book, w, ended, f"overwatch ends: {got.reason}")]
                out += step
                state = fold(state, step)
                break
            out += got[0]
            state = fold(state, got[0])
    return out


def _spots(rs, state: State, watcher: Unit, mover: Unit) -> bool:
    """The watcher's side has spotted the mover already, or the spot is certain (a quick mover is conspicuous:
    seen in the front arc or within Sight); no die is rolled for a reaction (Interpretation)."""
    return mover.id in rs.spotted(state, watcher.side) or chance(rs.book, watcher, mover, state) >= 100
