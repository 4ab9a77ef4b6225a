"""Race to the Sea 1914 (issue 15): the stand-in data (TOML, a provenance on every item),
the hex board, the rules engine (rules.py: the sequence of play, every action, combat with
casualties as sealed stacks, Events, the fog of war), its bot, standing orders, SVG map and
summaries. docs/race-to-the-sea.md has the design and status.
"""
