"""Race to Berlin: a two-player area-map game of the race for Berlin in 1945.

The West player and the Soviet player race each other to the centre of Berlin
while each also commands the German front facing the other (rulebook 1, 4.1.1).
`data` loads and validates the map (`data/map.toml`) and the tokens
(`data/tokens.toml`); `rules` is the engine (a step table of the game kit,
registered as "race-to-berlin" in `pbem.games`), `bot` its bot.
"""
