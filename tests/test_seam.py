"""The kernel's side of the seam: priced walks, forces per ruleset and the catalog of what can be played."""

from __future__ import annotations

import numpy as np

from engine.content import missions
from engine.content.models import Forces
from engine.core.ruleset import Walk
from engine.play import catalog

import stub_ruleset  # noqa: F401 - registers "d6-stub"


def test_a_walk_costs_its_steps_times_the_price_of_each_cell_entered():
    price = np.ones((5, 5), dtype=np.int16)
    price[1, 1] = 2  # difficult ground
    metres = Walk(cardinal=2, diagonal=3, price=price, currency="m")
    assert metres.cost((0, 0), [(1, 0), (1, 1), (2, 2)]) == 2 + 2 * 2 + 3
    assert Walk().cost((0, 0), [(1, 1), (2, 2), (3, 2)]) == 3  # the default counts cells


def test_forces_name_missions_and_units_that_exist(content):
    forces = {"eliminate": Forces(squad=["anna"], enemies={"goon": 2}),
              "vip": Forces(squad=["anna"], enemies={"drone": 1}),
              "nowhere": Forces(squad=[], enemies={}), "terorr": Forces(squad=[], enemies={})}
    found = missions.check_forces("forces.toml", forces, content.missions, {"anna": 1, "goon": 1})
    assert found == ["forces.toml: [vip].enemies: unknown unit 'drone'",
                     "forces.toml: [vip].squad: the objective 'out' needs 'vip' in the squad",
                     "forces.toml: [terorr]: no such mission in missions/ (did you mean 'terror'?)"]
    # "nowhere" names no mission of this bundle (a mod may delete one): it deploys nowhere, and is no mistake


def test_members_number_each_kind_and_keep_the_squad_first():
    forces = Forces(squad=["anna", "vip"], enemies={"goon": 2}, civilians=1, civilian="farmer")
    got = missions.members(forces, lambda t: (t.title(), t[0], ""))
    assert [(m.side, m.uid, m.name, m.glyph) for m in got] == [
        ("xcom", "anna", "Anna", "a"), ("xcom", "vip", "Vip", "v"), ("aliens", "goon_1", "Goon 1", "g"),
        ("aliens", "goon_2", "Goon 2", "g"), ("civilians", "farmer_1", "Farmer 1", "f")]


def test_the_catalog_lists_what_each_ruleset_can_play(content):
    assert catalog.rulesets(content)[0] == "xcom-trpg"  # the built-in missions' own ruleset comes first
    assert catalog.missions_for(content, "xcom-trpg") == ["eliminate", "crash", "defend", "infiltrate", "terror", "vip"]
    assert catalog.title(content, stub_ruleset.ID) == "d6 one shot, one save"
    squad = [m.name for m in catalog.roster(content, "xcom-trpg", "eliminate") if m.side == missions.PLAYER]
    assert squad[:2] == ["Anton", "Julia"]


def test_each_rulesets_content_models_live_in_its_own_folder():
    """The shared models module holds the shared tables only: every model a ruleset's schema reads its own files
    with is defined in the ruleset's own files (`engine/rules/<id>/`; the stub's in `tests/`), never in
    `engine/content`."""
    from engine.content import models
    from engine.core import ruleset

    shared = {v for v in vars(models).values() if isinstance(v, type) and v.__module__ == models.__name__}
    for rid in ruleset.available():
        schema = ruleset.schema(rid)
        for file, model in (schema.files.items() if schema else ()):
            if file == "forces.toml":  # the shared model of who deploys on a shared mission
                assert model is Forces
                continue
            assert model not in shared and not model.__module__.startswith("engine.content"), (rid, file, model)
