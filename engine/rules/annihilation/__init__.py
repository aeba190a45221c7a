"""X-COM Annihilation (../shared/rules/annihilation.md): the rules core and its content schema.

Not registered yet: the modules here are pure functions over frozen records, tested to the spec's vectors, waiting
for the ruleset seam. Importing this package registers nothing and imports nothing.

schema (the content tables and their checks), book (the tables as one value; formulas rounded down), character
(stats, skills), experience (improvement by use, promotion), space (distances, diamonds, facing, hit side), fighter
(the battle record), moves (TU, energy, movement, stances), fire (to-hit, shot costs, rounds, reactions), attacks
(physical attacks, throws, scatter), armour, wounds, blast, hits (a hit from round to wound, blasts, priming, the
motion sensor), healing, inventory, phase (the start and end of a phase), actions (whole actions), sheet (the unit
panel).
"""
