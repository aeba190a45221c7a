"""neo-troops' actions beyond moving and shooting, through `decide` on a staged open field with scripted dice:
two weapons, switching and combined weapons (§12–14, TV-N17–N20 in play), repairs and regeneration (§19), Search
and shooting at a suspected cell (§4, N-3.3), and the AI's use of them."""

from __future__ import annotations

import attrs
import pytest

from engine.core import ruleset
from engine.core.commands import Act, Move, Rejected, Shoot, Wait
from engine.core.dice import Dice
from engine.core.events import Noted, Resolved
from engine.core.reducer import fold
from engine.rules.neo_troops import actions, battle, referee, views

ID = "neo-troops"


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.kind(ID)(content, None)


def field(rs, units: dict, actor: str, **records):
    """An open grass field with `units` ({id: (template, side, (x, y))}), `actor`'s slot up and every cloaked unit
    unnoticed; `records` changes a unit's record ({id: {field: value}})."""
    made = referee.units(rs, referee.Scenario(ruleset=ID, units={
        k: referee.ScUnit(template=t, side=s, at=list(at)) for k, (t, s, at) in units.items()},
        action=referee.ScAction(actor=actor, target=actor)))
    for uid, changes in records.items():
        t = attrs.evolve(made[uid].record, **changes)
        made[uid] = attrs.evolve(made[uid], **actions.frame_changes(made[uid], t))
    return referee.stage(rs, made, referee.ScAction(actor=actor, target=actor), hidden=frozenset(made))


def decide(rs, state, command, faces=()):
    dice = Dice.scripted(list(faces))
    events = rs.decide(state, command, dice)
    if not isinstance(events, Rejected):
        assert dice.scripted_left == 0, "every scripted die must be used"
    return events


def told(events) -> list[str]:
    return [e.text for e in events if isinstance(e, Resolved)]


def formulas(events) -> list[str]:
    return [r.formula for e in events if isinstance(e, Resolved) for r in e.rolls]


# -- two weapons, switching, combined weapons (§12–14) -------------------------------------------------------------


def test_two_weapons_in_hand_spray_together_tv_n18_style(rs):
    """Oleg holds an SMG (ROF 4) and a machine pistol (ROF 3): B = 7, extra +1 (ROF_lo 3), Accuracy 1 and both
    still (+1): n = 4 + 1 + 1 + 1 = 7 → all 7 kept; 4 + 3 shots used."""
    state = field(rs, {"oleg": ("oleg", "xcom", (2, 2)), "goon": ("goon", "aliens", (2, 8))}, "oleg")
    oleg = state.units["oleg"]
    assert oleg.record.held == ("smg", "machine_pistol")
    assert [m.name for m in views.shot_modes(rs, state, oleg)] == ["Spray ×4+3", "Snap shot"]
    events = decide(rs, state, Shoot(unit="oleg", target="goon", mode="spray"), [6, 1, 1, 4, 2, 3, 1])
    assert formulas(events)[0] == ("spray n=4+1 two weapons+1 accuracy+1 still=7: 7d6 [6 1 1 4 2 3 1] keep all "
                                   "vs AV 4: 2 hits")
    assert told(events)[0] == "Oleg fires spray fire (SMG + Machine pistol) at Goon: 2 hits, 2 unsaved (HP 1→0, dead)"
    after = fold(state, events).units["oleg"].record
    assert dict(after.shots) == {"smg": 36, "machine_pistol": 27, "pistol": 12}


def test_a_pool_short_of_both_weapons_rof_keeps_all_and_the_rest_cannot_hit(rs):
    """TV-N17/N18 in play: a severe wound (−1) and the goon moving (no still): n = 4 + 1 + 1 − 1 = 5 < B = 7."""
    state = field(rs, {"oleg": ("oleg", "xcom", (2, 2)), "goon": ("goon", "aliens", (2, 8))}, "oleg",
                  oleg={"severe_wounds": 1}, goon={"moved": True, "perception": 0})  # the §20.1 goon
    events = decide(rs, state, Shoot(unit="oleg", target="goon", mode="spray"), [3, 3, 2, 1, 1, 2])  # the goon's
    # perception test of Oleg, who fired (TN 3): 2, unnoticed
    assert formulas(events)[0] == ("spray n=4+1 two weapons+1 accuracy-1 severe wound=5: 5d6 [3 3 2 1 1] keep all "
                                   "vs AV 4: 0 hits (2 cannot hit)")
    assert told(events)[0].endswith("at Goon: 0 hits, 0 unsaved")


