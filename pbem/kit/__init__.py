"""The game kit: what every game shares, so that a game declares its rules and nothing else.

- `defaults`: what every engine would write in the same words: its shipped data files read
  from its package, `format` refusing another game's decisions, a setup without options.
- `steps`: the step table (Rally the Troops' `states`) and `StepGame`, the Engine whose one
  `apply` does the checks every game needs, in the same words, before a step's handler runs.
- `decisions`: how a game declares its decision types (`@decision`: frozen records of
  `pbem.record`, compared and hashed as frozen dataclasses are, listed for
  `decision_types`) and writes those whose text is a template of their fields.
- `pieces`: hidden pieces, whose value is a commitment (protocol section 5): claims made
  while sealed and checked when they open, and reveal obligations.
- `sealed`: sealed rounds, the one way to ask several players "at the same time" while only
  one role signs at a time (protocol section 8).
- `decks`: decks and cups drawn with the protocol's generator, publicly or privately.
- `seats`: games whose players decide in play which side each commands.

The kit is game-agnostic: it imports the core, the errors and the data-file reader
(`pbem.games.datacheck`), never a game.
"""
