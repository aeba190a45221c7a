"""`campaign simulate --trials`: squad survival is a mean over campaigns (each its share alive), with a Student-t
interval over the trials, since one campaign's characters share its missions and are not independent."""

from __future__ import annotations

import math

import pytest

from engine.campaign.simulate import Summary, survival, t975


def _trial(alive: int, recruits: int) -> Summary:
    return Summary(days=30, flown=1, won=1, missed=0, recruits=recruits, alive=alive, funding=())


def test_survival_is_the_mean_share_per_campaign_with_a_t_interval():
    out = survival([_trial(8, 8), _trial(4, 8), _trial(3, 4)])  # shares 1, 0.5, 0.75
    assert out["mean"] == pytest.approx(0.75) and out["trials"] == 3
    half = 4.303 * 0.25 / math.sqrt(3)  # sd of (1, .5, .75) = 0.25; t(2) = 4.303
    assert out["low"] == pytest.approx(0.75 - half) and out["high"] == 1.0  # clipped at 1


def test_one_big_campaign_does_not_outweigh_the_others():
    # characters counted as independent would give 22/24 = 92%; per campaign it is (1 + 0.5) / 2 = 75%
    out = survival([_trial(20, 20), _trial(2, 4)])
    assert out["mean"] == pytest.approx(0.75)
    assert out["low"] == 0.0 and out["high"] == 1.0  # t(1) = 12.706: two campaigns tell little


def test_equal_shares_have_no_spread_and_one_trial_no_interval():
    same = survival([_trial(3, 6)] * 5)
    assert (same["mean"], same["low"], same["high"]) == (0.5, 0.5, 0.5)
    one = survival([_trial(3, 6)])
    assert (one["mean"], one["low"], one["high"], one["trials"]) == (0.5, 0.0, 1.0, 1)
    assert survival([])["trials"] == 0


def test_the_t_quantiles():
    assert t975(1) == 12.706 and t975(10) == 2.228 and t975(30) == 2.042
    assert t975(60) == pytest.approx(2.000, abs=0.002) and t975(120) == pytest.approx(1.980, abs=0.002)
    assert t975(10**6) == pytest.approx(1.96, abs=0.001)
