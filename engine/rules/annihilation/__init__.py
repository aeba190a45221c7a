"""X-COM Annihilation (../shared/rules/annihilation.md): the rules core, its content schema, and the registered
ruleset that plays it on the shared missions (play.Annihilation).

schema (the content tables and their checks), book (the tables as one value; formulas rounded down), character
(stats, skills), experience (improvement by use, promotion), space (distances, diamonds, facing, hit side), fighter
(the battle record), moves (TU, energy, movement, stances), fire (to-hit, shot costs, rounds, reactions), attacks
(physical attacks, throws, scatter), armour, wounds, blast, hits (a hit from round to wound, blasts, priming, the
motion sensor), healing, inventory, phase (the start and end of a phase), actions (whole actions), sheet (the unit
panel).

On the map: deploy_schema (units, forces and ground tables), soldier (the unit record and deployment), ground
(priced walks), turns (phases, section 22, the verdict), moving (steps and opportunity fire), combat (shots,
reloads, blasts), acts (stances, doors, the power source, throws), queries (what the client and the AI ask; by topic
shot_queries, throw_queries, unit_queries, ai_queries), play (the registered class).
"""

from engine.rules.annihilation.play import Annihilation  # noqa: F401 - registers "annihilation"
