"""Race to the Sea 1914 (issue 15): data, board and rules pieces, built toward the engine.

Not registered as a playable game yet (pbem/games/__init__.py): the engine, its sequence
of play and its hidden information are still to come. What is here is pure and tested:
the stand-in data (TOML, a provenance on every item), the hex board, the Combat Results
Cards and their evaluation, and casualties with modified ratings.
"""
