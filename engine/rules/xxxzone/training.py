"""14.2 at the base: which built facility trains what, its cap, the staff it needs, and the course's days."""

from __future__ import annotations

from typing import Callable

import attrs

from engine.core.commands import Rejected
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.campaign import ability_days, attribute_days
from engine.rules.xxxzone.character import SHORT, Operative
from engine.rules.xxxzone.schema import ATTRIBUTES

ROLES = {"bio_chemist": "Bio-chemist"}  # how a staff role reads where "_" -> " " will not do


def role_name(role: str) -> str:
    return ROLES.get(role, role.replace("_", " "))


@attrs.frozen
class Plan:
    days: int
    label: str  # "Train Sable's Per 5→6 at the Firing Range (18 days)"
    done: str  # the timer's label: "Sable finishes training Per 5→6"


class Training:
    def __init__(self, book: Book, op: Callable) -> None:
        self.book = book
        self.op = op  # Recruit -> Operative

    def _staffed(self, base, fid: str) -> Rejected | None:
        need = self.book.facilities[fid].needs
        if need and base.staff_of(need) < 1:
            return Rejected("no_staff", f"the {self.book.facilities[fid].name} needs a {role_name(need)} assigned: "
                                        f"hire one")
        return None

    def plan(self, r, base, what: str) -> Plan | Rejected:
        """The course `what` (an attribute or an ability id) for operative record `r`, or why not."""
        if base is None:
            return Rejected("no_base", "training needs the base's facilities")
        if what in ATTRIBUTES:
            return self._attribute(r, base, what)
        if what in self.book.abilities:
            return self._ability(r, base, what)
        return Rejected("unknown_course", f"{what!r} is neither an attribute nor an ability")

    def _attribute(self, r, base, what: str) -> Plan | Rejected:
        facs = self.book.facilities
        kinds = sorted((f for f, fac in facs.items() if what in fac.trains), key=lambda f: -facs[f].trains[what])
        if not kinds:
            return Rejected("not_trainable", f"{SHORT[what]} is not trained at any facility")
        built = [f for f in kinds if base.built(f)]
        if not built:
            names = " or ".join(f"a {facs[f].name}" for f in kinds)
            return Rejected("no_facility", f"{SHORT[what]} is trained at {names}: the base has none built")
        op: Operative = self.op(r)
        first: Rejected | None = None
        for fid in built:
            days = self._staffed(base, fid) or attribute_days(self.book, op, what, fid)
            if isinstance(days, Rejected):
                first = first or days
                continue
            now = op.printed(what)
            step = f"{SHORT[what]} {now}→{now + 1}"
            return Plan(days, f"Train {r.name}'s {step} at the {facs[fid].name} ({days} days)",
                        f"{r.name} finishes training {step}")
        assert first is not None
        return first

    def _ability(self, r, base, what: str) -> Plan | Rejected:
        a = self.book.abilities[what]
        days = ability_days(self.book, self.op(r), what)
        if isinstance(days, Rejected):
            return days
        fac = self.book.facilities[a.facility]
        if not base.built(a.facility):
            return Rejected("no_facility", f"{a.name} is trained at a {fac.name}: the base has none built")
        if (why := self._staffed(base, a.facility)) is not None:
            return why
        if a.teacher and self._teachers(base, a.teacher) < 1:
            return Rejected("no_teacher", f"{a.name} needs a {role_name(a.teacher)} to teach it: hire one")
        rank = " rank 2" if r.abilities.count(what) else ""
        return Plan(days, f"Train {r.name} in {a.name}{rank} at the {fac.name} ({days} days)",
                    f"{r.name} finishes training {a.name}{rank}")

    def _teachers(self, base, teacher: str) -> int:
        """A listed teacher; "scientist" (Scientist): any scientist on the staff (the engineers are not)."""
        if teacher == "scientist":
            return sum(base.staff_of(k) for k in self.book.campaign.housing if k != "engineer")
        return base.staff_of(teacher)

    def finish(self, r):
        """The course is done: +1 to the attribute, or the ability learnt (again, for a second rank)."""
        what = r.course
        if what in ATTRIBUTES:
            now = getattr(r.attributes, what)
            done = attrs.evolve(r, course="", attributes=attrs.evolve(r.attributes, **{what: now + 1}))
            return done, f"{r.name} finished training: {SHORT[what]} {now}→{now + 1}"
        done = attrs.evolve(r, course="", abilities=tuple(r.abilities) + (what,))
        return done, f"{r.name} finished training: {self.book.abilities[what].name}"