def test_switching_puts_the_rifle_away_for_minus_one_die_or_drops_it_for_none(rs):
    """TV-N19 in play: a varan with the rifle puts it away for the heavy plasma gun (ROF 6), Accuracy 1, both
    still: n = 6 + 1 + 1 − 1 = 7, keep 6; dropped instead, n = 8. Within Lev's combination the switch is free."""
    units = {"v": ("lev", "xcom", (2, 2)), "goon": ("goon", "aliens", (2, 8))}
    state = field(rs, units, "v", v={"combined": ()})  # Lev's kit, not tied together
    events = decide(rs, state, Act(unit="v", action="swap", option="heavy_plasma"))
    assert told(events) == [
        "Lev puts the Plasma rifle away and draws the Heavy plasma gun (−1 attack die this action)"]
    swapped = fold(state, events)
    assert swapped.units["v"].record.held == ("heavy_plasma",) and swapped.units["v"].record.switch_dice == -1
    assert rs.turn(swapped).units == ("v",)  # free: the action goes on
    shot = decide(rs, swapped, Shoot(unit="v", target="goon", mode="spray"), [6, 5, 4, 3, 2, 1, 1])
    assert formulas(shot)[0] == ("spray n=6+1 accuracy+1 still-1 switch=7: 7d6 [6 5 4 3 2 1 1] keep 6,5,4,3,2,1 "
                                 "vs AV 4: 3 hits")
    assert decide(rs, swapped, Act(unit="v", action="swap", option="plasma_rifle")).code == "not_at_start"

    dropped = fold(state, decide(rs, state, Act(unit="v", action="swap_drop", option="heavy_plasma")))
    v = dropped.units["v"].record
    assert v.switch_dice == 0 and v.part("plasma_rifle") is None and "plasma_rifle" not in dict(v.shots)
    assert battle.battle(dropped).dropped == (battle.Dropped(weapon="plasma_rifle", cell=(2, 2), shots=40),)
    shot = decide(rs, dropped, Shoot(unit="v", target="goon", mode="spray"), [6, 5, 4, 3, 2, 1, 1, 1])
    assert formulas(shot)[0].startswith("spray n=6+1 accuracy+1 still=8: 8d6")

    combined = field(rs, units, "v")  # rifle 8 kg + heavy plasma 25 kg = 33 kg ≥ 20: −1 die, switching free
    events = decide(rs, combined, Act(unit="v", action="swap", option="heavy_plasma"))
    assert told(events) == ["Lev puts the Plasma rifle away and draws the Heavy plasma gun (no die lost)"]


def test_a_combined_weapon_costs_a_die_tv_n20_in_play(rs):
    """TV-N20: a snap with the rifle of a ≥ 20 kg combination, Accuracy 1, both still: n = 1 + 1 + 1 − 1 = 2."""
    state = field(rs, {"lev": ("lev", "xcom", (2, 2)), "goon": ("goon", "aliens", (2, 8))}, "lev")
    events = decide(rs, state, Shoot(unit="lev", target="goon", mode="snap"), [3, 5])
    assert formulas(events)[0] == "snap n=1+1 accuracy+1 still-1 combined=2: 2d6 [3 5] best 5 vs AV 4: hit"


