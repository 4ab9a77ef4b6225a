"""`supply.settle` reads the supply lines of a configuration once and traces them again
only after an annexation changed who controls what: the same annexations, events and
state as the plain settle kept here as the reference (every side asks `unsupplied` anew),
for the demo save's positions and for random controls of the map with blocks on it."""

from __future__ import annotations

import copy
import random
from typing import Any

from pbem.core.canonical import copy_json
from pbem.games.race_to_berlin import supply
from pbem.games.race_to_berlin.state import ALLIED, GERMAN, update_area
from pbem.ledger import replay
from pbem.testing import ScriptedContext
from pbem.verify import verify_text
from tests.games.race_to_berlin.rtb_support import new_game

SAVE = "saves/race-to-berlin-demo.pbem"


def reference_settle(state: Any, ctx: Any, cutter: Any = None, final: bool = False) -> None:
    for _ in range(len(state["map"]["area_ids"])):
        if state["result"] is not None:
            return
        if not (_allied(state, ctx, final) or _german(state, ctx, cutter, final)):
            return


def _allied(state: Any, ctx: Any, final: bool) -> bool:
    changed = False
    for force in ALLIED:
        for area in supply.unsupplied(state, force):
            if not final and supply.has_active_block(state, area, force):
                continue
            supply._clear(state, area, force, ctx, "cut off from supply, annexed by the Germans")
            supply.set_control(
                state, area, GERMAN, ctx, f"cut off from supply (rulebook {supply.R_SUPPLY})"
            )
            changed = True
    return changed


def _german(state: Any, ctx: Any, cutter: Any, final: bool) -> bool:
    if not final and supply.germans_hold_on(state):
        return False
    cut = supply.unsupplied(state, GERMAN)
    state["stranded"] = [a for a in state["stranded"] if a in cut]
    cut = [a for a in cut if a not in state["stranded"]]
    ready = [a for a in cut if final or not supply.has_active_block(state, a, GERMAN)]
    if not ready:
        return False
    for group in supply._groups(state, ready):
        supply._annex_german(state, group, ctx, cutter)
        if state["result"] is not None:
            return True
    return True


def same_settle(state: dict[str, Any], cutter: Any, final: bool) -> bool:
    """Both settles on copies of `state`: same state and events. True if one annexed."""
    a, b = copy.deepcopy(state), copy.deepcopy(state)
    ctx_a, ctx_b = ScriptedContext(), ScriptedContext()
    supply.settle(a, ctx_a, cutter, final)
    reference_settle(b, ctx_b, cutter, final)
    assert copy_json(a) == copy_json(b)
    assert ctx_a.events == ctx_b.events
    return a["areas"] != state["areas"]


def test_the_demo_positions_settle_as_the_reference() -> None:
    with open(SAVE, encoding="utf-8") as stream:
        report = verify_text(stream.read())
    assert report.ok and report.game is not None
    entries = report.game.entries
    game = replay(entries[:1])
    for n, entry in enumerate(entries[1:], 2):
        game.apply(entry)
        if n % 7 == 0 and game.state is not None:
            for final in (False, True):
                same_settle(game.state, None, final)


def test_random_controls_settle_as_the_reference() -> None:
    rng = random.Random(29)
    base = new_game().state
    areas = base["map"]["area_ids"]
    annexed = 0
    for _ in range(150):
        state = copy.deepcopy(base)
        for area in areas:
            if rng.random() < 0.3:
                update_area(state, area, control=rng.choice((*ALLIED, GERMAN)))
        for block in state["blocks"]:
            if rng.random() < 0.5:
                block["area"] = rng.choice(areas)
        cutter = rng.choice((None, *ALLIED))
        annexed += same_settle(state, cutter, rng.random() < 0.3)
    assert annexed > 20  # (the cases that matter: an annexation, then the lines again)


def test_germans_hold_on_is_the_plain_reading_on_every_block_configuration() -> None:
    """`germans_hold_on` (one pass over the blocks) against the rule as written: some German
    block active and no Western or Soviet one."""
    rng = random.Random(7)
    game = new_game()
    forces = [*ALLIED, GERMAN]
    for _ in range(500):
        blocks = [
            {
                "area": rng.choice([None, "1", "2"]),
                "exhausted": rng.random() < 0.5,
                "force": rng.choice(forces),
            }
            for _ in range(rng.randrange(0, 6))
        ]
        state = {**game.state, "blocks": blocks}
        active = [b["force"] for b in blocks if b["area"] is not None and not b["exhausted"]]
        expected = GERMAN in active and not any(f in ALLIED for f in active)
        assert supply.germans_hold_on(state) is expected
