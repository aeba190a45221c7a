"""What the client reads of an xxxzone entity and of a shot before it is fired, in the kernel's words
(`Row`, `Sheet`): AP and restricted pools, wounds by tier with the penalty, statuses, armour HP, the item in hand
and its ammo; and the exact chance of each outcome of a shot."""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from engine.core.ruleset import Row, Sheet
from engine.rules.xxxzone.battle import Combatant
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.wounds import penalty

POOLS = ("move", "gun", "draw", "reload", "left", "right")
ORDER = ("miss", "cover", "glancing", "hit", "minor", "severe", "mortal", "lethal")
LABEL = {"miss": "Miss", "cover": "Cover hit", "glancing": "Glancing", "hit": "Hit", "minor": "Minor",
         "severe": "Severe", "mortal": "Mortal", "lethal": "Lethal"}


def budget(c: Combatant) -> str:
    return f"AP {c.turn.ap}/{c.turn.maximum}"


def sheet(book: Book, c: Combatant) -> Sheet:
    t, w = c.turn, c.condition.wounds
    rows = [Row("AP", f" {t.ap}/{t.maximum} ", value=t.ap, maximum=t.maximum)]
    pools = [f"{p} {getattr(t, p)}" for p in POOLS if getattr(t, p)]
    if pools:
        rows.append(Row("Pools", " " + " · ".join(pools)))
    if t.overwatch and c.watch is not None:
        rows.append(Row("Watch", f" {t.overwatch} AP · {book.weapons[c.watch.weapon].name} {c.watch.mode}"))
    tiers = [f"{tid} {w.count(tid)}" for tid in book.tiers() if w.count(tid)]
    if w.spared_severe:
        tiers.append(f"spared severe {w.spared_severe}")
    if w.ignored_minor:
        tiers.append(f"ignored minor {w.ignored_minor}")
    rows.append(Row("Wounds", " " + (" · ".join(tiers) or "none") + f" · penalty {penalty(book, w)}"))
    armour = book.armour[c.op.armour]
    rows.append(Row("Armour", f" DR {armour.dr if c.armour_hp else 0} · HP {c.armour_hp}/{armour.hp}",
                    value=c.armour_hp, maximum=armour.hp, alert="" if c.armour_hp else "broken"))
    for held in c.hands:
        gear = book.gear(held.item)
        cap = book.weapons[held.item].capacity if held.item in book.weapons else 0
        ammo = f" {held.rounds}/{cap}" if cap else (" primed" if held.primed else "")
        rows.append(Row("Hand", f" {gear.name}{ammo}", alert="disabled" if held.item in c.disabled else ""))
    return Sheet(rows=tuple(rows), effects=effects(book, c))


def effects(book: Book, c: Combatant) -> tuple[str, ...]:
    s = c.condition
    out = [name for name, on in (("dead", s.dead), ("unconscious", s.unconscious), ("disabled", s.disabled))
           if on]
    out += [f"{name} {n}" for name, n in (("stunned", s.stunned), ("disoriented", s.disoriented),
                                          ("on fire", s.on_fire), ("dying", s.dying)) if n]
    if s.poison:
        out.append(s.poison.replace("_", " "))
    if c.marking:
        out.append(f"marking {c.marking}")
    if c.aim is not None:
        out.append(f"aiming at {c.aim.target}" + (f" ×{c.aim.stacks}" if c.aim.stacks > 1 else ""))
    out += [name for name, on in (("hunkered", c.hunkered), ("chi breath", c.chi_breath),
                                  ("conspicuous", c.conspicuous)) if on]
    if c.turn.continuing is not None:
        out.append(f"{book.actions[c.turn.continuing.action].name}: {c.turn.continuing.remaining} AP to go")
    return tuple(out)


def odds_lines(odds: Mapping[str, Fraction]) -> tuple[Row, ...]:
    """`Miss 15.0%`, `Glancing 35.0%`, ...: every outcome that can happen, mildest first."""
    return tuple(Row(LABEL[o], f" {float(odds[o]) * 100:.1f}%") for o in ORDER if odds.get(o))
