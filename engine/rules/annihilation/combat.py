"""Shooting on the map (section 14): the shooter turns to face its target (A-9.4), pays the mode, and every round is
rolled; opportunity fire (A-14.9) answers each step of a move and comes before any other action; blasts hit
everyone in their diamond (section 17). Every change is an event; every die is on one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from engine.content import missions
from engine.core import records
from engine.core.commands import Rejected, Reload, Shoot
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit, memo
from engine.core.reducer import fold
from engine.rules.annihilation import actions, clouds, fire, hits, sights, spotting
from engine.rules.annihilation.board import field_of
from engine.rules.annihilation.blast import cells, spaces_from
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.inventory import HANDS, Carried, harnessed
from engine.rules.annihilation.inventory import reload_price as reload_cost
from engine.rules.annihilation.moves import Price, pay, turn_price
from engine.rules.annihilation.soldier import Soldier, changes, fighter_of, gun, loads, seen_firing
from engine.rules.annihilation.space import facing_towards

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def _swap(kit: tuple[Carried, ...], old: Carried, new: Carried | None) -> tuple[Carried, ...]:
    return tuple(new if c is old else c for c in kit if not (c is old and new is None))


def watchers(rs: Annihilation, state: State, mover: Unit, cell: Pos) -> list[Unit]:
    """A-14.9 step 1: the conscious enemies holding a weapon that see `cell` (on the mover's storey)."""
    armed = lambda v: _armed(rs, v)  # noqa: E731 - one closure a step, not one a unit
    z = mover.z
    clear = None if clouds.smoky(state, z) else state.grid.level(z)  # no smoke there: a line is the map's own
    out: list[Unit] = []
    foes: dict[str, bool] = {}  # hostile() per side: a few sides, many units
    for u in state.units.values():
        if u.side not in foes:
            foes[u.side] = missions.hostile(u.side, mover.side)
        if foes[u.side] and u.id != mover.id and memo(u, watchers, armed) and (
                clear.sees(u.pos, cell, rs.sight_range) if clear is not None and u.z == z
                else clouds.sees(rs, state, u.pos, cell, u.z, z)):
            out.append(u)
    return out


def _armed(rs: Annihilation, unit: Unit) -> bool:
    """Conscious with a weapon in hand: asked of every unit at every step of every walk, once per unit value (a
    game has one book, so the answer kept on the unit holds)."""
    return unit.conscious and unit.record is not None and gun(unit.record, rs.book) is not None


def react(rs: Annihilation, state: State, dice: Dice, mover: Unit, actor: Fighter, at: Pos,
          doing: str) -> tuple[Fighter, list[Event]]:
    """A-14.9: each observer whose reaction score beats the actor's (with its TUs after it paid) fires one snap shot,
    highest score first, turning to it for free; they stop once the actor is down. The log says both scores."""
    seen = watchers(rs, state, mover, at)
    if not seen:
        return actor, []
    out: list[Event] = []
    if spotting.hidden(rs, state, mover):  # optional: in smoke, only a side that spots it can react
        kept = list(field_of(state).sightings)
        rolls, words = spotting.look(rs, state, dice, seen, mover, kept)
        out += spotting.noted(state, kept, rolls, words)
        seen = [u for u in seen if spotting.seen(rs, state, u.side, mover, kept)]
    by_id = {u.id: u for u in seen}
    facing = {u.id: facing_towards(u.pos, at, rs.book.settings.grid) for u in seen}
    answers = fire.reactions(rs.book, actor, [(u.id, records.evolve(fighter_of(u), {"facing": facing[u.id]}),
                                               gun(u.record, rs.book).id, gun(u.record, rs.book).rounds) for u in seen])
    for answer in answers:
        if not answer.fires or actor.status != "awake":
            continue
        u = by_id[answer.observer]
        g = gun(u.record, rs.book)
        shot = actions.shoot(rs.book, dice, attrs.evolve(fighter_of(u), facing=facing[u.id]), g, actor, u.pos, at,
                             "snap", dz=mover.z - u.z, harness=harnessed(g, u.record.harness))
        if isinstance(shot, Rejected):
            continue
        actor = shot.target
        words = "; ".join(shot.lines)
        out.append(Resolved(actor=u.id, action="reaction fire", target=mover.id, weapon=g.id, mode="snap",
                            rolls=shot.rolls, outcome="hit" if shot.hits else "miss",
                            text=f"{u.name} reacts to {mover.name} {doing}{_height(u, mover)} (reaction "
                                 f"{answer.observer_score} > {answer.actor_score}): snap shot, {shot.hits} hit"
                                 + (f": {words}" if words else "")))
        new = seen_firing(rs.book, state, u, attrs.evolve(u.record, fighter=shot.actor, kit=_swap(u.record.kit, g,
                                                                                                   shot.gun)))
        out.append(UnitChanged(unit=u.id, changes=changes(u, new), cause="reaction fire"))
    return actor, out


def answered(rs: Annihilation, state: State, dice: Dice, unit: Unit, paid: Fighter, doing: str, cancelled: str,
             spent: bool = False) -> tuple[Fighter, list[Event], bool]:
    """A-14.9 before an action the actor has paid for (`paid`): the observers' shots, and whether they put it down;
    if they did, the events end with its cancelled action (`cancelled` says so), the TUs paid staying spent, or all
    of them (`spent`: an aimed, thrown or struck action is begun and loses the rest)."""
    f, pre = react(rs, state, dice, unit, paid, unit.pos, doing)
    if f.status == "awake":
        return f, pre, False
    f = attrs.evolve(f, tu_left=0) if spent else f
    return f, pre + [UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, fighter=f)),
                                 cause=cancelled)], True


