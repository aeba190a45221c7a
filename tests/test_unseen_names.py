"""A side's view replaces the names of units out of sight by hand (engine.log.view.Unseen), as the pattern
`(?<!\\w)name(?!\\w)` of every name, longest first, would."""

import re

import pytest

from engine.log.view import OUT_OF_SIGHT, Unseen

NAMES = ["Sectoid 1", "Sectoid 12", "sectoid_1", "Ana", "Ana Maria", "Émile", "x"]
TEXTS = ["Sectoid 12 shoots Sectoid 1", "Sectoid 1: 4*53=212", "Sectoid 123 waits", "Ana Maria and Ana", "Anabel",
         "(Ana)", "sectoid_1x and sectoid_1", "_Ana", "Émile2 Émile", "x-ray x", "nothing here", "", "Ana, x, Ana"]


def by_pattern(names, text):
    ordered = sorted(names, key=len, reverse=True)
    return re.sub("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in ordered), OUT_OF_SIGHT, text)


@pytest.mark.parametrize("text", TEXTS)
def test_unseen_names_are_replaced_as_the_word_pattern_would(text):
    assert Unseen(NAMES).sub(text) == by_pattern(NAMES, text)


def test_a_longer_name_wins_and_a_name_inside_a_word_stays():
    assert Unseen(NAMES).sub("Sectoid 12 hit Sectoid 123") == f"{OUT_OF_SIGHT} hit Sectoid 123"
