"""The shared content models: one attrs class per kind of shared TOML table (missions, factions, behaviour,
difficulty; terrain's lives with the map), and the loaded bundle. Each ruleset's own models live in its folder
(xcom-trpg: `engine/rules/xcom_trpg/models.py`). Loading lives in `engine.content.loader`."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from engine.map.terrain import COVER_LEVEL, Cover, Terrain  # noqa: F401 - terrain.toml's model lives with the map


@attrs.frozen(kw_only=True)
class Faction:
    name: str
    playable: bool = False
    glyph_hint: str = ""
    behaviour: str = ""  # behaviour.toml id the AI plays its units by; "" = default
    converts: dict[str, str] = attrs.field(factory=dict)  # victim faction -> unit template its kills rise as


@attrs.frozen(kw_only=True)
class Behaviour:
    """How the AI plays a unit: weights of what it values when it picks a cell or a target."""

    name: str
    description: str
    advance: int = 2  # per step gained towards the enemy (or the objective)
    cover: int = 2  # per level of cover against each known threat
    exposure: int = 2  # penalty per known threat that would see the cell with no cover between
    flank: int = 2  # per enemy the cell sees whose cover does not face it
    distance: int = 0  # preferred distance from the nearest known enemy; 0 = close in
    focus: int = 2  # weight on finishing the wounded
    grenade_cluster: int = 2  # enemies in one cell before a grenade is worth it; 0 = never throws
    retreat_morale: int = 0  # below this morale it falls back; 0 = never
    retreat_wounded: int = 0  # below this percentage of its HP it falls back; 0 = never
    melee: bool = False  # closes to the same or the next cell, by combo when it can, then strikes
    hold: bool = False  # with no shot it keeps its cover and waits (an ambush) rather than advance
    rear: bool = False  # stays behind its friends
    command: bool = False  # its side focuses fire on the target it picks
    objective: bool = False  # goes for the mission's objective (the extraction point) before anything else
    unconscious: Literal["last", "finish"] = "last"  # shoot the senseless only with no conscious target, or alike


@attrs.frozen(kw_only=True)
class Difficulty:
    name: str
    description: str
    default: bool = False  # the level of a mission id without "@level"
    enemies_percent: int = 100  # alien numbers, as a percentage of the mission's (halves round up)
    alien_stats: dict[str, int] = attrs.field(factory=dict)  # added to every alien's stats
    aggression_percent: int = 100  # scales how readily the AI advances and how late it falls back
    misjudge_percent: int = 0  # how far off the AI's estimate of its odds may be


ObjectiveKind = Literal["eliminate", "shut_down", "extract", "hold", "protect", "escape"]


@attrs.frozen(kw_only=True)
class Objective:
    """One line of the briefing, with the state of the battle that completes or fails it."""

    kind: ObjectiveKind
    text: str
    zone: str = ""  # shut_down, extract, hold, escape: a zone of the battlefield
    unit: str = ""  # extract: the unit template to bring out
    side: str = ""  # protect: whose units must live
    at_least: int = 0  # protect: how many must live
    until_phase: int = 0  # hold: the zone must be held to the end of this phase
    stats: list[str] = attrs.field(factory=lambda: ["intelligence"])  # shut_down: the special formula (4.7)
    done_tile: str = ""  # shut_down: what the objective's tile becomes
    after: list[str] = attrs.field(factory=list)  # escape: the objectives (ids) to meet before leaving counts


@attrs.frozen(kw_only=True)
class Loot:
    """One row of a searchable zone's table (4.6): the item found with a search total in min..max."""

    item: str
    min: int
    max: int


@attrs.frozen(kw_only=True)
class Search:
    text: str = ""
    loot: list[Loot]


@attrs.frozen(kw_only=True)
class SpecialFormula:
    """An episode's own formula (4.7): (sum of `stats`)*1d100 against the god of random, next to `zone`."""

    text: str
    stats: list[str]
    zone: str


@attrs.frozen(kw_only=True)
class Pace:
    """What `simulate --trials` expects of a mission worth playing, as medians over the trials: the kind of mission
    decides it (a fight wants contact soon; a stealth mission wants a quiet approach and few or no attacks)."""

    first_attack: int = 3  # the first attack by this phase; 0: no such goal
    quiet_until: int = 0  # no attack before this phase ("never" is best); 0: no such goal
    end: int = 15  # the mission over by this phase
    timeouts: float = 0.1  # at most this share of phase-limit draws