def paid_answered(rs: Annihilation, state: State, dice: Dice, unit: Unit, cost: Price, what: str, doing: str,
                  cancelled: str, then: Callable[[Fighter], list[Event]]) -> Rejected | list[Event]:
    """A-8.3 then A-14.9: the action's price paid (or why not), then `answered`; if the observers did not put the
    unit down, the action's own events (`then`, given the fighter after the price and the shots) follow theirs."""
    f = pay(fighter_of(unit), cost, what)
    if isinstance(f, Rejected):
        return f
    f, pre, down = answered(rs, state, dice, unit, f, doing, cancelled)
    return pre if down else pre + then(f)


def _height(watcher: Unit, mover: Unit) -> str:
    """Where the mover is, when the two stand on different storeys (A-7.4: the height adds to the range)."""
    if watcher.z == mover.z:
        return ""
    return f" {mover.z - watcher.z:+d} level{'s' if abs(mover.z - watcher.z) > 1 else ''} from it"


def blast(rs: Annihilation, state: State, dice: Dice, actor: str, centre: Pos, rnd: hits.Round,
          launched_from: Pos | None, what: str, z: int | None = None) -> list[Event]:
    """A-17.4-A-17.6: everyone in the diamond takes the falloff damage on the side it shows the blast. The blast is
    on storey `z` (None: the actor's) and stays there, unless multi-level blasts add |dz| to the distance (A-7.5)."""
    if z is None:
        z = state.units[actor].z if actor in state.units else 0
    radius = max(rnd.radius, 0)
    area = set(cells(rs.book, centre, radius))
    high = rs.book.settings.multi_level_blasts
    victims = [(u.id, fighter_of(u), u.pos) for u in state.units.values() if u.pos in area and u.status != "dead"
               and (u.z == z or high and spaces_from(rs.book, centre, u.pos, u.z - z) <= radius)]
    heights = {u.id: u.z - z for u in state.units.values() if u.z != z}
    out: list[Event] = []
    struck = hits.blast_on(rs.book, dice, centre, rnd, victims, launched_from, heights)
    rolls = tuple(r for _uid, _amount, hurt in struck for r in hurt.rolls)
    text = "; ".join(f"{state.units[uid].name} {amount} → {hurt.armour.text}" for uid, amount, hurt in struck)
    out.append(Resolved(actor=actor, action="blast", cell=centre, rolls=rolls, outcome=f"{len(struck)} hit",
                        text=f"{what} goes off at {centre[0]},{centre[1]}" + (f": {text}" if text else ": nobody hurt")))
    for uid, _amount, hurt in struck:
        u = state.units[uid]
        out.append(UnitChanged(unit=uid, changes=changes(u, attrs.evolve(u.record, fighter=hurt.fighter)),
                               cause="blast"))
    return out + clouds.settle(rs, fold(state, out), centre, rnd.type, max(rnd.radius, 0), z)


