"""The neo-troops rule system (spec: shared/rules/neo-troops.md): pools of d6 against armour values, an initiative
order of single actions, armour saves, critical tables, cloaked varans.

This package is the rules core only: pure functions over frozen records (`unit`, `pools`, `order`, `movement`,
`shooting`, `melee`, `damage`, `senses`) and the content schema (`schema`). It registers no ruleset yet, so
importing it does nothing.
"""
