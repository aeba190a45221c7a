"""Characters and the squad roster (xcom-trpg 2.2-2.4, 6.1, 7.1): creation rules, HP rolled once,
the psi initiation, saves/roster.toml, `xenotac roster`, and roster characters in missions."""

from __future__ import annotations

import json

import pytest

from engine.log import writer as log
from engine.play import roster
from engine.core.creation import Draft
from engine.core.dice import Dice, seed_from_int
from engine.play.game import Game, check_header
from engine.play.simulate import play_out
from tui.cli import main
from engine.rules.xcom_trpg import creation as xc
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier
from cli_run import run

ANTON = dict(strength=7, agility=4, intelligence=6, bravery=6, charisma=4, luck=6, psionics=3)
JULIA = dict(strength=5, agility=10, intelligence=6, bravery=5, charisma=7, luck=2, psionics=1)
BO = dict(strength=5, agility=5, intelligence=6, bravery=6, charisma=4, luck=8, psionics=2)  # a muton
SEK = dict(strength=5, agility=4, intelligence=6, bravery=6, charisma=4, luck=8, psionics=3)  # a sectoid


def draft(name="Anna", race="human", stats=None, **picks):
    return Draft(name=name, picks={"race": race, **picks}, numbers=dict(ANTON if stats is None else stats))


def make(content, name="Anna", race="human", stats=None, die=5, **kw):
    """An xcom-trpg character made through the roster, as a player makes one."""
    ch, _rolls = roster.create(content, "xcom-trpg", draft(name, race, stats, **kw), Dice.scripted([die]))
    return ch


# -- races (2.2) ------------------------------------------------------------------------------


def test_races_carry_the_caps_and_modifiers_of_the_table(content):
    r = xcom(content).races
    assert r["human"].caps == {"psionics": 6} and r["human"].psi_locked
    assert r["sectoid"].caps == {"strength": 5} and r["ethereal"].caps == {"strength": 3}
    assert r["muton"].caps == {"agility": 7, "intelligence": 6, "psionics": 3}
    assert r["muton"].modifiers == {"strength": 5}
    assert r["floater"].caps == r["muton"].caps and r["floater"].modifiers == {"strength": 1, "agility": 4}
    assert r["snakeman"].caps == {"psionics": 6} and r["chryssalid"].caps == {"intelligence": 4, "psionics": 6}
    epics = ("mech_trooper", "gmz", "mechtoid", "muton_berserker")
    assert all(r[e].epic for e in epics)
    assert [e for e in epics if r[e].infinite_stamina] == ["mech_trooper", "mechtoid", "muton_berserker"]
    assert r["muton_berserker"].fixed == {"bravery": 10} and r["gmz"].psi_locked
    assert set(xc.playable_races(content)) == {"human", "sectoid", "ethereal", "muton", "floater", "snakeman",
                                                   "chryssalid", *epics}


# -- creation (2.3, 2.4) ------------------------------------------------------------------------


def test_the_reference_characters_stand(content):
    assert xc.check(content, "human", ANTON) == [] and xc.check(content, "human", JULIA) == []


@pytest.mark.parametrize("race, stat, value, why", [
    ("sectoid", "strength", 6, "strength 6: a sectoid has at most 5"),
    ("ethereal", "strength", 4, "strength 4: an ethereal has at most 3"),
    ("muton", "agility", 8, "agility 8: a muton has at most 7"),
    ("chryssalid", "intelligence", 5, "intelligence 5: a chryssalid has at most 4"),
    ("human", "psionics", 7, "psionics 7: a human has at most 6"),
    ("human", "luck", 11, "luck 11: a human has at most 10"),
    ("human", "bravery", 0, "bravery 0: the minimum is 1"),
    ("human", "psionics", -1, "psionics -1: the minimum is 0"),
])
def test_each_stat_is_held_to_its_minimum_and_race_cap(content, race, stat, value, why):
    assert xc.refusal(content, race, stat, value) == why
    assert why in xc.check(content, race, {**ANTON, stat: value})


def test_psionics_may_be_zero(content):
    assert xc.check(content, "human", {**ANTON, "psionics": 0, "luck": 9}) == []
    assert xc.check(content, "sectoid", {**ANTON, "strength": 5, "psionics": 0, "luck": 10, "charisma": 5}) == []


def test_a_human_has_36_points_to_spend_no_more_no_less(content):
    assert xc.check(content, "human", {**ANTON, "luck": 7}) == ["37 points spent: a human has 36"]
    assert xc.check(content, "human", {**ANTON, "luck": 5}) == ["1 of 36 points still to spend"]


