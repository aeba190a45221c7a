"""annihilation between missions (engine/rules/annihilation/downtime.py): the experience rolls of the mission's
end (practice.debrief) and the A-5.2 quotas carried to the roster, wounds kept and healed in days of rest
(content/annihilation/campaign.toml), the dead kept and never deployed, the deploy refusals and the order
refusal; and an older roster.toml without the campaign's fields still loads."""

from __future__ import annotations

import attrs
import pytest

from engine.campaign.seam import UNCHANGED, Order, Timer
from engine.core.commands import Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.reducer import fold
from engine.core.ruleset import make
from engine.play import roster
from engine.play.game import Game
from engine.rules.annihilation import practice
from engine.rules.annihilation.experience import Tally
from engine.rules.annihilation.fighter import Part

ID = "annihilation"


def _recruit(content, name):
    draft = attrs.evolve(roster.creation(content, ID).draft(), name=name)
    faces = [f for i in range(14) for f in [(i % 10) + 1] + [1] * 6]  # stat i: (i%10 + 1) + 6 + 10; Hth 19
    return roster.create(content, ID, draft, Dice.scripted(faces))[0].record


def _fighter(state, uid, **changes):
    u = state.units[uid]
    return attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(u.record.fighter, **changes)))


@pytest.fixture
def mission(content):
    kurt = attrs.evolve(_recruit(content, "Kurt"), rank="squaddie", missions=5)
    ed = _recruit(content, "Ed")
    vets = [attrs.evolve(_recruit(content, f"Vet {n}"), rank="squaddie", missions=i) for i, n in enumerate("abcd")]
    game = Game.new(content, ID, "eliminate", seed_from_int(2), None,
                    squad=[roster.Character(ID, kurt), roster.Character(ID, ed)])
    s = game.state
    k = s.units["roster_kurt"]
    acc = k.record.fighter.character.stats.accuracy
    uses = attrs.evolve(Tally().stats, accuracy=10)
    k = attrs.evolve(k, record=attrs.evolve(k.record, tally=Tally(stats=uses, hits=1)))
    s = attrs.evolve(s, units={**s.units, k.id: k})
    kurt_hurt = _fighter(s, "roster_kurt", health=7, wounds=(("torso", Part(open=0, total=2)),))
    ed_dead = attrs.evolve(_fighter(s, "roster_ed", health=-40, status="dead"), status="dead")
    s = attrs.evolve(s, units={**s.units, kurt_hurt.id: kurt_hurt, ed_dead.id: ed_dead})
    end = fold(s, practice.debrief(game.ruleset, s, [], Dice.scripted([acc + 1])))  # Acc's one roll passes
    return make(ID, content, None).downtime(), (kurt, ed, *vets), end, acc


def test_the_debrief_keeps_experience_promotes_by_quota_keeps_the_wounds_and_the_dead(mission):
    dt, records, end, acc = mission
    out = dt.debrief(records, None, end, ("Kurt", "Ed"), True, Dice.scripted([]))
    kurt, ed = out.records[0], out.records[1]
    assert [r.name for r in out.records] == ["Kurt", "Ed", "Vet a", "Vet b", "Vet c", "Vet d"]  # roster order
    assert out.dead == ("Ed",) and ed.dead and not kurt.dead
    # the improvement roll of the mission's end: d100 = Acc + 1 > Acc, +1; 10 uses, none carried
    assert kurt.stats["accuracy"] == acc + 1 and kurt.uses == {} and kurt.missions == 6
    # five living (Ed is dead): floor(5/5) = 1 Sergeant's place, to the most missions survived: Kurt (6)
    assert kurt.rank == "sergeant" and {r.rank for r in out.records[2:]} == {"squaddie"}
    assert out.rolls == ()  # no tie, no die
    # Health 7 of 19: 12 lost, 2 wounds: 12 + 3 × 2 = 18 days
    assert (kurt.hurt, kurt.wounds, kurt.limbs, kurt.heals) == (12, 2, 0, 1)
    assert out.timers == (Timer(days=18, key="heal:kurt:1", who="Kurt",
                                label="Kurt heals: Health 7/19, 2 wounds, lost + 3 * wounds = 12+3*2=18 → 18 days"),)
    assert out.notes == ("Kurt: Acc %d → %d, Squaddie → Sergeant" % (acc, acc + 1),
                         "Kurt: heals: Health 7/19, 2 wounds, lost + 3 * wounds = 12+3*2=18 → 18 days",
                         "Ed died on the mission")
    assert out.cancel == () and out.funding == 0 and out.base is UNCHANGED


