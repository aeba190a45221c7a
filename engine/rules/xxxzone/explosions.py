"""Section 6.9: throwing (distance beyond Strength, scatter, the target's own cover), blast rings, status-only
explosives, C4 and its detonator, the missile's explosion, smoke and concealment.

Blast rolls are attack rolls with no distance penalty (`d100 + Accuracy + 15 Grenadier - wounds - Agi`), then
only the target's adjacent cover between it and the impact square at full value, then armour and DT as usual.
The caller gives only the entities with a line from the impact square (no blast passes through walls).
"""

from __future__ import annotations

from typing import Literal, Sequence

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import NEIGHBOURS, Pos, distance
from engine.rules.xxxzone.attack import Attack, CoverPiece, Defence, Hit, volley
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.checks import check, roll_formula
from engine.rules.xxxzone.modifiers import Shooter, explosive_dt, required_strength, strength_penalty
from engine.rules.xxxzone.status import disorient, set_on_fire
from engine.rules.xxxzone.wounds import Condition, Vitals, penalty, wound


def reach(book: Book, strength: int) -> int:
    """The farthest throw, in squares between: Str + 10 (Interpretation)."""
    return strength + book.settings.throw_reach_over_strength


def throw_acc(book: Book, s: Shooter, item_id: str, d: int) -> tuple[int, str]:
    """Throw step 1: `Accuracy - 5*max(0, d - Str)`, then the thrower's own modifiers."""
    st = book.settings
    mods = [("distance", -st.throw_penalty * max(0, d - s.strength)),
            ("strength", -strength_penalty(book, required_strength(book, book.items[item_id]), s.strength)),
            ("wounds", -s.wound_penalty), ("disoriented", -st.disoriented_penalty if s.disoriented else 0)]
    value = s.accuracy + sum(v for _, v in mods)
    shown = "".join(f" − {label} {-v}" for label, v in mods if v)
    return value, f"AdjAcc = {s.accuracy}{shown} = {value}"


def check_throw(book: Book, s: Shooter, item_id: str, d: int, in_hand: bool, primed: bool) -> Rejected | None:
    item = book.items.get(item_id)
    if item is None or item.kind != "grenade":
        return Rejected("not_throwable", f"{item.name if item else item_id} cannot be thrown")
    if not in_hand:
        return Rejected("not_drawn", f"the {item.name} must be in hand (Draw Item, 1 AP)")
    if not primed and item.effect != "smoke":
        return Rejected("pin_in", f"pull the {item.name}'s pin first (Interact, 1 AP)")
    if d > reach(book, s.strength):
        return Rejected("too_far", f"{d} squares away; {s.id} throws at most {reach(book, s.strength)}")
    return None


@attrs.frozen(kw_only=True)
class Landing:
    cell: Pos
    how: Literal["on_target", "cover", "scatter"]
    rolls: tuple[Roll, ...]
    cover: CoverPiece | None = None


def throw(dice: Dice, book: Book, s: Shooter, item_id: str, d: int, aimed: Pos,
          target: Defence | None = None) -> Landing:
    """Steps 2-3 of a throw: over 100 lands where aimed, unless the targeted entity's own cover stops it;
    otherwise it scatters 1d3 squares in a d8 direction. `target` is None for a throw at a square."""
    adj, _shown = throw_acc(book, s, item_id, d)
    face, index = dice.d(100, s.id, f"throw {book.items[item_id].name}")
    agi = target.agility if target is not None else 0
    r = face + adj - agi
    steps = [f"d100 {face} + AdjAcc {adj}" + (f" − Agi {agi}" if target is not None else "") + f" = {r}"]
    if r > 100 and target is not None:
        for piece in target.cover:
            if not piece.adjacent:
                continue
            r -= piece.value
            steps.append(f"− cover {piece.value} ({piece.label}, adjacent) = {r}")
            if r <= 100:
                roll = _roll(s.id, item_id, book, face, index, steps, r, f"lands at the {piece.label}")
                return Landing(cell=piece.cell or aimed, how="cover", rolls=(roll,), cover=piece)
    if r > 100:
        return Landing(cell=aimed, how="on_target", rolls=(_roll(s.id, item_id, book, face, index, steps, r,
                                                                  "lands on target"),))
    first = _roll(s.id, item_id, book, face, index, steps, r, "scatters")
    return scatter(dice, s.id, aimed, (first,))


