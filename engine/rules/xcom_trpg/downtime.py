"""xcom-trpg between episodes (the campaign seam, engine/campaign/seam.py): 6.1's HP, the rolled maximum, kept on
the record (current HP = that maximum at every episode's start, so no damage carries over); 4.8's secret personal
quest, one per soldier drawn on the campaign's dice at its episode's start, kept on its record and judged at the
debrief; 6.2's knock-out at HP −5…0 that misses the next episode and 6.3's death, kept; 2.4's epic characters,
bought with bonuses (the campaign's funding) at campaign.toml's prices, converted from a human, and half their
price back when one dies. No base. Content: campaign.toml, quests.toml (docs/rules-notes.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.campaign.seam import Baseless, Offer, Order, Outcome, Timer
from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.rules.xcom_trpg import creation as c
from engine.rules.xcom_trpg.combat import DEATH_BELOW
from engine.rules.xcom_trpg.models import Campaign, Quest
from engine.rules.xcom_trpg.record import Soldier
from engine.rules.xcom_trpg.tables import xcom

ID = c.ID


class XcomDowntime(Baseless):
    title = "xcom-trpg"
    funded = True  # its bonuses (2.4)

    def __init__(self, content) -> None:
        self.content = content
        own = xcom(content)
        self.rules: Campaign = getattr(own, "campaign", {}).get("standard", Campaign())
        self.quests: dict[str, Quest] = dict(getattr(own, "quests", {}))
        self.races = own.races

    # -- the start of an episode: the secret quests --------------------------------------------------------

    def _draw(self, records: list[Any], dice: Dice) -> tuple[list[Any], list[Roll], list[str]]:
        """4.8: every living soldier without a quest draws one, in roster order, on a die of as many sides as
        quests.toml has; the roll and the record hold it, the note does not say which (it is its player's)."""
        ids = list(self.quests)
        out, rolls, notes = [], [], []
        for r in records:
            if r.dead or r.quest or not ids:
                out.append(r)
                continue
            face, index = dice.d(len(ids), c.key(r.name), "personal quest")
            rolls.append(Roll(actor=c.key(r.name), purpose="personal quest", expr=f"1d{len(ids)}", faces=(face,),
                              formula=f"d{len(ids)} {face}: a secret personal quest (4.8)", total=face, index=index))
            notes.append(f"{r.name} draws a secret personal quest (4.8), told to {r.name}'s player alone")
            out.append(attrs.evolve(r, quest=ids[face - 1]))
        return out, rolls, notes

    def begin(self, records: tuple[Any, ...], dice: Dice) -> Outcome:
        out, rolls, notes = self._draw(list(records), dice)
        return Outcome(records=tuple(out), funding=self.rules.start_bonuses, rolls=tuple(rolls), notes=tuple(notes))

    def mission_params(self) -> dict[str, Any]:
        """4.8: the extra turns after the main objectives, from campaign.toml (outside the mission hash)."""
        return {"extra_turns": self.rules.extra_turns} if self.rules.extra_turns else {}

    def quest(self, record: Any) -> Quest | None:
        """The soldier's secret quest, for its player's eyes (the client shows it on that soldier alone)."""
        return self.quests.get(record.quest)

    # -- deploying -------------------------------------------------------------------------------------------

    def _price(self, race: str) -> int:
        return self.rules.prices.get(race, 0)

    def deploy_refusal(self, record: Any, base: Any, busy: Mapping[str, int]) -> str | None:
        if record.dead:
            return f"{record.name} is dead"
        if record.sits_out:
            return f"{record.name} misses this episode: knocked out at HP −5…0 in the last one (6.2)"
        race = self.races[record.race]
        if race.epic and not record.bought:
            return f"{record.name} is an epic {race.name}: buy it first ({self._price(record.race)} bonuses, 2.4)"
        return None

    # -- the end of an episode -----------------------------------------------------------------------------

    def debrief(self, records: tuple[Any, ...], base: Any, state: Any, deployed: tuple[str, ...],
                won: bool, dice: Dice) -> Outcome:
        units = {u.template: u for u in state.units.values() if isinstance(u.record, Soldier)}
        out, notes, dead, funding = [], [], [], self.rules.win_bonuses if won else 0
        if won and funding:
            notes.append(f"The episode is won: +{funding} bonuses")
        went = {c.key(name) for name in deployed}
        for r in records:
            unit = units.get(f"roster_{c.key(r.name)}") if c.key(r.name) in went and not r.dead else None
            if r.dead:
                out.append(r)
            elif unit is None:
                if r.sits_out:
                    r = attrs.evolve(r, sits_out=r.sits_out - 1, missed=r.missed + 1)
                    notes.append(f"{r.name} missed the episode (6.2)")
                out.append(r)
            elif unit.status == "dead" or unit.hp < DEATH_BELOW:
                back = self._price(r.race) * self.rules.refund_percent // 100 if r.bought else 0
                notes.append(f"{r.name} died in the episode (6.3)")
                if back:
                    notes.append(f"{r.name} was an epic {self.races[r.race].name}: {self.rules.refund_percent}% of "
                                 f"its {self._price(r.race)} bonuses back, {back}; it returns to the X-shop (2.4)")
                funding += back
                out.append(attrs.evolve(r, dead=True, quest=""))
                dead.append(r.name)
            else:
                r, lines, bonus = self._back(r, unit, won)
                notes += lines
                funding += bonus
                out.append(r)
        out, rolls, drawn = self._draw(out, dice)
        return Outcome(records=tuple(out), funding=funding, rolls=tuple(rolls), notes=tuple(notes + drawn),
                       dead=tuple(dead))

    def _back(self, r: Any, unit: Any, won: bool) -> tuple[Any, list[str], int]:
        """A soldier who came back: its quest judged, its HP back to the maximum, a knock-out's missed episode."""
        notes, bonus = [], 0
        quest = self.quests.get(r.quest)
        done = quest is not None and self.judge(quest, unit, won)
        if quest is not None:
            bonus = self.rules.quest_bonuses if done else 0
            notes.append(f"{r.name}'s secret quest, {quest.name} ({quest.text}): "
                         + (f"done, +{bonus} bonuses" if done else "not done"))
        r = attrs.evolve(r, episodes=r.episodes + 1, quest="", quests_done=r.quests_done + int(done))
        if unit.hp < unit.hp_max:
            notes.append(f"{r.name}: HP {unit.hp}/{unit.hp_max}, {unit.hp_max} again at the next episode's start (6.1)")
        if unit.hp <= 0:
            r = attrs.evolve(r, sits_out=self.rules.missed_episodes)
            notes.append(f"{r.name}: knocked out at HP {unit.hp}, misses the next episode (6.2)")
        return r, notes, bonus

    @staticmethod
    def judge(quest: Quest, unit: Any, won: bool) -> bool:
        """4.8: whether the soldier did its quest, by the state it ends the episode in."""
        s: Soldier = unit.record
        standing = unit.status == "active"
        return {"unhurt": unit.hp >= unit.hp_max, "standing": standing, "won": won and standing,
                "magazines": s.magazines >= quest.count, "morale": s.morale >= quest.count,
                "calm": s.concussion == 0}[quest.goal]

    def due(self, records: tuple[Any, ...], base: Any, timer: Timer, dice: Dice) -> Outcome:
        return Outcome(records=tuple(records))  # it sets no timers: episodes are not days

    # -- buying epics (2.4) ----------------------------------------------------------------------------------

    def offers(self, records: tuple[Any, ...], base: Any, funding: int,
               busy: Mapping[str, int]) -> tuple[Offer, ...]:
        """Buying each epic of the roster not paid for yet, then converting each living Earthling into each epic a
        human may become (its points placed by `placed`), those the funding covers. The campaign AI gives the first
        (docs/rules-notes.md): an epic made in the roster, else the first Earthling in roster order (the first the
        AI deploys) into the first of campaign.toml's `converts`."""
        bought = tuple(Offer(Order("buy", r.name), f"Buy {r.name}, an epic {self.races[r.race].name} "
                                                   f"({self._price(r.race)} bonuses)", self._price(r.race))
                       for r in records if not r.dead and self.races[r.race].epic and not r.bought
                       and self._price(r.race) <= funding)
        return bought + self._conversions(records, funding)

    def _conversions(self, records: tuple[Any, ...], funding: int) -> tuple[Offer, ...]:
        names = c.stat_names(self.content)
        out = []
        for r in records:
            race = self.races[r.race]
            if r.dead or race.alien or race.epic:
                continue
            for into in self.rules.converts:
                price = self.rules.prices.get(into)
                where = self.placed(r, into) if price is not None and price <= funding else None
                if where is None:
                    continue
                added = ", ".join(f"{k} +{p}" for k, p in zip(names, where) if p)
                out.append(Offer(Order("buy", r.name, into, where),
                                 f"Convert {r.name} into {c.article(self.races[into])} ({added}; {price} bonuses)",
                                 price))
        return tuple(out)

    def placed(self, r: Any, into: str) -> tuple[int, ...] | None:
        """A conversion's points (2.4: campaign.toml's `convert_points` and the Psionics refunded), one at a time on
        the lowest stat that may take one (the first in rulesets.toml's order on a tie); None if they do not fit."""
        names = c.stat_names(self.content)
        stats = {k: 0 if k == "psionics" else r.stats.get(k, 0) for k in names}
        for _ in range(self.rules.convert_points + r.stats.get("psionics", 0)):
            room = [k for k in names if c.refusal(self.content, into, k, stats[k] + 1) is None]
            if not room:
                return None
            stats[min(room, key=lambda k: stats[k])] += 1
        if c.check(self.content, into, stats):
            return None
        return tuple(stats[k] - (0 if k == "psionics" else r.stats.get(k, 0)) for k in names)

    def order(self, records: tuple[Any, ...], base: Any, funding: int, busy: Mapping[str, int],
              order: Order, dice: Dice) -> Outcome | Rejected:
        """`buy` NAME: pay for an epic made in the roster; `buy` NAME `what`=mech_trooper|gmz `where`=points: convert a
        human into that epic, all stats kept, Psionics refunded, the 6 points and the refund placed by `where`
        (one number per stat, in rulesets.toml's order)."""
        if order.kind != "buy":
            return Rejected("no_such_order", f"xcom-trpg has one order between episodes, buy (an epic, 2.4), "
                                             f"not {order.kind!r}")
        at = next((i for i, r in enumerate(records) if c.key(r.name) == c.key(order.who)), None)
        if at is None:
            return Rejected("no_such_soldier", f"nobody called {order.who!r} on the roster")
        r = records[at]
        if r.dead:
            return Rejected("dead", f"{r.name} is dead")
        made = self._convert(r, order) if order.what else self._bought(r)
        if isinstance(made, Rejected):
            return made
        price = self._price(made.race)
        if price > funding:
            return Rejected("funding", f"an epic {self.races[made.race].name} costs {price} bonuses; "
                                       f"there are {funding}")
        was = f" from a {self.races[r.race].name}" if made.race != r.race else ""
        return Outcome(records=tuple(made if i == at else x for i, x in enumerate(records)), funding=-price,
                       notes=(f"{r.name} bought as an epic {self.races[made.race].name}{was}: {price} bonuses (2.4)",))

    def _bought(self, r: Any) -> Any | Rejected:
        race = self.races[r.race]
        if not race.epic:
            return Rejected("not_epic", f"{r.name} is {c.article(race)}: only an epic is bought (2.4); convert "
                                        f"one with what = {' or '.join(self.rules.converts)}")
        if r.bought:
            return Rejected("bought", f"{r.name} is bought already")
        if r.race not in self.rules.prices:
            return Rejected("no_price", f"the X-shop sells no {race.name} (campaign.toml prices)")
        return attrs.evolve(r, bought=True)

    def _convert(self, r: Any, order: Order) -> Any | Rejected:
        """2.4: mech-trooper and GMZ from an existing character: stats kept, +6 points up to 42, psi refunded."""
        into = order.what
        if into not in self.races or not self.races[into].epic:
            return Rejected("not_epic", f"{into!r} is not an epic race; one of {', '.join(self.rules.prices)}")
        if into not in self.rules.converts:
            return Rejected("always_new", f"{c.article(self.races[into])} is always new (2.4): make one in the "
                                          "roster, then buy it")
        if self.races[r.race].alien or self.races[r.race].epic:
            return Rejected("not_human", f"{r.name} is {c.article(self.races[r.race])}: only an Earthling is "
                                         f"converted into {c.article(self.races[into])} (2.4)")
        names = c.stat_names(self.content)
        points = self.rules.convert_points + r.stats.get("psionics", 0)
        if len(order.where) != len(names) or any(p < 0 for p in order.where) or sum(order.where) != points:
            return Rejected("points", f"place {points} points ({self.rules.convert_points} and the psionics "
                                      f"refunded) as where = one number per stat: {', '.join(names)}")
        stats = {k: (0 if k == "psionics" else r.stats[k]) + p for k, p in zip(names, order.where)}
        problems = c.check(self.content, into, stats)
        if problems:
            return Rejected("points", f"{r.name} as {c.article(self.races[into])}: {problems[0]}")
        hp = xcom(self.content).rulesets[ID].hp
        was = c.final_stats(self.content, r)
        die = r.hp - hp.evaluate(was, lambda sides: 0)[0]  # the 1d10 rolled once (6.1), kept
        new = attrs.evolve(r, race=into, stats=stats, bought=True)
        total, shown, _ = hp.evaluate(c.final_stats(self.content, new), lambda sides: die)
        return attrs.evolve(new, hp=total, hp_roll=f"{r.hp_roll}; converted (2.4): hp {shown}")
