"""The creation seam (engine/core/creation.py): each ruleset's character creation as the roster and the client read
it — limits and refusals with their reasons, the points budget, `create` on scripted dice, the roster file and a
log header round trip, old rosters and headers, and a mission started with a created character of each ruleset."""

from __future__ import annotations

import json

import attrs
import pytest

from engine.core.creation import Draft, repick
from engine.core.dice import Dice, seed_from_int
from engine.log import writer as log
from engine.play import roster
from engine.play.game import Game, check_header
from engine.play.simulate import play_out
from tui.cli import main
from cli_run import run

ANTON = dict(strength=7, agility=4, intelligence=6, bravery=6, charisma=4, luck=6, psionics=3)
RULESETS = ("xcom-trpg", "xxxzone", "annihilation", "neo-troops")
XXX_FACES = [1, 2, 3, 4, 4, 3, 2]  # Str Per End Cha Int Agi Lck, each 1d4+1
ANN_FACES = [f for i in range(14) for f in [(i % 10) + 1] + [1] * 6]  # stat i: 7d10 = (i%10 + 1) + 6, +10


def made(content, ruleset, name="Anna", **picks):
    """A character of the ruleset on scripted dice, as a player makes one."""
    rules = roster.creation(content, ruleset)
    draft = attrs.evolve(rules.draft(picks), name=name)
    faces = {"xcom-trpg": [4], "xxxzone": list(XXX_FACES), "annihilation": list(ANN_FACES), "neo-troops": []}
    if ruleset == "xcom-trpg":
        draft = attrs.evolve(draft, numbers=dict(ANTON))
    return roster.create(content, ruleset, draft, Dice.scripted(faces[ruleset]))


def test_every_playable_ruleset_can_make_characters_the_default_first(content):
    assert roster.creators(content) == ["xcom-trpg", "annihilation", "neo-troops", "xxxzone"]
    with pytest.raises(roster.RosterError, match="unknown ruleset 'chess'; one of annihilation, neo-troops"):
        roster.creation(content, "chess")
    with pytest.raises(roster.RosterError, match="^d6-stub has no character creation$"):  # tests/stub_ruleset.py
        roster.creation(content, "d6-stub")
    anna = made(content, "xcom-trpg")[0]
    assert roster.deploying(content, "d6-stub", "eliminate", [anna]) == []  # a ruleset deploys only its own


# -- xcom-trpg through the seam ---------------------------------------------------------------


def test_xcom_form_limits_follow_the_race_and_the_points(content):
    rules = roster.creation(content, "xcom-trpg")
    draft = rules.draft({"race": "sectoid"})
    form = rules.form(draft)
    strength = next(n for n in form.numbers if n.id == "strength")
    assert (strength.low, strength.high, strength.short) == (1, 5, "Str")
    assert form.title == "Sectoid (36 points)" and form.points.spent == 6 and form.points.total == 36
    assert [c.id for c in form.choices] == ["race", "armor", "weapon"] and form.choices[1].after
    assert rules.refusal(draft, "strength", 6) == "strength 6: a sectoid has at most 5"
    assert rules.refusal(draft, "strength", 5) is None
    full = attrs.evolve(draft, numbers={**ANTON, "strength": 5, "agility": 6})  # 36 spent
    assert rules.form(full).points.left == 0
    assert rules.refusal(full, "luck", 7) == "no points left: a sectoid has 36"
    assert rules.refusal(full, "luck", 5) is None  # lowering is always allowed
    assert rules.check(draft) == ["30 of 36 points still to spend"]
    berserker = rules.form(rules.draft({"race": "muton_berserker"}))
    assert berserker.title == "Muton berserker (epic, 42 points)" and berserker.points.spent == 15
    bravery = next(n for n in berserker.numbers if n.id == "bravery")
    assert (bravery.low, bravery.high, bravery.note) == (10, 10, "placed automatically")


def test_xcom_repick_keeps_what_fits_and_says_what_fell(content):
    rules = roster.creation(content, "xcom-trpg")
    human = rules.draft().set("strength", 7)
    ethereal, lowered = repick(rules, human, "race", "ethereal")
    assert ethereal.numbers["strength"] == 3 and lowered == ["strength 3"]
    berserk, _ = repick(rules, human, "race", "muton_berserker")
    back, lowered = repick(rules, berserk, "race", "human")
    assert berserk.numbers["bravery"] == 10 and back.numbers["bravery"] == 1 and lowered == []


