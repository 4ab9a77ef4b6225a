"""The games pbem knows. Each registers lazily so that `pbem --help` imports no rules code."""

from pbem.core.engine import register

register("barbarossa", "pbem.games.barbarossa.rules:ENGINE")
register("race-to-berlin", "pbem.games.race_to_berlin.rules:ENGINE")
register("berlin-1945", "pbem.games.berlin_1945.rules:ENGINE")
register("race-to-the-sea", "pbem.games.race_to_the_sea.rules:ENGINE")
register("gotterdammerung", "pbem.games.gotterdammerung.rules:ENGINE")
