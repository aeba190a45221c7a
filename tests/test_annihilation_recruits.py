"""Issue 18: annihilation's campaign takes a rookie (7d10+10 each stat, the campaign's dice) every
`recruit_days` days while fewer soldiers are fit than its largest squad, up to `roster_cap` living
(content/annihilation/campaign.toml); a bundle without the keys takes none."""

from __future__ import annotations

import attrs
import pytest

from engine.campaign.seam import Order
from engine.core.commands import Rejected
from engine.core.dice import Dice, Faces, seed_from_int
from engine.core.ruleset import make
from engine.play import roster

ID = "annihilation"


def _recruit(content, name, **changes):
    draft = attrs.evolve(roster.creation(content, ID).draft(), name=name)
    faces = [f for i in range(14) for f in [(i % 10) + 1] + [1] * 6]
    return attrs.evolve(roster.create(content, ID, draft, Dice.scripted(faces))[0].record, **changes)


def _squad(content, fit: int, hurt: int):
    """`fit` soldiers fit and `hurt` healing (healed_only keeps them home), the hurt ones' timers running."""
    records = tuple(_recruit(content, n) for n in ("Ash", "Bishop", "Cole", "Dana", "Ezra", "Flint", "Gale",
                                                   "Hale", "Iris", "Jett", "Kane", "Lark")[:fit + hurt])
    records = records[:fit] + tuple(attrs.evolve(r, hurt=5, wounds=1, heals=1) for r in records[fit:])
    busy = {f"heal:{r.name.lower()}:1": 9 for r in records[fit:]}
    return records, busy


def test_a_rookie_joins_while_too_few_are_fit_then_not_for_the_days_set(content):
    dt = make(ID, content, None).downtime()
    assert (dt.rules.recruit_days, dt.rules.roster_cap, dt.squad) == (3, 12, 6)
    records, busy = _squad(content, 4, 4)
    offers = dt.offers(records, None, 0, busy)
    assert [o.order for o in offers] == [Order("recruit", "Iris")] and offers[0].ai and offers[0].cost == 0
    assert offers[0].label == "Recruit a rookie: Iris (7d10+10; the next in 3 days)"  # one line of the menu
    out = dt.order(records, None, 0, busy, offers[0].order, Dice(Faces(seed_from_int(1))))
    rookie = out.records[-1]
    assert out.records[:-1] == records and rookie.name == "Iris" and rookie.rank == "rookie"
    assert len(out.rolls) == 14 and all(r.expr == "7d10+10" and 17 <= r.total <= 80 for r in out.rolls)
    assert out.notes == (f"Iris joins the squad: {rookie.rolled}",) and rookie.rolled.startswith("7d10+10 each: ")
    assert [(t.key, t.days) for t in out.timers] == [("recruit:iris", 3)]
    done = dt.due(out.records, None, out.timers[0], Dice.scripted([]))
    assert done.records == out.records and done.notes == ("a rookie may join again",)
    waiting = {**busy, "recruit:iris": 3}
    assert dt.offers(out.records, None, 0, waiting) == ()
    again = dt.order(out.records, None, 0, waiting, Order("recruit", "Jett"), Dice(Faces(seed_from_int(1))))
    assert isinstance(again, Rejected) and again.reason == "the next rookie may join in 3 days"
    assert [o.order for o in dt.offers(out.records, None, 0, busy)] == [Order("recruit", "Jett")]  # 5 fit of 6
    taken = dt.order(out.records, None, 0, busy, Order("recruit", "iris"), Dice(Faces(seed_from_int(1))))
    assert isinstance(taken, Rejected) and taken.code == "no_name"
    for bad in ("x" * 25, "Tab\there", "!!"):
        assert dt.order(out.records, None, 0, busy, Order("recruit", bad), Dice.scripted([])).code == "no_name"


def test_no_rookie_with_a_squad_fit_a_full_roster_or_a_bundle_without_the_keys(content):
    dt = make(ID, content, None).downtime()
    records, busy = _squad(content, 6, 2)
    assert dt.offers(records, None, 0, busy) == ()
    refused = dt.order(records, None, 0, busy, Order("recruit", "Kane"), Dice(Faces(seed_from_int(1))))
    assert refused.reason == "6 soldiers are fit, enough for a squad of 6"
    records, busy = _squad(content, 5, 7)
    assert dt.offers(records, None, 0, busy) == ()
    assert dt.order(records, None, 0, busy, Order("recruit", "Mace"), Dice(Faces(seed_from_int(1)))).reason == \
        "the roster is full: 12 of 12 soldiers living"
    dead = attrs.evolve(records[-1], dead=True)  # the dead are not on the cap
    assert [o.order.who for o in dt.offers(records[:-1] + (dead,), None, 0, busy)] == ["Mace"]
    dt.rules = attrs.evolve(dt.rules, recruit_days=0)  # an older bundle: nobody joins, so old logs verify
    assert dt.offers(records[:-1] + (dead,), None, 0, busy) == ()
    assert dt.order(records, None, 0, busy, Order("recruit", "Mace"), Dice(Faces(seed_from_int(1)))).reason == \
        "this campaign takes no recruits"


@pytest.mark.slow
def test_simulate_recruits_and_the_campaign_verifies_and_an_older_bundle_recruits_nobody(content, tmp_path):
    """The campaign AI gives the recruit order the downtime offers; its log, with the rookie's rolls, re-derives.
    A bundle without `recruit_days` (a campaign from before it) has the first squad alone, and verifies too."""
    from engine.campaign import simulate
    from engine.campaign.ledger import Ledger, folder_of
    from engine.campaign.verify import verify

    standard = content.rules[ID]["campaign"]["standard"]
    old = attrs.evolve(content, rules={**content.rules, ID: {**content.rules[ID], "campaign": {
        "standard": attrs.evolve(standard, recruit_days=0, roster_cap=0)}}})
    counts = []
    for bundle, name in ((content, "new"), (old, "old")):
        folder = folder_of(tmp_path, name)
        book = Ledger.new(bundle, folder, name, ID, seed_from_int(3), 3, [])
        first = len(book.state.records)
        simulate.play(book, 1)
        counts.append(len(book.state.records) - first)
        joined = [line for line in book.story if line.startswith("order: ") and "joins the squad: 7d10+10" in line]
        assert len(joined) == counts[-1]
        book.close()
        assert verify(bundle, folder).failure is None
    assert counts[0] > 0 and counts[1] == 0
