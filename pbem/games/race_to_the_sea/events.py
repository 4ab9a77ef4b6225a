"""Event results (13.0): two EVENT! cards in one combat bring the Event of their sum.

The table (cards.toml `[[event]]`, stand-ins but for 13.0's sum 9) has five kinds:

- `momentum`: the Strategic Momentum passes (4.1.1.C);
- `planned-operations`: the side is awarded the Planned Operations marker (4.1.4);
- `reveal`: the side picks hidden enemy units next to its own (`pick c12 c14`), whose
  owner opens them in its next entry (10.4.C: "an Event that says so");
- `hit`: one hit on an enemy unit, picked by the side (sum 4: next to the combat hex) or
  the one that fought (sum 11); its owner applies it (`absorb`) without revealing a
  hidden unit unless it is eliminated (5.1.A);
- `counter-attack`: the side may assault the combat hex at once with a unit that fought
  (13.0's example): assault.py.

The Event applies after the combat (13.0.B). During an ongoing multi-unit assault it
cannot touch the units in the assaulted hex (13.0.B's exception): assault.py keeps the
Event until its matchups are over, and `exempt` lists the hexes it may not touch.
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import cards as rc
from pbem.games.race_to_the_sea import hits
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.decisions import Absorb, Pick
from pbem.games.race_to_the_sea.shared_pieces import own
from pbem.games.race_to_the_sea.state import (
    NAMES,
    hex_text,
    illegal,
    is_hidden,
    other,
    piece_label,
)
from pbem.games.race_to_the_sea.what_next import PENDING
from pbem.kit import pieces
from pbem.kit.steps import Next


def after_combat(state: State, combat: dict[str, Any], ctx: Context) -> None:
    """13.0.A-B: check the two flipped cards; apply the Event, if any."""
    numbers = combat.get("cards")
    if not numbers:
        return
    found = rc.event_result(state["cards_data"], numbers, state["momentum"])
    if found is None:
        return
    entry, side = found["entry"], found["side"]
    ctx.event(f"13.0: Event {found['sum']}, {entry['title']}, to {NAMES[side]}")
    kind = entry["kind"]
    if kind == "momentum":
        if state["momentum"] != side:
            state["momentum"] = side
            ctx.event(f"4.1.1.C: {NAMES[side]} take the Strategic Momentum")
    elif kind == "planned-operations":
        state["planned_ops"] = {"holder": side, "hex": None}
        ctx.event(f"4.1.4: {NAMES[side]} are awarded the Planned Operations marker")
    elif kind == "reveal":
        _start_pick(state, side, combat, entry, "reveal", int(entry.get("count") or 1))
    elif kind == "hit":
        fought = _fought(state, combat, other(side))
        if entry["sum"] == 11 or "fought" in entry["text"]:
            if fought:
                _start_hits(state, {fought[0]: int(entry.get("hits") or 1)}, ctx)
            else:
                ctx.event("no enemy unit of the combat is left on the map")
        else:
            _start_pick(state, side, combat, entry, "hit", 1)
    elif kind == "counter-attack":
        counter_attack(state, side, combat, ctx)


def later_event(state: State, ctx: Context) -> Next:
    """13.0.D: the next Event kept for after a combat (assault._close), in turn."""
    found, *rest = state["later_events"]
    state["later_events"] = rest  # (shared by copies: replaced)
    after_combat(state, found, ctx)
    return PENDING


def _fought(state: State, combat: dict[str, Any], side: str) -> list[str]:
    labels = [combat.get("attacker"), combat.get("defender"), *combat.get("units", [])]
    return [k for k in labels if k in state["counters"] and state["counters"][k]["side"] == side]


# --- picks: the side chooses the enemy units -------------------------------------------------


def candidates(state: State) -> list[str]:
    """The enemy counters the pending Event may pick."""
    event = state["event"]
    side, kind = event["side"], event["kind"]
    g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
    friendly = {c["hex"] for c in state["counters"].values() if c["side"] == side}
    near_combat = set(g.neighbours(event["hex"])) | {event["hex"]}
    out = []
    for label, c in sorted(state["counters"].items()):
        if c["side"] == side or c["hex"] in event["exempt"]:
            continue
        if kind == "reveal":
            if is_hidden(state, label) and any(g.adjacent(c["hex"], h) for h in friendly):
                out.append(label)
        elif (
            c["hex"] in near_combat
            and c["hex"] != event["hex"]
            or kind == "hit"
            and (g.adjacent(c["hex"], event["hex"]))
        ):
            out.append(label)
    return sorted(set(out))


def _start_pick(
    state: State,
    side: str,
    combat: dict[str, Any],
    entry: dict[str, Any],
    kind: str,
    count: int,
) -> None:
    state["event"] = {
        "side": side,
        "kind": kind,
        "count": count,
        "hex": combat.get("hex") or _hex_of(state, combat),
        "exempt": list(combat.get("exempt", [])),
        "title": entry["title"],
    }
    if not candidates(state):
        state["event"] = None


def _hex_of(state: State, combat: dict[str, Any]) -> int:
    for key in ("defender_hex", "attacker_hex"):
        if combat.get(key):
            return int(combat[key])
    for key in ("defender", "attacker"):
        label = combat.get(key)
        if label in state["counters"]:
            return int(state["counters"][label]["hex"])
    return 0


def pick(state: State, role: str, d: Pick, ctx: Context) -> Next:
    event = state["event"]
    allowed = candidates(state)
    most = min(event["count"], len(allowed))
    if len(d.counters) != most or len(set(d.counters)) != most:
        raise illegal(f"pick {most} of {', '.join(allowed)}", "13.0")
    for label in d.counters:
        if label not in allowed:
            raise illegal(f"{label} may not be picked ({', '.join(allowed)})", "13.0")
    state["event"] = None
    if event["kind"] == "reveal":
        for label in d.counters:
            pieces.oblige(own(state["pieces"], piece_label(label)), f"13.0: {event['title']}")
        ctx.event(f"{event['title']}: {', '.join(d.counters)} must be revealed (10.4.C)")
    else:
        _start_hits(state, {label: 1 for label in d.counters}, ctx)
    return PENDING


# --- hits from an Event (5.1.A): the owner applies them ---------------------------------------


def _start_hits(state: State, on: dict[str, int], ctx: Context) -> None:
    side = state["counters"][next(iter(on))]["side"]
    state["absorbing"] = {"side": side, "hits": on}
    ctx.event(", ".join(f"{k} takes {n} hit(s)" for k, n in on.items()) + " (13.0, 5.1.A)")


def absorb_opens(state: State, role: str, d: Any) -> tuple[str, ...]:
    if not isinstance(d, Absorb) or not d.lost or state.get("absorbing") is None:
        return ()
    labels: list[str] = []
    for label in state["absorbing"]["hits"]:
        labels += hits.sealed_labels(state, label)
    return tuple(labels)


def absorb(state: State, role: str, d: Absorb, ctx: Context) -> Next:
    pending = state["absorbing"]
    state["absorbing"] = None
    lost = set(pending["hits"]) if d.lost else set()
    hits.absorb(state, role, pending["hits"], lost, ctx, pending.get("rule", "13.0"))
    if not d.lost:
        for label in pending["hits"]:
            ctx.event(f"{label} stays {'hidden' if is_hidden(state, label) else 'face up'}")
    return PENDING


def lost_after(state: State) -> bool:
    """The owner's client: whether the Event's hits eliminate its unit."""
    pending = state.get("absorbing")
    if not pending:
        return False
    return any(hits.eliminated_by(state, k, n) for k, n in pending["hits"].items())


def describe(state: State) -> str:
    event = state.get("event")
    if not event:
        return ""
    return (
        f"{event['title']}: pick {event['count']} of {', '.join(candidates(state))} "
        f"near {hex_text(event['hex'])}"
    )


# --- 13.0: the Counter-Attack Event (the assault it starts: assault.counter) --------------------


def counter_attack(state: State, side: str, combat: dict[str, Any], ctx: Context) -> None:
    """13.0's example: the side may send a unit that fought (or was just defeated) into
    the combat hex to assault the enemy there at once."""
    hex_ = int(combat.get("hex") or 0)
    candidates = counter_units(state, side, combat)
    if not hex_ or not candidates:
        ctx.event("no unit can counter-attack")
        return
    state["counter"] = {"side": side, "hex": hex_, "units": candidates}
    state["step"] = "counter"


def counter_units(state: State, side: str, combat: dict[str, Any]) -> list[str]:
    hex_ = combat.get("hex")
    if not hex_:
        return []
    g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
    if not any(c["hex"] == hex_ and c["side"] != side for c in state["counters"].values()):
        return []
    out = []
    for key in ("attacker", "defender"):
        label = combat.get(key)
        c = state["counters"].get(label) if label else None
        if c is None or c["side"] != side or (c["cavalry"] and c["scouting"]):
            continue
        if g.adjacent(c["hex"], hex_):
            out.append(str(label))
    return out