def test_drawing_a_pistol_beside_the_rifle_is_free_and_a_dropped_weapon_is_picked_up(rs):
    state = field(rs, {"anna": ("anna", "xcom", (2, 2)), "goon": ("goon", "aliens", (2, 8))}, "anna")
    drawn = fold(state, decide(rs, state, Act(unit="anna", action="draw", option="pistol")))
    assert drawn.units["anna"].record.held == ("pistol", "plasma_rifle")
    assert drawn.units["anna"].record.switch_dice == 0
    shot = decide(rs, drawn, Shoot(unit="anna", target="goon", mode="snap"), [2, 2, 6])
    assert formulas(shot)[0] == "snap n=1+1 accuracy+1 still=3: 3d6 [2 2 6] best 6 vs AV 4: hit"
    assert decide(rs, drawn, Shoot(unit="anna", target="goon", mode="spray")).code == "snap_only"

    dropped = fold(state, decide(rs, state, Act(unit="anna", action="swap_drop", option="pistol")))
    later = fold(dropped, decide(rs, dropped, Wait(unit="anna")))  # the only slots: goon, then anna again
    later = fold(later, decide(rs, later, Wait(unit="goon")))
    assert decide(rs, later, Act(unit="anna", action="pick_up", option="pistol")).code == "nothing_here"
    events = decide(rs, later, Act(unit="anna", action="pick_up", option="plasma_rifle"))
    after = fold(later, events)
    assert after.units["anna"].record.held == ("plasma_rifle",) and dict(after.units["anna"].record.shots)[
        "plasma_rifle"] == 40
    assert battle.battle(after).dropped == () and told(events) == ["Anna picks up the Plasma rifle"]


def test_switch_refusals(rs):
    state = field(rs, {"anna": ("anna", "xcom", (2, 2)), "goon": ("goon", "aliens", (2, 8))}, "anna")
    assert decide(rs, state, Act(unit="anna", action="swap", option="smg")) == Rejected(
        "not_carried", "Anna carries no working SMG")
    assert decide(rs, state, Act(unit="anna", action="swap", option="plasma_rifle")).code == "already_held"
    moved = fold(state, decide(rs, state, Act(unit="anna", action="draw", option="pistol")))
    assert decide(rs, moved, Act(unit="anna", action="swap", option="plasma_rifle")).code == "not_at_start"
    one_arm = field(rs, {"anna": ("anna", "xcom", (2, 2))}, "anna", anna={"limbs_lost": ("left_arm",)})
    assert decide(rs, one_arm, Act(unit="anna", action="draw", option="pistol")).code == "one_arm"


# -- repairs and regeneration (§19) --------------------------------------------------------------------------------


def test_a_repair_rolls_its_time_and_takes_that_many_consecutive_actions(rs):
    """N-19.2: d6 × 10 Stationary actions; the first rolls 1 → 10; nine more and the cloak works again. Anything
    else the helper does sets the count back to 0, the time rolled kept."""
    state = field(rs, {"anna": ("anna", "xcom", (2, 2))}, "anna", anna={"cloak": "damaged"})
    first = decide(rs, state, Act(unit="anna", action="repair", target="anna", option="cloak"), [1])
    assert told(first) == ["Anna repairs Anna's cloak (1/10)"] and formulas(first) == ["repair cloak: 1*10=10 actions"]
    state = fold(state, first)
    for i in range(2, 6):
        state = fold(state, decide(rs, state, Act(unit="anna", action="repair", target="anna", option="cloak")))
    assert battle.battle(state).repairs[0].done == 5
    state = fold(state, decide(rs, state, Wait(unit="anna")))  # something else: back to 0
    assert battle.battle(state).repairs[0].done == 0 and battle.battle(state).repairs[0].needed == 10
    for i in range(10):
        events = decide(rs, state, Act(unit="anna", action="repair", target="anna", option="cloak"))
        state = fold(state, events)
    assert told(events) == ["Anna repairs Anna's cloak: working again"]
    assert state.units["anna"].record.cloak == "working" and battle.battle(state).repairs == ()
    assert decide(rs, state, Act(unit="anna", action="repair", target="anna", option="cloak")).code == "not_damaged"


def test_repair_refusals(rs):
    state = field(rs, {"anna": ("anna", "xcom", (2, 2)), "boris": ("boris", "xcom", (5, 2))}, "anna",
                  boris={"head_hits": 1}, anna={"cloak": "destroyed"})
    assert decide(rs, state, Act(unit="anna", action="repair", target="boris", option="head")).code == "not_adjacent"
    assert decide(rs, state, Act(unit="anna", action="repair", target="anna", option="cloak")) == Rejected(
        "not_damaged", "Anna's cloak is not damaged (destroyed systems are replaced after the mission)")
    near = field(rs, {"anna": ("anna", "xcom", (2, 2)), "boris": ("boris", "xcom", (3, 3))}, "anna",
                 boris={"head_hits": 1})
    events = decide(rs, near, Act(unit="anna", action="repair", target="boris", option="head"), [6])
    assert told(events) == ["Anna repairs Boris's head (1/60)"]


