"""X-COM Annihilation (../shared/rules/annihilation.md): the rules core and its content schema.

Not registered yet: the modules here are pure functions over frozen records, tested to the spec's vectors, waiting
for the ruleset seam. Importing this package registers nothing.
"""
