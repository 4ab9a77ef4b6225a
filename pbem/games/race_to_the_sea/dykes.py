"""Race to the Sea 1914: Opening the Dykes (9.8), an Action of the Action Round.

    flood          the Allies flood Dixmude, no Allied counter is there
    flood 0805     the same, and the Allied counters there are displaced to hex 0805

9.8.A: the Allies only, during an Action Round after the Siege of Antwerp ended
(`state["siege"]` is the turn Antwerp fell, 7.7.1), Dixmude Allied-controlled. The
Flooded marker is one (4.1.5, 15.2.B), so the dykes open once a game.
9.8.B: the hex is water from then on (`state["flooded"]`, read by every movement,
control and victory call: `state.flooded`). The Allied counters in it move one hex for
free, not closer to an enemy unit if a hex allows it.

Readings where the rulebook is silent:
- it is one of the round's Actions (9.0.A), taken by no unit: the action index advances
  as after any other Action and no counter is activated (9.B names no unit for it);
- the displaced counters go together to one hex the Allies choose (the hex in the
  decision): the owner knows its hidden sizes, so it answers for the stacking claims as a
  move does (10.2), which a hex picked by the engine could not fairly ask of it. The hex
  is adjacent, not water, entrenchment or enemy-occupied (10.3.2, 10.2.D), holds the
  stack under 6 SZ as far as the public sizes tell (10.2.B), and is not closer to an enemy
  unit than Dixmude (hex distance to the nearest enemy counter) unless no such hex exists;
  with no hex at all, the dykes cannot open while the counters are there;
- the hex may not hold an enemy counter (9.8.B moves only Allied units; German scouting
  cavalry in an Allied-controlled Dixmude would otherwise stand in the water);
- opening the dykes is never forced: `pass` stays legal for a side none of whose units
  can act (flow.pass_action).
"""

from __future__ import annotations

from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import Flood
from pbem.games.race_to_the_sea.size_claims import record_claims
from pbem.games.race_to_the_sea.state import (
    NAMES,
    control_of,
    hex_text,
    illegal,
    positions,
    take_control,
    writable_counter,
)
from pbem.games.race_to_the_sea.what_next import NEXT_ACTION
from pbem.kit.steps import Next

PLACE = "Dixmude"  # 9.8.A ("Dixemude", 4.1.5)


def dixmude(state: State) -> int:
    return rm.hex_of(state["board"], PLACE)


def problem(state: State, role: str) -> IllegalOrderError | None:
    """Why `role` may not open the dykes now (9.8.A), None if it may."""
    if role != "allies":
        return illegal("only the Allies open the dykes", "9.8.A")
    if state["flooded"]:
        return illegal(f"{PLACE} is already flooded (one Flooded marker)", "9.8.A, 4.1.5")
    if state["siege"] is None:
        return illegal("the Siege of Antwerp has not ended yet", "9.8.A")
    hex_ = dixmude(state)
    if control_of(state, hex_) != "allies":
        return illegal(f"{PLACE} (hex {hex_text(hex_)}) is not Allied-controlled", "9.8.A")
    if any(c["side"] != "allies" and c["hex"] == hex_ for c in state["counters"].values()):
        return illegal(f"an enemy counter is in {PLACE}", "9.8.B")
    return None


def displaced(state: State) -> list[str]:
    """The Allied counters in Dixmude, by label (hidden ones as counters: 9.8.B moves
    them whatever they are)."""
    hex_ = dixmude(state)
    return sorted(
        k for k, c in state["counters"].items() if c["side"] == "allies" and c["hex"] == hex_
    )


def _stack_check(state: State, movers: list[str], target: int) -> mv.MoveCheck:
    """10.2: each counter stops in `target` in turn, as if moved one by one (flow.move)."""
    pos = positions(state)
    claims: list[str] = []
    for label in movers:
        check = mv.stacking_check(pos, {"id": label, **pos[label]}, target)
        if check.problem is not None:
            return check
        claims.extend(check.claims)
        pos[label] = {**pos[label], "hex": target}
    return mv.MoveCheck(claims=tuple(claims))


def _enemy_distance(state: State, hex_: int) -> int | None:
    board = state["board"]
    enemies = mv.enemy_hexes(positions(state), "allies")
    return min((rm.distance(board, hex_, e) for e in enemies), default=None)


def targets(state: State) -> list[int]:
    """The hexes the Allied counters in Dixmude may be displaced to (9.8.B), in map order:
    those not closer to an enemy unit, or all the open ones if none is."""
    movers = displaced(state)
    if not movers:
        return []
    board, here = state["board"], dixmude(state)
    enemies = mv.enemy_hexes(positions(state), "allies")
    flooded = set(state["flooded"]) | {here}
    open_hexes = [
        h
        for h in sorted(rm.adjacency(board).neighbours(here))
        if h not in flooded
        and h not in enemies
        and rm.terrain(board, h) not in rm.PROHIBITED
        and _stack_check(state, movers, h).ok
    ]
    now = _enemy_distance(state, here)
    if now is None:
        return open_hexes
    farther = [h for h in open_hexes if (_enemy_distance(state, h) or 0) >= now]
    return farther or open_hexes


def choices(state: State, role: str) -> list[Flood]:
    """The `flood` decisions `role` may take now (for choices.actions)."""
    if problem(state, role) is not None:
        return []
    if not displaced(state):
        return [Flood(None)]
    return [Flood(h) for h in targets(state)]


def flood(state: State, role: str, d: Flood, ctx: Context) -> Next:
    """9.8: the Flooded marker goes on Dixmude; its Allied counters are displaced."""
    refused = problem(state, role)
    if refused is not None:
        raise refused
    here = dixmude(state)
    movers = displaced(state)
    if movers and d.hex is None:
        raise illegal(
            f"name the hex the Allied counters in {PLACE} move to ('flood 0805')", "9.8.B"
        )
    if not movers and d.hex is not None:
        raise illegal(f"no Allied counter is in {PLACE} to displace", "9.8.B")
    if movers:
        allowed = targets(state)
        if not allowed:
            raise illegal(f"the counters in {PLACE} have no hex to be displaced to", "9.8.B")
        assert d.hex is not None
        if d.hex not in allowed:
            raise illegal(
                f"hex {hex_text(d.hex)} is not a displacement hex for {PLACE} "
                f"(allowed: {', '.join(hex_text(h) for h in allowed)})",
                "9.8.B",
            )
    state["flooded"] = [*state["flooded"], here]
    ctx.event(f"{NAMES[role]} open the dykes: {PLACE} (hex {hex_text(here)}) is flooded")
    for label in movers:
        assert d.hex is not None
        claims = _stack_check(state, [label], d.hex).claims
        writable_counter(state, label)["hex"] = d.hex
        take_control(state, label, d.hex)  # 14.1 B: it occupies the hex it stops in
        record_claims(state, ctx, role, label, claims)  # as flow.move records them
        ctx.event(f"{label} is displaced to {hex_text(d.hex)} (9.8.B)")
    # One Action of the round (9.0.A); no unit took it, so none is activated (9.B).
    return NEXT_ACTION  # as flow.pass_action advances
