"""Damage after armour (section 19): Health, hit location, 1d4 wounds per 10 points, head stun and death,
limbs blown off, the unsaveable torso, stun and unconsciousness, death below −Bravery."""

from __future__ import annotations

import attrs

from engine.core.dice import Dice, Roll
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter, Part, stamina_effective


@attrs.frozen
class Wounding:
    fighter: Fighter
    part: str | None  # body.toml id hit, None if no wound was rolled
    wounds: int  # wounds this hit
    rolls: tuple[Roll, ...]
    notes: tuple[str, ...]  # "unconscious", "left leg blown off", "dies: head wounds 5"


def settle(book: Book, f: Fighter) -> Fighter:
    """A-19.4, A-19.8: dead below −Bravery; unconscious at Health ≤ 0 or Stun ≥ Health. A-8.4: Energy never above
    Stm_eff. Nobody wakes here (that is the start of its phase, A-19.10)."""
    f = attrs.evolve(f, energy=min(f.energy, stamina_effective(book, f)))
    if f.status == "dead":
        return f
    if f.health < -f.character.stats.bravery:
        return attrs.evolve(f, status="dead", tu_left=0)
    if f.health <= 0 or f.stun >= f.health:
        f = attrs.evolve(f, status="unconscious", tu_left=0)
    return f


def location(book: Book, dice: Dice, actor: str) -> tuple[str, Roll]:
    """A-19.2: the body part a hit lands on, on 1d20 by body.toml."""
    die = book.settings.hit_location_die
    face, index = dice.d(die, actor, "hit location")
    part = next(k for k, p in book.body.items() if p.low <= face <= p.high)
    return part, Roll(actor=actor, purpose="hit location", expr=f"1d{die}", faces=(face,),
                      formula=f"d{die} {face} → {book.body[part].name}", total=face, index=index)


def damage(book: Book, dice: Dice, f: Fighter, amount: int, actor: str, *, stun: int = 0) -> Wounding:
    """A-19.1-A-19.8 for `amount` damage that got through armour (and `stun` damage, smoke A-17.8).
    The location is rolled only when the hit makes wounds (`floor(amount / 10)` ≥ 1)."""
    f, count = opened(book, f, amount, stun)
    if count == 0:
        return Wounding(settle(book, f), None, 0, (), ())
    part_id, where = location(book, dice, actor)
    n, wounds = wound_roll(book, dice, actor, amount, count)
    return wounded(book, f, part_id, n, (where, wounds))


def opened(book: Book, f: Fighter, amount: int, stun: int = 0) -> tuple[Fighter, int]:
    """A-19.1: the damage off Health (and the stun on), and how many wound dice it rolls (none on the dead)."""
    f = attrs.evolve(f, health=f.health - amount, stun=f.stun + stun)
    count = max(0, amount) // book.settings.wound_damage_step
    return f, 0 if f.status == "dead" else count


def wound_roll(book: Book, dice: Dice, actor: str, amount: int, count: int) -> tuple[int, Roll]:
    """A-19.2: 1d4 wounds per 10 points."""
    st = book.settings
    faces = [dice.d(st.wound_die, actor, "wounds") for _ in range(count)]
    n = sum(face for face, _ in faces)
    return n, Roll(actor=actor, purpose="wounds", expr=f"{count}d{st.wound_die}", faces=tuple(face for face, _ in faces),
                   formula=f"{amount}/{st.wound_damage_step} = {count}d{st.wound_die}: "
                           f"{'+'.join(str(face) for face, _ in faces)} = {n} wounds", total=n, index=faces[0][1])


def wounded(book: Book, f: Fighter, part_id: str, n: int, rolls: tuple[Roll, ...]) -> Wounding:
    """A-19.3-A-19.8: `n` wounds on a body part, what they do there, and the fighter settled."""
    st = book.settings
    old = f.part(part_id)
    part = Part(open=old.open + n, total=old.total + n)
    stats = f.character.stats
    character = attrs.evolve(f.character, stats=attrs.evolve(
        stats, stamina=max(0, stats.stamina - st.permanent_stamina_per_wound * n)))  # permanent, never
    # below 0 (A-8.4 floors Stm_eff at 0 and Stm_eff is Stm less the torso wounds: Stm itself is no lower)
    f = attrs.evolve(f.with_part(part_id, part), character=character)
    notes: list[str] = []
    kind = book.body[part_id].part
    if kind == "head":
        if part.total >= st.head_death_wounds:
            f = attrs.evolve(f, status="dead", tu_left=0)
            notes.append(f"dies: {part.total} head wounds")
        else:
            f = attrs.evolve(f, stun=f.stun + st.head_stun_per_wound * n)
            notes.append(f"stun +{st.head_stun_per_wound * n}")
    elif part.total >= st.limb_loss_wounds and part_id not in f.lost:
        if kind == "torso":
            f = attrs.evolve(f, beyond_saving=True)
            notes.append("cannot be saved: eight torso wounds")
        else:
            f = attrs.evolve(f, lost=f.lost + (part_id,))
            if kind == "leg":  # it cannot stand: it falls
                f = attrs.evolve(f, stance="prone")
            notes.append(f"{book.body[part_id].name.lower()} blown off")
    before = f.status
    f = settle(book, f)
    if f.status != before:
        notes.append(f.status)
    return Wounding(f, part_id, n, rolls, tuple(notes))