def test_an_epic_has_42_points(content):
    stats = {**ANTON, "psionics": 0, "strength": 10, "agility": 9, "bravery": 7}  # 42, psi 0 for a mech-trooper
    assert sum(stats.values()) == 42
    assert xc.check(content, "mech_trooper", stats) == []
    assert xc.check(content, "human", stats) == ["42 points spent: a human has 36"]
    assert xc.refusal(content, "mech_trooper", "psionics", 1) == "psionics 1: a mech-trooper has at most 0"


def test_a_muton_berserker_has_10_of_its_42_points_in_bravery(content):
    rest = dict(strength=10, agility=7, intelligence=6, charisma=5, luck=2, psionics=2)  # 32
    ch = make(content, "Berk", "muton_berserker", rest, die=10).record
    assert ch.stats["bravery"] == 10 and sum(ch.stats.values()) == 42
    assert list(ch.stats) == xcom(content).rulesets["xcom-trpg"].stats
    assert xc.refusal(content, "muton_berserker", "bravery", 7) == \
        "bravery 7: a muton berserker has 10 bravery, placed automatically"


def test_muton_plus_5_strength_comes_after_allocation_and_may_pass_10(content):
    ch = make(content, "Bo", "muton", {**ANTON, "strength": 10, "agility": 1, "psionics": 2, "luck": 7},
              die=7).record
    final = xc.final_stats(content, ch)
    assert ch.stats["strength"] == 10 and final["strength"] == 15
    assert ch.hp == (15 - 1) * 10 + 7 and ch.hp_roll == "hp (15-1)*10+7=147"


def test_a_floater_is_a_muton_then_minus_4_strength_plus_4_agility(content):
    ch = make(content, "Flo", "floater", {**ANTON, "strength": 5, "agility": 7, "psionics": 2}, die=1).record
    assert xc.final_stats(content, ch)["strength"] == 5 + 5 - 4
    assert xc.final_stats(content, ch)["agility"] == 7 + 4  # over 10: the cap limits allocation only
    assert ch.hp_roll == "hp (6-1)*10+1=51"


def test_the_soldier_guideline_warns_but_does_not_refuse(content):
    assert xc.advice(content, "human", ANTON) == ["agility 4: a soldier usually has 6+ (above a human's average)"]
    assert xc.advice(content, "human", {**ANTON, "agility": 6, "intelligence": 4}) == []
    assert xc.advice(content, "sectoid", {"strength": 4, "agility": 6}) == []
    assert xc.advice(content, "muton", {"strength": 5, "agility": 4}) == [
        "strength 10: a soldier usually has 11+ (above a muton's average)",
        "agility 4: a soldier usually has 5+ (above a muton's average)"]
    assert make(content).record.hp > 0  # Anton's agility 4 is a warning only


def test_tv07_hp_rolled_at_creation(content):
    """TV-07: Str 4, the GM's 1d10 = 3 -> (4-1)*10+3 = 33 (range 31-40)."""
    stats = {**ANTON, "strength": 4, "agility": 7}
    ch, (roll,) = roster.create(content, "xcom-trpg", draft("Laura", stats=stats), Dice.scripted([3]))
    assert (ch.record.hp, ch.record.hp_roll) == (33, "hp (4-1)*10+3=33")
    assert roster.made(content, ch) == ch.record.hp_roll
    assert roll.faces == (3,) and roll.expr == "(strength - 1) * 10 + 1d10" and roll.crit is None
    assert xc.hp_range(content, "human", 4) == (31, 40)
    assert xc.hp_range(content, "muton", 1) == (51, 60)


def test_create_refuses_in_one_line(content):
    with pytest.raises(roster.RosterError, match=r"^strength 6: a sectoid has at most 5$"):
        roster.create(content, "xcom-trpg", draft("Sek", "sectoid", {**ANTON, "strength": 6}), Dice.scripted([1]))
    with pytest.raises(roster.RosterError, match="unknown race 'sectopod'"):
        roster.create(content, "xcom-trpg", draft("Robo", "sectopod"), Dice.scripted([1]))
    with pytest.raises(roster.RosterError, match="a name is 1-24 letters"):
        roster.create(content, "xcom-trpg", draft(""), Dice.scripted([1]))
    with pytest.raises(roster.RosterError, match="unknown weapon 'spoon'"):
        roster.create(content, "xcom-trpg", draft(weapon="spoon"), Dice.scripted([1]))
    with pytest.raises(roster.RosterError, match="charisma is missing"):
        roster.create(content, "xcom-trpg", draft(stats={k: v for k, v in ANTON.items() if k != "charisma"}),
                      Dice.scripted([1]))