@attrs.frozen(kw_only=True)
class Mission:
    name: str
    description: str
    ruleset: str
    generator: str
    width: int
    height: int
    squad: list[str]
    enemies: dict[str, int]
    max_phases: int
    objectives: dict[str, Objective] = attrs.field(factory=dict)  # none: eliminate every hostile
    win: Literal["any", "all"] = "any"  # which goals must be met
    civilians: int = 0
    civilian: str = "civilian"  # the unit template civilians are made from
    spawn: dict[str, str] = attrs.field(factory=dict)  # side -> zone it deploys in (default: the side's own)
    difficulty: str = ""  # "" = the default level in difficulty.toml
    leader: str = ""  # the squad's commander (4.5, 6.5); "" = the first of `squad`
    search: dict[str, Search] = attrs.field(factory=dict)  # zone -> what can be found there (4.6)
    formulas: dict[str, SpecialFormula] = attrs.field(factory=dict)  # special formulas (4.7)
    pace: Pace = attrs.field(factory=Pace)  # what simulate --trials expects of its pace (engine.play.balance)


@attrs.frozen(kw_only=True)
class Forces:
    """Who a ruleset deploys on a shared mission, from its own unit tables: the mission's own squad and enemies
    for the ruleset it was written for, `content/<id>/forces.toml` (keyed by mission id) for the others."""

    squad: list[str]
    enemies: dict[str, int]
    civilians: int = 0
    civilian: str = "civilian"


class Missions(dict):
    """Missions by id. `ID@LEVEL` is mission ID at another difficulty level, made on demand and
    never listed, so menus show each mission once and a log names exactly what was played."""

    def __init__(self, missions: dict[str, Mission], difficulties: dict[str, Difficulty]) -> None:
        super().__init__(missions)
        self.difficulties = difficulties
        self._made: dict[str, Mission] = {}

    def __missing__(self, key: str) -> Mission:
        made = self._variant(key)
        if made is None:
            raise KeyError(key)
        return made

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or self._variant(key) is not None

    def get(self, key, default=None):  # type: ignore[override]
        try:
            return self[key]
        except KeyError:
            return default

    def _variant(self, key: object) -> Mission | None:
        if not isinstance(key, str) or "@" not in key:
            return None
        if key not in self._made:
            base_id, _, level = key.partition("@")
            if not dict.__contains__(self, base_id) or level not in self.difficulties:
                return None
            self._made[key] = at_level(dict.__getitem__(self, base_id), level, self.difficulties[level])
        return self._made[key]


def scaled(count: int, percent: int) -> int:
    """An alien number at a level's `enemies_percent`: halves round up, at least 1 of a kind there is."""
    return max(1, (2 * count * percent + 100) // 200) if count else 0


def at_level(mission: Mission, level: str, difficulty: Difficulty) -> Mission:
    """The mission at a difficulty level: its alien numbers scaled (halves up, at least 1 of each)."""
    enemies = {k: scaled(n, difficulty.enemies_percent) for k, n in mission.enemies.items()}
    name = mission.name if difficulty.default else f"{mission.name} ({difficulty.name})"
    return attrs.evolve(mission, enemies=enemies, difficulty=level, name=name)


@attrs.frozen(kw_only=True)
class Content:
    """One loaded, cross-checked content bundle."""

    sha256: str
    factions: dict[str, Faction]
    terrain: dict[str, Terrain]
    missions: dict[str, Mission]
    behaviour: dict[str, Behaviour] = attrs.field(factory=dict)
    difficulty: dict[str, Difficulty] = attrs.field(factory=dict)
    rules: dict[str, dict[str, dict[str, Any]]] = attrs.field(factory=dict)  # ruleset id -> its own tables (tables.py)
    # ruleset id -> sha256 of the shared files and its own folder: a log's header names the bundle its ruleset
    # read, so a change to another ruleset's tables leaves it valid (`sha256` alone: a ruleset with no folder)
    hashes: dict[str, str] = attrs.field(factory=dict)
    rulesets: tuple[str, ...] | None = None  # the rulesets whose tables were read (loader.load); None: every one
    # ruleset id -> {file: sha256 of its bytes} of every file it read, its between files too (`Schema.between`,
    # outside `hashes`): a campaign's header commits to them, and names the one that changed
    files: dict[str, dict[str, str]] = attrs.field(factory=dict)

    def files_for(self, ruleset_id: str) -> dict[str, str]:
        return self.files.get(ruleset_id, {})

    def sha_for(self, ruleset_id: str) -> str:
        return self.hashes.get(ruleset_id, self.sha256)

    def default_difficulty(self) -> str | None:
        return next((k for k, d in self.difficulty.items() if d.default), None)
