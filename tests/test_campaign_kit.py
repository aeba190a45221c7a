"""A campaign soldier's kit (issues 12 and 18): the `Deploy` records each one's outfit, the mission deploys it and
the next starts from it; the stores (annihilation campaign.toml `stock`) limit what is offered, lose what the dead
carried and gain what a won mission recovers; a campaign log without kits still decides and verifies as before."""

from __future__ import annotations

import asyncio

import attrs
import pytest

from engine.campaign import decide as d
from engine.campaign.codec import Codec
from engine.campaign.ledger import Ledger, folder_of
from engine.campaign.verify import verify
from engine.core.commands import Rejected
from engine.core.dice import Dice, seed_from_int
from engine.log import writer as log
from engine.play.simulate import play_out
from engine.rules.annihilation.outfit import Outfit, Stores
from tui.app import XenotacApp
from tui.cli import main
from tui.textshot import screen_text

ID = "annihilation"


def _offered(book: Ledger):
    while not book.state.offers:
        assert not isinstance(book.submit(d.Advance()), Rejected)
    posting = book.state.offers[0]
    return posting, tuple(r.name for r in book.state.living())[:book.rules.places(posting.mission)]


@pytest.fixture
def book(content, tmp_path):
    b = Ledger.new(content, folder_of(tmp_path, "kit"), "kit", ID, seed_from_int(3), 3, [])
    yield b
    b.close()


def test_a_deploy_with_kits_round_trips_and_one_without_keeps_its_old_bytes(content, book):
    codec = book.codec
    kit = Outfit(armour="kevlar_fatigues", weapon="m_17", clips=2, carried={"hand_grenade": 1})
    with_kits = d.Deploy("m1", ("Ash", "Bishop"), (kit, None))
    assert codec.load_command(codec.dump(with_kits)) == with_kits
    assert codec.dump(d.Deploy("m1", ("Ash",))) == {"kind": "deploy", "offer": "m1", "names": ["Ash"]}
    with pytest.raises(ValueError, match="a kit does not read"):
        codec.load_command({"kind": "deploy", "offer": "m1", "names": ["Ash"], "kits": [{"armour": 3}]})
    plain = Codec(None, None)  # a ruleset without a loadout reads no kits
    with pytest.raises(ValueError, match="without a loadout"):
        plain.load_command(codec.dump(with_kits))


def test_the_stores_begin_with_the_stock_and_limit_what_is_offered_and_deployed(content, book):
    o = book.outfitter
    assert isinstance(book.state.base, Stores) and book.state.base.held["light_flying_armor"] == 1
    assert "plasma_rifle" not in book.state.base.held  # alien weapons only once recovered
    posting, names = _offered(book)
    record = book.state.records[0]
    full = {p.id: p for p in o.picks(posting.mission, 0, record)}
    left = {p.id: p for p in o.picks(posting.mission, 0, record, book.state.base.held)}
    assert "plasma_rifle" in dict(full["weapon"].options) and "plasma_rifle" not in dict(left["weapon"].options)
    assert "muton_hide" not in dict(left["armour"].options) and "none" in dict(left["armour"].options)
    assert left["hand_grenade"].label == "Hand Grenade (of 8)"
    two = dict(book.state.base.held, light_flying_armor=0)  # the one suit is on someone else
    refused = o.choose(posting.mission, 0, record, "armour", "light_flying_armor", two)
    assert refused == "The stores have no more Light Flying Armor to issue (0 left)"
    suit = Outfit(armour="light_flying_armor", weapon="m_17", clips=2)
    got = book.submit(d.Deploy(posting.id, names[:2], (suit, suit)))
    assert isinstance(got, Rejected) and got.reason == "The stores hold 1 Light Flying Armor; the squad takes 2"


def test_the_kit_deployed_is_in_the_mission_and_the_next_starts_from_it(content, book):
    posting, names = _offered(book)
    kits = d.stocked(book.state, posting.id, names, book.rules)
    kits = (attrs.evolve(kits[0], armour="kevlar_fatigues", carried={"smoke_grenade": 2}),) + kits[1:]
    events = book.submit(d.Deploy(posting.id, names, kits))
    assert [type(e).__name__ for e in events] == ["Applied", "Launched"] and events[0].cause == "deploy"
    ash = book.state.records[0]
    assert ash.outfit == kits[0]  # kept in the campaign state: the next loadout starts from it
    game = book.mission()
    header = game.header["mission"]["squad"][0]
    assert header["outfit"]["armour"] == "kevlar_fatigues" and header["outfit"]["carried"] == {"smoke_grenade": 2}
    unit = game.state.units["roster_ash"].record
    assert unit.fighter.character.armour == "kevlar_fatigues"
    kit = [c.id for c in unit.kit]
    assert kit.count("smoke_grenade") == 2
    game.close()


