"""Berlin 1945: The Fall of the Reichstag, a two-player zone-map game.

The Soviet player (role "soviet") storms Berlin from the outskirts (Areas A-F)
through three rings of districts to the Mitte and Sector V, the Reichstag; the
German player (role "german") holds the city for 12 turns. Soviet orders are
planned in secret and executed after the German ones; combat is deterministic
except for the winner's losses (a d10); each side draws from its own deck of 25
Event cards (rulebook 1, 2, 7).

`data` loads and validates the map (`map_file`), the counters (`counters_file`) and
the cards (`cards_file`) against what the rulebook fixes (`rulebook`); `tables` turns
them into the static tables of a game. The rules engine is `rules.ENGINE`, a step table
of the game kit (`steps`); the game is registered as "berlin-1945".
"""