def shot_cost(rs: Annihilation, unit: Unit, target: Unit, mode: str) -> tuple[int, int]:
    """(TU to turn to the target, TU of the shot): A-9.4, A-8.2 and the sights the mode id names (A-14.7)."""
    g = gun(unit.record, rs.book)
    turn = turn_price(rs.book, unit.facing, facing_towards(unit.pos, target.pos, rs.book.settings.grid)).tu
    mode, used = sights.split(mode)
    return turn, fire.shot_tu(rs.book, fighter_of(unit), g.id, mode, used)


def check_shot(rs: Annihilation, state: State, unit: Unit, target_id: str, mode: str) -> Rejected | Unit:
    target = state.units.get(target_id)
    g = gun(unit.record, rs.book)
    if g is None:
        return Rejected("unarmed", f"{unit.name} holds no weapon")
    w = rs.book.weapons[g.id]
    if target is None or target.status == "dead" or target.id == unit.id:
        return Rejected("no_target", "No target there")
    if not clouds.sees(rs, state, unit.pos, target.pos, unit.z, target.z):
        return Rejected("no_line_of_sight", f"{unit.name} cannot see {target.name}")
    if not spotting.seen(rs, state, unit.side, target):  # optional
        return Rejected("not_spotted", f"{target.name} is in the smoke and nobody of {unit.name}'s side made it out")
    plain, used = sights.split(mode)
    if plain not in w.modes:
        return Rejected("no_mode", f"The {w.name} has no {plain} mode: it fires {', '.join(rs.modes_of(g.id))}")
    unsighted = sights.check(rs.book, g, plain, used)
    if unsighted is not None:
        return unsighted
    if g.rounds < 1:
        return Rejected("empty", f"The {w.name} is empty: reload it (r)")
    turn, tu = shot_cost(rs, unit, target, mode)
    left = unit.record.fighter.tu_left
    if turn + tu > left:
        return Rejected("no_tu", f"The {sights.named(mode)} costs {tu} TU" + (f" and {turn} to turn" if turn else "")
                        + f"; {unit.name} has {left} left")
    return target


def shoot(rs: Annihilation, state: State, unit: Unit, cmd: Shoot, dice: Dice) -> Rejected | list[Event]:
    mode = rs.mode_id(unit, cmd.mode)
    target = check_shot(rs, state, unit, cmd.target, mode)
    if isinstance(target, Rejected):
        return target
    turn, tu = shot_cost(rs, unit, target, mode)
    towards = facing_towards(unit.pos, target.pos, rs.book.settings.grid)
    f = records.evolve(fighter_of(unit), {"facing": towards, "tu_left": unit.record.fighter.tu_left - turn})
    hurt, pre, down = answered(rs, state, dice, unit, records.evolve(f, {"tu_left": f.tu_left - tu}), "taking aim",
                               "shot cancelled: put down by opportunity fire", spent=True)
    if down:  # step 4: put down first, the shot is cancelled and its TUs stay spent
        return pre
    f = records.evolve(hurt, {"tu_left": f.tu_left})
    now = fold(state, pre) if pre else state
    target = now.units[target.id]
    g = gun(unit.record, rs.book)
    plain, used = sights.split(mode)
    out = actions.shoot(rs.book, dice, f, g, fighter_of(target), unit.pos, target.pos, plain, sights=used,
                        dz=target.z - unit.z, harness=harnessed(g, unit.record.harness))
    if isinstance(out, Rejected):
        return out
    w = rs.book.weapons[g.id]
    fired = g.rounds - out.gun.rounds
    lines = "; ".join(out.lines)
    how = plain + (f", {sights.words(rs.book, g, used)} +{fire.sight_tu(rs.book, g.id, plain, used)} TU" if used else "")
    events = pre + [Resolved(actor=unit.id, action="shoot", target=target.id, weapon=g.id, mode=mode, rolls=out.rolls,
                             outcome="hit" if out.hits else "miss",
                             text=f"{unit.name} fires the {w.name} ({how}) at {target.name}: {out.hits} of {fired} "
                                  f"hit" + (f": {lines}" if lines else "")),
                    UnitChanged(unit=unit.id, changes=changes(unit, seen_firing(rs.book, state, unit, attrs.evolve(
                        unit.record, fighter=out.actor, kit=_swap(unit.record.kit, g, out.gun)))), cause=f"{mode} shot")]
    if out.target != target.record.fighter:
        events.append(UnitChanged(unit=target.id, changes=changes(target, attrs.evolve(target.record, fighter=out.target)),
                                  cause="hit"))
    if out.blasts:
        rnd = hits.round_of(rs.book, g.id, g.loaded)
        for centre in out.blasts:
            events += blast(rs, fold(state, events), dice, unit.id, centre, rnd, unit.pos, w.name, target.z)
    return events


