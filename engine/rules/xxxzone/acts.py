"""xxxzone's own actions as `Act` commands and menu `Option`s (section 4): Aim, Hunker Down, Overwatch, Draw
and Stow, Interact (doors, a mission's machine to shut down), and Reload and Wait.

`Act(action=..., target=..., option=..., cell=...)`: aim (target), hunker, overwatch (option = a mode id
`weapon:mode`), draw / stow (option = an item), open / close / shut_down (cell), medkit (target, option = the
treatment: kit.py), place_c4 (cell) and detonate (charges.py), hack and pick_lock (cell: hacking.py),
mark_target, scout (target), chi_breath and put_out_fire (feats.py), inspire_allies (inspire.py), calming_aura
(target) and authority_aura (target, option = a direction: panic.py), flare (cell: flare.py), pin (option = a
grenade: pins.py), give (target = an adjacent ally, option = the item in hand), turn (option = a direction: n, ne ... nw), drop
(option = the item in hand) and pick_up (option = an item, cell = its square: ground.py)."""

from __future__ import annotations

import attrs

from engine.content import field, missions
from engine.core import records
from engine.core.commands import Act, Face, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, TileChanged
from engine.core.geometry import NEIGHBOURS
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xxxzone import (actions, battle, charges, feats, flare, ground, hacking, inspire, kit, moving,
                                  overwatch, panic, pins)
from engine.rules.xxxzone.checks import check
from engine.rules.xxxzone.lines import between
from engine.rules.xxxzone.shooting import declared, mode_of, modes
from engine.rules.xxxzone.units import changed, facing_index

ACTIONS = ("aim", "hunker", "overwatch", "draw", "stow", "open", "close", "shut_down", "medkit", "place_c4",
           "detonate", "hack", "pick_lock", *feats.ACTIONS, inspire.ABILITY,
           panic.ABILITY, panic.DIRECT, flare.ACTION, pins.ACTION, "give", "turn",
           ground.DROP, ground.PICK)


def _abilities(c) -> frozenset[str]:
    return frozenset(c.op.abilities)


