"""A Move on the map (section 9): every step paid in TU and Energy at its exact price before anything happens
(A-8.3: a path that cannot be paid is refused), the unit turning to each step for free (A-9.4), a closed door opened
on the way, and opportunity fire (A-14.9) after each square entered, inside this command's events."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.content import field
from engine.core import records
from engine.core.commands import Move, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Moved, Noted, TileChanged, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.map import levels
from engine.map.levels import Place
from engine.rules.annihilation import falls, ground, moves
from engine.rules.annihilation.combat import react
from engine.rules.annihilation.ground import terrain_at
from engine.rules.annihilation.soldier import changes, fighter_of
from engine.rules.annihilation.space import facing_towards

if TYPE_CHECKING:
    from engine.rules.annihilation.fighter import Fighter
    from engine.rules.annihilation.play import Annihilation


_DOING = {"walk": "moving", "fly": "flying", "hover_up": "flying", "hover_down": "flying", "jump": "jumping"}


def _where(cell: Pos, z: int) -> str:
    return f"{cell[0]},{cell[1]}" + (f" on level {z}" if z else "")


def _problem(rs: Annihilation, state: State, unit: Unit, path: tuple[Place, ...], flying: bool) -> Rejected | None:
    if not path:
        return Rejected("empty_path", "A move needs at least one square")
    here = (*unit.pos, unit.z)
    grid = state.grid
    for place in path:
        cell, z = place[:2], place[2]
        if not grid.inside(cell) or not 0 <= z < grid.levels:
            return Rejected("off_map", f"{_where(cell, z)} is off the map")
        if ground.step_kind(rs.ground, grid, here, place, flying) is None:
            if z != here[2]:
                return Rejected("no_way_up", f"No stairs, ladder or jump joins {_where(here[:2], here[2])} and "
                                             f"{_where(cell, z)}" + ("" if flying else " (hovering needs flying armour)"))
            if grid.steps(here[:2], cell) != 1:
                return Rejected("not_adjacent", f"{cell[0]},{cell[1]} is not next to {here[0]},{here[1]} (a jump "
                                                f"goes through a window or over a fence to the square beyond it)")
        if not levels.holds(grid, place, flying):  # never into a wall, never onto empty air unless flying
            name = grid.terrain[grid.level(z).tile(cell)].name
            return Rejected("blocked", f"{name} at {_where(cell, z)} blocks the way")
        other = next((u for u in state.units_at(cell, z) if u.id != unit.id), None)
        if other is not None and (other.side != unit.side or place == path[-1]):  # friends let it through
            who = other.name if other.side == unit.side or other.id in rs.spotted(state, unit.side) \
                else "someone unseen"  # asked only here: the side's sight is a field of view per unit
            return Rejected("blocked", f"{who} is in the way at {_where(cell, z)}")
        here = place
    return None


def steps_of(rs: Annihilation, state: State, start: Place, path: tuple[Place, ...],
             flying: bool = False) -> list[tuple[moves.Step, bool]]:
    out, here = [], start
    for place in path:
        cell, z = place[:2], place[2]
        level = state.grid.level(z)
        terrain, door = terrain_at(rs.ground, level, cell)
        door = door and bool(level.terrain[level.tile(cell)].opens_to)
        kind = ground.step_kind(rs.ground, state.grid, here, place, flying) or "walk"
        side = kind in ("walk", "fly") and here[0] != cell[0] and here[1] != cell[1] and not state.grid.hexes
        out.append((moves.Step(kind, side, terrain), door))
        here = place
    return out


def _paid(rs: Annihilation, unit: Unit, f: Fighter, steps: list[tuple[moves.Step, bool]],
          flying: bool) -> Fighter | Rejected:
    """The mover's fighter `f` with the whole path and its doors paid (A-8.3: all of it, or none of it is walked)."""
    total = moves.walk(rs.book, f, [s for s, _ in steps], flyer=flying)
    if isinstance(total, Rejected):
        return total
    doors = sum(door for _, door in steps) * rs.book.costs["open_door"].tu
    if doors and total[0].tu_left < doors:
        return Rejected("no_tu", f"The walk and its doors cost {f.tu_left - total[0].tu_left + doors} TU; "
                                 f"{unit.name} has {f.tu_left} left")
    return records.evolve(total[0], {"tu_left": total[0].tu_left - doors})


def _places(rs: Annihilation, state: State, unit: Unit, cmd: Move, flying: bool) -> tuple[Place, ...] | Rejected:
    """The move's squares with their storeys, short of a friend on the last, if the map lets it walk them."""
    if cmd.levels and len(cmd.levels) != len(cmd.path):
        return Rejected("bad_levels", f"A move of {len(cmd.path)} squares names {len(cmd.levels)} levels")
    asked = path = tuple((c[0], c[1], z) for c, z in zip(cmd.path, cmd.levels or (unit.z,) * len(cmd.path)))
    while path and _friend_at(state, unit, path[-1]):
        path = path[:-1]  # one unit a square: a walk onto a friend ends on the square before it
    if asked and not path:  # a friend on every square: the walk would end where it starts
        friend = _friend_at(state, unit, asked[0])
        return Rejected("blocked", f"{friend.name} stands at {_where(asked[0][:2], asked[0][2])}")
    return _problem(rs, state, unit, path, flying) or path