def test_rest_regenerates_one_hp_per_hundred_quiet_turns(rs):
    state = field(rs, {"anna": ("anna", "xcom", (2, 2))}, "anna", anna={"hp": 2})
    for _ in range(99):
        state = fold(state, decide(rs, state, Act(unit="anna", action="rest")))
    assert dict(battle.battle(state).rests) == {"anna": 99} and state.units["anna"].hp == 2
    events = decide(rs, state, Act(unit="anna", action="rest"))
    assert told(events) == ["Anna regenerates 1 HP (3/3)"]
    state = fold(state, events)
    assert state.units["anna"].hp == 3 and battle.battle(state).rests == ()
    assert decide(rs, state, Act(unit="anna", action="rest")).code == "unhurt"
    bleeding = field(rs, {"anna": ("anna", "xcom", (2, 2))}, "anna", anna={"hp": 2, "bleeding": 0})
    assert decide(rs, bleeding, Act(unit="anna", action="rest")).code == "bleeding"


def test_an_interrupted_rest_starts_again_and_the_incapacitated_rest_at_their_slot(rs):
    state = field(rs, {"anna": ("anna", "xcom", (2, 2)), "boris": ("boris", "xcom", (4, 2))}, "anna",
                  anna={"hp": 2}, boris={"hp": 0, "status": "incapacitated"})
    state = fold(state, decide(rs, state, Act(unit="anna", action="rest")))  # Boris's slot is passed over: he rests
    assert dict(battle.battle(state).rests) == {"anna": 1, "boris": 1}
    state = fold(state, decide(rs, state, Wait(unit="anna")))
    assert dict(battle.battle(state).rests) == {"boris": 2}  # Anna's rest is broken


# -- Search and shooting at a suspected cell (§4, N-3.3) -----------------------------------------------------------


def test_search_tests_every_cloaked_enemy_in_sight_at_tn_6_when_still(rs):
    state = field(rs, {"goon": ("goon", "aliens", (2, 2)), "anna": ("anna", "xcom", (2, 8)),
                       "boris": ("boris", "xcom", (6, 8))}, "goon", goon={"perception": 0})  # the §20.1 goon
    assert "anna" not in rs.spotted(state, "aliens")
    events = decide(rs, state, Act(unit="goon", action="search"), [6, 5])
    assert told(events) == ["Goon searches: notices Anna"]
    assert formulas(events) == ["perception of anna n=1: 1d6 [6] vs TN 6 ✓",
                                "perception of boris n=1: 1d6 [5] vs TN 6 ✗"]
    after = fold(state, events)
    assert "anna" in rs.spotted(after, "aliens") and "boris" not in rs.spotted(after, "aliens")  # until its next
    assert after.units["goon"].record.searched  # action ends


def test_a_noticed_varan_that_moves_must_be_noticed_again(rs):
    state = field(rs, {"anna": ("anna", "xcom", (2, 8)), "goon": ("goon", "aliens", (2, 2))}, "anna",
                  goon={"perception": 0})  # the §20.1 goon
    b = battle.battle(state)
    state = attrs.evolve(state, record=attrs.evolve(b, noticed=(("goon", "anna"),)))
    assert "anna" in rs.spotted(state, "aliens")
    walked = fold(state, decide(rs, state, Move(unit="anna", path=((3, 8),))))
    assert "anna" in rs.spotted(walked, "aliens")  # the Move's action goes on (a shot may follow)
    events = decide(rs, walked, Wait(unit="anna"), [4])
    after = fold(walked, events)
    noted = next(e for e in events if isinstance(e, Noted) and e.cause == "next slot")
    assert [r.formula for r in noted.rolls] == ["perception of anna n=1: 1d6 [4] vs TN 5 ✗"]
    assert "anna" not in rs.spotted(after, "aliens")