def test_xcom_weapon_choice_keeps_the_biometric_lock_and_leaves_grenades_out(content):
    rules = roster.creation(content, "xcom-trpg")
    weapons = lambda draft: [k for k, _ in next(c for c in rules.form(draft).choices if c.id == "weapon").options]
    human, sectoid = rules.draft(), rules.draft({"race": "sectoid"})
    assert "rifle" in weapons(human) and "plasma_rifle" not in weapons(human) and weapons(human)[0] == ""
    assert "plasma_rifle" in weapons(sectoid) and "rifle" in weapons(sectoid)  # aliens may use human weapons
    assert "hand_grenade" not in weapons(human) + weapons(sectoid)
    armed, _ = repick(rules, rules.draft({"race": "sectoid", "weapon": "plasma_rifle"}), "race", "human")
    assert armed.picks["weapon"] == "" and armed.picks["race"] == "human"  # the lock drops it to the squad place's
    refused = rules.check(attrs.evolve(human, numbers=ANTON, picks={"race": "human", "weapon": "plasma_rifle"}))
    assert refused == ["a human cannot take the plasma rifle: its biometric lock (8.4)"]
    thrown = rules.check(attrs.evolve(human, numbers=ANTON, picks={"race": "human", "weapon": "hand_grenade"}))
    assert thrown == ["a human cannot take the hand grenade: thrown, an item"]


def test_xcom_preview_shows_the_hp_range_and_the_guideline(content):
    rules = roster.creation(content, "xcom-trpg")
    draft = Draft(picks={"race": "muton"}, numbers={**ANTON, "strength": 5})
    texts = [r.text for r in rules.preview(draft)]
    assert texts[0] == "HP 91–100, rolled once on save with final strength 10"
    assert "⚠ strength 10: a soldier usually has 11+ (a guideline)" in texts


def test_xcom_create_rolls_hp_once_with_the_final_strength(content):
    ch, (roll,) = made(content, "xcom-trpg")
    assert ch.ruleset == "xcom-trpg" and ch.record.hp == (7 - 1) * 10 + 4 and roll.faces == (4,)
    assert roster.made(content, ch) == "hp (7-1)*10+4=64" and roll.purpose == "hp"
    assert roster.describe(content, ch) == ("Human", "S7 A4 I6 B6 C4 L6 P3  HP 64  psi locked")


# -- xxxzone (14.1) ---------------------------------------------------------------------------


def test_xxxzone_rolls_each_attribute_1d4_plus_1_in_order(content):
    ch, rolls = made(content, "xxxzone", "Rex")
    a = ch.record.attributes
    assert (a.strength, a.perception, a.endurance, a.charisma, a.intelligence, a.agility, a.luck) == \
        (2, 3, 4, 5, 5, 4, 3)
    assert [r.faces for r in rolls] == [(f,) for f in XXX_FACES] and all(r.actor == "rex" for r in rolls)
    assert ch.record.rolled.startswith("Str 1d4+1: 1+1=2, Per 1d4+1: 2+1=3, End 1d4+1: 3+1=4")
    assert [e.item for e in ch.record.kit] == ["bullpup", "sap_pistol", "frag"]
    assert roster.describe(content, ch)[0] == "Operative"


