"""What can be played: the registered rulesets and, for each, the shared missions it has forces for.

Menus, `play --ruleset`, the roster and the map preview ask here, so none of them names a ruleset.
"""

from __future__ import annotations

from engine.content.missions import Member
from engine.content.models import Content
from engine.core import ruleset


def rulesets(content: Content) -> list[str]:
    """Registered rulesets with at least one mission to play, the default (the built-in missions' own) first."""
    read = ruleset.available() if content.rulesets is None else content.rulesets  # a load for one ruleset: that one
    ids = [rid for rid in read if missions_for(content, rid)]
    own = {m.ruleset for m in content.missions.values()}
    return sorted(ids, key=lambda rid: (rid not in own, rid))


def title(content: Content, ruleset_id: str) -> str:
    return ruleset.make(ruleset_id, content, None).title


DEFAULT_MISSION = "eliminate"  # what `play` and `simulate` start without --mission, where the ruleset has it


def missions_for(content: Content, ruleset_id: str) -> list[str]:
    """Mission ids the ruleset deploys forces on, the default first, then by id; none when the bundle has no tables
    of a ruleset that declares some (an older bundle, from before its folder)."""
    if ruleset.schema(ruleset_id) is not None and not any(content.rules.get(ruleset_id, {}).values()):
        return []
    rules = ruleset.make(ruleset_id, content, None)
    return sorted((mid for mid in content.missions if rules.roster(mid) is not None),
                  key=lambda m: (m != DEFAULT_MISSION, m))


def roster(content: Content, ruleset_id: str, mission_id: str) -> list[Member]:
    """Who deploys (KeyError when the ruleset has no forces for the mission)."""
    found = ruleset.make(ruleset_id, content, None).roster(mission_id)
    if found is None:
        raise KeyError(mission_id)
    return found
