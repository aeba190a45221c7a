"""The ruleset's own actions (`Act`): stances (section 10), doors (section 11: 4 TU), the crash site's power source,
a physical attack (melee.py), a medical dose (medical.py), priming a timed grenade (fuses.py), and throwing a grenade (A-12.6 priming, A-14.11 the throw, section 17 the blast)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.content import field, missions
from engine.core.commands import Act, Face, Rejected, Reload, Throw
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, TileChanged, UnitChanged
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.map.grid import distance
from engine.rules.annihilation import actions, clouds, combat, fuses, hits, medical, melee, moves
from engine.rules.annihilation.combat import answered, blast, paid_answered
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.moves import Price
from engine.rules.annihilation.sheet import facing_name
from engine.rules.annihilation.soldier import changes, fighter_of, grenades

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

STANCE_WORDS = {"standing": "Stand", "kneeling": "Kneel", "prone": "Lie prone"}
DOING = {"stance": "changing stance", "open": "opening a door", "close": "closing a door"}


def price(rs: Annihilation, unit: Unit, cmd: Act) -> Rejected | Price:
    """What an act costs the unit now, or why it cannot."""
    f = unit.record.fighter
    if cmd.action == "stance":
        if cmd.option not in moves.STANCES:
            return Rejected("bad_stance", f"A stance is one of {', '.join(moves.STANCES)}")
        if cmd.option == f.stance:
            return Rejected("same_stance", f"{unit.name} is already {f.stance}")
        return moves.stance_price(rs.book, f, cmd.option)
    if cmd.action in ("open", "close"):
        return Price(rs.book.costs["open_door"].tu, 0, "open_door")
    if cmd.action == "shut_down":
        return Price(rs.book.cost("shut_down", f.tu_turn), 0, "shut_down")
    return Rejected("unknown_action", f"annihilation has no {cmd.action!r} action; it has stance, open, close, "
                                      "shut_down, melee, treat, prime, lay, sense, stow, unload, load, grip, pick_up, "
                                      "harness")


def act(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    if cmd.action == "melee":
        return melee.melee(rs, state, unit, cmd, dice)
    if cmd.action == "treat":
        return medical.treat(rs, state, unit, cmd, dice)
    if cmd.action == "prime":
        return fuses.prime(rs, state, unit, cmd, dice)
    if cmd.action == "lay":
        from engine.rules.annihilation import hazards

        return hazards.lay(rs, state, unit, cmd, dice)
    if cmd.action in ("stow", "unload", "load", "grip"):
        from engine.rules.annihilation import stowing

        if cmd.action == "load":  # option: the n-th thing carried goes in (a round of another type), else the first
            pick = stowing.thing(unit, cmd.option) if cmd.option else None
            if isinstance(pick, Rejected):
                return pick
            return combat.reload(rs, state, unit, Reload(unit=unit.id), dice, pick[1] if pick else None)
        handler = {"stow": stowing.stow, "unload": stowing.unload, "grip": stowing.grip}[cmd.action]
        return handler(rs, state, unit, cmd, dice)
    if cmd.action == "pick_up":
        from engine.rules.annihilation import floor

        return floor.pick_up(rs, state, unit, cmd, dice)
    if cmd.action == "harness":
        from engine.rules.annihilation import harness

        return harness.work(rs, state, unit, cmd, dice)
    if cmd.action == "sense":
        from engine.rules.annihilation import sensor

        return sensor.sense(rs, state, unit, cmd, dice)
    cost = price(rs, unit, cmd)
    if isinstance(cost, Rejected):
        return cost
    if cmd.action in ("open", "close", "shut_down"):
        here = [c for a, c in missions.uses(rs.content, rs.setup.mission, rs.setup.spawns, state, unit)
                if a == cmd.action]
        if cmd.cell is None or tuple(cmd.cell) not in here:
            return Rejected("nothing_there", f"{unit.name} has nothing to {cmd.action.replace('_', ' ')} there")
    cell = tuple(cmd.cell) if cmd.cell is not None else unit.pos
    thing = rs.content.terrain[state.grid.tile(cell)].name.lower()  # the tile's own words: a power source, a terminal
    doing = f"working the {thing}" if cmd.action == "shut_down" else DOING[cmd.action]
    if cmd.action == "shut_down":
        tile = next(o.done_tile for o in missions.objectives(rs.setup.mission).values() if o.kind == "shut_down")
        text = f"{unit.name} shuts down the {thing} ({cost.tu} TU)"
    elif cmd.action in ("open", "close"):
        try:
            tile = field.door(rs.content, state, cell, cmd.action, unit.z)
        except ValueError as exc:
            return Rejected("no_door", str(exc))
        text = f"{unit.name} {'opens' if cmd.action == 'open' else 'closes'} the door ({cost.tu} TU)"

    def then(f: Fighter) -> list[Event]:
        new = attrs.evolve(unit.record, fighter=f)
        if cmd.action == "stance":
            f = attrs.evolve(f, stance=cmd.option)
            return [UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(new, fighter=f)),
                                cause=f"{cmd.option} ({cost.tu} TU: {cost.text.replace('_', ' ')})")]
        return [Resolved(actor=unit.id, action=cmd.action, cell=cell, rolls=(), outcome="done", text=text),
                TileChanged(pos=cell, tile=tile, z=unit.z),
                UnitChanged(unit=unit.id, changes=changes(unit, new), cause=cmd.action)]

    return paid_answered(rs, state, dice, unit, cost, cost.text.replace("_", " "), doing,
                         f"{cmd.action} cancelled: put down by opportunity fire", then)  # observers first


def face(rs: Annihilation, state: State, unit: Unit, cmd: Face, dice: Dice) -> Rejected | list[Event]:
    """A-9.4: 1 TU a 45° step turned in place, the short way round (A-9.3: a 60° step on hexes). A turn is an action
    other than a step, so the observers fire first (A-14.9, as for a change of stance)."""
    if rs.book.settings.grid == "hex" and not 0 <= cmd.facing < 6:
        return Rejected("bad_facing", "A facing on hexes is 0 (north-east) to 5, clockwise")
    if not 0 <= cmd.facing < 8:
        return Rejected("bad_facing", "A facing is 0 (north) to 7, clockwise")
    cost = moves.turn_price(rs.book, unit.facing, cmd.facing)
    if cost.tu == 0:
        return Rejected("same_facing", f"{unit.name} already faces that way")
    way = facing_name(rs.book, cmd.facing)

    def then(f: Fighter) -> list[Event]:
        f = attrs.evolve(f, facing=cmd.facing)
        return [UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, fighter=f)),
                            cause=f"turns to face {way} ({cost.tu} TU)")]

    return paid_answered(rs, state, dice, unit, cost, "Turning", "turning",
                         "turn cancelled: put down by opportunity fire", then)


def throw_price(rs: Annihilation, unit: Unit, item: str = "") -> Price:
    """A grenade from the belt to a hand, primed (50%, A-12.6), and thrown (25%, A-14.11): paid as one action; one
    primed beforehand (fuses.py) only the throw."""
    f = unit.record.fighter
    if item and fuses.primed_of(unit, item) is not None:
        return Price(rs.book.cost("throw", f.tu_turn), 0, "throw (primed)")
    tu = rs.book.costs["belt_to_hand"].tu + rs.book.cost("prime", f.tu_turn) + rs.book.cost("throw", f.tu_turn)
    return Price(tu, 0, "belt to hand + prime + throw")


def throw(rs: Annihilation, state: State, unit: Unit, cmd: Throw, dice: Dice) -> Rejected | list[Event]:
    held = fuses.primed_of(unit, cmd.item)
    g = held or next((c for c in grenades(unit.record, rs.book) if c.id == cmd.item), None)
    if g is None:
        return Rejected("no_item", f"{unit.name} carries no {rs.name(cmd.item)}")
    trigger = rs.book.explosives[g.id].trigger
    if trigger == "mine":
        return Rejected("laid_not_thrown", f"A {rs.name(g.id)} is laid, not thrown: lay it on the square (a)")
    cell = tuple(cmd.cell)
    if not state.grid.inside(cell) or not clouds.sees(rs, state, unit.pos, cell, unit.z, unit.z):
        return Rejected("no_line_of_sight", f"{unit.name} cannot see {cell[0]},{cell[1]}")
    if distance(unit.pos, cell) < 1:
        return Rejected("too_close", "Throw it at another square")
    reach = rs.throw_range(state, unit, g.id)
    if rs.distance(unit.pos, cell) > reach:
        return Rejected("too_far", f"Throw range {reach} spaces; that square is {rs.distance(unit.pos, cell)}")
    cost = throw_price(rs, unit, g.id)
    f = fighter_of(unit)
    if cost.tu > f.tu_left:
        doing = "Throwing" if held else "Bringing out, priming and throwing"
        return Rejected("no_tu", f"{doing} costs {cost.tu} TU; {f.tu_left} left")
    ready = 0 if held else rs.book.costs["belt_to_hand"].tu + rs.book.cost("prime", f.tu_turn)
    primed = attrs.evolve(f, tu_left=f.tu_left - ready)
    hurt, pre, down = answered(rs, state, dice, unit, attrs.evolve(primed, tu_left=f.tu_left - cost.tu),
                               "throwing" if held else "priming", "throw cancelled: put down first", spent=True)
    if down:
        return pre
    primed = attrs.evolve(hurt, tu_left=primed.tu_left)
    kit = tuple(c for c in unit.record.kit if c is not g)
    grid = state.grid
    done = actions.throw(rs.book, dice, primed, attrs.evolve(g, place="left_hand"), unit.pos, cell,
                         open_cell=lambda c: grid.inside(c) and bool(grid.walkable[c[1], c[0]]))
    if isinstance(done, Rejected):
        return done
    e = rs.book.explosives[g.id]
    if trigger == "proximity" and not held:  # primed as it is thrown: it lies where it lands and waits
        held, g = True, attrs.evolve(g, primed=0)
    fuse = f", primed: it {fuses.when(rs, unit.side, g.primed, g.id)}" if held else ""
    events = pre + [Resolved(actor=unit.id, action="throw", cell=done.landed, weapon=g.id, rolls=done.rolls,
                             outcome="on target" if done.landed == cell else "scattered",
                             text=f"{unit.name} throws the {e.name} at {cell[0]},{cell[1]}: it lands at "
                                  f"{done.landed[0]},{done.landed[1]}{fuse}"),
                    UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, fighter=done.actor,
                                                                                 kit=kit)), cause="throws")]
    if held:  # its fuse runs on
        return events + [fuses.laid(rs, fold(state, events), unit, g, done.landed)]
    rnd = hits.Round(e.damage, e.radius, e.type, "grenade")
    return events + blast(rs, fold(state, events), dice, unit.id, done.landed, rnd, None, e.name)
