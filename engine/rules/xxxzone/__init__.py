"""The xxxzone ruleset (../shared/rules/xxxzone.md): action points, the seven-step shot, wound tiers, stealth.

This session builds its rules core as pure functions over frozen attrs values, and its content in content/xxxzone/;
it is not registered with the ruleset registry yet, so importing this package does nothing.
"""