def test_stamina_lost_to_wounds_is_said_with_its_rule_and_any_rise_by_use(content):
    """Issue 18: Sta 61 → 50 between missions was A-19.7 (every wound rolled in the mission takes 1 Stamina for
    good, as it is rolled), but the debrief said only "Sta 61 → 50". The note now gives the wounds and the rule, and
    what A-6.1's improvement rolls added; nothing else changes Stamina."""
    from engine.rules.annihilation import wounds

    kurt = _recruit(content, "Kurt")
    game = Game.new(content, ID, "eliminate", seed_from_int(2), None, squad=[roster.Character(ID, kurt)])
    s = game.state
    u = s.units["roster_kurt"]
    stm = u.record.fighter.character.stats.stamina
    hit = wounds.wounded(game.ruleset.book, u.record.fighter, "left_leg", 4, ())  # the rule the mission's hit uses
    marched = Tally(stats=attrs.evolve(Tally().stats, stamina=10))  # ten hard marches: one Stamina roll
    u = attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(hit.fighter, health=15), tally=marched))
    s = attrs.evolve(s, units={**s.units, u.id: u})
    dt = make(ID, content, None).downtime()
    for face, rise in ((1, 0), (100, 1)):  # the improvement roll fails, then passes (d100 100 always does)
        end = fold(s, practice.debrief(game.ruleset, s, [], Dice.scripted([face])))
        out = dt.debrief((kurt,), None, end, ("Kurt",), True, Dice.scripted([]))
        assert out.records[0].stats["stamina"] == stm - 4 + rise
        by_use = "; +1 by use, A-6.1" if rise else ""
        assert out.notes[0].startswith(f"Kurt: Sta {stm} → {stm - 4 + rise} (4 wounds × −1, A-19.7{by_use})")


def test_the_permanent_stamina_loss_stops_at_zero(content):
    """A-19.7 takes 1 Stamina a wound for good; A-8.4 floors Stm_eff (Stm less the torso wounds) at 0, so Stm
    itself never goes below 0 however many wounds a soldier takes."""
    from engine.rules.annihilation import wounds

    kurt = _recruit(content, "Kurt")
    game = Game.new(content, ID, "eliminate", seed_from_int(2), None, squad=[roster.Character(ID, kurt)])
    f = game.state.units["roster_kurt"].record.fighter
    stm = f.character.stats.stamina
    book = game.ruleset.book
    near = wounds.wounded(book, f, "left_arm", stm - 2, ()).fighter
    assert near.character.stats.stamina == 2
    assert wounds.wounded(book, near, "right_leg", 4, ()).fighter.character.stats.stamina == 0
    assert wounds.wounded(book, f, "right_leg", stm + 30, ()).fighter.character.stats.stamina == 0


def test_the_dead_stay_dead_and_out_of_the_quotas_of_the_next_debrief(mission):
    dt, records, end, _ = mission
    out = dt.debrief(records, None, end, ("Kurt", "Ed"), True, Dice.scripted([]))
    again = dt.debrief(out.records, None, end, (), True, Dice.scripted([]))
    assert again.records[1] == out.records[1] and again.dead == ()  # Ed was dead already
    assert dt.deploy_refusal(out.records[1], None, frozenset()) == "Ed is dead"