def test_firing_at_a_suspected_cell_is_at_av_6_and_tells_the_shooter_nothing(rs):
    """N-3.3: a goon fires a snap at the cell of an unnoticed varan, both still but no "still" die (the goon does not
    know): 1d6 [6] vs AV 6 → a hit; the varan's save 4+ rolls 3, its external 1, its critical 4 (+1 damage)."""
    state = field(rs, {"goon": ("goon", "aliens", (2, 2)), "anna": ("anna", "xcom", (2, 8))}, "goon")
    events = decide(rs, state, Act(unit="goon", action="fire_at", cell=(2, 8), option="snap"), [6, 3, 1, 4])
    shot, hit = [e for e in events if isinstance(e, Resolved)]
    assert (shot.actor, shot.target, shot.cell) == ("goon", None, (2, 8))
    assert shot.text == "Goon fires snap shot (Machine pistol) at 2,8, unseen (AV 6): hit if anyone is there"
    assert [r.formula for r in shot.rolls] == ["snap at 2,8 n=1: 1d6 [6] vs AV 6: hit"]
    assert hit.actor == "anna" and hit.target is None and hit.cell is None
    assert hit.text.startswith("Anna is hit by a shot in the dark: 1 hit, 1 unsaved")
    assert fold(state, events).units["anna"].hp == 1
    empty = decide(rs, state, Act(unit="goon", action="fire_at", cell=(4, 8), option="snap"), [6])
    assert len([e for e in empty if isinstance(e, Resolved)]) == 1  # nobody there: the dice only


def test_fire_at_refusals(rs):
    state = field(rs, {"goon": ("goon", "aliens", (2, 2)), "anna": ("anna", "xcom", (2, 8)),
                       "g2": ("goon", "aliens", (5, 5))}, "goon")
    assert decide(rs, state, Act(unit="goon", action="fire_at", cell=(5, 5))).code == "own_side"
    assert decide(rs, state, Act(unit="goon", action="fire_at")).code == "no_cell"
    assert decide(rs, state, Act(unit="goon", action="fire_at", cell=(2, 2))).code == "nobody_there"
    assert decide(rs, state, Act(unit="goon", action="fire_at", cell=(2, 8), option="burst")).code == "no_mode"
    seen = attrs.evolve(state, record=attrs.evolve(battle.battle(state), noticed=(("goon", "anna"),)))
    assert decide(rs, seen, Act(unit="goon", action="fire_at", cell=(2, 8))) == Rejected(
        "seen_there", "Anna stands there in sight: aim at it")


def test_the_fog_of_war_shows_the_shot_at_a_cell_but_not_what_it_hit(rs):
    """The squad fires at a cell where a cloaked goon stands: its view of the log has the shot, not the hit (its
    save rolls are counted as out of sight)."""
    from engine.core import codec
    from engine.log.view import Eyes

    state = field(rs, {"anna": ("anna", "xcom", (2, 2)), "brute": ("brute", "aliens", (2, 8))}, "anna",
                  brute={"cloak": "working", "perception": 0})
    # 2d6 [3 6] vs AV 6: a hit; the flak vest's 5+ needs 6 against the rifle's −1: 2 ✗; HP 2 → 1; the generic
    # critical 1: a component, the first the logged pick offers; then the brute's perception test of Anna, who
    # fired (TN 3): 1, unnoticed
    events = decide(rs, state, Act(unit="anna", action="fire_at", cell=(2, 8), option="snap"), [3, 6, 2, 1, 1, 1])
    after = fold(state, events)
    assert after.units["brute"].hp == 1 and after.units["brute"].status == "active"
    seen = Eyes(rs, "xcom").tell(state, after, [codec.dump_event(e) for e in events])
    texts = [e["text"] for e in seen.events if e.get("kind") == "resolved"]
    assert texts == ["Anna fires snap shot (Plasma rifle) at 2,8, unseen (AV 6): hit if anyone is there"]
    assert [r["formula"] for e in seen.events for r in e.get("rolls", [])] == [
        "snap at 2,8 n=1+1 accuracy=2: 2d6 [3 6] best 6 vs AV 6: hit"]
    assert seen.hidden == 4  # the save, the critical, its pick and the perception test: counted, not shown


# -- the menu and the AI ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(content, tmp_path_factory):
    """The registered ruleset of a real mission (the menu is offered only in one), for staged fields."""
    from engine.core.dice import seed_from_int
    from engine.play.game import Game

    game = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path_factory.mktemp("neo") / "g.jsonl", public=4)
    yield game.ruleset
    game.close()


