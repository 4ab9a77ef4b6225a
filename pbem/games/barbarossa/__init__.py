"""Operation Barbarossa: A WW2 Roll & Write Game, a solitaire dice game (rules, data, syntax, bot).

The engine lives in `rules` (exported as `ENGINE`: a `pbem.kit` step table), the handlers
of its steps in `campaign` (the campaign phase) and `german` (the German phase), what
both share in `board`, the gamesheet loader in `data`, the decision dataclasses and
their text syntax in `decisions`, a random bot in `bot`.
"""
