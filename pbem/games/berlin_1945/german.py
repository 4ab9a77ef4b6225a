"""German movement (rulebook 7.3 phase 3.a, 5, 5.4, 6): orders given directly on the map,
the additional order bought with one card, the Rebuild order, M cards, and the end of the
phase (the Soviet may then react)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import flow
from pbem.games.berlin_1945.decisions import Discard, EndMovement, Move, Rebuild
from pbem.games.berlin_1945.hands import discard, in_hand
from pbem.games.berlin_1945.moves import carry_out, check_order, is_withdrawal
from pbem.games.berlin_1945.orders import check_rebuild, log_move, log_rebuild, place_rebuilt
from pbem.games.berlin_1945.rulebook import NAMES
from pbem.games.berlin_1945.state import fixed, illegal


def do_move(state: State, role: str, d: Move, ctx: Context) -> None:
    record = state["move"]
    if record["ended"]:
        raise illegal(
            "a Rebuild order or an 'at the end of your Movement phase' card ends the "
            "Movement phase",
            "6, 8.2",
        )
    lapse = lapses(state, d.dests)
    base = state["german_max"] + record["bonus"] - (1 if lapse else 0)
    extra = False
    if record["orders"] >= base:
        if record["extra"] != "bought":
            raise illegal(
                f"the German has used all {base} Movement orders this turn"
                + ("" if record["extra"] else "; discard a card for one more"),
                "5.4",
            )
        extra = True
    groups = [(to, list(uids)) for to, uids in d.dests]
    kinds = check_order(state, "german", d.frm, groups)
    withdraw = is_withdrawal(state, kinds, groups)
    if withdraw and record["withdrawals"] >= 2:
        raise illegal("the Germans cannot use more than two Withdrawal orders per turn", "5.5.4")
    double = record["double"] or []
    second = any(u in record["moved"] and u in double for _to, us in groups for u in us)
    log_move(state, d.frm, groups, extra, record["double_card"] if second else None)
    carry_out(state, "german", d.frm, groups)
    if fixed(state) and record["double"] is not None:
        # 5.4, card #24 "twice in a row": the group's second move is the next order, or never
        record["double"] = None
        if lapse:
            record["bonus"] -= 1
            ctx.event("Panzergrenadiers: the group did not move again at once (rulebook 5.4)")
    if extra:
        record["extra"] = "used"
    else:
        record["orders"] += 1
    if withdraw:
        record["withdrawals"] += 1
    record["last"] = [u for _to, uids in groups for u in uids]
    ctx.event(
        f"German {'/'.join(kinds)} from {d.frm}: "
        + "; ".join(f"{', '.join(u)} to {to}" for to, u in groups)
        + (" (additional order)" if extra else f" (order {record['orders']} of {base})"),
    )


def lapses(state: State, dests: Sequence[tuple[str, Sequence[str]]]) -> bool:
    """5.4, card #24: a group "moves twice in a row" (version 1.1). While its second move is
    due, any other order ends it, and the order the card gave with it."""
    record = state["move"]
    double = record["double"]
    if not fixed(state) or not double:
        return False
    return not any(u in record["moved"] and u in double for _to, us in dests for u in us)


def has_room(state: State, dests: Sequence[tuple[str, Sequence[str]]]) -> bool:
    """Whether one more German Movement order fits (5.4), `dests` being its groups."""
    record = state["move"]
    base = state["german_max"] + record["bonus"] - (1 if lapses(state, dests) else 0)
    return record["orders"] < base or record["extra"] == "bought"


def do_discard(state: State, role: str, d: Discard, ctx: Context) -> None:
    """5.4: one card discarded for one additional Movement order a turn."""
    if d.purpose != "move":
        raise illegal("no discard is possible now", "2.3")
    record = state["move"]
    if record["extra"] is not None:
        raise illegal("one additional order per turn", "5.4, 6.1")
    if len(d.slots) != 1:
        raise illegal("the German discards one card for an additional Movement order", "5.4")
    discard(state, role, d.slots, "additional Movement order, rulebook 5.4", ctx)
    record["extra"] = "bought"


def do_rebuild(state: State, role: str, d: Rebuild, ctx: Context) -> None:
    """6: two cards discarded (the additional order), or a card that gives one; the Rebuild
    order ends the German Movement phase."""
    record = state["move"]
    free = record["free_rebuild"]
    if d.slots:
        if record["extra"] is not None:
            raise illegal("one additional order per turn; the Soviet plans his in the plan", "6.1")
        if len(d.slots) != 2:
            raise illegal("a Rebuild order costs two cards", "6")
    elif not free:
        raise illegal("a Rebuild order needs two discarded cards or a card that gives one", "6")
    check_rebuild(state, role, d.unit, d.zone)
    if d.slots:
        for k in d.slots:
            if k not in in_hand(state, role):
                raise illegal(f"#{k} is not a card in the {NAMES[role]} hand", "2.3")
        discard(state, role, d.slots, "additional Rebuild order, rulebook 6", ctx)
        record["extra"] = "rebuild"
    else:
        record["free_rebuild"] = free - 1
    log_rebuild(state, d.unit, d.zone, bool(d.slots))
    place_rebuilt(state, d.unit, d.zone, ctx)
    record["ended"] = True


def do_end(state: State, role: str, d: EndMovement, ctx: Context) -> None:
    ctx.event("German movement ends")
    flow.reaction_window(state, "soviet", "open", ctx)