def _load(rs: Annihilation, unit: Unit, pick: Carried | None) -> Rejected | tuple[Carried, Carried]:
    """The weapon in its hands and what goes in (`pick`, or the first of soldier.loads), or why nothing can."""
    s: Soldier = unit.record
    g = gun(s, rs.book)
    if g is None:
        return Rejected("unarmed", f"{unit.name} holds no weapon")
    w = rs.book.weapons[g.id]
    if w.feed == "charges":
        return Rejected("no_reload", f"The {w.name} is not clip-fed; it recharges between missions")
    spare = loads(rs.book, s, g)
    if pick is not None and pick not in spare:
        return Rejected("wrong_ammo", f"The {rs.name(pick.id)} does not load the {w.name}")
    if not spare:
        what = {"clip": "clip", "ammo": "rounds", "grenade": "size-A grenade"}[w.feed]
        return Rejected("no_clips", f"{unit.name} has no spare {what} for the {w.name}")
    load = pick or spare[0]
    if g.rounds >= w.capacity and (pick is None or load.id == g.loaded):  # a full one changes type only if asked
        return Rejected("full", f"The {w.name} is full ({g.rounds}/{w.capacity})")
    return g, load


def _in_hand(g: Carried) -> Carried:
    """The weapon as it is loaded: held in one hand (of both, or of the hands gripping it on its strap or on the
    harness), the other hand taking the clip (A-12.6); it goes back as it was at no cost."""
    if g.place == "both_hands" or g.gripped:
        return attrs.evolve(g, place=(g.gripped or HANDS)[0], gripped=())
    return g


def reload_price(rs: Annihilation, unit: Unit, pick: Carried | None = None) -> Rejected | Price:
    """What `Reload` costs now (A-12.5: the clip to the other hand, unloading another ammunition first, load)."""
    got = _load(rs, unit, pick)
    if isinstance(got, Rejected):
        return got
    g, load = got
    held = _in_hand(g)
    return reload_cost(rs.book, [held if c is g else c for c in unit.record.kit], held, load)


def reload(rs: Annihilation, state: State, unit: Unit, cmd: Reload, dice: Dice,
           pick: Carried | None = None) -> Rejected | list[Event]:
    """A-12.5: the weapon to one hand, a clip from the belt to the other (`pick`: that one), load (the grip back is
    free). A cannon takes its shell clips and a rocket launcher its rockets (section 16) the same way."""
    s: Soldier = unit.record
    got = _load(rs, unit, pick)
    if isinstance(got, Rejected):
        return got
    g, load = got
    w = rs.book.weapons[g.id]
    held = _in_hand(g)
    kit = [held if c is g else c for c in s.kit]
    done = actions.reload(rs.book, fighter_of(unit), kit, held, load)
    if isinstance(done, Rejected):
        return done
    f, after = done
    f, pre, down = answered(rs, state, dice, unit, f, "reloading", "reload cancelled: put down by opportunity fire")
    if down:  # observers fire first
        return pre
    after = [attrs.evolve(c, place=g.place, gripped=g.gripped) if c.id == g.id and c.place == held.place else c
             for c in after]
    spent = unit.record.fighter.tu_left - f.tu_left
    rounds = next(c.rounds for c in after if c.id == g.id and c.place == g.place)
    what = "" if w.feed == "clip" else f" of {rs.name(load.id)}"
    return pre + [Resolved(actor=unit.id, action="reload", weapon=g.id, rolls=(), outcome="loaded",
                     text=f"{unit.name} reloads the {w.name} ({spent} TU): "
                          + (f"{w.capacity} rounds" if w.feed == "clip" else f"{rounds}{what}")),
            UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(s, fighter=f, kit=tuple(after))),
                        cause="reload")]