def scatter(dice: Dice, actor: str, aimed: Pos, before: tuple[Roll, ...] = ()) -> Landing:
    far, i = dice.d(3, actor, "scatter distance")
    way, j = dice.d(8, actor, "scatter direction")
    dx, dy = NEIGHBOURS[way - 1]
    cell = (aimed[0] + dx * far, aimed[1] + dy * far)
    rolls = (Roll(actor=actor, purpose="scatter distance", expr="1d3", faces=(far,), formula=f"1d3: {far} squares",
                  total=far, index=i),
             Roll(actor=actor, purpose="scatter direction", expr="1d8", faces=(way,),
                  formula=f"1d8: {way} (dx {dx}, dy {dy})", total=way, index=j))
    return Landing(cell=cell, how="scatter", rolls=before + rolls)


def _roll(actor: str, item_id: str, book: Book, face: int, index: int, steps: list[str], r: int, note: str) -> Roll:
    steps[-1] += f" {'≤' if r <= 100 else '>'} 100: {note}"
    return Roll(actor=actor, purpose=f"throw {book.items[item_id].name}", expr="1d100", faces=(face,),
                formula=", ".join(steps), total=r, index=index)


def ring_rolls(rings: Sequence[int], d: int) -> int:
    """3 rolls within `a`, 2 within `b`, 1 within `c`, none beyond (D from the impact square)."""
    for rolls, radius in zip((3, 2, 1), rings):
        if d <= radius:
            return rolls
    return 0


def blast(book: Book, s: Shooter, item_id: str) -> Attack:
    """One blast roll's Attack for this thrower and explosive."""
    item = book.items[item_id]
    dt, penetration = explosive_dt(book, s.abilities, item)
    bonus = book.settings.grenadier_bonus if "grenadier" in s.abilities else 0
    return Attack(attacker=s.id, adj_acc=s.accuracy + bonus - s.wound_penalty, dt=dt, penetration=penetration,
                  explosion=True, status_only=item.effect in ("on_fire", "disorient"),
                  revised=book.settings.revised_wounds, purpose=f"{item.name} blast")


def explode(dice: Dice, book: Book, s: Shooter, item_id: str, impact: Pos,
            victims: Sequence[tuple[Pos, Defence]]) -> list[tuple[str, tuple[Hit, ...], Defence]]:
    """Every entity in the rings, friend or foe, nearest first: its rolls, and its defence after them. A roll
    stopped by cover damages it by 1d4 (4 with Grenadier), the roll kept on the Hit (`wear`)."""
    item, attack = book.items[item_id], blast(book, s, item_id)
    out = []
    for cell, d in sorted(victims, key=lambda v: (distance(impact, v[0]), v[1].id)):
        n = ring_rolls(item.rings, distance(impact, cell))
        if n:
            hits, after = volley(dice, [attack] * n, d, wear=lambda: cover_damage(dice, book, s))
            out.append((d.id, hits, after))
    return out


@attrs.frozen(kw_only=True)
class Effect:
    condition: Condition
    rolls: tuple[Roll, ...]
    notes: tuple[str, ...]