def test_xxxzone_sets_only_how_much_of_the_starting_kit_it_takes(content):
    rules = roster.creation(content, "xxxzone")
    draft = rules.draft()
    form = rules.form(draft)
    assert [(n.id, n.label, n.value, n.low, n.high, n.short) for n in form.numbers] == [
        ("bullpup_mags", "Rifle mags", 7, 0, 7, "rifle"), ("sap_pistol_mags", "Pistol mags", 5, 0, 5, "pistol"),
        ("frag", "Frag grenades", 3, 0, 3, "frag")]  # 11.5: up to 7 and 5 spare magazines, up to 3 Frags
    assert [(c.id, c.value, [o for o, _ in c.options]) for c in form.choices] == [
        ("gender", "unstated", ["unstated", "female", "male"])] and form.points is None  # 14.1: name, gender, blurb
    assert rules.check(draft.pick("gender", "robot")) == ["gender 'robot': one of unstated, female, male"]
    assert rules.refusal(draft, "strength", 5) == "strength: an xxxzone operative's attributes are rolled, not chosen"
    assert rules.refusal(draft, "frag", 4) == "Frag grenades 4: the starting kit has 0 to 3"
    assert rules.check(draft.set("strength", 5)) == ["strength: an xxxzone operative's attributes are rolled, "
                                                      "not chosen"]
    assert "each 1d4+1 (2–5)" in rules.preview(draft)[0].text
    light = attrs.evolve(draft.set("frag", 0).set("bullpup_mags", 2).pick("gender", "female"), name="Lee")
    assert rules.preview(light)[1].text == ("Kit: Type1 Last Chance Body Armour; Bullpup small assault rifle +2 mags, "
                                            "SAP pistol +5 mags")
    ch, _ = roster.create(content, "xxxzone", light, Dice.scripted(list(XXX_FACES)))
    assert [(e.item, e.count, e.spares) for e in ch.record.kit] == [("bullpup", 1, 2), ("sap_pistol", 1, 5)]
    assert ch.record.gender == "female"
    with pytest.raises(roster.RosterError, match="^str is not"):
        roster.parse_numbers(content, "xxxzone", draft, "str=5")


def test_xxxzone_a_rolled_operative_shows_acc_85_plus_5_per(content):
    """Vector 58: rolls 3,1,4,2,2,4,1 give Per 2: Acc 85 + 5×2 = 95, AP 6 + ceil(5/2) = 9."""
    rules = roster.creation(content, "xxxzone")
    ch, _ = roster.create(content, "xxxzone", attrs.evolve(rules.draft(), name="Vee"),
                          Dice.scripted([3, 1, 4, 2, 2, 4, 1]))
    assert roster.describe(content, ch)[1].endswith("AP 9 Acc 95")
    ch, _ = roster.create(content, "xxxzone", attrs.evolve(rules.draft(), name="Wes"),
                          Dice.scripted([1, 3, 1, 1, 1, 1, 1]))  # Per 4: 105
    assert roster.describe(content, ch)[1].endswith("Acc 105")


# -- annihilation (A-3.1, A-4.4) --------------------------------------------------------------


def test_annihilation_rolls_fourteen_stats_7d10_plus_10(content):
    ch, rolls = made(content, "annihilation", "Kurt")
    stats = ch.record.stats
    assert len(rolls) == 14 and all(len(r.faces) == 7 for r in rolls)
    assert stats["time_units"] == 1 + 6 + 10 and stats["stamina"] == 2 + 6 + 10 and stats["psychic"] == 4 + 6 + 10
    assert ch.record.rolled.startswith("7d10+10 each: TU 17, Sta 18, Hlt 19")
    assert roster.creation(content, "annihilation").validate(attrs.evolve(ch.record, stats={**stats, "health": 201})) \
        == [".stats.health: 201 is outside 0 to 200"]  # a kept stat falls by wounds and rises by use (A-6.1)


