"""The Race to Berlin map's colours and names, shared by its drawing modules."""

from __future__ import annotations

NAMES = {"west": "West", "soviet": "Soviet", "german": "German"}
INK = {"west": "#2a64a8", "soviet": "#b0302a", "german": "#5c6552"}
FILL = {"west": "#dce8f6", "soviet": "#f8dedb", "german": "#e8e8df"}
EAGLE_FILL = {"blue": "#2a64a8", "red": "#b0302a", "both": "#7a3f91"}
RIVER = "#3d8fd6"
FORT = "#5b4636"
TERRAIN = "#7a5a2e"
MARK = "#fff3b0"
# rulebook 4.4: the western and southern edges supply the West, the eastern the Soviets
EDGE_PLAYER = {"west": "west", "south": "west", "east": "soviet"}
FORCE_TEXT = {
    "west": "Western Allies (West player)",
    "soviet": "Red Army (Soviet player)",
    "german-west": "Western Front Germans (Soviet player)",
    "german-east": "Eastern Front Germans (West player)",
}
UNIT_FILL = {"west": INK["west"], "soviet": INK["soviet"]}
COMMANDER_INK = {"german-west": INK["soviet"], "german-east": INK["west"]}
