"""The seam between the kernel and a tabletop rule system.

The kernel knows commands, events, dice and the fold. A ruleset knows everything else: how a turn
is paid for (2 actions, action points, time units, one action per slot), what an attack rolls,
and what a preview should tell the player. See docs/architecture.md for how each of the four
rulesets maps onto these methods.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

import numpy as np

from engine.core.commands import Combo, Command, Move, Rejected
from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.seam import (  # noqa: F401 - the protocol's values, importable from here as before
    NO_CELL_SHOTS, Budget, CellShot, Clues, Hunt, Inventory, Mark, Mode, Option, Row, Setup, Sheet, ShotPreview,
    Stowed, Throwable, ThrowPreview, Turn)
from engine.core.walk import Walk  # noqa: F401 - part of the seam: Budget.walk, the rulesets build it

if TYPE_CHECKING:  # annotations only: the core never needs the content room at run time
    from engine.content.missions import Member
    from engine.content.models import Content
    from engine.content.tables import Schema
    from engine.campaign.seam import Downtime
    from engine.core.creation import Creation
    from engine.core.loadout import Outfitter
    from engine.content.scenario import UnitReport, Verdict




class Ruleset(Protocol):
    id: str
    title: str  # its name in menus and headers ("X-COM TRPG")
    content: Content
    setup: Setup | None  # None outside a mission (the roster, `resolve`)
    sight_range: int  # cells a unit sees at most, for the AI's sense of near and far
    storeys: int  # how many storeys its maps stack (1: one level, as generated; engine.map.storeys)
    climates: tuple[str, ...]  # the climates its outdoor maps are drawn in (engine.map.climate); (): as generated
    hexes: bool  # its maps are read as hexes (engine.map.hexes: steps, sight, paths); False: squares
    audit_dice: tuple[int, ...]  # die sizes `audit --stats` tabulates with a χ² test (d100; d6 for a pool ruleset)
    schema: Schema | None  # class attribute: its own tables in `content/<id>/` (engine.content.tables), or None
    scenario: type | None  # class attribute: the attrs model of its `resolve` scenario file, or None (no resolve)

    def roster(self, mission_id: str) -> list[Member] | None:
        """Who deploys on a shared mission under this ruleset, squad first, from its own unit tables (a mission's
        own squad, or `content/<id>/forces.toml`), or None when it has no forces for that mission."""

    def decide(self, state: State, command: Command, dice: Dice) -> Rejected | list[Event]:
        """The ruleset's verdict on a command: a rejection, or events carrying their rolls."""

    def turn(self, state: State) -> Turn:
        """Who may act now: the side whose controller decides, and the units it may move (an initiative slot)."""

    def spotted(self, state: State, side: str) -> frozenset[str]:
        """Ids of the other sides' units that `side` sees now: a unit in a seen cell may stay unseen (a cloaked
        varan, a cautious operative); the AI and the fog of war show only these."""

    def budget(self, state: State, unit: Unit) -> Budget:
        """Turn economy for the unit panel, the footer and the AI."""

    def walked(self, state: State, command: Move | Combo) -> State | Rejected:
        """The state the command's walk leaves when nothing happens on the way (no reaction fire, no roll, no trap):
        the unit at its end, facing along its last step, the walk paid by the move's own rule; or the refusal its
        `decide` would give. The AI previews a shot after a walk from it, with what the walk left to spend."""

    def preview_shot(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        """Chance to hit, expected damage and the conditions, without rolling."""

    def shot_panel(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        """The targeting panel's odds: `preview_shot`'s, but where the shooter cannot pay for `mode` now, the odds
        of every mode anyway (the chosen one marked as unpaid); other refusals as `preview_shot` gives them."""

    def preview_cell_shot(self, state: State, shooter: str, cell: Pos, mode: str) -> CellShot | Rejected:
        """Firing `mode` at `cell` where the side sees nobody, with its odds; or why not. A ruleset without such
        shots refuses every cell with the code NO_CELL_SHOTS (the client then hides the key)."""

    def preview_throw(self, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
        """The odds of a throw at `cell` without rolling, or why it cannot be thrown there."""

    def options(self, state: State, unit: Unit) -> list[Option]:
        """The unit's actions beyond moving and shooting (`Act` commands), for the action menu and the AI."""

    def throw_range(self, state: State, unit: Unit, item: str) -> int:
        """Furthest cell a thrown item reaches, in the ruleset's `distance`."""

    def distance(self, a: Pos, b: Pos) -> int:
        """Range distance in cells (xcom-trpg: Chebyshev; annihilation: max + floor(min/2))."""

    def blast(self, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
        """The cells an explosive landing on `cell` reaches (xcom-trpg: that cell; annihilation: a diamond)."""

    def shot_blast(self, state: State, unit: Unit, cell: Pos) -> tuple[Pos, ...]:
        """The cells a blast round of the weapon the unit holds reaches when it goes off on `cell` (annihilation: a
        grenade launcher's grenade, a rocket); () for a weapon whose shots do not blast."""

    def throwables(self, state: State, unit: Unit) -> list[Throwable]:
        """What the unit could throw now, labelled and counted from the ruleset's own record, first the one to
        offer."""

    def sheet(self, state: State, unit: Unit) -> Sheet:
        """The unit panel's rows and effects, in the ruleset's own terms."""

    def visible(self, state: State, side: str) -> np.ndarray:
        """Boolean [y, x] array of the cells the side sees now (on a map with storeys: on any storey)."""

    def sight_levels(self, state: State, side: str) -> np.ndarray:
        """Boolean [z, y, x] array of the cells the side sees on each storey ([1, y, x] on a map of one level):
        the fog of war of the level the client shows."""

    def check_scenario(self, scenario) -> list[str]:
        """A `resolve` scenario's cross-references and required fields, as located messages (`[action].target: ...`)."""

    def scenario_units(self, scenario, setup: Dice) -> tuple[dict[str, Unit], list]:
        """The scenario's units as frames, and the rolls made on the `setup` dice for numbers it leaves out."""

    def unit_report(self, before: Unit, after: Unit) -> UnitReport:
        """What `resolve` tells of a unit after a verdict: a line, and numbers for `--json` and `--trials`."""

    def referee(self, units: dict[str, Unit], action, dice: Dice) -> Verdict | Rejected:
        """`xenotac resolve`: one described situation, decided as the game decides it (staged on a small map and
        put to `decide`), so a situation the game refuses is refused with the same code and reason."""

    def trial_plan(self, units: dict[str, Unit], action):
        """`resolve --trials`: a fast plan with `run(faces, n) -> [(changes, count)]` giving the referee's outcomes
        from the same dice, or None to call the referee once per trial."""

    def trial_tally(self, action, verdict: Verdict) -> dict[str, dict[str, int | str]]:
        """`resolve --trials`: per unit id, the ruleset's own categories of one trial's verdict (category -> value,
        e.g. xxxzone's {"outcome": "glancing"}); the kernel reports the share of trials per value. {} for none."""

    def ai_special(self, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Command | None:
        """The AI's use of the ruleset's own tools before it moves or shoots (xcom-trpg: psionics), or None. While
        `turn(state).choices` asks `unit` a question, its answer: one of those commands, or None for the decline
        (the first choice when there is no decline)."""

    def suspects(self, state: State, side: str) -> tuple[tuple[str, Pos], ...]:
        """(unit id, cell) of each hostile `side` cannot see but knows the cell of (neo-troops: an unnoticed
        attacker, N-4.4), for the AI to remember; () for a ruleset where what is in sight is seen."""

    def ai_hunt(self, state: State, unit: Unit, clues: Clues) -> Hunt | None:
        """With no shot: the AI's hunt for hostiles it cannot see, from what it remembers (neo-troops: fire at a
        cell, Search, close on a lead), or its errand on the map as far as its side has seen it (xxxzone: the
        Lockpicker's way to a locked door), or None to advance and explore as usual (the other rulesets)."""

    def ai_chore(self, state: State, unit: Unit, in_sight: list[Unit], stage: str) -> Command | None:
        """Upkeep the AI does by the ruleset's rules, or None: at stage "first", what must come before any shot (a
        reload when the magazine cannot fire); at "idle", when it has no shot (break a grip, top up a magazine)."""

    def ai_rest(self, state: State, unit: Unit, in_sight: list[Unit]) -> Command | None:
        """What the AI does before it ends a unit's turn with TU left (annihilation: kneel next to cover for
        opportunity fire), or None to end it as it stands."""

    def shot_modes(self, state: State, unit: Unit) -> list[Mode]:
        """The firing modes of what the unit wields, the default first; [] when it has nothing to fire."""

    def name(self, thing: str) -> str:
        """The display name of a weapon or item id of its content ("Frag grenade")."""

    def behaviour(self, unit: Unit) -> str:
        """The unit's AI profile in behaviour.toml ("default" when it has none of its own)."""

    def creation(self) -> Creation | None:
        """How a player makes a character of this ruleset for the roster (engine.core.creation), and how roster
        characters deploy into its missions; None when it has no character creation."""

    def loadout(self) -> Outfitter | None:
        """What a player chooses for each roster character before a mission of this ruleset (engine.core.loadout),
        or None when it offers no choice (the client skips the loadout step)."""

    def shaken(self, unit: Unit, below: float) -> bool:
        """Whether the unit's nerve is under `below` (the AI's retreat line; xcom-trpg: morale); False for a
        ruleset without morale."""

    def aptitude(self, unit: Unit, stats: tuple[str, ...]) -> int:
        """The sum of the unit's numbers by these stat ids (a mission formula's, `luck`), 0 for one it has not:
        the AI picks its best engineer by it."""

    def inventory(self, state: State, unit: Unit) -> Inventory | None:
        """The unit's inventory and its moves at their cost (annihilation's section 12), or None for a ruleset
        without an inventory to manage (the client then offers no inventory screen)."""

    def marks(self, state: State, side: str) -> tuple[Mark, ...]:
        """What the map shows `side` on top of the tiles beyond units (annihilation: smoke, fire, its own primed
        explosives, motion-sensor blips); () for a ruleset that keeps such things in tiles or has none."""

    def spot_chance(self, state: State, unit: Unit, cell: Pos, watcher: Pos, spotter: Unit | None) -> int:
        """The AI's estimate, in percent, that a hostile at `watcher` spots `unit` stopped at `cell`, moving as it
        does when unspotted: `spotter` is that hostile when the unit's side sees it (its facing and eyes known), None
        for one remembered or heard there (taken as facing the cell). For a stealth mission's sneak (engine.ai.stealth);
        Plain: 100 in the watcher's line of sight, else 0."""

    def heard(self, state: State, side: str) -> tuple[Pos, ...]:
        """Where the side has lately heard its enemies without having to see them (xxxzone: an unsuppressed shot
        within its alert radius), for its AI to hunt there; () for a ruleset whose units hear nothing."""

    def change_note(self, before: Unit, after: Unit, cause: str) -> str | None:
        """A unit change in the roll log's words, after the unit's name ("morale 28 → 38 (+10, killed Sectoid)"),
        or None when the ruleset tells none there."""

    def downtime(self) -> Downtime:
        """Its between-mission rules for a campaign (engine.campaign.seam); `Plain` gives the `Standard` ones."""


class Later:
    """A class attribute made when first read, on the class or an instance, and kept from then on: a ruleset's
    `scenario` model, whose `resolve` module a battle never needs (the first battle frame does not import it)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type) -> Any:
        value = self.make()
        setattr(owner, self.name, value)
        return value


class Plain:
    """The answers of a ruleset that has no shot at an unseen cell, no suspected cells, no hunt and no hearing: a
    ruleset class inherits them and overrides what its rules have (neo-troops' cells and hunt, xxxzone's hearing)."""

    title: str
    sight_range: int
    climates: tuple[str, ...] = ()  # every map as its generator makes it
    hexes: bool = False  # squares

    def shot_panel(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        return self.preview_shot(state, shooter, target, mode)  # a ruleset whose panel shows one mode at a time

    def preview_cell_shot(self, state: State, shooter: str, cell: Pos, mode: str) -> CellShot | Rejected:
        return Rejected(NO_CELL_SHOTS, f"{self.title} fires only at a target in sight")

    def suspects(self, state: State, side: str) -> tuple[tuple[str, Pos], ...]:
        return ()  # what it sees is seen: no unseen hostile's cell is known

    def ai_hunt(self, state: State, unit: Unit, clues: Clues) -> Hunt | None:
        return None  # nothing to hunt: the AI advances and explores as usual

    def heard(self, state: State, side: str) -> tuple[Pos, ...]:
        return ()  # its units hear nothing they do not see

    def ai_rest(self, state: State, unit: Unit, in_sight: list[Unit]) -> Command | None:
        return None  # a unit ends its turn as it stands

    def shot_blast(self, state: State, unit: Unit, cell: Pos) -> tuple[Pos, ...]:
        return ()  # its shots hit what they hit, no blast

    def loadout(self) -> Outfitter | None:
        return None  # a roster character deploys with its squad place's kit

    def downtime(self) -> Downtime:
        from engine.campaign.seam import Standard

        return Standard(self)  # no base, no funding, no orders: a mission's own debrief and the dead

    def spot_chance(self, state: State, unit: Unit, cell: Pos, watcher: Pos, spotter: Unit | None) -> int:
        return 100 if state.grid.sees(watcher, cell, self.sight_range) else 0  # in sight is seen


def answers(turn: Turn, command: Command) -> Rejected | None:
    """While a turn asks a question, the refusal of any command that is not one of its answers, or None."""
    if not turn.choices or any(command == o.command for o in turn.choices):
        return None
    said = " / ".join(o.label for o in turn.choices)
    return Rejected("answer_first", f"{turn.label}: answer first ({said})")

def closed(state: State) -> Rejected | None:
    """The refusal every ruleset gives a command before the mission's start or after its end, or None."""
    if state.phase == 0:
        return Rejected("not_started", "The mission has not started yet")
    if state.winner is not None:
        return Rejected("mission_over", f"The mission is over: {state.ended}")
    return None


def actor(state: State, uid: str, turn: str = "turn") -> Unit | Rejected:
    """The unit a command names, if it exists, is of the side whose `turn` it is ("turn", "phase") and is active;
    each ruleset then checks what it has left to spend."""
    unit = state.units.get(uid)
    if unit is None:
        return Rejected("unknown_unit", f"There is no unit {uid!r}")
    if unit.side != state.side:
        return Rejected("not_your_turn", f"{unit.name} cannot act during the {state.side} {turn}")
    if unit.status != "active":
        return Rejected(unit.status, f"{unit.name} is {unit.status}")
    return unit


_REGISTRY: dict[str, type] = {}


def register(ruleset_id: str):
    def deco(cls: type) -> type:
        _REGISTRY[ruleset_id] = cls
        cls.id = ruleset_id
        return cls
    return deco


def available() -> list[str]:
    """Every ruleset id: the registered ones and the built-in folders, none of them imported for it."""
    return sorted({*_REGISTRY, *_builtin()})


def built_in(ruleset_id: str) -> bool:
    """A folder of engine/rules/ (with its content folder), not a plug-in registered at run time."""
    return ruleset_id in _builtin()


def kind(ruleset_id: str) -> type:
    """The registered class, for what a ruleset says of itself without a mission (`audit_dice`)."""
    if ruleset_id not in _REGISTRY and ruleset_id in _builtin():
        import importlib

        importlib.import_module(f"engine.rules.{_builtin()[ruleset_id]}")
    return _REGISTRY[ruleset_id]


def schema(ruleset_id: str) -> Schema | None:
    """The content tables a ruleset declares, read by the loader before any mission exists."""
    return kind(ruleset_id).schema


def make(ruleset_id: str, content: Content, setup: Setup | None) -> Ruleset:
    return kind(ruleset_id)(content, setup)


def _builtin() -> dict[str, str]:
    """Every folder of engine/rules/ is a ruleset whose id is its name with "-" for "_" (xcom_trpg: "xcom-trpg"); it
    registers itself when imported, which happens the first time a process names it (a log's header, `--ruleset`,
    `make`): a plug-in is found by looking, so the core names none, and a replay imports one ruleset, not four."""
    if not _FOLDERS:
        import importlib.util

        spec = importlib.util.find_spec("engine.rules")
        for root in spec.submodule_search_locations or ():
            for folder in Path(root).iterdir():
                if (folder / "__init__.py").is_file():
                    _FOLDERS.setdefault(folder.name.replace("_", "-"), folder.name)
    return _FOLDERS


_FOLDERS: dict[str, str] = {}
