"""The neo-troops rule system (spec: shared/rules/neo-troops.md): pools of d6 against armour values, an initiative
order of single actions, armour saves, critical tables, cloaked varans.

The rules core is pure functions over frozen records (`unit`, `pools`, `order`, `movement`, `shooting`, `melee`,
`damage`, `senses`, `care`) and the content schema (`schema`); `play` registers the ruleset over them (`battle`:
the order and the sightings on the state, `actions`: moving, shooting and the rest of each command, `fight`:
melee, `spray`: several targets, `throwing`: grenades, `cover`: covering fire, `interrupt`: hastening and
running past, `aid`: bleeding and first aid, `views`: what the client and the AI ask, `referee`: `resolve`).
"""

from engine.rules.neo_troops.play import NeoTroops  # noqa: F401 - registers "neo-troops"