@pytest.mark.parametrize("text, stats", [
    ("str=7,agi=4,int=6,bra=6,cha=4,luck=6,psi=3", ANTON),
    ("strength=7, agility=4, intelligence=6, bravery=6, charisma=4, luck=6, psionics=3", ANTON),
])
def test_stats_are_written_short_or_long(content, text, stats):
    assert roster.parse_numbers(content, "xcom-trpg", Draft(), text) == stats


@pytest.mark.parametrize("text, why", [("str=x", "'str=x': write each stat as name=number"),
                                       ("str", "'str': write each stat as name=number"),
                                       ("str=7,strength=6", "strength is given twice")])
def test_bad_stat_text_is_refused(content, text, why):
    with pytest.raises(roster.RosterError, match=why):
        roster.parse_numbers(content, "xcom-trpg", Draft(), text)


# -- psi initiation (7.1) -----------------------------------------------------------------------


@pytest.mark.parametrize("die, awake, psi, intelligence, text", [
    (17, True, 3, 6, "initiation luck 6*17=102≥100 → unlocked"),
    (16, False, 0, 6, "initiation luck 6*16=96<100 → no gift, psionics lost"),
    (96, True, 4, 6, "initiation 96 → critical success: unlocked, +1 Psionics (3→4)"),
    (5, False, 0, 5, "initiation 5 → critical failure: −1 Intelligence, not unlocked, psionics lost"),
])
def test_initiation_outcomes(content, die, awake, psi, intelligence, text):
    ch, roll = roster.improve(content, make(content), Dice.scripted([die]))
    ch = ch.record
    assert (ch.psi_awakened, ch.stats["psionics"], ch.stats["intelligence"]) == (awake, psi, intelligence)
    assert roll.formula == text == ch.initiation and roll.faces == (die,)
    assert roll.crit == {96: "success", 5: "failure"}.get(die)
    assert ch.hp == make(content).record.hp  # nothing else changes


def test_initiation_crits_pass_the_cap_and_reach_zero_intelligence(content):
    psi6 = dict(strength=6, agility=6, intelligence=6, bravery=4, charisma=2, luck=6, psionics=6)
    ch, _ = xc.initiate(content, make(content, stats=psi6).record, Dice.scripted([100]))
    assert ch.stats["psionics"] == 7  # over the human cap of 6
    dim = dict(strength=7, agility=6, intelligence=1, bravery=6, charisma=6, luck=7, psionics=3)
    ch, _ = xc.initiate(content, make(content, stats=dim).record, Dice.scripted([1]))
    assert ch.stats["intelligence"] == 0 and not ch.psi_awakened


def test_initiation_is_refused_where_the_rules_do_not_allow_it(content):
    with pytest.raises(roster.RosterError, match="a sectoid's psionics needs no initiation"):
        roster.improve(content, make(content, race="sectoid", stats=SEK),
                        Dice.scripted([50]))
    with pytest.raises(roster.RosterError, match="at least 1 point in psionics"):
        roster.improve(content, make(content, stats={**ANTON, "psionics": 0, "luck": 9}), Dice.scripted([50]))
    done, _ = roster.improve(content, make(content), Dice.scripted([50]))
    with pytest.raises(roster.RosterError, match="has been through initiation already"):
        roster.improve(content, done, Dice.scripted([50]))
    with pytest.raises(xc.Refused, match="has been through initiation already"):
        xc.initiate(content, done.record, Dice.scripted([50]))


# -- the roster file ----------------------------------------------------------------------------


def test_the_roster_file_round_trips_with_the_rolled_hp(content, tmp_path):
    path = tmp_path / "roster.toml"
    characters = [make(content, "Anna", die=4), make(content, "Julia", stats=JULIA, die=9)]
    roster.save(path, characters)
    again = roster.load(path, content)
    assert again == characters and [c.record.hp for c in again] == [64, 49]
    assert roster.load(tmp_path / "none.toml", content) == []


@pytest.mark.parametrize("text, message", [
    ('[[character]]\nname = "Anna"\n', "character[0].race: missing required key (and 3 more)"),
    ("[[character]\n", "Expected ']]'"),
    ('[[character]]\nname = "A"\nrace = "human"\nhp = "x"\nhp_roll = ""\nstats = {}\n',
     'character[0].hp: expected integer, got "x"'),
    ('x = 1\n', ": unknown key 'x'"),
    ('[[character]]\nname = "A"\nrace = "dragon"\nhp = 5\nhp_roll = ""\n'
     'stats = { strength = 1, agility = 1, intelligence = 1, bravery = 1, charisma = 1, luck = 1, psionics = 0 }\n',
     "character[0].race: unknown race 'dragon'"),
])
def test_a_corrupt_roster_is_one_located_line(content, tmp_path, text, message):
    path = tmp_path / "roster.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(roster.RosterError) as err:
        roster.load(path, content)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value) and "\n" not in str(err.value)