def test_tv_a3_skills_are_bought_in_the_creation_form_with_their_costs_and_limits(content):
    """Edu 50 → 12 slots. Medic Skilled (2), Rifles from the free Skilled to Proficient (3 − 2 = 1), Fusion from
    Unskilled to Novice (1): spent 4, left 8. Before Education is rolled only floor(17/4) = 4 are sure."""
    rules = roster.creation(content, "annihilation")
    draft = rules.draft().set("medic", 2).set("rifles", 3).set("fusion", 1)
    form = rules.form(draft)
    assert (form.points.spent, form.points.total) == (4, 4)
    rifles = next(n for n in form.numbers if n.id == "rifles")
    assert (rifles.value, rifles.low, rifles.high, rifles.note) == (3, 2, 6, "Proficient, 1 slot")
    assert rules.refusal(draft, "medic", 3) == "Medic Proficient: 5 slots in all; 4 are sure before Edu is rolled (A-4.1)"
    assert rules.refusal(draft, "rifles", 1) == "Rifles: a military operative is Skilled for free (A-4.4), never lower"
    assert rules.refusal(draft, "fusion", 7) == "Fusion (New Alien Weapons): Master is the highest level (A-4.2)"
    assert rules.refusal(draft, "accuracy", 60) == "accuracy: an annihilation recruit's stats are rolled, not chosen"
    assert rules.check(draft) == []
    assert rules.check(draft.set("medic", 3)) == ["The skills: 5 slots in all; 4 are sure before Edu is rolled (A-4.1)"]
    edu = [10, 10, 10, 4, 3, 2, 1]  # 7d10 = 40, + 10 = Edu 50
    faces = [1] * 7 * 12 + edu + [1] * 7
    ch, rolls = roster.create(content, "annihilation", attrs.evolve(draft, name="Kurt"), Dice.scripted(faces))
    assert ch.record.stats["education"] == 50 and rolls[12].total == 50
    skills = ch.record.skills
    assert (skills["medic"], skills["rifles"], skills["fusion"], skills["pistols"]) == (30, 50, 10, 30)
    assert rules.describe(ch.record)[1].endswith("Edu50  slots 8/12")  # spent 4, left 8
    assert rules.describe(ch.record, wide=True)[1].endswith("slots 8/12  Rookie, 0 missions")


def test_the_slots_a_rolled_education_gives_beyond_the_sure_ones_are_spent_on_the_roster(content):
    """TV-A3 again: Edu 50 → 12 slots, 4 spent at creation, 8 left: Medic Skilled → Expert (5 − 2 = 3), Pistols
    Skilled → Master (6 − 2 = 4): 1 left; one more level is refused with the slots it costs."""
    rules = roster.creation(content, "annihilation")
    draft = attrs.evolve(rules.draft().set("medic", 2).set("rifles", 3).set("fusion", 1), name="Kurt")
    faces = [1] * 7 * 12 + [10, 10, 10, 4, 3, 2, 1] + [1] * 7  # Edu 50
    kurt = roster.create(content, "annihilation", draft, Dice.scripted(faces))[0]
    kurt = roster.train(content, kurt, "medic=5,pistols=6")
    assert (kurt.record.skills["medic"], kurt.record.skills["pistols"]) == (90, 95)
    assert rules.describe(kurt.record)[1].endswith("slots 1/12")
    with pytest.raises(roster.RosterError, match=r"^Kurt: that costs 2 slots; 1 of 12 are left \(Edu 50\)$"):
        roster.train(content, kurt, "fusion=3")
    with pytest.raises(roster.RosterError, match="^Kurt: Medic is Expert already$"):
        roster.train(content, kurt, "medic=4")
    anna = made(content, "xcom-trpg")[0]
    with pytest.raises(roster.RosterError, match="nothing to train"):
        roster.train(content, anna, "strength=8")


# -- neo-troops (Interpretation: a varan type and its held weapon) ------------------------------


def test_neo_troops_picks_a_varan_type_and_the_weapon_it_holds(content):
    rules = roster.creation(content, "neo-troops")
    form = rules.form(rules.draft())
    assert [(c.id, c.value) for c in form.choices] == [("type", "varan"), ("held", "plasma_rifle")]
    assert dict(form.choices[1].options) == {"plasma_rifle": "Plasma rifle", "pistol": "Pistol"}
    assert rules.check(Draft(picks={"type": "varan", "held": "rocket"})) == [
        "'rocket': a Cybervaran carries plasma_rifle, pistol"]
    assert rules.check(Draft(picks={"type": "goon"})) == ["unknown varan type 'goon'; one of varan, lancer"]
    ch, rolls = made(content, "neo-troops", "Vera", held="pistol")
    assert rolls == () and ch.record == rules.record(name="Vera", type="varan", held="pistol")


# -- the roster file and the header -------------------------------------------------------------


def test_a_roster_of_every_ruleset_round_trips(content, tmp_path):
    path = tmp_path / "roster.toml"
    characters = [made(content, rid, f"Anna {i}")[0] for i, rid in enumerate(RULESETS)]
    roster.save(path, characters)
    assert roster.load(path, content) == characters
    assert path.read_text().count('ruleset = "') == 4


