"""The seam between the kernel and a tabletop rule system.

The kernel knows commands, events, dice and the fold. A ruleset knows everything else: how a turn
is paid for (2 actions, action points, time units, one action per slot), what an attack rolls,
and what a preview should tell the player. See docs/architecture.md for how each of the four
rulesets maps onto these methods.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import attrs
import numpy as np

from engine.core.commands import Act, Command, Rejected
from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.walk import Walk  # noqa: F401 - part of the seam: Budget.walk, the rulesets build it

if TYPE_CHECKING:  # annotations only: the core never needs the content room at run time
    from engine.content.missions import Member
    from engine.content.models import Content, Mission
    from engine.content.tables import Schema
    from engine.core.creation import Creation
    from engine.content.scenario import UnitReport, Verdict


@attrs.frozen(kw_only=True)
class Setup:
    """What a ruleset needs to start a mission: the mission and where each side stands."""

    mission_id: str
    mission: Mission
    spawns: dict[str, tuple[Pos, ...]]
    max_phases: int  # the mission's limit, or the one `simulate --max-turns` set


@attrs.frozen
class Row:
    """One labelled line the client prints as it comes: a sheet row or a line of odds. With `value` and
    `maximum` the client draws a bar after the text; `alert` is a word to stand out (a status)."""

    label: str  # "HP", "Hit", "Wounds"
    text: str  # " 61/61 ", "45.0% · dmg 12.3"
    value: int | None = None
    maximum: int | None = None
    alert: str = ""


@attrs.frozen(kw_only=True)
class Sheet:
    """A unit as the ruleset wants it read: its rows (health, stamina, pools...) and its effects in words."""

    rows: tuple[Row, ...]
    effects: tuple[str, ...] = ()  # states and cooldowns ("asleep 2", "prone"), not the rules' bookkeeping
    kind: str = ""  # after the name in the panel's head: its race or class ("Human", "Heavy")
    kit: tuple[str, ...] = ()  # what it carries, a line each ("Laser rifle 12/20 +2 mag", "Items: grenade×2")


@attrs.frozen
class Mode:
    """A firing mode of what a unit wields: `id` goes in `Shoot.mode`, `name` to the player; `usable` is False when
    the unit cannot pay for it now (the client still lists it, the AI skips it)."""

    id: str
    name: str
    usable: bool = True


@attrs.frozen(kw_only=True)
class ShotPreview:
    """Exact odds before the player confirms a shot: numbers for the AI, labelled lines for the player."""

    p_hit: float  # chance the target takes damage or is killed
    expected_damage: float
    p_headshot: float = 0.0  # chance the shot kills outright
    distance: int
    reach: int | None  # furthest distance in cells, None = line of sight
    lines: tuple[Row, ...] = ()  # the odds in the ruleset's words: hit %, wound tiers, hits and saves...
    notes: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class CellShot:
    """A shot at a cell where the side sees nobody (neo-troops: at AV 6, N-3.3), as the cursor previews it: the
    command that fires it and its odds."""

    command: Command
    preview: ShotPreview
    modes: tuple[Mode, ...] = ()  # every mode a shot at this cell may take now (neo-troops: snap, spray, cover)


NO_CELL_SHOTS = "no_cell_shots"  # the code of `preview_cell_shot`'s refusal in a ruleset that has none


@attrs.frozen(kw_only=True)
class ThrowPreview:
    """Before a throw: the chance it lands where aimed, where it goes if not, and each unit the blast would hit."""

    p_land: float
    lines: tuple[Row, ...] = ()  # the chance to land and the scatter, in the ruleset's words
    hits: tuple[tuple[str, Row], ...] = ()  # (unit id, its damage) for every unit in the blast; the client shows
    #                                         only those its side sees


@attrs.frozen
class Option:
    """One entry of the action menu: what the player reads, and the command it sends."""

    group: str  # "Psionics", "Morale", "Melee", "Items", ... (the menu's headings)
    label: str  # "Panic → Sectoid 2 (7 SS)"
    command: Act
    note: str = ""  # why it costs what it costs, or its odds
    overload: int = 0  # the most the player may set `command.amount` to with ←/→ (0: nothing to set)
    amount_words: str = "Overload: {n} extra SS"  # how the menu says the amount being set


@attrs.frozen(kw_only=True)
class Stowed:
    """One thing a unit carries, as the inventory screen lists it, and the moves it can make now: each an Option
    whose command the ruleset decides (the screen only picks)."""

    label: str  # "Mk. IIV Assault Rifle 13/20"
    place: str  # "Both hands", "Belt"
    size: str = ""  # the ruleset's size of it ("D")
    moves: tuple[Option, ...] = ()


@attrs.frozen(kw_only=True)
class Inventory:
    """A unit's inventory for the client's screen: summary rows (encumbrance, TU) and each thing carried."""

    lines: tuple[Row, ...] = ()
    items: tuple[Stowed, ...] = ()


@attrs.frozen(kw_only=True)
class Turn:
    """Who may act now, as data: side turns (xcom-trpg, xxxzone, annihilation) name a side and leave the choice of
    unit open; an initiative slot (neo-troops) names the units whose slot is up; an interrupt (reaction fire) can
    name the one unit that may answer out of its side's turn."""

    side: str  # the side whose controller (player or AI) decides the next command; "" when nobody may act
    units: tuple[str, ...] | None = None  # only these units may act now; None: any unit of the side
    label: str = ""  # for the client's status line: "X-COM turn", "Initiative 3/8: Anna"
    # An interrupt that asks a question mid-action ("Goon 2 may hasten as Anna runs"): when non-empty, the
    # controller of `side` must answer with one of these commands and nothing else (`answers` refuses the rest);
    # the client shows them as a modal choice, the AI answers through `ai_special`.
    choices: tuple[Option, ...] = ()
    decline: int | None = None  # the index in `choices` of the answer Esc gives (letting it pass); None: none

    def allows(self, unit_id: str) -> bool:
        return self.units is None or unit_id in self.units

    @property
    def declined(self) -> Command | None:
        return self.choices[self.decline].command if self.decline is not None else None


