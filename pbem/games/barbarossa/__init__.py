"""Operation Barbarossa: A WW2 Roll & Write Game, a solitaire dice game (rules, data, syntax, bot).

The engine lives in `rules` (exported as `ENGINE`), the gamesheet loader in `data`,
the decision dataclasses and their text syntax in `decisions`, a random bot in `bot`.
"""