def clues(state, leads=(), searched=None):
    import numpy as np

    grid = np.full((state.grid.height, state.grid.width), -1, dtype=np.int32) if searched is None else searched
    return ruleset.Clues(leads=tuple(leads), searched=grid)


def _menu(rs, state, uid) -> dict[str, str]:
    return {o.label: o.note for o in rs.options(state, state.units[uid])}


def test_the_action_menu_offers_each_new_action_with_its_help_line(played):
    state = field(played, {"lev": ("lev", "xcom", (2, 2)), "anna": ("anna", "xcom", (3, 3)),
                           "goon": ("goon", "aliens", (2, 9))}, "lev", anna={"cloak": "damaged"},
                  lev={"hp": 2})
    menu = _menu(played, state, "lev")
    assert menu["Switch to the Heavy plasma gun (combined with the Plasma rifle: free)"] == \
        "free, at the start of the action: no die lost (N-13.2)"
    assert "Drop the Plasma rifle, draw the Heavy plasma gun" not in menu  # within a combination: no need
    assert menu["Repair Anna's cloak (1d6 * 10)"] == "Stationary: consecutive actions by one helper (N-19.2)"
    assert menu["Rest (0/100 for 1 HP)"] == "Stationary: uninterrupted rest regenerates (N-19.4)"
    assert "Search for the cloaked" not in menu  # goons wear no cloaks
    b = battle.battle(state)
    known = attrs.evolve(state, record=attrs.evolve(b, known=(("aliens", "lev", (2, 2)),)))
    goon_up = attrs.evolve(known, record=attrs.evolve(battle.battle(known), order=attrs.evolve(
        b.order, slots=("goon", "lev", "anna"), later=("goon", "lev", "anna"))))
    goon_up = attrs.evolve(goon_up, units={**goon_up.units, "goon": attrs.evolve(
        goon_up.units["goon"], record=attrs.evolve(goon_up.units["goon"].record, actions=1))})
    goons = _menu(played, goon_up, "goon")
    assert goons["Spray fire at 2,2 (suspected)"] == "n=3 vs AV 6: an unseen target (N-3.3)"
    assert goons["Snap shot at 2,2 (suspected)"] == "n=1 vs AV 6: an unseen target (N-3.3)"
    assert goons["Search for the cloaked"].startswith("Stationary: a perception test on every cloaked enemy")


def test_the_ai_fires_at_a_known_cell_searches_every_other_action_and_draws_a_second_weapon(played):
    state = field(played, {"goon": ("goon", "aliens", (2, 2)), "anna": ("anna", "xcom", (2, 8))}, "goon")
    goon = state.units["goon"]

    def hunt(s):
        h = played.ai_hunt(s, s.units["goon"], clues(s))
        return h and h.command

    assert played.ai_special(state, goon, [], False) is None
    assert hunt(state) is None  # the first cycle: no search yet
    later = attrs.evolve(state, record=attrs.evolve(battle.battle(state), order=attrs.evolve(
        battle.battle(state).order, cycle=2)))
    assert hunt(later) == Act(unit="goon", action="search")
    searched = attrs.evolve(later, units={**later.units, "goon": attrs.evolve(goon, record=attrs.evolve(
        goon.record, searched=True))})
    assert hunt(searched) is None  # every other action
    known = attrs.evolve(later, record=attrs.evolve(battle.battle(later), known=(("aliens", "anna", (2, 8)),)))
    assert played.suspects(known, "aliens") == (("anna", (2, 8)),)
    assert hunt(known) == Act(unit="goon", action="fire_at", cell=(2, 8), option="spray")
    oleg = field(played, {"oleg": ("oleg", "xcom", (2, 2))}, "oleg", oleg={"held": ("smg",)})
    assert played.ai_special(oleg, oleg.units["oleg"], [], False) == Act(unit="oleg", action="draw",
                                                                        option="machine_pistol")
    lev = field(played, {"lev": ("lev", "xcom", (2, 2))}, "lev")
    assert played.ai_special(lev, lev.units["lev"], [], False) == Act(unit="lev", action="swap",
                                                                      option="heavy_plasma")


