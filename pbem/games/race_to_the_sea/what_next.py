"""What comes next, by name: the continuations of Race to the Sea 1914.

Handlers and the stages of a combat only change the state. When what follows is not
theirs to decide (the steps between two actions, the next action, the next side's Fog of
War entry), they return one of these names; the kit runs the function that
`rules.CONTINUATIONS` maps it to (`pbem.kit.steps.StepGame.follow`), which may name
another. None: the state holds the next step (the handler set it, or the step goes on).

So the one place that decides what comes next is that table, and the modules of the
game import one way: a combat, an Event, a Regroup or the dykes never call back into the
sequence of play (flow.py) or into the steps between actions (interrupts.py).
"""

from __future__ import annotations

# 9.B: something may be pending between two actions (openings, markers, hits, an Event,
# a combat in progress): `interrupts.continue_play` takes the first, else play goes on
PENDING = "pending"

# the combat in progress moves on; its kind (`state["combat"]["kind"]`) is its name
FIRE = "fire"  # firepower.proceed (11)
SKIRMISH = "skirmish"  # skirmish.proceed (10.5.3)
ASSAULT = "assault"  # assault.proceed (12)

LATER_EVENT = "later event"  # 13.0.D: the next Event kept for after a combat (events.py)
NEXT_ACTION = "next action"  # 7.5-7.6: an action is over (flow.next_action)
NEXT_FOG = "next fog"  # 7.7.4: a side's Fog of War entry is over (flow.next_fog)
TURN_END = "turn end"  # 7.7.5-7.7.6: the marker deployed, the turn ends (flow.advance_turn)