# -- xenotac roster -----------------------------------------------------------------------------


@pytest.fixture
def saves(tmp_path, monkeypatch):
    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    return tmp_path


def test_roster_command_add_list_remove(saves, capsys):
    assert "is empty" in run(["roster"], capsys)[1]
    code, out, err = run(["roster", "add", "Anna", "--stats", "str=7,agi=4,int=6,bra=6,cha=4,luck=6,psi=3",
                          "--seed", "1"], capsys)
    assert code == 0 and out.startswith("added Anna (Human), hp (7-1)*10+") and "agility 4" in err
    code, out, err = run(["roster", "add", "Bo", "--race", "muton", "--seed", "2", "--stats",
                          "strength=5,agility=7,intelligence=6,bravery=6,charisma=4,luck=6,psionics=2"], capsys)
    assert code == 0
    code, out, _ = run(["roster"], capsys)
    lines = out.splitlines()
    assert lines[0].startswith("Anna") and "Str 7 Agi 4 Int 6 Bra 6 Cha 4 Lck 6 Psi 3" in lines[0]
    assert "psi locked until initiation" in lines[0]
    assert lines[1].startswith("Bo") and "Str 10(5+5)" in lines[1] and "psi active" in lines[1]
    hp = roster.load(saves / "roster.toml", _content())[0].record.hp
    assert f"HP {hp}" in lines[0]
    assert run(["roster", "remove", "bo"], capsys)[:2] == (0, "removed Bo\n")
    assert [c.name for c in roster.load(saves / "roster.toml", _content())] == ["Anna"]


def _content():
    from engine.content import loader

    return loader.load()


@pytest.mark.parametrize("argv, message", [
    (["roster", "add", "Sek", "--race", "sectoid", "--stats", "str=6,agi=4,int=6,bra=6,cha=4,luck=6,psi=3"],
     "xenotac: Sek: strength 6: a sectoid has at most 5\n"),
    (["roster", "add", "Ed", "--stats", "str=8,agi=4,int=6,bra=6,cha=4,luck=6,psi=3"],
     "xenotac: Ed: 37 points spent: a human has 36\n"),
    (["roster", "add", "Ed", "--race", "dragon", "--stats", "str=7"], "xenotac: Ed: unknown race 'dragon'"),
    (["roster", "add", "Ed", "--stats", "str=seven"], "xenotac: Ed: 'str=seven': write each stat as name=number"),
    (["roster", "add", "Ed", "--stats", "str=7,wis=4"], "xenotac: Ed: wis is not a stat"),
    (["roster", "remove", "Zed"], "xenotac: no character named 'Zed' on the roster (the roster is empty)\n"),
    (["roster", "initiate", "Zed"], "xenotac: no character named 'Zed'"),
])
def test_roster_command_refusals_are_one_line_exit_2(saves, capsys, argv, message):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and err.startswith(message) and err.count("\n") == 1
    assert not (saves / "roster.toml").exists()


def test_roster_command_refuses_a_second_character_of_one_name(saves, capsys):
    add = ["roster", "add", "Anna", "--stats", "str=7,agi=4,int=6,bra=6,cha=4,luck=6,psi=3"]
    assert run(add, capsys)[0] == 0
    code, _out, err = run(add, capsys)
    assert code == 2 and err == "xenotac: Anna: a character of that name is on the roster already\n"


def test_roster_command_initiate(saves, capsys, content):
    roster.save(saves / "roster.toml", [make(content), make(content, "Sek", "sectoid", SEK)])
    code, out, err = run(["roster", "initiate", "Anna", "--seed", "4"], capsys)
    assert code == 0 and out.startswith("Anna: initiation ")
    anna = roster.load(saves / "roster.toml", content)[0].record
    assert anna.initiation and out == f"Anna: {anna.initiation}\n"
    code, _out, err = run(["roster", "initiate", "Anna"], capsys)
    assert code == 2 and "has been through initiation already" in err
    code, _out, err = run(["roster", "initiate", "Sek"], capsys)
    assert code == 2 and err == "xenotac: Sek: a sectoid's psionics needs no initiation\n"


