"""annihilation between missions (the campaign seam, engine/campaign/seam.py): A-5 ranks and A-6.1 experience
after each mission, through the one path the roster uses (practice.debrief in the mission, creator.debrief after
it); wounds kept on the record and healed in days of rest (Interpretation: content/annihilation/campaign.toml,
docs/rules-notes.md); the dead kept, never deployed; the stores (outfit.Stores, the campaign's base: campaign.toml
`stock`) the kit is issued from, which lose what the dead carried and gain what a won mission leaves on the ground
(`recovers`; a campaign without stores names it in the debrief); a rookie who joins while too few are fit for a
squad (`recruit_days`, `roster_cap`: the one order). No funding."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.campaign.seam import NAMES, Baseless, Offer, Order, Outcome, Timer
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.annihilation.character import baseline
from engine.rules.annihilation.creator import SHORT, AnnihilationCreation, Recruit, _id, _tid
from engine.rules.annihilation.deploy_schema import Campaign
from engine.rules.annihilation.outfit import Stores
from engine.content import missions
from engine.rules.annihilation.board import field_of
from engine.rules.annihilation.soldier import Soldier, name_of

ID = "annihilation"


def heal_key(r: Recruit) -> str:
    return f"heal:{_id(r.name)}:{r.heals}"


class AnnihilationDowntime(Baseless):
    title = "annihilation"

    def __init__(self, content) -> None:
        self.creation = AnnihilationCreation(content)
        self.book = self.creation.book
        self.rules = content.rules[ID].get("campaign", {}).get("standard", Campaign())
        self.squad = max((self.creation.places(m) for m in content.missions), default=0)  # the largest squad

    def begin(self, records: tuple[Any, ...], dice: Dice) -> Outcome:
        if self.rules.stock is None:
            return Outcome(records=tuple(records))
        return Outcome(records=tuple(records), base=Stores(dict(sorted(self.rules.stock.items()))))

    def unfit(self, r: Recruit) -> bool:
        """Interpretation: too badly wounded to deploy while healing: half Hth lost, 4 wounds, or a limb gone."""
        hth = r.stats["health"]
        return bool(r.limbs) or r.wounds >= self.rules.unfit_wounds or 100 * r.hurt >= self.rules.unfit_percent * hth

    def deploy_refusal(self, record: Any, base: Any, busy: Mapping[str, int]) -> str | None:
        """The dead; the unfit while healing; with `healed_only` (Interpretation) anyone still healing: the
        source has no carried damage, and a soldier deployed at full Health while wounded would heal by flying."""
        if record.dead:
            return f"{record.name} is dead"
        key = heal_key(record)
        if key in busy and (self.unfit(record) or self.rules.healed_only):
            hth = record.stats["health"]
            limbs = f", {record.limbs} limb{'s' if record.limbs > 1 else ''} to regrow" if record.limbs else ""
            left = busy[key] if isinstance(busy, Mapping) else 0
            days = f", {left} day{'' if left == 1 else 's'} left" if left > 0 else ""
            return (f"{record.name} is convalescing: Health {hth - record.hurt}/{hth}, {record.wounds} "
                    f"wound{'' if record.wounds == 1 else 's'}{limbs}{days}")
        return None

    def debrief(self, records: tuple[Any, ...], base: Any, state: Any, deployed: tuple[str, ...],
                won: bool, dice: Dice) -> Outcome:
        living = [r for r in records if not r.dead]
        kept, rolls = self.creation.debrief(living, state, dice)  # experience, promotion, the dead gone
        after = {r.name: r for r in kept}
        units = {u.template: u for u in state.units.values() if isinstance(u.record, Soldier)}
        out, notes, timers, cancel, dead = [], [], [], [], []
        went = {_id(name) for name in deployed}
        for was in records:
            if was.dead:
                out.append(was)
                continue
            if was.name not in after:
                out.append(attrs.evolve(was, dead=True))
                dead.append(was.name)
                notes.append(f"{was.name} died on the mission")
                continue
            now = after[was.name]
            unit = units.get(_tid(was.name)) if _id(was.name) in went else None
            notes += self._changes(was, now, unit.record.fighter if unit is not None else None)
            if unit is not None:
                now, timer = self._wounds(now, unit.record.fighter)
                if timer is not None:
                    if was.hurt or was.wounds or was.limbs:
                        cancel.append(heal_key(was))
                    timers.append(timer)
                    notes.append(f"{now.name}: {timer.label.removeprefix(now.name + ' ')}")
            out.append(now)
        things = self._recovered(state) if won and self.rules.recovers else []
        if not isinstance(base, Stores):
            notes += [f"Recovered from the field (no stores in this campaign: listed here): {self._words(things)}"
                      ] if things else []
            return Outcome(records=tuple(out), rolls=tuple(rolls), notes=tuple(notes), timers=tuple(timers),
                           cancel=tuple(cancel), dead=tuple(dead))
        held = dict(base.held)
        for was in records:
            if was.name in dead and was.outfit is not None:  # Interpretation: the fallen's kit is lost with them
                taken = self.creation.outfitter.taken(was.outfit)
                held = {k: n - taken.get(k, 0) for k, n in held.items()}
                notes.append(f"Lost with {was.name}: {self._words([k for k, n in taken.items() for _ in range(n)])}")
        kept = [t for t in things if self._stocked(t)]
        for thing in kept:
            held[thing] = held.get(thing, 0) + 1
        if kept:
            notes.append(f"Recovered from the field into the stores: {self._words(kept)}")
        if len(kept) < len(things):
            notes.append("Recovered, not kept in the stores: "
                         f"{self._words([t for t in things if not self._stocked(t)])}")
        stores = Stores({k: n for k, n in sorted(held.items()) if n > 0})
        return Outcome(records=tuple(out), base=stores, rolls=tuple(rolls), notes=tuple(notes),
                       timers=tuple(timers), cancel=tuple(cancel), dead=tuple(dead))

    def _stocked(self, thing: str) -> bool:
        """A thing the stores keep: armour, a weapon, a sight, an item or an explosive (clips and rounds come with
        their weapon; a body is no kit)."""
        b = self.book
        return any(thing in table for table in (b.armour, b.weapons, b.items, b.explosives))

    def _words(self, things: list[str]) -> str:
        counted = {name_of(self.book, t): things.count(t) for t in things}
        return ", ".join(f"{n} × {name}" if n > 1 else name for name, n in counted.items())

    def _recovered(self, state: Any) -> list[str]:
        """A-12.2 at a won mission's end: everything on the ground, and the kit of the aliens left unconscious
        (a dead one's lies on the ground already), by id."""
        things = [d.item.id for d in field_of(state).ground]
        return things + [c.id for u in sorted(state.units.values(), key=lambda u: u.id)
                         if u.side == missions.ALIENS and isinstance(u.record, Soldier) and u.status != "dead"
                         and u.record.fighter.status == "unconscious" for c in u.record.kit]

    def _changes(self, was: Recruit, now: Recruit, fighter=None) -> list[str]:
        """The stats, skills and rank a mission changed, in words; Stamina's with why (the wounds it took)."""
        risen = [f"{SHORT[k]} {v} → {now.stats[k]}" + (self._stamina(v, now.stats[k], fighter) if k == "stamina"
                                                         else "")
                 for k, v in was.stats.items() if now.stats[k] != v]
        held = was.skills or dict(baseline(self.book))  # an empty record holds the military baseline
        risen += [f"{self.book.skills[k].name} {held.get(k, 0)}% → {now.skills.get(k, 0)}%"
                  for k in self.book.skills if now.skills and held.get(k, 0) != now.skills.get(k, 0)]
        if now.rank != was.rank:
            risen.append(f"{self.book.ranks[was.rank].name} → {self.book.ranks[now.rank].name}")
        return [f"{was.name}: {', '.join(risen)}"] if risen else []

    def _stamina(self, was: int, now: int, fighter) -> str:
        """Why Stamina changed: A-19.7 takes it permanently, per wound, as each wound is rolled in the mission (the
        mission log's hit has the roll); A-6.1's improvement rolls may add to it."""
        wounds = sum(p.total for _, p in fighter.wounds) if fighter is not None else 0
        lost = min(was, self.book.settings.permanent_stamina_per_wound * wounds)  # stops at 0
        if not lost:
            return ""
        use = now - was + lost
        each = f"{wounds} wound{'' if wounds == 1 else 's'} × −{self.book.settings.permanent_stamina_per_wound}"
        return f" ({each}, A-19.7" + (f"; {use:+d} by use, A-6.1)" if use else ")")

    def _wounds(self, r: Recruit, fighter) -> tuple[Recruit, Timer | None]:
        """The Health a mission took (it deployed at full Health) and its wounds, healing in days of rest."""
        hth = r.stats["health"]
        lost = max(0, hth - max(0, fighter.health))
        wounds = sum(p.total for _, p in fighter.wounds)
        limbs = len(fighter.lost)
        if not (lost or wounds or limbs):
            return r, None
        days, shown, _ = self.rules.heal_days.evaluate({"lost": lost, "wounds": wounds}, rounding="down")
        days = max(1, days) + limbs * self.rules.limb_days
        r = attrs.evolve(r, hurt=lost, wounds=wounds, limbs=limbs, heals=r.heals + 1)
        extra = f" + {limbs}×{self.rules.limb_days} for the limb{'s' if limbs > 1 else ''}" if limbs else ""
        label = (f"{r.name} heals: Health {hth - lost}/{hth}, {wounds} wound{'' if wounds == 1 else 's'}, "
                 f"{self.rules.heal_days.text} = {shown}{extra} → {days} days")
        return r, Timer(days=days, key=heal_key(r), label=label, who=r.name)

    def due(self, records: tuple[Any, ...], base: Any, timer: Timer, dice: Dice) -> Outcome:
        if timer.key.startswith("recruit:"):
            return Outcome(records=tuple(records), notes=("a rookie may join again",))
        out, notes = [], []
        for r in records:
            if timer.key == heal_key(r) and (r.hurt or r.wounds or r.limbs) and not r.dead:
                notes.append(f"{r.name} is healed: Health {r.stats['health']}/{r.stats['health']}")
                r = attrs.evolve(r, hurt=0, wounds=0, limbs=0)
            out.append(r)
        return Outcome(records=tuple(out), notes=tuple(notes))

    def offers(self, records: tuple[Any, ...], base: Any, funding: int,
               busy: Mapping[str, int]) -> tuple[Offer, ...]:
        name = self._rookie(records)
        if self._no_recruit(records, base, busy) is not None or name is None:
            return ()
        days = self.rules.recruit_days
        roll = self.book.settings.stat_roll.text.replace(" ", "")  # 7d10+10
        return (Offer(Order("recruit", name), f"Recruit a rookie: {name} ({roll}; the next in "
                                              f"{days} day{'' if days == 1 else 's'})"),)

    def order(self, records: tuple[Any, ...], base: Any, funding: int, busy: Mapping[str, int],
              order: Order, dice: Dice) -> Outcome | Rejected:
        if order.kind != "recruit":
            return Rejected("no_orders", self.refuse_order(order))
        why = self._no_recruit(records, base, busy)
        if why is not None:
            return Rejected("no_recruit", why)
        name = order.who or self._rookie(records)
        if name is None or not 0 < len(name) <= 24 or not name.isprintable() or not _id(name) or \
                _id(name) in {_id(r.name) for r in records}:
            return Rejected("no_name", f"a rookie needs a name of 1 to 24 printable characters nobody on the roster "
                                       f"has: {name[:30]!r}")
        made, rolls = self.creation.create(attrs.evolve(self.creation.draft(), name=name), dice)
        timer = Timer(days=self.rules.recruit_days, key=f"recruit:{_id(name)}", label="the next rookie may join")
        return Outcome(records=tuple(records) + (made,), rolls=tuple(rolls),
                       timers=(timer,), notes=(f"{name} joins the squad: {made.rolled}",))

    def _no_recruit(self, records: tuple[Any, ...], base: Any, busy: Mapping[str, int]) -> str | None:
        """Why no rookie may join now (Interpretation: the source has no recruiting, and no funding to hire
        with): none in this campaign, one joined too lately, the roster full, or enough fit for a squad."""
        if not self.rules.recruit_days:
            return "this campaign takes no recruits"
        waiting = [busy[key] if isinstance(busy, Mapping) else 0 for key in busy if key.startswith("recruit:")]
        if waiting:
            left = max(waiting)
            return "the next rookie may join " + (f"in {left} day{'' if left == 1 else 's'}" if left > 0 else "later")
        living = [r for r in records if not r.dead]
        if len(living) >= self.rules.roster_cap:
            return f"the roster is full: {len(living)} of {self.rules.roster_cap} soldiers living"
        fit = sum(1 for r in living if self.deploy_refusal(r, base, busy) is None)
        if fit >= self.squad:
            return f"{fit} soldiers are fit, enough for a squad of {self.squad}"
        return None

    def _rookie(self, records: tuple[Any, ...]) -> str | None:
        """The next recruit's name: the first of the campaign's names nobody had, then "Rookie N"."""
        taken = {_id(r.name) for r in records}
        names = [*NAMES, *(f"Rookie {n}" for n in range(1, len(records) + 2))]
        return next((n for n in names if _id(n) not in taken), None)

    def refuse_order(self, order: Order) -> str:
        return (f"annihilation has no between-mission orders ({order.kind!r}) but recruiting a rookie: its "
                "soldiers improve by use in missions (A-6.1); skills are bought with `roster train`")
