"""Berlin 1945: The Fall of the Reichstag, a two-player zone-map game.

The Soviet player (role "soviet") storms Berlin from the outskirts (Areas A-F)
through three rings of districts to the Mitte and Sector V, the Reichstag; the
German player (role "german") holds the city for 12 turns. Soviet orders are
planned in secret and executed after the German ones; combat is deterministic
except for the winner's losses (a d10); each side draws from its own deck of 25
Event cards (rulebook 1, 2, 7).

`data` loads and validates the map (`data/map.toml`: zones, rings, stacking
limits, borders, the rule flags that go with the map), the counters
(`data/counters.toml`: unit types, every unit with its start, the Soviet
reinforcements, the markers) and the cards (`data/cards.toml`: both decks, each
card's effects built from named primitives). The rules engine is `rules.ENGINE`
(modules described in rules.py); the game is registered as "berlin-1945".
"""
