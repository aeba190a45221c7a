""""Thank you, Stranger!" (13; Interpretation: 10% per operative with it): a d100 per squad operative with the
ability at the start of a battle, a local beside them on 10 or less; scripted dice, every number checked."""

from __future__ import annotations

import attrs
import pytest

from engine.content import loader
from engine.core.dice import Dice, seed_from_int
from engine.core.events import UnitChanged, UnitSpawned
from engine.core.geometry import distance
from engine.play import roster
from engine.play.game import Game
from engine.rules.xxxzone import strangers
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.creator import Recruit
from engine.rules.xxxzone.schema import Attributes


@pytest.fixture(scope="module")
def content():
    return loader.load()


def recruit(name, abilities=()):
    a = Attributes(strength=3, perception=3, endurance=3, charisma=3, intelligence=3, agility=3, luck=5)
    return Recruit(name=name, attributes=a, rolled="", abilities=tuple(abilities))


@pytest.fixture(scope="module")
def started(content):
    """An eliminate mission with Sable (who has it) and Ash (who does not), the strangers who came taken away."""
    squad = [roster.Character("xxxzone", recruit("Sable", ("thank_you_stranger",))),
             roster.Character("xxxzone", recruit("Ash"))]
    game = Game.new(content, "xxxzone", "eliminate", seed_from_int(11), None, squad=squad)
    state = game.state
    return Book.of(content.rules["xxxzone"]), attrs.evolve(
        state, units={k: u for k, u in state.units.items() if u.template != strangers.TEMPLATE})


def test_a_stranger_comes_on_10_or_less(started):
    book, state = started
    assert book.campaign.stranger_chance == 10
    events = strangers.arrivals(book, state, Dice.scripted([10]))
    said, spawned = events
    assert isinstance(said, UnitChanged) and said.cause == "Thank you, Stranger! A local joins the squad (d100 10 ≤ 10)"
    (roll,) = said.rolls
    assert (roll.expr, roll.faces, roll.total, roll.purpose) == ("1d100", (10,), 10, "Thank you, Stranger!")
    sable = next(u for u in state.units.values() if u.name == "Sable")
    assert roll.actor == sable.id
    s = spawned.unit
    assert isinstance(spawned, UnitSpawned) and (s.name, s.side, s.template, s.glyph) == \
        ("Stranger 1", "xcom", "stranger", "s")
    assert distance(s.pos, sable.pos) == 1 and s.pos not in {u.pos for u in state.units.values()}
    assert s.record.op.abilities == () and s.record.op.attributes.perception == 4  # the civilian's numbers


def test_no_stranger_on_11_and_only_the_operative_with_it_rolls(started):
    book, state = started
    (said,) = strangers.arrivals(book, state, Dice.scripted([11]))  # one die only: Ash has no roll
    assert said.cause == "no stranger comes (d100 11 > 10)" and said.rolls[0].faces == (11,)


def test_older_content_has_no_strangers(started):
    book, state = started
    old = attrs.evolve(book, settings=attrs.evolve(book.settings, strangers=False))
    assert strangers.arrivals(old, state, Dice.scripted([])) == []


def test_the_stranger_goes_home_after_the_battle(content):
    """A won debrief keeps no record of them: the roster is the campaign's operatives only."""
    from engine.rules.xxxzone.downtime import XxxzoneDowntime

    squad = [recruit("Sable", ("thank_you_stranger",))]
    for seed in range(40):  # the mission's own dice: a seed where the stranger comes (about one in ten)
        game = Game.new(content, "xxxzone", "eliminate", seed_from_int(seed), None,
                        squad=[roster.Character("xxxzone", r) for r in squad])
        if any(u.template == strangers.TEMPLATE for u in game.state.units.values()):
            break
    else:
        pytest.fail("no stranger came in 40 seeds")
    out = XxxzoneDowntime(content).debrief(tuple(squad), None, game.state, ("Sable",), False, Dice.scripted([]))
    assert [r.name for r in out.records] == ["Sable"] and out.dead == ()