def test_an_old_roster_without_ruleset_keys_is_xcom_trpgs(content, tmp_path):
    path = tmp_path / "roster.toml"
    path.write_text('[[character]]\nname = "Anna"\nrace = "human"\nhp = 64\nhp_roll = "hp (7-1)*10+4=64"\n'
                    'stats = { strength = 7, agility = 4, intelligence = 6, bravery = 6, charisma = 4, luck = 6, '
                    'psionics = 3 }\n', encoding="utf-8")
    [anna] = roster.load(path, content)
    assert anna.ruleset == "xcom-trpg" and anna.record.hp == 64 and anna.record.stats == ANTON


def test_a_bad_ruleset_or_record_is_one_located_line(content, tmp_path):
    path = tmp_path / "roster.toml"
    path.write_text('[[character]]\nruleset = "chess"\nname = "A"\n', encoding="utf-8")
    with pytest.raises(roster.RosterError, match=r"character\[0\]\.ruleset: unknown ruleset 'chess'"):
        roster.load(path, content)
    path.write_text('[[character]]\nruleset = "neo-troops"\nname = "Vera"\ntype = "goon"\n', encoding="utf-8")
    with pytest.raises(roster.RosterError, match=r"character\[0\]\.type: unknown varan type 'goon'$"):
        roster.load(path, content)


def test_an_old_header_squad_still_deploys(content):
    squad = [{"name": "Anna", "race": "human", "stats": ANTON, "hp": 64, "hp_roll": "hp (7-1)*10+4=64",
              "psi_awakened": False, "initiation": "", "armor": "", "weapon": ""}]
    [anna] = roster.from_header(content, "xcom-trpg", squad)
    assert anna.record.hp == 64 and roster.to_header([anna]) == squad  # the same bytes go back into a header
    header = {"ruleset": "xcom-trpg", "mission": {"id": "eliminate", "map_seed": 1, "max_phases": 5,
                                                  "squad": [{"name": "Vera", "type": "varan"}]},
              "content_sha256": content.sha_for("xcom-trpg")}
    with pytest.raises(log.LogError, match=r"the header's squad: character\[0\]\.race: missing"):
        check_header(content, header)


# -- deploying --------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_created_character_takes_the_first_squad_place(content, ruleset):
    ch = made(content, ruleset)[0]
    assert roster.deploying(content, ruleset, "eliminate", [ch]) == [ch]
    assert roster.deploying(content, "xxxzone" if ruleset != "xxxzone" else "xcom-trpg", "eliminate", [ch]) == []
    game = Game.new(content, ruleset, "vip", seed_from_int(2), None, squad=[ch])
    unit = game.state.units["roster_anna"]
    squad = [u for u in game.state.units.values() if u.side == "xcom"]
    assert unit.name == "Anna" and unit.glyph == "1" and squad[0].id == "roster_anna"
    assert "vip" in game.state.units  # the escorted VIP keeps its place
    expected = {"xcom-trpg": 64, "xxxzone": 10, "annihilation": 19, "neo-troops": 3}[ruleset]
    assert unit.hp == expected  # xcom's rolled HP; xxxzone's full health; annihilation's Health 2+6+10+... ; 3 HP
    if ruleset == "neo-troops":
        assert unit.record.held == ("plasma_rifle",)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_squad_sent_alone_is_the_characters_sent_and_the_vip(content, ruleset):
    """A campaign's squad is the one it sent: the places it leaves stay empty (`squad_only` in the header)."""
    ch = made(content, ruleset)[0]
    full = Game.new(content, ruleset, "vip", seed_from_int(2), None, squad=[ch])
    alone = Game.new(content, ruleset, "vip", seed_from_int(2), None, squad=[ch], alone=True)
    mine = [u.id for u in alone.state.units.values() if u.side == "xcom"]
    assert sorted(mine) == ["roster_anna", "vip"]
    assert len([u for u in full.state.units.values() if u.side == "xcom"]) > 2
    assert alone.header["mission"]["squad_only"] is True and "squad_only" not in full.header["mission"]