@attrs.frozen
class Throwable:
    """One kind of thing a unit could throw now, as the throw picker lists it (`Frag Grenade ×2`)."""

    item: str  # the id `Throw`, `preview_throw` and `throw_range` take
    label: str  # its name in the ruleset's words, with anything the player should know (primed, a timer)
    count: int = 1  # how many of it the unit carries


@attrs.frozen
class Mark:
    """Something on the map a ruleset shows one side, drawn over the ground and under the units: a square of smoke or
    fire, an explosive lying primed (only for the side that knows of it), a motion-sensor blip."""

    pos: Pos
    glyph: str
    color: str  # "#rrggbb"
    label: str  # what it is, for the look cursor ("Smoke until turn 6")
    background: str = ""  # "#rrggbb" under it; "": the cell's own
    z: int = 0  # the storey it lies on (engine.map.levels; 0: the ground, every map of one level)


@attrs.frozen(kw_only=True)
class Clues:
    """What an AI knows of the hostiles it cannot see, for `Ruleset.ai_hunt`: where it last saw or suspected each
    (cell, phase), freshest first, and the phase it last searched each cell in ([y, x], -1 never; read-only)."""

    leads: tuple[tuple[Pos, int], ...] = ()
    searched: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    in_sight: tuple[Unit, ...] = ()  # the hostiles it sees now


@attrs.frozen
class Hunt:
    """The AI's hunting command, and the cells it searches (the AI remembers them, in the log's checkpoints)."""

    command: Command
    searched: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)  # [y, x] bool, None: none


@attrs.frozen(kw_only=True)
class Budget:
    """What a unit can still do this turn, in the ruleset's own currency."""

    label: str  # "actions 1/2", "AP 6/8", "TU 43/60"
    can_act: bool
    moves_left: int  # what it may still spend on walking now, in `walk.currency`
    dash_moves: int = 0  # what the ruleset's second kind of move (the `Combo` command) reaches now, 0 if none
    dash_label: str = ""  # its name in the ruleset's words ("combo", "cautious"); "": the ruleset has none
    dash_spare: bool = False  # the AI may plan that move: what it costs beyond the budget is in hand (xcom: stamina)
    step: int = 0  # what the next move action walks and still leaves the rest of the budget (xcom: one sector)
    walk: Walk = Walk()
    # The second kind of move's own prices when they are not `walk`'s in proportion (xxxzone: a swim square costs
    # the same moving quickly or cautiously): a path fits that move when it costs no more than `moves_left` by
    # it. None: when it costs no more than `dash_moves` by `walk`.
    dash_walk: Walk | None = None
    dash_prefer: bool = False  # the AI takes the second kind of move wherever it pays for the whole walk (xxxzone:
    #                            moving cautiously while no enemy has spotted the unit); False: only to reach further

    def dash_fits(self, start: Pos, path) -> bool:
        """Whether the second kind of move (the `Combo` command) pays for walking `path` from `start` now."""
        if self.dash_walk is not None:
            return bool(self.dash_label) and self.dash_walk.cost(start, path) <= self.moves_left
        return bool(self.dash_moves) and self.walk.cost(start, path) <= self.dash_moves


class Ruleset(Protocol):
    id: str
    title: str  # its name in menus and headers ("X-COM TRPG")
    content: Content
    setup: Setup | None  # None outside a mission (the roster, `resolve`)
    sight_range: int  # cells a unit sees at most, for the AI's sense of near and far
    storeys: int  # how many storeys its maps stack (1: one level, as generated; engine.map.storeys)
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

    def preview_shot(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        """Chance to hit, expected damage and the conditions, without rolling."""

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
        cell, Search, close on a lead), or None to advance and explore as usual (the other rulesets)."""

    def ai_chore(self, state: State, unit: Unit, in_sight: list[Unit], stage: str) -> Command | None:
        """Upkeep the AI does by the ruleset's rules, or None: at stage "first", what must come before any shot (a
        reload when the magazine cannot fire); at "idle", when it has no shot (break a grip, top up a magazine)."""

    def shot_modes(self, state: State, unit: Unit) -> list[Mode]:
        """The firing modes of what the unit wields, the default first; [] when it has nothing to fire."""

    def name(self, thing: str) -> str:
        """The display name of a weapon or item id of its content ("Frag grenade")."""

    def behaviour(self, unit: Unit) -> str:
        """The unit's AI profile in behaviour.toml ("default" when it has none of its own)."""

    def creation(self) -> Creation | None:
        """How a player makes a character of this ruleset for the roster (engine.core.creation), and how roster
        characters deploy into its missions; None when it has no character creation."""

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

    def heard(self, state: State, side: str) -> tuple[Pos, ...]:
        """Where the side has lately heard its enemies without having to see them (xxxzone: an unsuppressed shot
        within its alert radius), for its AI to hunt there; () for a ruleset whose units hear nothing."""

    def change_note(self, before: Unit, after: Unit, cause: str) -> str | None:
        """A unit change in the roll log's words, after the unit's name ("morale 28 → 38 (+10, killed Sectoid)"),
        or None when the ruleset tells none there."""


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