def test_a_corrupt_roster_is_reported_and_never_overwritten(saves, capsys):
    path = saves / "roster.toml"
    path.write_text("[[character]\nbroken", encoding="utf-8")
    for argv in (["roster"], ["roster", "add", "Anna", "--stats", "str=7,agi=4,int=6,bra=6,cha=4,luck=6,psi=3"],
                 ["roster", "remove", "Anna"]):
        code, out, err = run(argv, capsys)
        assert code == 2 and err.startswith(f"xenotac: {path}: ") and err.count("\n") == 1
        assert "never overwritten" in err
    assert path.read_text(encoding="utf-8") == "[[character]\nbroken"


# -- roster characters in missions --------------------------------------------------------------


def test_with_squad_puts_characters_in_the_first_places_and_keeps_the_vip(content):
    anna, bo = make(content, "Anna", die=4), make(content, "Bo", "muton", BO, die=2)
    deployed = roster.with_squad(content, "xcom-trpg", "vip", [anna, bo])
    assert deployed.missions["vip"].squad == ["roster_anna", "roster_bo", "stephen", "laura", "viktor", "zmey", "vip"]
    t = xcom(deployed).units["roster_bo"]
    assert (t.name, t.race, t.hp, t.glyph, t.weapon, t.armor) == ("Bo", "muton", bo.record.hp, "2", "rifle", "light")
    assert content.missions["vip"].squad[0] == "anton" and "roster_anna" not in xcom(content).units  # untouched
    assert deployed.sha256 == content.sha256
    many = [make(content, f"Soldier {i}", die=1) for i in range(9)]
    assert roster.deploying(content, "xcom-trpg", "vip", many) == many[:6]
    assert roster.with_squad(content, "xcom-trpg", "vip", many[:6]).missions["vip"].squad[-1] == "vip"


def test_a_mission_with_roster_characters_replays_and_verifies(content, tmp_path, capsys):
    anna = make(content, "Anna", die=4)
    bo = make(content, "Bo", "muton", BO, die=2)
    path = tmp_path / "eliminate@veteran-roster.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate@veteran", seed_from_int(5), path, squad=[anna, bo])
    units = game.state.units
    assert (units["roster_anna"].hp, units["roster_anna"].hp_max) == (64, 64)
    assert soldier(units["roster_bo"]).stats["strength"] == 10 and units["roster_bo"].hp == bo.record.hp
    assert "anton" not in units and "julia" not in units and "stephen" in units
    header = log.read_header(path)
    assert [c["name"] for c in header["mission"]["squad"]] == ["Anna", "Bo"]
    game.close()
    game = Game.resume(content, path)  # the header alone brings them back
    assert game.state.units["roster_anna"].hp == 64 and xcom(game.content).units["roster_bo"].name == "Bo"
    play_out(game)
    game.close()
    first = json.loads(path.read_bytes().splitlines()[1])
    rolled_for = {r["actor"] for e in first["events"] for r in e.get("rolls", []) if r["purpose"] == "hp"}
    assert "stephen" in rolled_for and not rolled_for & {"roster_anna", "roster_bo"}  # HP rolled once, at creation
    code, out, _err = run(["replay", str(path), "--verify"], capsys)
    assert code == 0 and out.startswith("verified ")


def test_a_log_header_with_a_broken_squad_is_one_line(content):
    header = {"ruleset": "xcom-trpg", "mission": {"id": "eliminate", "map_seed": 1, "max_phases": 5,
                                                  "squad": [{"name": "Anna"}]},
              "content_sha256": content.sha_for("xcom-trpg")}
    with pytest.raises(log.LogError, match=r"^line 1: the header's squad: character\[0\]\.race: missing"):
        check_header(content, header)


def _fake_run(played: list):
    def fake(self):
        played.append(self.first_session)
        self.first_session.close()
        return None
    return fake


def test_play_deploys_the_roster_unless_told_not_to(saves, content, capsys, monkeypatch):
    from tui.app import XenotacApp

    played: list = []
    monkeypatch.setattr(XenotacApp, "run", _fake_run(played))
    roster.save(saves / "roster.toml", [make(content, "Anna", die=4)])
    assert main(["play", "--seed", "3"]) == 0
    assert main(["play", "--seed", "3", "--no-roster"]) == 0
    with_roster, without = (s.path for s in played)
    assert log.read_header(with_roster)["mission"]["squad"][0]["hp"] == 64
    assert "squad" not in log.read_header(without)["mission"]
    assert "roster_anna" in played[0].state.units and "anton" in played[1].state.units
    (saves / "roster.toml").write_text("nonsense", encoding="utf-8")
    code, _out, err = run(["play", "--seed", "4"], capsys)
    assert code == 2 and "roster.toml" in err and err.count("\n") == 1