def test_healing_days_and_who_may_deploy_while_healing(mission):
    dt, records, end, _ = mission
    out = dt.debrief(records, None, end, ("Kurt", "Ed"), True, Dice.scripted([]))
    kurt = out.records[0]
    busy = frozenset({"heal:kurt:1"})
    assert dt.deploy_refusal(kurt, None, busy) == "Kurt is convalescing: Health 7/19, 2 wounds"  # 12 ≥ half of 19
    assert dt.deploy_refusal(kurt, None, frozenset()) is None  # the timer is done
    light = attrs.evolve(kurt, hurt=9, wounds=3)  # 9 < 9.5, 3 wounds < 4: lightly wounded
    # campaign.toml's healed_only: still healing, however lightly, stays home, with the days its timer has left
    assert dt.rules.healed_only
    assert dt.deploy_refusal(light, None, {"heal:kurt:1": 4}) == "Kurt is convalescing: Health 10/19, 3 wounds, " \
        "4 days left"
    assert dt.deploy_refusal(light, None, {"heal:kurt:1": 1}).endswith("3 wounds, 1 day left")
    assert dt.deploy_refusal(light, None, {}) is None  # healed
    dt.rules = attrs.evolve(dt.rules, healed_only=False)  # a bundle without it: the lightly wounded may fight
    assert dt.deploy_refusal(light, None, busy) is None
    assert dt.deploy_refusal(attrs.evolve(light, wounds=4), None, busy) == \
        "Kurt is convalescing: Health 10/19, 4 wounds"
    assert dt.deploy_refusal(attrs.evolve(light, limbs=1), None, busy) == \
        "Kurt is convalescing: Health 10/19, 3 wounds, 1 limb to regrow"
    healed = dt.due(out.records, None, out.timers[0], Dice.scripted([]))
    assert (healed.records[0].hurt, healed.records[0].wounds, healed.records[0].heals) == (0, 0, 1)
    assert healed.notes == ("Kurt is healed: Health 19/19",) and healed.records[1:] == out.records[1:]
    stale = dt.due(out.records, None, attrs.evolve(out.timers[0], key="heal:kurt:0"), Dice.scripted([]))
    assert stale.records == out.records and stale.notes == ()


def test_a_lost_limb_adds_its_days_and_a_new_wound_replaces_the_old_timer(mission, content):
    dt, records, end, _ = mission
    u = end.units["roster_kurt"]
    legless = attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(
        u.record.fighter, health=19, wounds=(("left_leg", Part(open=0, total=8)),), lost=("left_leg",))))
    end = attrs.evolve(end, units={**end.units, u.id: legless})
    hurt = attrs.evolve(records[0], hurt=3, wounds=1, heals=4)  # still healing from an earlier mission
    out = dt.debrief((hurt, *records[1:]), None, end, ("Kurt", "Ed"), True, Dice.scripted([]))
    # 0 Health lost, 8 wounds: 0 + 3 × 8 = 24, + 30 for the leg = 54 days; the old course of healing is cancelled
    assert out.timers[0].days == 54 and out.timers[0].key == "heal:kurt:5" and out.cancel == ("heal:kurt:4",)
    assert out.records[0].limbs == 1 and out.records[0].wounds == 8 and out.records[0].hurt == 0


def test_no_orders_no_base(mission):
    dt, records, _, _ = mission
    refused = dt.order(records, None, 0, frozenset(), Order("train", "Kurt", "medic"), Dice.scripted([]))
    assert isinstance(refused, Rejected) and refused.code == "no_orders"
    assert refused.reason.startswith("annihilation has no between-mission orders ('train')")
    assert dt.offers(records, None, 0, frozenset()) == () and dt.plots(None) == ()  # six fit: a squad (no rookie)
    assert dt.placement(None, "lab", (0, 1, 1, 0)) == "annihilation has no base"
    assert dt.begin(records, Dice.scripted([])).records == records
    assert dt.month(records, None, Dice.scripted([])).funding == 0


