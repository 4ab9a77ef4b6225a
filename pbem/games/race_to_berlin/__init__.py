"""Race to Berlin: a two-player area-map game of the race for Berlin in 1945 (data only so far).

The West player and the Soviet player race each other to the centre of Berlin
while each also commands the German front facing the other (rulebook 1, 4.1.1).
`data` loads and validates the map (`data/map.toml`: areas, borders, Berlin,
supply edges, eagles, fortifications and units at start) and the tokens
(`data/tokens.toml`: special tokens, logistics blocks, action cubes, front line
markers). The rules engine is written later against that loader; the game is
not registered yet.
"""