def effects(dice: Dice, book: Book, item_id: str, hits: Sequence[Hit], v: Vitals, c: Condition) -> Effect:
    """Step 7 of a blast for one entity: each wound's tests (damage), On Fire (Incendiary), or a Fort check
    against Disorientation for each Flashbang hit."""
    item = book.items[item_id]
    rolls: list[Roll] = []
    notes: list[str] = []
    for hit in hits:
        if c.dead:
            break
        if item.effect == "damage" and hit.wound is not None:
            got = wound(dice, book, v, c, hit.wound)  # type: ignore[arg-type]
            c, rolls, notes = got.condition, rolls + list(got.rolls), notes + list(got.notes)
        elif item.effect == "on_fire" and hit.outcome == "hit":
            c, burn = set_on_fire(dice, book, v.id, c)
            rolls += [burn] if burn else []
            notes.append("On Fire")
        elif item.effect == "disorient" and hit.outcome == "hit":
            t = flash_resisted(dice, book, v.id, v.fortitude, penalty(book, c.wounds))
            rolls.append(t.roll)
            if not t.passed:
                c = disorient(c, book.settings.flashbang_turns)
                notes.append("Disoriented")
    return Effect(condition=c, rolls=tuple(rolls), notes=tuple(notes))


def missile_impact(dice: Dice, shooter: str, hit: Hit, target_cell: Pos,
                   cover: Sequence[CoverPiece] = ()) -> Landing:
    """6.9: the missile explodes at the target's square on a hit, at the cover piece on a cover hit, and after
    scattering as a throw does on a miss."""
    if hit.outcome == "miss":
        return scatter(dice, shooter, target_cell)
    if hit.outcome == "cover" and hit.cover is not None:
        piece = cover[hit.cover]
        return Landing(cell=piece.cell or target_cell, how="cover", rolls=(), cover=piece)
    return Landing(cell=target_cell, how="on_target", rolls=())


def cover_damage(dice: Dice, book: Book, s: Shooter) -> Roll:
    """An explosion that hits a cover piece removes 1d4 HP, 4 with Grenadier (full damage to terrain)."""
    if "grenadier" in s.abilities:
        return Roll(actor=s.id, purpose="cover damage", expr="4", faces=(), formula="Grenadier: 4", total=4)
    face, index = dice.d(4, s.id, "cover damage")
    return Roll(actor=s.id, purpose="cover damage", expr="1d4", faces=(face,), formula=f"1d4: {face}", total=face,
                index=index)


def flash_resisted(dice: Dice, book: Book, who: str, fortitude: int, wound_penalty: int = 0):
    """A Flashbang hit: a Fort check, or Disoriented for the item's turns."""
    return check(dice, who, "Flashbang: Fort", "Fort", fortitude, (("wounds", -wound_penalty),),
                 book.settings.success_over)


def place_c4(holder: Pos, cell: Pos) -> Rejected | None:
    """Interact: C4 goes on the holder's own square or an adjacent one."""
    if distance(holder, cell) > 1:
        return Rejected("too_far", "C4 is placed on your own square or an adjacent one")
    return None


def detonate(book: Book, holder: Pos, charge: Pos, has_detonator: bool) -> Rejected | None:
    """C4: Interact with the Detonator in hand within its reach (D <= 10) of the charge."""
    reach_ = book.items["detonator"].reach
    if not has_detonator:
        return Rejected("no_detonator", "the Detonator must be in hand")
    if distance(holder, charge) > reach_:
        return Rejected("out_of_range", f"the charge is {distance(holder, charge)} squares away; the Detonator "
                                        f"reaches {reach_}")
    return None


def c4_terrain(impact: Pos, cells: Sequence[Pos]) -> tuple[Pos, ...]:
    """C4 also deals full damage (4 HP) to the cover and doors within D <= 1 of the charge."""
    return tuple(c for c in cells if distance(impact, c) <= 1)


def smoke_turns(dice: Dice, book: Book, who: str, item_id: str = "smoke_bomb") -> Roll:
    item = book.items[item_id]
    assert item.duration is not None
    return roll_formula(dice, who, "smoke: turns", item.duration)


def concealment(book: Book, smoke_squares: int) -> Literal["none", "concealed", "hidden"]:
    """Smoke squares on the line of sight (the target's included): 1 conceals (-20), 3 hide it completely."""
    if smoke_squares >= book.settings.smoke_hidden:
        return "hidden"
    return "concealed" if smoke_squares >= book.settings.smoke_concealed else "none"