def test_a_won_mission_puts_an_alien_weapon_in_the_stores_and_the_dead_lose_their_kit(content, book):
    from engine.rules.annihilation.board import Dropped, field_of
    from engine.rules.annihilation.inventory import Carried

    posting, names = _offered(book)
    assert not isinstance(book.submit(d.Deploy(posting.id, names, d.stocked(book.state, posting.id, names,
                                                                                book.rules))), Rejected)
    game = book.mission()
    end = game.state
    ash = end.units["roster_ash"]
    dead = attrs.evolve(ash, status="dead", record=attrs.evolve(ash.record, fighter=attrs.evolve(
        ash.record.fighter, health=-10, status="dead")))
    lying = (Dropped((1, 1), 0, Carried("plasma_rifle", "D", "floor", rounds=20)),)
    end = attrs.evolve(end, units={**end.units, dead.id: dead}, record=attrs.evolve(field_of(end), ground=lying))
    game.close()
    before = book.state.base.held
    out = book.downtime.debrief(book.state.records, book.state.base, end, names, True, Dice.scripted([]))
    held = out.base.held
    lost = book.outfitter.taken(book.state.records[0].outfit)
    assert held["plasma_rifle"] == 1 and "Recovered from the field into the stores: Plasma Rifle" in out.notes
    assert all(held.get(k, 0) == before[k] - lost.get(k, 0) for k in before if k != "plasma_rifle")
    assert any(n.startswith("Lost with Ash: ") for n in out.notes)
    record = book.state.records[1]
    weapons = dict(book.outfitter.picks(posting.mission, 1, record, held)[1].options)
    assert "plasma_rifle" in weapons  # once recovered it is on offer


def test_a_campaign_without_kits_or_stores_decides_and_verifies_as_before(content, tmp_path):
    """An annihilation bundle without `stock` (a campaign from before the stores) and a Deploy of names only: the
    same events as ever (no kit issued), and it verifies."""
    standard = content.rules[ID]["campaign"]["standard"]
    old = attrs.evolve(content, rules={**content.rules, ID: {**content.rules[ID], "campaign": {
        "standard": attrs.evolve(standard, stock=None)}}})
    folder = folder_of(tmp_path, "old")
    book = Ledger.new(old, folder, "old", ID, seed_from_int(3), 3, [])
    assert book.state.base is None
    posting, names = _offered(book)
    events = book.submit(d.Deploy(posting.id, names))
    assert [type(e).__name__ for e in events] == ["Launched"]
    game = book.mission()
    play_out(game)
    book.land(game)
    game.close()
    book.close()
    lines = [line for line in (folder / "campaign.jsonl").read_text().splitlines() if '"deploy"' in line]
    assert '"kits"' not in lines[0]
    report = verify(old, folder)
    assert report.failure is None and report.missions == 1


def test_content_check_names_a_stock_id_that_is_no_kit(tmp_path):
    import shutil

    from engine.content import loader
    from engine.content.strict import ContentError

    root = tmp_path / "bundle"
    shutil.copytree(loader.default_dir(), root, ignore=shutil.ignore_patterns("__pycache__"))
    file = root / "annihilation" / "campaign.toml"
    file.write_text(file.read_text().replace("m_17 = 2", "m_71 = 2"))
    with pytest.raises(ContentError) as got:
        loader.load(root)
    assert got.value.messages == ["annihilation/campaign.toml: [standard.stock].m_71: no armour, weapon, item or "
                                  "explosive of that id"]


def test_squad_pick_then_loadout_then_deploy_in_a_campaign(content, tmp_path):
    book = Ledger.new(content, folder_of(tmp_path, "tui"), "tui", ID, seed_from_int(3), 3, [])
    posting, names = _offered(book)
    assert len(book.state.offers) == 1
    app = XenotacApp(content, tmp_path, alien_delay=0, campaign=book)

    async def steps(pilot):
        from tests.test_tui_campaign import until

        await until(pilot, app, "CampaignScreen", "CAMPAIGN")
        await pilot.press("d")
        await until(pilot, app, "SquadPick", "Squad for")
        await pilot.press("enter")
        await until(pilot, app, "Loadout", "Loadout for")
        first = screen_text(app)
        armour = [k for k, _label in app.screen._pick().options]  # noqa: SLF001 - where Kevlar Fatigues is
        step = armour.index("kevlar_fatigues") - app.screen.cursor[2]
        await pilot.press("right", "right", *["down" if step > 0 else "up"] * abs(step), "space", "enter")
        await until(pilot, app, "BattleScreen")
        return first, app.screen.session.game

    first, game = asyncio.run(_run(app, steps))
    assert "Armour: Light Body Armor" in first and "(of " in first
    assert book.state.records[0].outfit.armour == "kevlar_fatigues"
    assert game.header["mission"]["squad"][0]["outfit"]["armour"] == "kevlar_fatigues"
    book.close()


async def _run(app, steps):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        return await steps(pilot)


@pytest.mark.slow
def test_a_simulated_annihilation_campaign_verifies(tmp_path, capsys, content):
    saves = ["--saves", str(tmp_path)]
    assert main(saves + ["campaign", "simulate", "--ruleset", ID, "--seed", "4", "--months", "1"]) == 0
    capsys.readouterr()
    assert main(saves + ["campaign", "verify", f"sim-{ID}-4"]) == 0
    assert "verified" in capsys.readouterr().out
    book = Ledger.open(content, folder_of(tmp_path, f"sim-{ID}-4"))
    flight = book.state.flown[0]
    squad = log.read_header(book.folder / flight.log)["mission"]["squad"]
    assert all("outfit" in s for s in squad)  # the AI's kits, from the stores
    book.close()
