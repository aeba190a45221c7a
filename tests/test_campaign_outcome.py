"""An Outcome that says nothing of the base keeps it (the seam is shared by all four rulesets' downtimes)."""

from __future__ import annotations

from engine.campaign.codec import Codec
from engine.campaign.seam import UNCHANGED, Outcome, Unchanged
from engine.campaign.state import Applied, Campaign, apply
from engine.rules.xxxzone.basework import Base


def test_an_outcome_without_a_base_keeps_the_campaigns():
    base = Base(staff=(("engineer", 5),))
    c = Campaign("xxxzone", base=base)
    assert Outcome(records=()).base is UNCHANGED
    assert Outcome(records=(), base=None).base is UNCHANGED  # None is no base to set, never "take it away"
    assert apply(c, Applied("month", Outcome(records=(), funding=3))).base == base
    assert apply(c, Applied("month", Outcome(records=(), base=None))).base == base
    after = Base(staff=(("engineer", 6),))
    assert apply(c, Applied("order", Outcome(records=(), base=after))).base == after
    assert Unchanged() is UNCHANGED and repr(UNCHANGED) == "UNCHANGED"


def test_unchanged_is_written_as_null_and_read_back():
    codec = Codec(None, Base)
    data = codec.dump_outcome(Outcome(records=(), funding=2))
    assert data["base"] is None  # the bytes an older log holds for a ruleset without a base
    assert codec.load_outcome(data).base is UNCHANGED
    kept = codec.load_outcome(codec.dump_outcome(Outcome(records=(), base=Base())))
    assert kept.base == Base()


def test_a_baseless_ruleset_keeps_no_base():
    c = Campaign("annihilation")
    assert apply(c, Applied("begin", Outcome(records=()))).base is None
