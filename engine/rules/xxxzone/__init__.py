"""The xxxzone ruleset (../shared/rules/xxxzone.md): action points, the seven-step shot, wound tiers, stealth.

The rules core is pure functions over frozen attrs values, with its content in content/xxxzone/; `play.py`
registers it with the ruleset registry and answers the kernel's questions with them."""

from engine.rules.xxxzone.play import XxxZone  # noqa: F401 - registers "xxxzone"
