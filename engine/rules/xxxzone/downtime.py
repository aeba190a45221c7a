"""xxxzone between missions (8.2, 13, 14, 15) through the campaign's `Downtime` seam: wounds kept and healed,
training at the base's facilities, Luck by gambling, monthly Funding, hiring, recruits; building, moving and new
bases are in baseorders.py.

Timer keys: "heal:NAME:N" (a kept wound), "train:NAME" (its course), "gamble:NAME" (its binge),
"build:KEY" (a facility built or moved), "found:SITE" (a new base). The records are the roster's `Recruit`s; the
base a `basework.Base` (every base of the campaign).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import attrs

from engine.campaign.seam import NAMES, Offer, Order, Outcome, Plot, Timer
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.xxxzone import basework as bw
from engine.rules.xxxzone import baseorders as bo
from engine.rules.xxxzone import policy
from engine.rules.xxxzone.baseorders import article, days_text
from engine.rules.xxxzone.battle import Combatant
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.campaign import gamble, heal_days
from engine.rules.xxxzone.character import SHORT, Operative
from engine.rules.xxxzone.creator import ID, Kept, Recruit, XxxzoneCreation, _id
from engine.rules.xxxzone.salvage import salvage
from engine.rules.xxxzone.schema import ATTRIBUTES
from engine.rules.xxxzone.training import Training, role_name

SERIOUS = ("severe", "mortal", "lethal")  # 8.2 (Interpretation): any of these unhealed keeps one convalescing


class XxxzoneDowntime:
    funded = True

    def __init__(self, content) -> None:
        self.content = content
        self.book = Book.of(content.rules[ID])
        self.training = Training(self.book, self.op)
        self.creation = XxxzoneCreation(content)
        # the most places of a mission: the squad the campaign AI keeps ready to fly (policy.py)
        self.squad = max((self.creation.places(m) for m in content.missions), default=0)

    # -- the operatives -------------------------------------------------------------------------------

    def op(self, r: Recruit) -> Operative:
        return Operative(id=_id(r.name), name=r.name, attributes=r.attributes, gender=r.gender, star=r.star,
                         abilities=tuple(r.abilities), armour=r.armour or self.book.kits["starting"].armour, kit=r.kit)

    def _tier(self, tier: str) -> str:
        return self.book.wounds[tier].name

    def convalescing(self, r: Recruit, busy: Mapping[str, int] | None = None) -> str | None:
        """Why `r` is convalescing, or None; with the running timers, also the days until the last serious wound
        heals (the campaign knows the day, the record only its wounds' timer keys)."""
        serious = [w for w in r.wounds if w.tier in SERIOUS]
        if not serious:
            return None
        counts = {t: sum(1 for w in serious if w.tier == t) for t in SERIOUS}
        told = ", ".join(f"{n} {self._tier(t)}{'s' if n > 1 else ''}" for t, n in counts.items() if n)
        left = [busy[w.key] for w in serious if isinstance(busy, Mapping) and w.key in busy]
        when = f", {days_text(max(left))} left" if left else ""  # before the wounds: a narrow list cuts the end off
        return f"{r.name} is convalescing{when}: {told} to heal"

    def deploy_refusal(self, record: Recruit, base, busy: Mapping[str, int]) -> str | None:
        if record.dead:
            return f"{record.name} is dead"
        if (why := self.convalescing(record, busy)) is not None:
            return why
        if f"gamble:{record.name}" in busy:
            return f"{record.name} is away on a gambling binge"
        return None

    def deploy_caveat(self, record: Recruit, base, busy: Mapping[str, int]) -> str | None:
        """14.2: training needs uninterrupted days, so a mission breaks a course off (the debrief says so)."""
        if not record.course or record.dead:
            return None
        left = busy.get(f"train:{record.name}")
        when = f", {days_text(left)} left" if left else ""
        return f"going breaks off {record.name}'s course in {self._course(record.course)}{when}"

    # -- a new campaign, a month ------------------------------------------------------------------------

    def begin(self, records: tuple, dice: Dice) -> Outcome:
        camp = self.book.campaign
        base, problems = bw.lay_out(self.book, camp.start, camp.start_staff)
        if problems:  # `content check` refuses such content first
            raise ValueError(f"campaign.toml: the starting base: {problems[0]}")
        built = ", ".join(self.book.facilities[p.facility].name for p in base.placed)
        return Outcome(records=tuple(records), base=base, funding=camp.start_funding,
                       notes=(f"The starting base: {built}", f"Starting funding: {camp.start_funding}F"))

    def month(self, records: tuple, base, dice: Dice) -> Outcome:
        """15: the base income, +1F for each living operative with Poster Boy and again with Schmooze."""
        camp = self.book.campaign
        parts = [f"{camp.monthly_income}F"]
        total = camp.monthly_income
        for r in records:
            for ability in ("poster_boy", "schmooze"):
                if not r.dead and ability in r.abilities:
                    total += camp.poster_income
                    parts.append(f"{self.book.abilities[ability].name} ({r.name}) {camp.poster_income}F")
        return Outcome(records=tuple(records), base=base, funding=total,
                       notes=(f"Monthly funding: {' + '.join(parts)} = {total}F",))

    # -- after a mission ------------------------------------------------------------------------------

    def debrief(self, records: tuple, base, state, deployed: tuple[str, ...], won: bool, dice: Dice) -> Outcome:
        """Wounds taken are kept, each with its heal timer rolled (Fast Healing's dice); the dead stay dead; a
        course is broken off by going. A Dying operative carried home is stabilised (Interpretation)."""
        units = {u.record.op.name: u.record for u in state.units.values() if isinstance(u.record, Combatant)}
        out, timers, cancel, rolls, notes, dead = [], [], [], [], [], []
        for r in records:
            c = units.get(r.name)
            if r.dead or r.name not in deployed or c is None:
                out.append(r)
                continue
            if r.course:
                cancel.append(f"train:{r.name}")
                notes.append(f"{r.name}: the course in {self._course(r.course)} is broken off by the mission")
                r = attrs.evolve(r, course="")
            if c.condition.dead:
                dead.append(r.name)
                cancel += [w.key for w in r.wounds]
                notes.append(f"{r.name} died on the mission")
                out.append(attrs.evolve(r, dead=True, wounds=()))
                continue
            r, more, treated = self._wounds(r, c, dice)
            cancel += treated
            notes += [f"{r.name}: a Minor Wound brought along was treated on the mission"] * len(treated)
            for timer, roll, note in more:
                timers.append(timer)
                rolls += [roll] if roll is not None else []
                notes.append(note)
            out.append(r)
        funding = 0
        if won:
            home = [r for r in out if r.name in deployed and not r.dead]
            funding, more_rolls, more_notes = salvage(self.book, state, home, dice)
            rolls += more_rolls
            notes += more_notes
        return Outcome(records=tuple(out), base=base, funding=funding, timers=tuple(timers), cancel=tuple(cancel),
                       rolls=tuple(rolls), notes=tuple(notes), dead=tuple(dead))

    def _wounds(self, r: Recruit, c: Combatant, dice: Dice):
        """The mission's new wounds: its Minor ones less those the operative brought (a med-kit may have
        treated some of those: they are healed)."""
        w = c.condition.wounds
        brought = [k for k in r.wounds if k.tier == "minor" and not k.ignored]
        treated = {k.key for k in brought[:max(0, len(brought) - w.minor)]}
        kept, more, serial = [k for k in r.wounds if k.key not in treated], [], r.serial
        op = self.op(r)
        new = {t: w.count(t) - (len(brought) if t == "minor" else 0) for t in self.book.tiers()}
        taken = [(t, False, False) for t in self.book.tiers() for _ in range(max(0, new[t]))]
        taken += [("severe", False, True)] * w.spared_severe + [("minor", True, False)] * w.ignored_minor
        for tier, ignored, spared in taken:
            serial += 1
            key = f"heal:{r.name}:{serial}"
            name = self._tier(tier)
            label = f"{r.name}'s {name} heals"
            if ignored:
                days = self.book.campaign.heal_ignored_days
                more.append((Timer(days, key, label, r.name), None,
                             f"{r.name}: {name} (ignored by Toughness) heals in {days} day{'s' if days > 1 else ''}"))
            else:
                roll = heal_days(dice, self.book, op, tier)
                days = max(1, roll.total)
                fast = " (Fast Healing)" if op.has("fast_healing") else ""
                more.append((Timer(days, key, label, r.name), roll,
                             f"{r.name}: {name} heals in {roll.formula} days{fast}"))
            kept.append(Kept(tier=tier, key=key, ignored=ignored, spared=spared))
        return attrs.evolve(r, wounds=tuple(kept), serial=serial), more, tuple(sorted(treated))

    # -- timers ---------------------------------------------------------------------------------------

    def due(self, records: tuple, base, timer: Timer, dice: Dice) -> Outcome:
        kind, _, rest = timer.key.partition(":")
        records = tuple(records)
        if kind == "build":
            p = base.get(rest) if base is not None else None
            if p is None:
                return Outcome(records=records, base=base, notes=(f"{timer.label}: no such facility any more",))
            name = self.book.facilities[p.facility].name
            return Outcome(records=records, base=bw.finish(base, rest),
                           notes=(f"The {name} at {bw.spot(p.layer, p.x, p.y)} is ready",))
        if kind == "heal":
            return self._healed(records, base, timer)
        if kind == "found":
            return bo.founded(self.book, records, base, int(rest))
        who = next((i for i, r in enumerate(records) if r.name == rest and not r.dead), None)
        if who is None:
            return Outcome(records=records, base=base, notes=(f"{timer.label}: nobody to finish it",))
        r = records[who]
        if kind == "train" and r.course:
            done, note = self.training.finish(r)
            return Outcome(records=records[:who] + (done,) + records[who + 1:], base=base, notes=(note,))
        if kind == "gamble":
            op, refund, rolls = gamble(dice, self.book, self.op(r))
            done = attrs.evolve(r, attributes=op.attributes)
            luck = "Luck " + (f"{r.attributes.luck}→{op.attributes.luck}" if op.attributes.luck > r.attributes.luck
                              else f"stays {r.attributes.luck}")
            back = self.book.campaign.gamble_cost if refund else 0
            notes = (f"{r.name} is back from the binge: {rolls[0].formula}: {luck}",
                     f"{r.name}: {rolls[1].formula}: " + (f"{back}F won back" if refund else "the stake is lost"))
            return Outcome(records=records[:who] + (done,) + records[who + 1:], base=base, funding=back,
                           rolls=rolls, notes=notes)
        return Outcome(records=records, base=base, notes=(f"{timer.label}: nothing to do",))

    def _healed(self, records: tuple, base, timer: Timer) -> Outcome:
        for i, r in enumerate(records):
            wound = next((w for w in r.wounds if w.key == timer.key), None)
            if wound is not None:
                done = attrs.evolve(r, wounds=tuple(w for w in r.wounds if w.key != timer.key))
                note = f"{r.name}'s {self._tier(wound.tier)} has healed"
                if self.convalescing(r) and not self.convalescing(done):
                    note += f": {r.name} may deploy again"
                return Outcome(records=records[:i] + (done,) + records[i + 1:], base=base, notes=(note,))
        return Outcome(records=records, base=base, notes=(f"{timer.label}: the wound is gone already",))

    def _course(self, what: str) -> str:
        return SHORT[what] if what in ATTRIBUTES else self.book.abilities[what].name

    # -- orders ---------------------------------------------------------------------------------------

    def offers(self, records: tuple, base, funding: int, busy: Mapping[str, int]) -> tuple[Offer, ...]:
        """A recruit while a Barracks has room, every course and binge each free operative may start, every hire,
        and every fitting placement of each facility on built ground (moves are ordered from the base screen)."""
        out: list[Offer] = []
        if base is not None and funding >= self.book.campaign.recruit_cost and self._barracks(records, base) is None:
            name = _free_name(records)
            out.append(Offer(Order("recruit", name), f"Recruit a new operative: {name} "
                                                         f"({self.book.campaign.recruit_cost}F)",
                             self.book.campaign.recruit_cost))
        for r in records:
            if self._unfit(r, busy) is not None:
                continue
            for what in (*ATTRIBUTES, *self.book.abilities):
                plan = self.training.plan(r, base, what)
                if not isinstance(plan, Rejected):
                    out.append(Offer(Order("train", r.name, what), plan.label))
            if funding >= self.book.campaign.gamble_cost and r.attributes.luck < self.book.campaign.luck_max:
                out.append(Offer(Order("gamble", r.name), f"Send {r.name} gambling for a week "
                                                           f"({self.book.campaign.gamble_cost}F)",
                                 self.book.campaign.gamble_cost))
        if base is None:
            return policy.advise(self.book, self.squad, records, base, out, lambda r: self._unfit(r, busy))
        for role in self.book.campaign.housing:
            if funding >= self.book.campaign.hire_cost and self._housing(base, role) is None:
                out.append(Offer(Order("hire", what=role), f"Hire {article(role_name(role))} "
                                                           f"({self.book.campaign.hire_cost}F)",
                                 self.book.campaign.hire_cost))
        out += bo.offers(self.book, base, funding)
        return policy.advise(self.book, self.squad, records, base, out, lambda r: self._unfit(r, busy))

    def _unfit(self, r: Recruit, busy: Mapping[str, int]) -> str | None:
        if r.dead:
            return f"{r.name} is dead"
        if (why := self.convalescing(r, busy)) is not None:
            return why
        if f"train:{r.name}" in busy or r.course:
            return f"{r.name} is already training {self._course(r.course) if r.course else ''}".rstrip()
        if f"gamble:{r.name}" in busy:
            return f"{r.name} is away on a gambling binge"
        return None

    def _housing(self, base, role: str) -> str | None:
        """Why one more of `role` cannot be housed, or None."""
        where = self.book.campaign.housing[role]
        fac = self.book.facilities[where]
        room = fac.houses * len(base.built(where))
        housed = sum(base.staff_of(k) for k, v in self.book.campaign.housing.items() if v == where)
        if housed >= room:
            return f"no room: {len(base.built(where))} {fac.name} house {room}, and {housed} live there"
        return None

    def _barracks(self, records: tuple, base) -> str | None:
        """Why one more operative cannot be housed, or None: each Barracks houses `houses` living operatives."""
        fac = self.book.facilities["barracks"]
        built = len(base.built("barracks"))
        living = sum(1 for r in records if not r.dead)
        if living >= fac.houses * built:
            return f"no room: {built} {fac.name} house {fac.houses * built}, and {living} operatives live there"
        return None

    def _recruit(self, records: tuple, base, funding: int, order: Order, dice: Dice) -> Outcome | Rejected:
        """14.1: a new operative, its attributes rolled with the campaign's dice, joins the roster."""
        camp = self.book.campaign
        name = order.who.strip()
        if not name or len(name) > 24 or not name.isprintable():
            return Rejected("no_name", "a recruit needs a name of 1 to 24 printable characters")
        if any(r.name == name for r in records):
            return Rejected("name_taken", f"{name} is on the roster already")
        if (why := self._barracks(records, base)) is not None:
            return Rejected("no_room", why)
        if funding < camp.recruit_cost:
            return Rejected("funding", f"a recruit costs {camp.recruit_cost}F; the base has {funding}F")
        draft = attrs.evolve(self.creation.draft(), name=name)
        made, rolls = self.creation.create(draft, dice)
        return Outcome(records=records + (made,), base=base, funding=-camp.recruit_cost, rolls=rolls,
                       notes=(f"{name} joins the squad ({camp.recruit_cost}F): {made.rolled}",))

    def order(self, records: tuple, base, funding: int, busy: Mapping[str, int], order: Order,
              dice: Dice) -> Outcome | Rejected:
        records = tuple(records)
        camp = self.book.campaign
        if order.kind in ("train", "gamble"):
            who = next((i for i, r in enumerate(records) if r.name == order.who), None)
            if who is None:
                return Rejected("unknown_operative", f"no operative {order.who!r} on the roster")
            r = records[who]
            if (why := self._unfit(r, busy)) is not None:
                return Rejected("busy", why)
            if order.kind == "gamble":
                if funding < camp.gamble_cost:
                    return Rejected("funding", f"a binge costs {camp.gamble_cost}F; the base has {funding}F")
                if r.attributes.luck >= camp.luck_max:
                    return Rejected("cap", f"{r.name}'s Luck is {r.attributes.luck}, the most it can be")
                return Outcome(records=records, base=base, funding=-camp.gamble_cost,
                               timers=(Timer(camp.gamble_days, f"gamble:{r.name}", f"{r.name} is back from the "
                                                                                  f"binge", r.name),),
                               notes=(f"{r.name} goes gambling for {camp.gamble_days} days ({camp.gamble_cost}F)",))
            plan = self.training.plan(r, base, order.what)
            if isinstance(plan, Rejected):
                return plan
            done = attrs.evolve(r, course=order.what)
            return Outcome(records=records[:who] + (done,) + records[who + 1:], base=base,
                           timers=(Timer(plan.days, f"train:{r.name}", plan.done, r.name),), notes=(plan.label,))
        if base is None:
            return Rejected("no_base", "the campaign has no base yet")
        if order.kind == "hire":
            if order.what not in camp.housing:
                return Rejected("unknown_role", f"no staff to hire called {order.what!r}: one of "
                                                f"{', '.join(camp.housing)}")
            if (why := self._housing(base, order.what)) is not None:
                return Rejected("no_room", why)
            if funding < camp.hire_cost:
                return Rejected("funding", f"hiring costs {camp.hire_cost}F; the base has {funding}F")
            return Outcome(records=records, base=base.with_staff(order.what, base.staff_of(order.what) + 1),
                           funding=-camp.hire_cost, notes=(f"Hired {article(role_name(order.what))} ({camp.hire_cost}F)",))
        if order.kind == "recruit":
            return self._recruit(records, base, funding, order, dice)
        if order.kind in ("build", "move"):
            return bo.build(self.book, records, base, funding, order)
        if order.kind == "found":
            return bo.found(self.book, records, base, funding, order)
        return Rejected("unknown_order", f"xxxzone has no {order.kind!r} order: train, gamble, hire, recruit, "
                                         f"build, move or found")

    # -- the base screen ------------------------------------------------------------------------------

    def plots(self, base, site: int = 0) -> tuple[Plot, ...]:
        return () if base is None else bw.plots(self.book, base, site)

    def sites(self, base) -> tuple[str, ...]:
        return () if base is None else tuple(bo.site_name(i) for i in range(base.sites))

    def mission_params(self) -> dict:
        return {}  # nothing of its campaign goes into a mission's header

    def placement(self, base, facility: str, where: tuple[int, ...], moving: str = "",
                  site: int = 0) -> str | None:
        if base is None:
            return "the campaign has no base yet"
        if moving:
            if (refused := bo.movable(self.book, base, moving)) is not None:
                return refused.reason
            p = base.get(moving)
            facility, site = p.facility, p.site  # it moves within its own base, as itself
        return bw.placement(self.book, base, facility, where, moving=moving, site=site)

    def footprint(self, base, order: Order) -> frozenset[tuple[int, int, int]]:
        fid = order.what
        if order.kind == "move":
            fid = p.facility if base is not None and (p := base.get(order.what)) is not None else ""
        if order.kind not in ("build", "move") or fid not in self.book.facilities or len(order.where) < 3:
            return frozenset()
        w = order.where
        return bw.cells(self.book, fid, w[0], w[1], w[2], w[3] if len(w) > 3 else 0)

    def moves(self, base, site: int = 0) -> tuple[Offer, ...]:
        return () if base is None else bo.moves(self.book, base, site)


def _free_name(records: tuple) -> str:
    """The first name of the shared list nobody on the roster has; past it, "Ash 2", "Bishop 2", ..."""
    taken = {r.name for r in records}
    for k in itertools.count(1):
        for n in NAMES:
            if (name := n if k == 1 else f"{n} {k}") not in taken:
                return name
    raise AssertionError("unreachable")
