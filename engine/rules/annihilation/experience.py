"""Experience by use (A-6.1) and ranks (A-5): what changes on a character between missions."""

from __future__ import annotations

import attrs

from engine.core.dice import Dice, Roll
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.character import ZERO, Character, Stats


@attrs.frozen
class Improvement:
    value: int  # the stat (or skill percentage) after the rolls
    carried: int  # uses left over for the next mission
    rolls: tuple[Roll, ...]


def improve(book: Book, dice: Dice, actor: str, name: str, value: int, uses: int) -> Improvement:
    """A-6.1: one d100 per full 10 uses; +1 if `roll > value` or `roll = 100`. Each roll is made against the value
    as it stands after the rolls before it."""
    st = book.settings
    rolls = []
    for _ in range(uses // st.improvement_uses):
        face, index = dice.d(st.improvement_die, actor, f"improve {name}")
        up = face > value or face == st.always_improves_on
        mark = f"> {value} → {value + st.improvement_step}" if up else f"≤ {value}, no change"
        rolls.append(Roll(actor=actor, purpose=f"improve {name}", expr=f"1d{st.improvement_die}", faces=(face,),
                          formula=f"d{st.improvement_die} {face} {mark}", total=int(up), index=index))
        if up:
            value += st.improvement_step
    return Improvement(value, uses % st.improvement_uses, tuple(rolls))


@attrs.frozen
class Tally:
    """A mission's uses so far (A-6.1): per stat, and per skill; and what promotion asks of it (A-5.2): hits on an
    enemy, enemies downed. `marched` is the TU spent moving in phase `march_phase` (a hard march, A-6.1)."""

    stats: Stats = ZERO
    skills: tuple[tuple[str, int], ...] = ()
    hits: int = 0
    downed: int = 0
    marched: int = 0
    march_phase: int = 0


def count(book: Book, tally: Tally, event: str, skill: str | None = None) -> Tally:
    """One event of uses.toml: a use of each of its stats, and of `skill` (a weapon family or a skill tested) if the
    event counts skills."""
    use = book.uses[event]
    stats = attrs.evolve(tally.stats, **{s: getattr(tally.stats, s) + 1 for s in use.stats})
    skills = dict(tally.skills)
    if use.skill and skill is not None:
        skills[skill] = skills.get(skill, 0) + 1
    return attrs.evolve(tally, stats=stats, skills=tuple(sorted(skills.items())))


def end_mission(book: Book, dice: Dice, character: Character, tally: Tally) -> tuple[Character, list[Roll]]:
    """A-6.1 at the end of a mission: every stat's uses this mission plus those carried over, rolled in A-3.2
    order, then every skill's (in skills.toml order) against its hidden percentage; returns the character with its
    new stats, skill percentages and carried uses."""
    stats, carried, rolls = {}, {}, []
    for name, value in character.stats.env().items():
        got = improve(book, dice, character.id, name, value, getattr(character.uses, name) + getattr(tally.stats, name))
        stats[name], carried[name] = got.value, got.carried
        rolls += got.rolls
    skills, skill_carried = dict(character.skills), dict(character.skill_uses)
    for key in book.skills:
        uses = skill_carried.get(key, 0) + dict(tally.skills).get(key, 0)
        if uses:
            got = improve(book, dice, character.id, key, skills.get(key, 0), uses)
            skills[key], skill_carried[key] = got.value, got.carried
            rolls += got.rolls
    return attrs.evolve(character, stats=attrs.evolve(character.stats, **stats),
                        uses=attrs.evolve(ZERO, **carried), skills=tuple(skills.items()),
                        skill_uses=tuple((k, n) for k, n in skill_carried.items() if n)), rolls


def quotas(book: Book, living: int) -> dict[str, int]:
    """A-5.2: with N living soldiers, at most floor(N / one_in) may hold each rank that has a quota."""
    return {key: living // r.one_in for key, r in book.ranks.items() if r.one_in}


@attrs.frozen
class Veteran:
    """What promotion looks at after a mission (A-5.2)."""

    id: str
    rank: str
    missions: int
    kills: int
    alive: bool = True
    survived: bool = True  # this mission
    scored: bool = False  # hit an enemy, or passed an improvement roll, this mission


def promote(book: Book, dice: Dice, roster: list[Veteran]) -> tuple[dict[str, str], list[Roll]]:
    """A-5.2 (quotas) or A-5.3 (odds): the new rank of every soldier promoted, and the dice rolled (ties, odds)."""
    order = sorted(book.ranks, key=lambda k: book.ranks[k].order)
    rank = {v.id: v.rank for v in roster if v.alive}
    rolls: list[Roll] = []
    moved: set[str] = set()
    for v in roster:  # Rookie → Squaddie
        if v.alive and v.survived and v.scored and v.rank == order[0]:
            rank[v.id] = order[1]
            moved.add(v.id)
    by_id = {v.id: v for v in roster}
    if book.settings.promotion == "odds":
        for v in roster:
            here = order.index(rank.get(v.id, order[0])) if v.alive else 0
            if v.alive and v.survived and v.id not in moved and 0 < here + 1 < len(order) \
                    and book.ranks[order[here + 1]].one_in:
                up = order[here + 1]
                sides = book.ranks[up].one_in
                face, index = dice.d(sides, v.id, f"promotion to {up}")
                rolls.append(Roll(actor=v.id, purpose=f"promotion to {up}", expr=f"1d{sides}", faces=(face,),
                                  formula=f"d{sides} {face}{' = 1 ✓' if face == 1 else ' ✗'}", total=int(face == 1),
                                  index=index))
                if face == 1:
                    rank[v.id] = up
        return {k: r for k, r in rank.items() if r != by_id[k].rank}, rolls
    limit = quotas(book, len(rank))
    for up_at in range(len(order) - 1, 1, -1):  # top down: Commander, Colonel, Captain, Sergeant
        up, below = order[up_at], order[up_at - 1]
        free = limit.get(up, 0) - sum(1 for r in rank.values() if r == up)
        while free > 0:
            eligible = [by_id[k] for k, r in rank.items() if r == below and by_id[k].survived and k not in moved]
            if not eligible:
                break
            best = max((v.missions, v.kills) for v in eligible)
            tied = sorted((v for v in eligible if (v.missions, v.kills) == best), key=lambda v: v.id)
            pick = tied[0]
            if len(tied) > 1:
                face, index = dice.d(len(tied), "promotion", f"tie for {up}")
                rolls.append(Roll(actor="promotion", purpose=f"tie for {up}", expr=f"1d{len(tied)}", faces=(face,),
                                  formula=f"d{len(tied)} {face} → {tied[face - 1].id}", total=face, index=index))
                pick = tied[face - 1]
            rank[pick.id] = up
            moved.add(pick.id)
            free -= 1
    return {k: r for k, r in rank.items() if r != by_id[k].rank}, rolls
