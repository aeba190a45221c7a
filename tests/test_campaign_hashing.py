"""A campaign's header commits to every content file its ruleset reads, the between-mission files (`Schema.between`,
outside the mission hash) too: a changed file refuses the campaign on open and in `campaign verify`, in one line
naming it. A campaign begun before the header kept them opens and verifies on its content hash alone."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from engine.campaign import decide as d
from engine.campaign import ledger
from engine.campaign.ledger import Ledger, changes, folder_of
from engine.campaign.verify import verify
from engine.content import loader
from engine.core.dice import seed_from_int
from engine.log import writer as log
from tui.cli import main

RULESET = "xxxzone"


@pytest.fixture
def bundle(tmp_path):
    root = tmp_path / "bundle"
    shutil.copytree(loader.default_dir(), root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _header(folder) -> dict:
    return json.loads((folder / ledger.LOG).read_bytes().splitlines()[0])


def _campaign(content, saves, name="hx", ruleset=RULESET):
    book = Ledger.new(content, folder_of(saves, name), name, ruleset, seed_from_int(4), 4, [])
    while not book.state.offers:
        book.submit(d.Advance())
    book.close()
    return folder_of(saves, name)


def test_the_header_commits_to_every_file_the_between_ones_too(content, tmp_path):
    folder = _campaign(content, tmp_path, ruleset="annihilation")
    files = _header(folder)["content_files"]
    raw = (loader.default_dir() / "annihilation" / "campaign.toml").read_bytes()
    assert files["annihilation/campaign.toml"] == hashlib.sha256(raw).hexdigest()  # a between file: in the header
    assert "annihilation/weapons.toml" in files and "terrain.toml" in files and "xxxzone/units.toml" not in files
    assert files == content.files_for("annihilation") == loader.load(rulesets=["annihilation"]).files_for(
        "annihilation")
    assert verify(content, folder).failure is None


def test_a_changed_between_file_refuses_the_campaign_in_one_line(content, tmp_path, bundle):
    folder = _campaign(content, tmp_path, ruleset="annihilation")
    path = bundle / "annihilation" / "campaign.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("limb_days = 30", "limb_days = 20"), encoding="utf-8")
    edited = loader.load(bundle)
    assert edited.sha_for("annihilation") == content.sha_for("annihilation")  # outside the mission hash
    said = ("the content changed since this campaign began: annihilation/campaign.toml changed; put it back as it "
            "was (or start a new campaign)")
    with pytest.raises(log.LogError) as refused:
        Ledger.open(edited, folder)
    assert str(refused.value) == f"line 1: {said}"
    assert verify(edited, folder).failure == f"campaign log: line 1: {said}"
    assert Ledger.open(content, folder).state.offers  # put back: it opens


def test_a_changed_battle_file_is_named_on_the_command_line(content, tmp_path, bundle, capsys):
    folder = _campaign(content, tmp_path)
    path = bundle / "xxxzone" / "weapons.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    armour = bundle / "xxxzone" / "armour.toml"
    armour.write_text(armour.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    args = ["--saves", str(tmp_path), "--content", str(bundle), "campaign"]
    assert main(args + ["verify", "hx"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == ("FAILED at campaign log: line 1: the content changed since this campaign began: "
                   "xxxzone/armour.toml changed, xxxzone/weapons.toml changed; put it back as it was (or start a "
                   "new campaign)")
    assert main(args + ["advance", "hx"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "xxxzone/weapons.toml changed" in err[0] and "Traceback" not in err[0]
    assert folder.is_dir()


def test_a_campaign_begun_before_the_header_kept_its_files_opens_and_verifies(content, tmp_path, monkeypatch,
                                                                             bundle):
    made = ledger.make_header

    def older(*args, **kwargs):
        header = made(*args, **kwargs)
        del header["content_files"]
        return header

    monkeypatch.setattr(ledger, "make_header", older)
    folder = _campaign(content, tmp_path)
    monkeypatch.undo()
    assert "content_files" not in _header(folder)
    assert Ledger.open(content, folder).state.offers and verify(content, folder).failure is None
    path = bundle / "xxxzone" / "weapons.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    failure = verify(loader.load(bundle), folder).failure
    assert failure.startswith("campaign log: line 1: this campaign was played with content sha ")
    assert failure.endswith("(a file of the shared tables or of content/xxxzone/ changed)")


def test_changes_in_words():
    was = {"a.toml": "1", "b.toml": "2", "c.toml": "3"}
    assert changes(was, dict(was)) == ""
    assert changes(was, {"a.toml": "1", "b.toml": "9", "d.toml": "4"}) == \
        "b.toml changed, c.toml is gone, d.toml is new"
    many = {f"{i}.toml": "x" for i in range(5)}
    assert changes({}, many) == "0.toml is new, 1.toml is new, 2.toml is new and 2 more"