def act(rs, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    dis = bool(c.condition.disoriented)
    if cmd.action == "aim":
        target = state.units.get(cmd.target or "")
        if target is None or target.id not in rs.spotted(state, unit.side) or target.status == "dead":
            return Rejected("no_target", "Aim needs a target the side sees")
        paid = actions.do(book, c.turn, "aim", _abilities(c), dis)
        if isinstance(paid, Rejected):
            return paid
        after = battle.aim(book, records.evolve(c, {"turn": paid}), target.id)
        return [changed(book, unit, after, f"aims at {target.name} (+{book.settings.aim_bonus * after.aim.stacks})")]
    if cmd.action == "hunker":
        paid = actions.do(book, c.turn, "hunker_down", _abilities(c), dis)
        if isinstance(paid, Rejected):
            return paid
        return [changed(book, unit, records.evolve(c, {"turn": paid, "hunkered": True}),
                        "hunkers down: adjacent cover ×2")]
    if cmd.action == "overwatch":
        which = mode_of(book, c, cmd.option or "")
        if isinstance(which, Rejected):
            return which
        if book.weapons[which[0]].modes[which[1]].cone:
            return Rejected("spray", "A spray is aimed at a square in the shooter's own turn; it cannot be watched "
                                     "with")
        got = overwatch.declare(book, c.turn, c, *which)
        if isinstance(got, Rejected):
            return got
        turn, watch = got
        need = book.weapons[watch.weapon].modes[watch.mode].ap
        if turn.overwatch < need:
            return Rejected("no_ap", f"Overwatch with the {book.weapons[watch.weapon].name} ({watch.mode}) stores "
                                     f"{turn.overwatch} AP; one reaction costs {need}")
        return [changed(book, unit, records.evolve(c, {"turn": turn, "watch": watch}),
                        f"on overwatch: {turn.overwatch} AP stored")]
    if cmd.action in ("draw", "stow"):
        item = cmd.option or ""
        paid = actions.do(book, c.turn, cmd.action, _abilities(c), dis, kind="draw" if cmd.action == "draw" else "other")
        if isinstance(paid, Rejected):
            return paid
        step = battle.draw if cmd.action == "draw" else battle.stow
        after = step(book, attrs.evolve(c, turn=paid), item)
        if isinstance(after, Rejected):
            return after
        return [changed(book, unit, after, f"{'draws' if cmd.action == 'draw' else 'stows'} the {book.gear(item).name}")]
    if cmd.action in ("open", "close", "shut_down"):
        return _interact(rs, state, unit, cmd, dice)
    if cmd.action == "medkit":
        return kit.use(rs, state, unit, cmd, dice)
    if cmd.action in hacking.JOBS:
        return hacking.start(rs, state, unit, cmd, dice)
    if cmd.action in feats.ACTIONS:
        return feats.act(rs, state, unit, cmd)
    if cmd.action == inspire.ABILITY:
        return inspire.act(rs, state, unit, dice)
    if cmd.action == panic.ABILITY:
        return panic.calm(rs, state, unit, cmd)
    if cmd.action == panic.DIRECT:
        return panic.direct(rs, state, unit, cmd, dice)
    if cmd.action == flare.ACTION:
        return flare.fire(rs, state, unit, cmd)
    if cmd.action == pins.ACTION:
        return pins.pull(rs, state, unit, cmd)
    if cmd.action == "give":
        return _give(rs, state, unit, cmd)
    if cmd.action == "turn":
        return _turn(rs, unit, cmd)
    if cmd.action == ground.DROP:
        return ground.drop(rs, state, unit, cmd)
    if cmd.action == ground.PICK:
        return ground.pick_up(rs, state, unit, cmd)
    if cmd.action == "place_c4":
        return charges.place(rs, state, unit, cmd)
    if cmd.action == "detonate":
        return charges.detonate(rs, state, unit, cmd, dice)
    return Rejected("unknown_action", f"xxxzone has no {cmd.action!r} action; it has {', '.join(ACTIONS)}")


def _interact(rs, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    cell = cmd.cell
    if cell is None or not state.grid.inside(cell) or max(abs(cell[0] - unit.pos[0]), abs(cell[1] - unit.pos[1])) > 1:
        return Rejected("not_adjacent", "Interact reaches the unit's own square and the eight round it")
    if cmd.action == "shut_down":
        return _shut_down(rs, state, unit, cmd, dice)
    try:
        tile = field.door(rs.content, state, cell, cmd.action)
    except ValueError as exc:
        return Rejected("not_a_door", str(exc))
    paid = actions.do(book, c.turn, "interact", _abilities(c), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    return [TileChanged(pos=cell, tile=tile), changed(book, unit, attrs.evolve(c, turn=paid), f"{cmd.action}s a door")]


def _shut_down(rs, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    """Interpretation: Interact (1 AP) and an Intelligence test `d100 + 10×Int > 100` shut the mission's machine down."""
    book, c = rs.book, unit.record
    goal = None if rs.setup is None else next((o for o in missions.objectives(rs.setup.mission).values()
                 if o.kind == "shut_down" and cmd.cell in rs.setup.spawns.get(o.zone, ())), None)  # None: no mission
    if goal is None:
        return Rejected("nothing_to_shut_down", "Nothing of this mission's to shut down there")
    if state.grid.tile(cmd.cell) == goal.done_tile:
        return Rejected("already_done", "It is already shut down")
    if unit.side != missions.PLAYER:
        return Rejected("not_yours", "Only the squad has reason to shut it down")
    if (only := hacking.hack_only(rs, state, cmd.cell)) is not None:
        return only
    paid = actions.do(book, c.turn, "interact", _abilities(c), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    test = check(dice, unit.id, "shut down", "Int×10", 10 * c.op.effective("intelligence"))
    name = rs.content.terrain[state.grid.tile(cmd.cell)].name.lower()
    text = f"{unit.name} {'shuts down' if test.passed else 'fails to shut down'} the {name}"
    return [Resolved(actor=unit.id, action="shut_down", cell=cmd.cell, rolls=(test.roll,),
                     outcome="success" if test.passed else "failure", text=text),
            *([TileChanged(pos=cmd.cell, tile=goal.done_tile)] if test.passed else []),
            changed(book, unit, attrs.evolve(c, turn=paid), f"works on the {name}")]


def _give(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    """Interact (1 AP, 4: Interpretation): hand the item in hand to an adjacent ally with a hand free for it."""
    book, c = rs.book, unit.record
    taker = state.units.get(cmd.target or "")
    if taker is None or taker.record is None or taker.status == "dead":
        return Rejected("no_target", "Give needs an ally to take the item")
    if cmd.option not in {h.item for h in c.hands}:
        known = cmd.option in book.items or cmd.option in book.weapons
        return Rejected("not_in_hand", f"{unit.name} holds no {book.gear(cmd.option).name if known else 'such item'}")
    paid = actions.do(book, c.turn, "interact", _abilities(c), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    got = battle.give(book, attrs.evolve(c, turn=paid), taker.record, cmd.option)
    if isinstance(got, Rejected):
        return got
    giver, took = got
    name = book.gear(cmd.option).name
    return [changed(book, unit, giver, f"hands the {name} to {taker.name} (1 AP)"),
            changed(book, taker, took, f"takes the {name} from {unit.name}")]


WAYS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")  # NEIGHBOURS' order


def _turn(rs, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    """Turn (4, 0 AP, Interpretation): face one of the eight directions; the front arc (10) follows, and the spot
    checks after the command look again."""
    book, c = rs.book, unit.record
    if cmd.option not in WAYS:
        return Rejected("no_direction", f"Turn needs a direction: one of {', '.join(WAYS)}")
    way = NEIGHBOURS[WAYS.index(cmd.option)]
    if way == c.facing:
        return Rejected("already_facing", f"{unit.name} already faces {cmd.option}")
    ev = changed(book, unit, records.evolve(c, {"facing": way}), f"turns to face {cmd.option} (0 AP)")
    return [attrs.evolve(ev, changes={**ev.changes, "facing": facing_index(way, unit.facing)})]


def face(rs, unit: Unit, cmd: Face) -> Rejected | list[Event]:
    """The kernel's turn in place (the client's turn keys) is the Turn action, to the facing of that index."""
    if not 0 <= cmd.facing < len(WAYS):
        return Rejected("bad_facing", "A facing is 0 (north) to 7, clockwise")
    return _turn(rs, unit, Act(unit=unit.id, action="turn", option=WAYS[cmd.facing]))


def reload(rs, unit: Unit) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    gun = next((h for h in c.hands if h.item in book.weapons and book.weapons[h.item].ammo), None)
    if gun is None:
        return Rejected("not_in_hand", f"{unit.name} holds no weapon that reloads")
    w = book.weapons[gun.item]
    if gun.rounds >= w.capacity and gun.item not in c.disabled:
        return Rejected("full", f"The {w.name} is full ({gun.rounds}/{w.capacity})")
    paid = actions.spend(c.turn, w.reload, "reload", _abilities(c), what=f"Reloading the {w.name}")
    if isinstance(paid, Rejected):
        return paid
    after = battle.reload(book, records.evolve(c, {"turn": paid}), gun.item)
    if isinstance(after, Rejected):
        return after
    return [changed(book, unit, after, f"reloads the {w.name} ({w.reload} AP)")]


def wait(rs, unit: Unit) -> list[Event]:
    c = unit.record
    return [changed(rs.book, unit, records.evolve(c, {"turn": attrs.evolve(actions.end(c.turn), ended=True)}), "waits")]


def options(rs, state: State, unit: Unit) -> list[Option]:
    book, c = rs.book, unit.record
    if c is None or not unit.conscious or unit.side != state.side or state.winner is not None or c.turn.ended:
        return []
    ap = c.turn.ap
    out: list[Option] = []
    seen = rs.spotted(state, unit.side)
    drawn = [h.item for h in c.hands if h.item in book.weapons]
    reach = max((book.weapons[w].range for w in drawn), default=0)
    for t in sorted(state.units.values(), key=lambda t: (between(unit.pos, t.pos), t.id)):
        if t.id in seen and t.conscious and missions.hostile(unit.side, t.side) and between(unit.pos, t.pos) <= reach:
            out.append(Option("Aim", f"Aim → {t.name} (2 AP, +{book.settings.aim_bonus})",
                              Act(unit=unit.id, action="aim", target=t.id), note=f"{ap} AP left"))
    for mid, w, m, cost in modes(book, c):
        if w in drawn and not book.weapons[w].modes[m].cone and not declared(mid):  # a spray is aimed at a square
            out.append(Option("Overwatch", f"Overwatch: {book.weapons[w].name} {m.replace('_', ' ')} "
                                           f"({ap} AP stored, {cost} a shot)",
                              Act(unit=unit.id, action="overwatch", option=mid), note="ends the turn"))
    out.append(Option("Defence", "Hunker down (2 AP): adjacent cover ×2", Act(unit=unit.id, action="hunker"),
                      note="ends the turn"))
    out += [Option("Facing", f"Turn to face {w} (0 AP)", Act(unit=unit.id, action="turn", option=w),
                   note="the front arc sees cautious enemies better") for w, v in zip(WAYS, NEIGHBOURS) if v != c.facing]
    for item in dict.fromkeys(c.belt):
        if battle.can_hold(book, c, item) is None:
            out.append(Option("Items", f"Draw {book.gear(item).name} (1 AP)", Act(unit=unit.id, action="draw",
                                                                                 option=item)))
    for h in c.hands:
        out.append(Option("Items", f"Stow {book.gear(h.item).name} (1 AP)", Act(unit=unit.id, action="stow",
                                                                             option=h.item)))
        for a in state.side_units(unit.side):
            if a.id != unit.id and a.conscious and between(unit.pos, a.pos) == 0 and a.record is not None \
                    and battle.can_hold(book, a.record, h.item) is None:
                out.append(Option("Items", f"Give {book.gear(h.item).name} → {a.name} (1 AP)",
                                  Act(unit=unit.id, action="give", target=a.id, option=h.item)))
    out += kit.options(rs, state, unit) + charges.options(rs, state, unit) + hacking.options(rs, state, unit)
    out += feats.options(rs, state, unit) + inspire.options(rs, state, unit) + panic.options(rs, state, unit)
    out += flare.options(rs, state, unit) + pins.options(rs, state, unit) + ground.options(rs, state, unit)
    out = [o for o in out if moving.swimming(rs, state, unit, o.command.action) is None]  # not in the water
    if rs.setup is not None:
        for action, cell in missions.uses(rs.content, rs.setup.mission, rs.setup.spawns, state, unit):
            if action == "shut_down" and hacking.hack_only(rs, state, cell) is not None:
                continue  # Hack's entry (hacking.py) stands for it, with its reason when it cannot
            name = rs.content.terrain[state.grid.tile(cell)].name
            out.append(Option("Interact", f"{action.replace('_', ' ').capitalize()} {name} at {cell[0]},{cell[1]} "
                                          f"(1 AP)", Act(unit=unit.id, action=action, cell=cell)))
    return out
