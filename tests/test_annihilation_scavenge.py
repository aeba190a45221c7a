"""The AI picks up what lies on the ground (A-12.2, settings `ground_items`; scavenge.py): an alien that let go of
its weapon walks to it and picks it up with the player's own `pick_up` command, as far as its TUs allow; an armed
one goes for a grenade when it has no shot; nothing it cannot see, nothing it cannot pay for."""

from __future__ import annotations

import attrs

from engine.core.commands import Act, EndTurn, Move
from engine.core.dice import Dice, seed_from_int
from engine.core.reducer import fold
from engine.play.game import Game
from engine.rules.annihilation.board import Dropped, field_of
from engine.rules.annihilation import combat
from engine.rules.annihilation.inventory import Carried
from engine.rules.annihilation.soldier import gun
from test_annihilation_play import _face_off
from annihilation_book import BOOK


def _alien_phase(content, gap=3, tu=None):
    """The aliens' phase, Sectoid 1 awake with its plasma pistol lying `gap` squares towards Anton."""
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), None)
    rs = g.ruleset
    state, col = _face_off(g, sectoid_tu=0)
    g.close()
    for uid, u in state.units.items():  # nobody of the squad may answer a step with opportunity fire
        if u.side == "xcom":
            state = attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=attrs.evolve(
                u.record, fighter=attrs.evolve(u.record.fighter, tu_left=0)))})
    state = fold(state, rs.decide(state, EndTurn(side=state.side), Dice.scripted([])))
    s = state.units["sectoid_1"]
    pistol = gun(s.record, BOOK)
    f = s.record.fighter if tu is None else attrs.evolve(s.record.fighter, tu_left=tu)
    state = attrs.evolve(state, units={**state.units, "sectoid_1": attrs.evolve(s, record=attrs.evolve(
        s.record, fighter=f, kit=tuple(c for c in s.record.kit if c is not pistol)))})
    lying = Dropped(col[gap], 0, attrs.evolve(pistol, place="floor", gripped=()))
    return rs, attrs.evolve(state, record=attrs.evolve(field_of(state), ground=(lying,))), col


def test_an_alien_that_let_go_of_its_weapon_walks_to_it_and_picks_it_up(content):
    rs, state, col = _alien_phase(content)
    s = state.units["sectoid_1"]
    assert state.side == "aliens" and gun(s.record, BOOK) is None
    walk = rs.ai_chore(state, s, [], "first")
    assert isinstance(walk, Move) and walk.path[-1] == col[3]
    state = fold(state, rs.decide(state, walk, Dice.scripted([])))
    s = state.units["sectoid_1"]
    pick = rs.ai_chore(state, s, [], "first")
    assert pick == Act(unit="sectoid_1", action="pick_up", option="0")
    events = rs.decide(state, pick, Dice.scripted([]))
    after = fold(state, events)
    assert gun(after.units["sectoid_1"].record, BOOK).id == "plasma_pistol" and field_of(after).ground == ()
    assert after.units["sectoid_1"].record.fighter.tu_left == s.record.fighter.tu_left - 8  # floor → hand
    assert rs.ai_chore(after, after.units["sectoid_1"], [], "first") is None  # armed again: nothing more to get


def test_it_goes_only_for_what_its_tus_pay_and_never_while_armed_for_a_weapon(content):
    rs, state, col = _alien_phase(content, gap=3, tu=12)  # 3 steps cost 12: nothing left for the 8 of the pick-up
    assert rs.ai_chore(state, state.units["sectoid_1"], [], "first") is None
    rs, state, col = _alien_phase(content, gap=1, tu=12)  # one step (4) and the pick-up (8)
    assert isinstance(rs.ai_chore(state, state.units["sectoid_1"], [], "first"), Move)
    rs, state, col = _alien_phase(content)
    s = state.units["sectoid_1"]
    armed = attrs.evolve(s, record=attrs.evolve(s.record, kit=s.record.kit + (attrs.evolve(
        field_of(state).ground[0].item, place="right_hand"),)))
    assert rs.ai_chore(state, armed, [], "first") is None and rs.ai_chore(state, armed, [], "idle") is None


def test_an_armed_alien_with_no_shot_goes_for_a_grenade_it_sees(content):
    from engine.rules.annihilation.inventory import Carried

    rs, state, col = _alien_phase(content)
    s = state.units["sectoid_1"]
    pistol = field_of(state).ground[0].item
    armed = attrs.evolve(s, record=attrs.evolve(s.record, kit=s.record.kit + (attrs.evolve(pistol, place="right_hand"),)))
    grenade = Dropped(col[2], 0, Carried("old_alien_grenade", "A", "floor"))
    state = attrs.evolve(state, units={**state.units, "sectoid_1": armed},
                         record=attrs.evolve(field_of(state), ground=(grenade,)))
    assert rs.ai_chore(state, armed, [], "first") is None  # a reload or nothing before a shot: not a detour
    walk = rs.ai_chore(state, armed, [], "idle")
    assert isinstance(walk, Move) and walk.path[-1] == col[2]


def test_an_alien_holding_only_a_grenade_it_picked_up_has_nothing_to_reload(content):
    from engine.rules.annihilation.soldier import loads

    rs, state, col = _alien_phase(content)
    s = state.units["sectoid_1"]
    held = attrs.evolve(s, record=attrs.evolve(s.record, kit=s.record.kit + (
        Carried("hand_grenade", "A", "left_hand"),)))
    assert gun(held.record, BOOK) is None  # a grenade held is no weapon: nothing looks it up among the weapons
    assert loads(rs.book, held.record, held.record.kit[-1]) == []
    state = attrs.evolve(state, units={**state.units, "sectoid_1": held})
    walk = rs.ai_chore(state, held, [], "first")  # before: KeyError 'hand_grenade' (infiltrate, seed 9)
    assert isinstance(walk, Move) and walk.path[-1] == col[3]  # no reload: it goes for its pistol


def test_a_unit_holding_only_a_grenade_is_no_reaction_shooter(content):
    """Before, a Sectoid that had picked up a grenade was a watcher whose 'gun' was the grenade: opportunity fire
    looked it up among the weapons (KeyError 'hand_grenade', crash mission, seed 10)."""
    rs, state, _col = _alien_phase(content)
    s = state.units["sectoid_1"]
    kit = tuple(c for c in s.record.kit if c.id not in BOOK.weapons) + (Carried("hand_grenade", "A", "left_hand"),)
    held = attrs.evolve(s, record=attrs.evolve(s.record, kit=kit))
    armed = next(u for u in state.units.values() if u.conscious and gun(u.record, BOOK) is not None)
    assert gun(held.record, BOOK) is None and not combat._armed(rs, held) and combat._armed(rs, armed)