def test_an_older_roster_without_the_campaign_fields_loads_with_them_at_their_defaults(content, tmp_path):
    kurt = roster.Character(ID, _recruit(content, "Kurt"))
    path = tmp_path / roster.FILE
    roster.save(path, [kurt])
    text = path.read_text(encoding="utf-8")
    assert not any(f"{k} = " in text for k in ("hurt", "wounds", "limbs", "heals", "dead"))  # as an older one
    loaded = roster.load(path, content)[0].record
    assert loaded == kurt.record and (loaded.hurt, loaded.wounds, loaded.limbs, loaded.heals, loaded.dead) == \
        (0, 0, 0, 0, False)
    hurt = roster.Character(ID, attrs.evolve(kurt.record, hurt=12, wounds=2, heals=1))
    roster.save(path, [hurt])
    assert roster.load(path, content) == [hurt] and "hurt = 12" in path.read_text(encoding="utf-8")
    assert any("hurt: -1 is negative" in m for m in roster.validate(
        content, [roster.Character(ID, attrs.evolve(kurt.record, hurt=-1))]))


def test_a_won_mission_recovers_what_lies_on_the_ground_and_says_so_in_the_debrief(mission):
    """A-12.2 at the mission's end (campaign.toml `recovers`): the ground and the kit of the aliens left down,
    counted by kind, in the debrief's notes, as the campaign has no stores; nothing for a mission lost."""
    from engine.rules.annihilation.board import Dropped, field_of
    from engine.rules.annihilation.inventory import Carried

    dt, records, end, _ = mission
    s = end.units["sectoid_1"]
    down = attrs.evolve(s, record=attrs.evolve(s.record, fighter=attrs.evolve(s.record.fighter, status="unconscious")))
    lying = (Dropped((1, 1), 0, Carried("plasma_pistol", "B", "floor", rounds=26)),
             Dropped((2, 1), 0, Carried("old_alien_grenade", "A", "floor")))
    swept = attrs.evolve(end, units={**end.units, s.id: down}, record=attrs.evolve(field_of(end), ground=lying))
    out = dt.debrief(records, None, swept, ("Kurt", "Ed"), True, Dice.scripted([]))
    assert [c.id for c in down.record.kit] == ["plasma_pistol", "clip:plasma_pistol"]  # counted with the ground's
    assert out.notes[-1] == "Recovered from the field (no stores in this campaign: listed here): 2 × Plasma Pistol, " \
                            "Old Alien Grenade, Plasma Pistol clip"
    lost = dt.debrief(records, None, swept, ("Kurt", "Ed"), False, Dice.scripted([]))
    assert not any(n.startswith("Recovered") for n in lost.notes)
    dt.rules = attrs.evolve(dt.rules, recovers=False)  # a bundle without the key: nothing recovered, as before
    assert dt.debrief(records, None, swept, ("Kurt", "Ed"), True, Dice.scripted([])).notes == out.notes[:-1]


@pytest.mark.slow
def test_a_simulated_campaign_says_why_each_stamina_fell(content):
    """Issue 18 as it was found (seed 3: Cole's Sta 61 → 50 in the first debrief, before the AI changed): every
    debrief note of a fall in Stamina names A-19.7 and the wounds, and the fall is those wounds, less what A-6.1's
    rolls gave back. The seed's own falls change whenever the AI or the kit does, so the test asks only that some
    fall happens and that each is explained."""
    import re

    from engine.campaign import simulate
    from engine.campaign.ledger import Ledger

    book = Ledger.new(content, None, "stamina", ID, seed_from_int(3), 3, [])
    simulate.play(book, 1)
    falls = [m for line in book.story for m in [re.search(r"(\w+): Sta (\d+) → (\d+)( \(([^)]*)\))?", line)]
             if m and int(m[3]) < int(m[2])]
    assert falls, "the seed's campaign wounds nobody any more: pick another"
    for m in falls:
        why = re.fullmatch(r"(\d+) wounds? × −1, A-19\.7(; \+(\d+) by use, A-6\.1)?", m[5] or "")
        assert why, m[0]
        assert int(m[2]) - int(m[3]) == int(why[1]) - int(why[3] or 0)
