"""What the `Ruleset` protocol's methods hand back (engine.core.ruleset): plain frozen values the kernel, the AI,
the client and `resolve` read without knowing the ruleset that made them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
import numpy as np

from engine.core.commands import Act, Command
from engine.core.geometry import Pos
from engine.core.model import Unit
from engine.core.walk import Walk

if TYPE_CHECKING:
    from engine.content.models import Mission


@attrs.frozen(kw_only=True)
class Setup:
    """What a ruleset needs to start a mission: the mission and where each side stands."""

    mission_id: str
    mission: Mission
    spawns: dict[str, tuple[Pos, ...]]
    max_phases: int  # the mission's limit, or the one `simulate --max-turns` set
    extra_turns: int = 0  # phases the squad may go on after its main objectives (the header's; xcom-trpg 4.8)


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
    (cell, phase), freshest first, the phase it last searched each cell in ([y, x], -1 never; read-only), and the
    cells its side has ever seen ([y, x] bool, read-only; None: not told): all it may know of the map's features."""

    leads: tuple[tuple[Pos, int], ...] = ()
    searched: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    in_sight: tuple[Unit, ...] = ()  # the hostiles it sees now
    explored: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)


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
    reserve: int = 0  # what the AI's walks leave unspent, for the enemy's turn (annihilation: reaction fire, by the
    #                   unit's profile); already out of `step`
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
