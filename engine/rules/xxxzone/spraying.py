"""Sprays on the map (6.4): a `Shoot` with a cone mode aims the cone at its target's square, and every entity
in the cone with a line of fire from the shooter, friend or foe, takes the mode's rolls, nearest first (ties by
id), each with its own distance, cover, awareness and defences. The rounds are spent once; the cover each victim's
rolls wear is worn before the next victim's line is taken. The preview gives everyone's chance of a wound, and
tells the AI a spray that would catch its own side is worth nothing."""

from __future__ import annotations

from fractions import Fraction

import attrs

from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import Row, ShotPreview
from engine.rules.xxxzone import actions, blasts, seen, shooting
from engine.rules.xxxzone.lines import between, in_cone
from engine.rules.xxxzone.shot import fire
from engine.rules.xxxzone.units import changed

SHOWN = 4  # victims listed in the preview: the panel is short at 80×24


def victims(rs, state: State, shooter: Unit, aimed, weapon: str, mode: str) -> list[Unit]:
    """Everyone the cone aimed at `aimed` reaches: in range, in the cone, with a line of fire, not dead."""
    w = rs.book.weapons[weapon]
    cone = w.modes[mode].cone
    inside = [u for u in state.units.values()
              if u.id != shooter.id and u.status != "dead" and u.record is not None
              and in_cone(shooter.pos, aimed, u.pos, cone, w.range)
              and state.grid.sees(shooter.pos, u.pos, rs.sight_range)]
    return sorted(inside, key=lambda u: (between(shooter.pos, u.pos), u.id))


def spray(rs, state: State, unit: Unit, target: Unit, weapon: str, mode: str, dice: Dice,
          turn) -> Rejected | list[Event]:
    """One spray action, paid with `turn` already (no hand: an Akimbo Spray makes no Akimbo pool)."""
    book = rs.book
    w = book.weapons[weapon]
    caught = victims(rs, state, unit, target.pos, weapon, mode)
    if target.id not in {v.id for v in caught}:
        return Rejected("out_of_range", f"{target.name} is {between(unit.pos, target.pos)} squares away; the "
                                        f"{w.name} reaches {w.range}")
    start = records.evolve(unit.record, {"turn": turn})
    now, out, shooter, words, rolls, killed = state, [], None, [], [], False
    for victim in caught:
        v = now.units[victim.id]
        pieces = shooting.cover(book, now, unit.pos, v.pos)
        shot = shooting.shot_for(rs, now, unit, v, weapon, mode)
        got = fire(dice, book, start, v.record, shot, pieces)
        if isinstance(got, Rejected):
            return got
        shooter = shooter or got.shooter
        killed = killed or got.killed
        rolls += got.rolls
        words.append(f"{v.name} {', '.join(h.outcome for h in got.hits)}"
                     + (f" ({'; '.join(n for n in got.lines if not n.startswith('AdjAcc'))})"
                        if any(not n.startswith("AdjAcc") for n in got.lines) else ""))
        step = [changed(book, v, got.target, "caught in the spray")] + blasts.wear(rs, now, pieces, got.cover)
        out += step
        now = fold(now, step)
    if killed:
        shooter = attrs.evolve(shooter, turn=actions.killed(shooter.turn, w.modes[mode].ap,
                                                            frozenset(shooter.op.abilities)))
    text = f"{unit.name} sprays the {w.name} at {target.name}'s square: " + "; ".join(words)
    head = Resolved(actor=unit.id, action="shoot", target=target.id, weapon=weapon, mode=mode, cell=target.pos,
                    rolls=tuple(rolls), outcome="spray", text=text)
    out = [head, changed(book, unit, shooter, "sprays")] + out
    return out + ([] if shot.suppressed else seen.heard(book, fold(state, out), unit))  # a spray is a gun's


def preview(rs, state: State, a: Unit, b: Unit, weapon: str, mode: str) -> ShotPreview | Rejected:
    """Each entity in the cone and its chance of at least one wound, exactly; friends named in the notes."""
    book = rs.book
    caught = victims(rs, state, a, b.pos, weapon, mode)
    rows, worth, p_target, friends = [], Fraction(0), Fraction(0), []
    for v in caught:
        pieces = shooting.cover(book, state, a.pos, v.pos)
        shot = shooting.shot_for(rs, state, a, v, weapon, mode)
        planned = shooting.plan(book, a.record, v.record, shot, pieces)
        if isinstance(planned, Rejected):
            return planned
        _, wound, value = shooting.odds(*planned)
        if v.id == b.id:
            p_target = wound
        if v.side == a.side:
            friends.append(v.name)
            worth -= 2 * value
        else:
            worth += value
        rows.append(Row(v.name[:14], f" {len(planned[0])}× wound {float(wound) * 100:.1f}%"  # the panel is narrow
                        + (" (own)" if v.side == a.side else "")))
    w = book.weapons[weapon]
    lines = [Row("Spray", f" {len(caught)} in the cone, {w.modes[mode].rounds} rounds")] + rows[:SHOWN]
    if len(rows) > SHOWN:
        lines.append(Row("More", f" {len(rows) - SHOWN} more in the cone"))
    notes = (f"the cone catches your own side: {', '.join(friends)}",) if friends else ()
    return ShotPreview(p_hit=0.0 if friends else float(p_target), expected_damage=float(worth),
                       distance=between(a.pos, b.pos) + 1, reach=w.range + 1, lines=tuple(lines), notes=notes)
