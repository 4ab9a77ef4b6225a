"""Race to the Sea 1914 (issue 15): data, board and rules pieces, built toward the engine.

Not registered as a playable game yet (pbem/games/__init__.py): the engine (rules.py)
plays the sequence of play, movement, recon and the fog of war, but no combat yet. The
rest is pure and tested: the stand-in data (TOML, a provenance on every item), the hex
board, movement and victory, the Combat Results Cards and their evaluation, casualties
with modified ratings, the SVG map. docs/race-to-the-sea.md has the design and status.
"""