def test_a_varan_deploys_holding_the_weapon_picked(content):
    vera = made(content, "neo-troops", "Vera", held="pistol")[0]
    game = Game.new(content, "neo-troops", "eliminate", seed_from_int(2), None, squad=[vera])
    assert game.state.units["roster_vera"].record.held == ("pistol",)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_mission_with_a_created_character_plays_resumes_and_verifies(content, ruleset, tmp_path, capsys):
    ch = made(content, ruleset)[0]
    path = tmp_path / f"{ruleset}.jsonl"
    game = Game.new(content, ruleset, "eliminate", seed_from_int(5), path, squad=[ch])
    game.close()
    header = log.read_header(path)
    assert header["mission"]["squad"] == json.loads(json.dumps(roster.to_header([ch])))
    assert "ruleset" not in header["mission"]["squad"][0]  # the header's ruleset is theirs
    game = Game.resume(content, path)
    assert game.state.units["roster_anna"].name == "Anna"
    play_out(game)
    game.close()
    code, out, _err = run(["replay", str(path), "--verify"], capsys)
    assert code == 0 and out.startswith("verified ")


# -- xenotac roster new --ruleset ---------------------------------------------------------------


def test_roster_new_in_each_ruleset(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    code, out, _ = run(["roster", "new", "Rex", "--ruleset", "xxxzone", "--seed", "1"], capsys)
    assert code == 0 and out.startswith("added Rex (Operative), Str 1d4+1: ")
    code, out, _ = run(["roster", "new", "Vera", "--ruleset", "neo-troops", "--pick", "held=pistol"], capsys)
    assert code == 0 and out == "added Vera (Cybervaran), a Cybervaran, its numbers from characters.toml\n"
    code, out, _ = run(["roster", "new", "Kurt", "--ruleset", "annihilation", "--seed", "2"], capsys)
    assert code == 0 and out.startswith("added Kurt (Human), 7d10+10 each: TU ")
    code, out, _ = run(["roster"], capsys)
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == ["Rex", "Vera", "Kurt"]
    assert lines[0].endswith("[xxxzone]") and "Pistol" in lines[1] and lines[2].endswith("[annihilation]")
    code, _, err = run(["roster", "initiate", "Vera"], capsys)
    assert code == 2 and err == "xenotac: Vera: a varan has no roll between missions\n"


@pytest.mark.parametrize("argv, message", [
    (["roster", "new", "Ed", "--ruleset", "chess"], "xenotac: Ed: unknown ruleset 'chess'; one of annihilation"),
    (["roster", "new", "Ed", "--ruleset", "xxxzone", "--stats", "str=4"],
     "xenotac: Ed: str is not a stat; one of bullpup_mags, sap_pistol_mags, frag\n"),
    (["roster", "new", "Ed", "--ruleset", "neo-troops", "--pick", "held=rocket"],
     "xenotac: Ed: 'rocket': a Cybervaran carries plasma_rifle, pistol\n"),
    (["roster", "new", "Ed", "--ruleset", "neo-troops", "--pick", "held"],
     "xenotac: Ed: 'held': write a pick as choice=option, e.g. race=human\n"),
])
def test_roster_new_refusals_are_one_line(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and err.startswith(message) and err.count("\n") == 1
    assert not (tmp_path / "roster.toml").exists()


def test_play_deploys_the_roster_characters_of_its_ruleset(tmp_path, content, monkeypatch):
    from tui.app import XenotacApp

    played: list = []

    def fake(self):
        played.append(self.first_session)
        self.first_session.close()

    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    monkeypatch.setattr(XenotacApp, "run", fake)
    roster.save(tmp_path / "roster.toml", [made(content, "xcom-trpg", "Anna")[0], made(content, "xxxzone", "Rex")[0]])
    assert main(["play", "--ruleset", "xxxzone", "--seed", "3"]) == 0
    assert main(["play", "--ruleset", "neo-troops", "--seed", "3"]) == 0
    xxx, neo = played
    assert [c["name"] for c in log.read_header(xxx.path)["mission"]["squad"]] == ["Rex"]
    assert xxx.state.units["roster_rex"].name == "Rex" and "roster_anna" not in xxx.state.units
    assert "squad" not in log.read_header(neo.path)["mission"]  # nobody of neo-troops on the roster