def _friend_at(state: State, unit: Unit, place: Place) -> Unit | None:
    return next((u for u in state.units_at(place[:2], place[2]) if u.side == unit.side and u.id != unit.id), None)


def ahead(rs: Annihilation, state: State, unit: Unit, cmd: Move) -> State | Rejected:
    """The state `move` leaves when nothing happens on the way (no opportunity fire, no fall, no door): the mover on
    the last square, facing along the last step, the path paid. The AI plans a shot after a walk from it."""
    f = fighter_of(unit)
    flying = moves.flies(rs.book, f)
    path = _places(rs, state, unit, cmd, flying)
    if isinstance(path, Rejected):
        return path
    f = _paid(rs, unit, f, steps_of(rs, state, (*unit.pos, unit.z), path, flying), flying)
    if isinstance(f, Rejected):
        return f
    here = unit.pos
    for place in path:  # it turns to each step, not to a climb on the spot
        if place[:2] != here:
            f, here = records.evolve(f, {"facing": facing_towards(here, place[:2], rs.book.settings.grid)}), place[:2]
    cells, zs = levels.split(path)
    record = records.evolve(unit.record, {"fighter": f})
    return fold(state, [Moved(unit=unit.id, path=cells, facing=f.facing, levels=zs if state.grid.storeys else ()),
                        UnitChanged(unit=unit.id, changes=changes(unit, record), cause="plans a walk")])


def move(rs: Annihilation, state: State, unit: Unit, cmd: Move, dice: Dice) -> Rejected | list[Event]:
    f = fighter_of(unit)
    flying = moves.flies(rs.book, f)
    path = _places(rs, state, unit, cmd, flying)
    if isinstance(path, Rejected):
        return path
    steps = steps_of(rs, state, (*unit.pos, unit.z), path, flying)
    door_tu = rs.book.costs["open_door"].tu
    whole = _paid(rs, unit, f, steps, flying)
    if isinstance(whole, Rejected):
        return whole
    # `now` is the walk as it happens, step by step, for the folds that decide who sees it; the log gets one Moved
    # (a record's moves are read as one by the fog of war), then the doors and the shots in their order, then the
    # mover as it ends up.
    told: list[Event] = []
    walked: list[Place] = []
    now, here, cause, height = state, unit.pos, "walks", unit.z
    for place, (step, door) in zip(path, steps):
        cell = place[:2]
        # one step through no door: its price is the whole walk's, just paid from the same fighter
        paid = (whole,) if len(steps) == 1 and not door else moves.walk(rs.book, f, [step], flyer=flying)
        if isinstance(paid, Rejected):  # wounds on the way took the Energy or the legs: it stops where it is
            cause = f"walks, then stops: {paid.reason}"
            break
        towards = facing_towards(here, cell, rs.book.settings.grid) if here != cell else f.facing
        f = records.evolve(paid[0], {"facing": towards})
        new: list[Event] = []
        if door:  # section 11: 4 TU to open it, on the way in
            f = records.evolve(f, {"tu_left": f.tu_left - door_tu})
            new.append(TileChanged(pos=cell, tile=field.door(rs.content, now, cell, "open", place[2]), z=place[2]))
            told.append(new[-1])
        walked.append(place)
        here = cell
        new += [Moved(unit=unit.id, path=(cell,), facing=f.facing, levels=(place[2],) if state.grid.storeys else ()),
                UnitChanged(unit=unit.id, changes={"record": records.evolve(unit.record, {"fighter": f})},
                           cause="step")]
        if step.kind == "jump" and place[2] < height:  # out of an upper window: down through the air (falls.py)
            f, landed = falls.hurt(rs, dice, unit, f, height - place[2], place)
            new.append(UnitChanged(unit=unit.id, changes={"record": attrs.evolve(unit.record, fighter=f)},
                                   cause="lands"))
            told.append(landed)
        height = place[2]
        now = fold(now, new)
        if f.status != "awake":
            cause = f"jumps, and is put down by the fall at {cell[0]},{cell[1]}"
            break
        hurt, shots = react(rs, now, dice, now.units[unit.id], f, cell, _DOING.get(step.kind, "climbing"))
        if shots:
            told += shots
            f = hurt
            fired = any(not isinstance(e, Noted) for e in shots)  # not only a spotting roll (A-7.6, spotting.py)
            now = fold(now, shots + ([UnitChanged(unit=unit.id, changes={"record": records.evolve(
                unit.record, {"fighter": f})}, cause="shot at")] if fired else []))
            if f.status != "awake":  # put down: the rest of the walk does not happen
                cause = f"walks, and is put down by opportunity fire at {cell[0]},{cell[1]}"
                break
    cells, zs = levels.split(walked)
    climbed = zs if any(z != unit.z for z in zs) else ()  # a walk on its own storey keeps its bytes
    out: list[Event] = [Moved(unit=unit.id, path=cells, facing=f.facing, levels=climbed)] if walked else []
    return out + told + [UnitChanged(unit=unit.id, changes=changes(unit, records.evolve(unit.record, {"fighter": f})),
                                     cause=cause)]