def test_the_ai_repairs_its_cloak_and_delays_to_act_after_an_enemy(played):
    state = field(played, {"anna": ("anna", "xcom", (2, 2)), "boris": ("boris", "xcom", (6, 2)),
                           "goon": ("goon", "aliens", (20, 20))}, "anna", anna={"cloak": "damaged"})
    assert played.ai_special(state, state.units["anna"], [], False) == Act(
        unit="anna", action="repair", target="anna", option="cloak")
    # Boris, nothing in sight, the goon's slot next and Anna's after it: he holds his action (N-7.3)
    order = attrs.evolve(battle.battle(state).order, slots=("boris", "goon", "anna"), later=("boris", "goon", "anna"))
    boris_up = attrs.evolve(state, record=attrs.evolve(battle.battle(state), order=order))
    boris_up = attrs.evolve(boris_up, units={**boris_up.units, "boris": attrs.evolve(
        boris_up.units["boris"], record=attrs.evolve(boris_up.units["boris"].record, actions=1))})
    assert played.ai_special(boris_up, boris_up.units["boris"], [], False) == Act(unit="boris", action="delay")
    last = attrs.evolve(boris_up, record=attrs.evolve(battle.battle(boris_up), order=attrs.evolve(
        order, slots=("boris", "anna", "goon"), later=("boris", "anna", "goon"))))
    assert played.ai_special(last, last.units["boris"], [], False) is None  # no ally's slot after the goon's
    goon = boris_up.units["goon"]
    assert played.ai_special(boris_up, boris_up.units["boris"], [goon], False) is None  # a hostile in sight


def test_a_walk_passes_through_its_own_side_but_not_onto_it_nor_through_an_enemy(rs):
    state = field(rs, {"anna": ("anna", "xcom", (2, 2)), "boris": ("boris", "xcom", (2, 3)),
                       "goon": ("goon", "aliens", (3, 5))}, "anna")
    through = decide(rs, state, Move(unit="anna", path=((2, 3), (2, 4))))  # 4 m: the action goes on
    assert fold(state, through).units["anna"].pos == (2, 4)
    assert decide(rs, state, Move(unit="anna", path=((2, 3),))) == Rejected("blocked", "Someone stands at 2,3")
    assert decide(rs, state, Move(unit="anna", path=((3, 3), (3, 4), (3, 5), (3, 6)))) == Rejected(
        "blocked", "Someone stands at 3,5")


def _fenced(rs):
    made = referee.units(rs, referee.Scenario(ruleset=ID, units={
        "anna": referee.ScUnit(template="anna", side="xcom", at=[2, 2]),
        "goon": referee.ScUnit(template="goon", side="aliens", at=[8, 8])},
        action=referee.ScAction(actor="anna", target="anna")))
    return referee.stage(rs, made, referee.ScAction(actor="anna", target="anna"),
                         cover=[referee.ScCover(at=[2, 3], tile="fence")], hidden=frozenset(made))


def test_a_move_jumps_a_fence_at_an_agility_test_and_pays_double_metres(rs):
    """N-5.3, N-6.3: 3 dice (Anna carries a third of her load, a 4+ suit, no BIG weapon) against Normal 4+."""
    state = _fenced(rs)
    assert decide(rs, state, Move(unit="anna", path=((2, 3),))).code == "blocked"  # nobody stands on a fence
    events = decide(rs, state, Move(unit="anna", path=((2, 3), (2, 4))), [5, 2, 1])
    assert formulas(events) == ["agility n=3: 3d6 [5 2 1] best 5 vs TN 4 ✓"]
    assert told(events) == ["Anna gets over the fence at 2,3"]
    after = fold(state, events).units["anna"]
    assert after.pos == (2, 4) and after.record.spent_m == 4 + 2  # the fence's cell at double


def test_a_failed_jump_stops_before_the_fence_with_the_metres_to_it_spent(rs):
    state = _fenced(rs)
    events = decide(rs, state, Move(unit="anna", path=((2, 3), (2, 4))), [3, 2, 1])
    assert told(events) == ["Anna fails to get over the fence at 2,3"]
    after = fold(state, events).units["anna"]
    assert after.pos == (2, 2) and after.record.spent_m == 4 and after.record.moved
    assert views.walk(rs, state).cost((2, 2), ((2, 3), (2, 4))) == 6  # the path preview and the AI price it so
