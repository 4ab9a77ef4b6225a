"""Race to the Sea 1914: the sequence of play (7) and the handlers of its decisions.

Setup (15: the Allies then the Germans place), then ten turns of: Reinforcements (7.1,
the side without the Strategic Momentum first), the unseen Initiative discards (7.2, a
private draw per side), Allied Railroad Movement (7.3), five Action Rounds (7.4 bids as a
sealed round, 7.5 actions, 7.6 Activated markers off), the End Turn Phase (7.7: Siege of
Antwerp, Foch, Forced March, Fog of War, the turn marker). After Turn 10 both sides open
every sealed piece, Allies first, and victory (14) decides.

Combat and what goes with it are in their own modules: firepower.py, assault.py,
events.py, hits.py (casualties as sealed stacks), recovery.py (Regroup, Rebuild, 7.1.B),
operations.py (Planned Operations), skirmish.py, dykes.py, redeploy.py (7.7.4.B), and
interrupts.py for the steps between two actions. Their handlers never call back into this
module: an action that is over returns NEXT_ACTION, and `rules.CONTINUATIONS` runs
`next_action` (what_next.py); so do this module's own action handlers.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import cards as rc
from pbem.games.race_to_the_sea import hits, initiative, operations, recovery, redeploy, skirmish
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import (
    Bid,
    Discard,
    Done,
    EndRail,
    First,
    Flip,
    March,
    Move,
    OpenAll,
    OpenBid,
    Pass,
    Place,
    Rail,
    Recon,
)
from pbem.games.race_to_the_sea.entry_index import entry_index
from pbem.games.race_to_the_sea.shared_pieces import own, own_piece
from pbem.games.race_to_the_sea.size_claims import record_claims, spanning_problems
from pbem.games.race_to_the_sea.state import (
    NAMES,
    ROUNDS,
    SIDES,
    TURNS,
    add_counter,
    arriving,
    counter_of,
    entry_hexes,
    first_false_reports,
    flip_card,
    flooded,
    hex_text,
    hidden_candidates,
    hidden_count,
    identity,
    illegal,
    listed_hexes,
    move_positions,
    new_counter_label,
    other,
    own_counters,
    piece_label,
    positions,
    ready_counter,
    take_control,
    unit,
    writable_counter,
)
from pbem.games.race_to_the_sea.what_next import NEXT_ACTION
from pbem.kit import decks, pieces
from pbem.kit.sealed import SealedRound
from pbem.kit.steps import Next


class _Bids(SealedRound):
    def writable(self, state: State, piece: pieces.Piece) -> pieces.Piece:
        return own_piece(state["pieces"], piece)  # (copies share pieces: shared_pieces.py)


BIDS = _Bids("bids", lambda s, r: f"bid/{r}/t{s['turn']}/r{s['round']}", "7.4")
BID_ORDER = ("germans", "allies")  # the Germans commit, the Allies bid in the clear


def discard_label(state: State, side: str) -> str:
    return f"discard/{side}/t{state['turn']}"


# --- 15, 7.1: placing units -----------------------------------------------------------------------


def start_placing(state: State, ctx: Context | None) -> None:
    """The next side of `place_order` with something to place; then the next phase."""
    while state["place_order"]:
        side, *rest = state["place_order"]
        state["place_order"] = rest  # (shared by copies: replaced)
        turn = state["turn"]
        units = arriving(state, side, turn)
        extra = 0
        if turn == 0:
            extra = len(first_false_reports(state, side))  # 15.5.B, 15.6.B
        elif turn == 1:
            extra = state["fr_carry"][side]
        if not units and not extra:
            continue
        state["batch"] = {
            "side": side,
            "units": units,
            "extra_false": extra,
            "false_ids": first_false_reports(state, side) if extra else [],
            "labels": [],
            "grl_used": [],
        }
        state["step"], state["active"] = "place", side
        return
    state["batch"] = None
    if state["turn"] == 0:
        start_turn(state, ctx)
    else:
        start_discards(state)


def place(state: State, role: str, d: Place, ctx: Context) -> Next:
    batch = state["batch"]
    if d.unit is not None:
        if d.unit not in batch["units"]:
            raise illegal(f"{d.unit} is not among the units {role} place now", "7.1, 15")
        data = unit(state, d.unit)
        if data["kind"] != "cavalry":
            raise illegal(
                f"{d.unit} is placed hidden: its owner's client seals it as "
                f"'place {data['nationality']} {hex_text(d.hex)}'",
                "10.4.A",
            )
        if d.face is None:
            raise illegal("say whether the cavalry is placed scouting or deployed", "15.4")
        if d.hex not in entry_hexes(state, d.unit, role):
            raise illegal(f"{d.unit} may not be placed in hex {hex_text(d.hex)}", "7.1.B")
        closest = d.hex not in listed_hexes(state, d.unit, role)  # 7.1.B, before the slot
        label = add_counter(state, role, data["nationality"], d.hex, d.unit, True)
        writable_counter(state, label)["scouting"] = d.face == "scouting"
        batch["units"] = [u for u in batch["units"] if u != d.unit]
        _placed(state, label, d.hex)
        ctx.event(f"{label}: {d.unit} placed {d.face} in {hex_text(d.hex)}")
        if closest:
            return recovery.placement_hit(state, role, label, ctx)  # 7.1.B
        return None
    if d.nationality not in _nationalities(role):
        raise illegal(f"{role} place no {d.nationality} units", "15")
    need, most = hidden_count(state, batch)
    if len(batch["labels"]) >= most:
        raise illegal(f"{role} have no more hidden counters to place now", "7.1, 15")
    index = entry_index(state, role)  # (the position's, once: entry_hexes for each unit)
    candidates = [
        u
        for u in hidden_candidates(state, batch)
        if unit(state, u)["nationality"] == d.nationality and d.hex in index.entry_hexes(u)
    ]
    if not candidates:
        raise illegal(
            f"no {d.nationality} unit of this placement may enter hex {hex_text(d.hex)}", "7.1.B"
        )
    # 7.1.B, read before the placement uses up a Cambrai/Valenciennes slot (15.6.2.1 A)
    closest = all(d.hex not in index.listed_hexes(u) for u in candidates)
    label = new_counter_label(state)
    piece = pieces.place(ctx, piece_label(label), role, "10.4.A")
    pieces.claim(piece, ctx, role, rule="7.1", candidates=candidates)
    state["pieces"][piece["label"]] = piece
    add_counter(state, role, d.nationality, d.hex, None, False)
    batch["labels"].append(label)
    _placed(state, label, d.hex)
    ctx.event(f"{label}: a hidden {d.nationality} counter placed in {hex_text(d.hex)}")
    if closest:
        return recovery.placement_hit(state, role, label, ctx)  # 7.1.B
    return None


def _placed(state: State, label: str, hex_: int) -> None:
    take_control(state, label, hex_)
    if rm.name_of(state["board"], hex_) in ("Cambrai", "Valenciennes"):
        state["batch"]["grl_used"].append(hex_)  # 15.6.2.1 A: one unit each


def _nationalities(side: str) -> tuple[str, ...]:
    return ("french", "british", "belgian") if side == "allies" else ("german",)


def placement_done(state: State, role: str, d: Done, ctx: Context) -> None:
    batch = state["batch"]
    cavalry = [u for u in batch["units"] if unit(state, u)["kind"] == "cavalry"]
    if cavalry:
        raise illegal(f"place {', '.join(cavalry)} first", "7.1")
    need, most = hidden_count(state, batch)
    placed = len(batch["labels"])
    if placed < need:
        raise illegal(f"{need - placed} more hidden unit(s) to place", "7.1")
    extra_used = max(placed - need - _optional_false(state, batch), 0)
    if state["turn"] == 0:
        carry = batch["extra_false"] - extra_used  # 15.5.B: or with Turn 1
        state["fr_carry"] = {**state["fr_carry"], role: carry}  # (shared by copies: replaced)
    elif state["turn"] == 1:
        state["fr_carry"] = {**state["fr_carry"], role: 0}
    ctx.event(f"{NAMES[role]} placed {placed} hidden counter(s)")
    start_placing(state, ctx)


def _optional_false(state: State, batch: dict[str, Any]) -> int:
    return sum(1 for u in batch["units"] if unit(state, u)["kind"] == "false-report")


# --- 7.1-7.3: turn start ----------------------------------------------------------------------


def start_turn(state: State, ctx: Context | None) -> None:
    state["turn"] += 1
    state["round"] = 0
    state["played"] = {side: [] for side in SIDES}
    if state["foch"] is not None and state["foch"] == state["turn"] - 1:
        state["momentum"] = "allies"  # 7.7.2.B: starting with the next turn
        if ctx is not None:
            ctx.event("4.1.1.B: the Allies have the Strategic Momentum from now on")
    siege, belgians = state["siege"], state["belgians"]
    if siege is not None and belgians is None and state["turn"] == siege + 1:
        state["belgians"] = state["turn"]  # 15.5.3
    momentum = state["momentum"]
    state["place_order"] = [other(momentum), momentum]  # 7.1.A
    start_placing(state, ctx)


def start_discards(state: State) -> None:
    state["step"], state["active"] = "discard", BID_ORDER[0]


def discard(state: State, role: str, d: Discard, ctx: Context) -> None:
    """7.2.A: the unseen discard, a private draw only its owner can compute."""
    label = discard_label(state, role)
    piece = pieces.place(ctx, label, role, "7.2.A")
    deck = decks.new_deck(state["cards_data"]["initiative"][role])
    keys = decks.draw_private(deck, ctx, label, 1, lambda i, n: f"7.2.A: {role}'s unseen discard")
    piece["draw"] = keys[0]
    piece["pile"] = deck["pile"]
    piece["bids"] = None
    state["pieces"][label] = piece
    state["discards"] = {**state["discards"], role: label}  # (shared by copies: replaced)
    if role == BID_ORDER[0]:
        state["active"] = BID_ORDER[1]
        return
    state["step"], state["active"], state["railed"] = "rail", "allies", []


def rail(state: State, role: str, d: Rail, ctx: Context) -> None:
    """7.3: up to 4 SZ of Allied units by rail; hidden sizes make a claim."""
    counter = counter_of(state, role, d.counter, "7.3")
    if d.counter in state["railed"]:
        raise illegal(f"{d.counter} already moved by rail this phase", "7.3")
    if counter["hex"] != d.start:
        raise illegal(f"{d.counter} is in hex {hex_text(counter['hex'])}", "7.3")
    pos = positions(state)
    check = mv.rail_move_problem(
        state["board"], pos, state["control"], d.counter, d.end, flooded(state)
    )
    if check.problem is None:
        check = _merge(check, mv.rail_limit_check(pos, [*state["railed"], d.counter]))
    if check.problem is not None:
        raise illegal(check.problem, "7.3")
    writable_counter(state, d.counter)["hex"] = d.end
    state["railed"] = [*state["railed"], d.counter]  # (shared by copies: replaced)
    take_control(state, d.counter, d.end)
    stacking = tuple(c for c in check.claims if c.startswith("10.2"))
    record_claims(state, ctx, role, d.counter, stacking)
    limit = tuple(c for c in check.claims if not c.startswith("10.2"))
    record_claims(state, ctx, role, d.counter, limit, rail=True)
    ctx.event(f"{d.counter} by rail from {hex_text(d.start)} to {hex_text(d.end)}")


def end_rail(state: State, role: str, d: EndRail, ctx: Context) -> None:
    start_round(state)


def _merge(a: mv.MoveCheck, b: mv.MoveCheck) -> mv.MoveCheck:
    return mv.MoveCheck(b.problem, a.claims + b.claims)


# --- 7.4-7.6: the Action Rounds ---------------------------------------------------------------


def start_round(state: State) -> None:
    state["round"] += 1
    BIDS.start(state, BID_ORDER)
    state["step"] = "bid"


def playable(state: State, side: str) -> list[int]:
    """The Bid Numbers `side` may still play this turn as far as the public state knows
    (the six cards less those played), or its hand where its own state knows it."""
    hand = state["hands"].get(side)
    if hand is not None:
        return sorted(hand)
    left = Counter(state["cards_data"]["initiative"][side])
    left.subtract(state["played"][side])
    return sorted(v for v, n in left.items() if n > 0)


def bid(state: State, role: str, d: Bid, ctx: Context) -> None:
    cards = list(state["cards_data"]["initiative"][role])
    if d.value is not None and d.value not in playable(state, role):
        raise illegal(f"{role} hold no {d.value} card this turn", "7.4, 7.2")
    BIDS.choose(state, role, d.value, ctx, cards=cards, played=list(state["played"][role]))
    if not BIDS.choosing(state):
        state["step"] = "open_bid"


def open_bid(state: State, role: str, d: OpenBid, ctx: Context) -> None:
    """8.1-8.5: the kit opened the sealed bid before this handler (its claims checked)."""
    values = BIDS.finish(state)
    bids = {side: int(values[side]) for side in SIDES}
    played = state["played"]  # (shared by copies: replaced)
    state["played"] = {side: [*played[side], bids[side]] for side in SIDES}
    outcome = initiative.bid_round(bids, state["momentum"])
    state["order"] = outcome.order()
    state["index"] = 0
    lull = " (a Lull in the Action, 8.3)" if outcome.lull else ""
    ctx.event(
        f"round {state['round']}: the Germans bid {bids['germans']}, the Allies "
        f"{bids['allies']}; {NAMES[outcome.initiative]} have the initiative{lull}"
    )
    state["step"] = "act"


def acting(state: State) -> str | None:
    if state["index"] >= len(state["order"]):
        return None
    side: str = state["order"][state["index"]]
    return side


def move(state: State, role: str, d: Move, ctx: Context) -> Next:
    """9.1: normal movement (10) along the path; hidden sizes make stacking claims."""
    counter = ready_counter(state, role, d.counter)
    if d.path[0] != counter["hex"]:
        raise illegal(f"{d.counter} is in hex {hex_text(counter['hex'])}", "9.1")
    # (what legal_move reads, the enemy's hexes and the stack the counter joins, at once)
    pos, enemies, stack = move_positions(state, d.counter, d.path[-1])
    check = mv.legal_move(
        state["board"], pos, d.counter, list(d.path), flooded(state), enemies, stack
    )
    if check.problem is not None:
        raise illegal(check.problem, "10")
    writable_counter(state, d.counter)["hex"] = d.path[-1]
    take_control(state, d.counter, d.path[-1])
    record_claims(state, ctx, role, d.counter, check.claims, members=stack)
    ctx.event(f"{d.counter} moves to {hex_text(d.path[-1])}")
    return _acted(state, d.counter)


def flip(state: State, role: str, d: Flip, ctx: Context) -> Next:
    """9.1.B: a cavalry unit changes sides, using all its MA."""
    counter = ready_counter(state, role, d.counter)
    if not counter["cavalry"]:
        raise illegal(f"{d.counter} is no cavalry unit", "9.1.B")
    counter = writable_counter(state, d.counter)
    counter["scouting"] = not counter["scouting"]
    ctx.event(f"{d.counter} turns to its {'scouting' if counter['scouting'] else 'deployed'} side")
    if not counter["scouting"]:
        take_control(state, d.counter, counter["hex"])  # deployed cavalry holds its hex
    return _acted(state, d.counter)


def recon(state: State, role: str, d: Recon, ctx: Context) -> Next:
    """9.7: scouting cavalry reveals one adjacent hidden enemy unit; its owner opens the
    identity in its next entry (10.4.C), a False Report then leaves the map."""
    counter = ready_counter(state, role, d.counter)
    if not counter["cavalry"] or not counter["scouting"]:
        raise illegal(f"{d.counter} is not cavalry on its scouting side", "9.7")
    if counter["hex"] != d.at:
        raise illegal(f"{d.counter} is in hex {hex_text(counter['hex'])}", "9.7")
    target = state["counters"].get(d.target)
    if target is None or target["side"] == role or target["hex"] != d.target_hex:
        raise illegal(f"no enemy counter {d.target} in hex {hex_text(d.target_hex)}", "9.7")
    if not rm.adjacency(state["board"]).adjacent(d.at, d.target_hex):
        raise illegal(f"hex {hex_text(d.target_hex)} is not adjacent to {d.counter}", "9.7")
    if target["cavalry"] or target["unit"] is not None:
        raise illegal(f"{d.target} is not a hidden unit", "9.7")
    enemy = skirmish.opponent(state, role, d.target_hex)
    if enemy is not None:  # 10.5.3.A: a skirmish first (skirmish.py)
        return skirmish.start(state, role, d, enemy, ctx)
    # 10.4.C: the identity opens, and the markers are "available for inspection" too
    hits.need_ratings(state, d.target, f"9.7: {d.counter}'s cavalry recon")
    ctx.event(f"{d.counter} scouts {d.target} in {hex_text(d.target_hex)}")
    return _acted(state, d.counter)


def pass_action(state: State, role: str, d: Pass, ctx: Context) -> Next:
    """An action must be taken while any unit can act (8.4: 'one eligible Action after
    another'); `pass` is only for a side none of whose units can."""
    if can_act(state, role):
        raise illegal(f"{role} have a unit that can still act", "8.4, 9.A")
    ctx.event(f"{NAMES[role]} have no eligible action")
    return NEXT_ACTION


def can_act(state: State, side: str) -> bool:
    pos = positions(state)
    for label in sorted(state["counters"]):
        counter = state["counters"][label]
        if counter["side"] != side or counter["activated"]:
            continue
        if counter["cavalry"]:
            return True  # 9.1.B: it may always flip
        if mv.reachable(state["board"], pos, label, flooded(state)):
            return True
    return False


def _acted(state: State, label: str) -> Next:
    writable_counter(state, label)["activated"] = True  # 4.1.2.B, 9.B
    return NEXT_ACTION


def next_action(state: State, ctx: Context) -> Next:
    """Continuation NEXT_ACTION: an action is over (any act handler, or a combat back to
    the sequence of play): the Planned Operations go on, else the next action, the next
    round or the End Turn Phase (7.5-7.7)."""
    operations.marker_lost(state, ctx)  # 7.7.5.B
    if operations.after_unit_action(state):
        return None  # 9.4.A: the Planned Operations go on with their other units
    state["index"] += 1
    if state["index"] < len(state["order"]):
        return None
    for label, counter in state["counters"].items():
        if counter["activated"]:  # (a copy shares the others: writable_counter)
            writable_counter(state, label)["activated"] = False  # 7.6.A
    if state["round"] < ROUNDS:
        start_round(state)
    else:
        end_turn(state, ctx)
    return None


# --- 7.7: End Turn Phase ----------------------------------------------------------------------


def end_turn(state: State, ctx: Context) -> None:
    turn, cards = state["turn"], state["cards_data"]
    if state["siege"] is None:  # 7.7.1
        card = flip_card(state, "germans", ctx, "7.7.1: Siege of Antwerp")
        if rc.siege_ends(cards, turn, card):
            state["siege"] = turn
            ctx.event(f"7.7.1: card {card}: Antwerp has fallen")
    if state["foch"] is None:  # 7.7.2
        card = flip_card(state, "allies", ctx, "7.7.2: Foch Takes Command")
        if rc.foch_takes_command(cards, turn, card):
            state["foch"] = turn
            ctx.event(f"7.7.2: card {card}: Foch takes command")
    state["step"], state["active"] = "march_first", state["momentum"]


def first(state: State, role: str, d: First, ctx: Context) -> None:
    """7.7.3: the Strategic Momentum side says who marches first; that side draws."""
    card = flip_card(state, d.side, ctx, f"7.7.3: forced march ({d.side} first)")
    counts = rc.forced_march(state["cards_data"], card)
    ctx.event(
        f"7.7.3: card {card}: the Germans march {counts['germans']}, the Allies {counts['allies']}"
    )
    state["march"] = {"order": [d.side, other(d.side)], "left": dict(counts), "moved": []}
    _next_march(state)


def _next_march(state: State) -> None:
    march = state["march"]
    while march["order"] and march["left"][march["order"][0]] == 0:
        march["order"].pop(0)
    if march["order"]:
        state["step"], state["active"] = "march", march["order"][0]
        return
    state["march"] = None
    start_fog(state)


def forced_march(state: State, role: str, d: March, ctx: Context) -> None:
    counter = counter_of(state, role, d.counter, "7.7.3")
    if d.counter in state["march"]["moved"]:
        raise illegal(f"{d.counter} has already force-marched", "7.7.3")
    if d.path[0] != counter["hex"]:
        raise illegal(f"{d.counter} is in hex {hex_text(counter['hex'])}", "7.7.3")
    # (what forced_march_check reads, the enemy's hexes and the stack joined, as `move`)
    pos, enemies, stack = move_positions(state, d.counter, d.path[-1])
    near = None if enemies is None else mv.near_enemies(state["board"], enemies)
    check = mv.forced_march_check(
        state["board"], pos, d.counter, list(d.path), flooded(state), near, stack
    )
    if check.problem is not None:
        raise illegal(check.problem, "7.7.3")
    writable_counter(state, d.counter)["hex"] = d.path[-1]
    take_control(state, d.counter, d.path[-1])
    record_claims(state, ctx, role, d.counter, check.claims, members=stack)
    state["march"]["moved"].append(d.counter)
    state["march"]["left"][role] -= 1
    ctx.event(f"{d.counter} force-marches to {hex_text(d.path[-1])}")
    _next_march(state)


def march_done(state: State, role: str, d: Done, ctx: Context) -> None:
    state["march"]["left"][role] = 0
    _next_march(state)


def start_fog(state: State) -> None:
    momentum = state["momentum"]
    # 7.7.4.B: both sides may redeploy False Reports (and must cure an overstack), in the
    # Strategic Momentum side's order: both are asked (redeploy.py)
    state["fog"] = [momentum, other(momentum)]
    _next_fog(state)


def _next_fog(state: State) -> None:
    if state["fog"]:
        state["step"], state["active"] = "fog", state["fog"][0]
        return
    advance_turn(state)


def next_fog(state: State, ctx: Context) -> Next:
    """Continuation NEXT_FOG: a side's Fog of War entry is over (redeploy.hide)."""
    _next_fog(state)
    return None


def advance_turn(state: State) -> None:
    """7.7.6: the unseen discards must open (each side's next entry), then the next turn or
    the end of the game."""
    operations.marker_lost(state, None)  # 7.7.5.B
    holder = operations.deploying(state)
    if holder is not None:
        state["step"], state["active"] = "deploy", holder  # 7.7.5.A
        return
    for side in SIDES:
        label = state["discards"][side]
        if label is not None:
            piece = own(state["pieces"], label)
            piece["bids"] = list(state["played"][side])
            pieces.oblige(piece, "7.7.6: the turn is over: open the unseen discard")
    state["discards"] = {side: None for side in SIDES}  # (shared by copies: replaced)
    state["hands"] = {side: None for side in SIDES}
    if state["turn"] >= TURNS:
        start_final(state)
        return
    start_turn(state, None)


def turn_end(state: State, ctx: Context) -> Next:
    """Continuation TURN_END: the Planned Operations marker is deployed or kept (7.7.5.A,
    operations.deploy); the turn goes on to its end."""
    advance_turn(state)
    return None


# --- the end of the game (7.7.6.C) -------------------------------------------------------------


def sealed_of(state: State, side: str) -> list[str]:
    return sorted(p["label"] for p in pieces.sealed(state["pieces"].values(), side))


def start_final(state: State) -> None:
    for side in ("allies", "germans"):
        if sealed_of(state, side):
            state["step"], state["active"] = "final", side
            return
    state["step"], state["active"] = "over", None


def open_all(state: State, role: str, d: OpenAll, ctx: Context, check: Any) -> None:
    for label in sealed_of(state, role):
        pieces.reveal(own(state["pieces"], label), ctx, check)
    hits.check_stacks(state, role, ctx)
    redeploy.check_at_end(state, role)
    for made, total in spanning_problems(state, role):
        raise pieces.false_claim(
            int(made["seq"]), str(made["by"]), f"{made['text']} ({total} SZ)", str(made["rule"])
        )
    for label, first_label, unit_id in duplicates(state, role):
        piece = state["pieces"].get(piece_label(label)) or {}
        raise pieces.false_claim(
            int(piece.get("placed_at", 0)),
            role,
            f"{label} and {first_label} are both {unit_id}",
            "15",
        )
    ctx.event(f"{NAMES[role]} open every sealed piece")
    start_final(state)


def duplicates(state: State, side: str) -> list[tuple[str, str, str]]:
    """Counters of `side` on the map with one identity, as this state knows them: (the
    later label, the earlier, the unit). Each unit has one counter (15)."""
    seen: dict[str, str] = {}
    found = []
    for label in own_counters(state, side):
        unit_id = identity(state, label)
        if unit_id is None:
            continue
        if unit_id in seen:
            found.append((label, seen[unit_id], unit_id))
        else:
            seen[unit_id] = label
    return found


# --- openings: what an opened piece means -----------------------------------------------------


def on_opened(state: State, ctx: Context) -> None:
    """Runs before every handler: an opened identity turns its counter face up (a False
    Report leaves the map, 10.4.C, except in the final openings); an opened discard is
    checked against the turn's five bids (7.2, 7.7.6)."""
    for label, value in sorted(ctx.opened_now().items()):
        piece = state["pieces"].get(label)
        if piece is not None and not piece["revealed"]:
            reveal_with(own(state["pieces"], label), value)  # a step's own (11.1.C, 11.2.I)
        if label.startswith("unit/"):
            counter = state["counters"].get(label[len("unit/") :])
            if counter is None or counter["unit"] is not None:
                continue
            counter = writable_counter(state, label[len("unit/") :])
            counter["unit"] = value
            kind = unit(state, str(value))["kind"]
            if kind == "false-report" and state["step"] != "final":
                del state["counters"][label[len("unit/") :]]
                ctx.event(f"{label[5:]} was a False Report: it leaves the map (10.4.C)")
            else:
                ctx.event(f"{label[5:]} is {value}")
        elif label.startswith("discard/"):
            _check_discard(state, ctx, label)


def reveal_with(piece: pieces.Piece, value: Any) -> None:
    """The kit's `pieces.reveal(piece, ctx, check_claims)` given the value the entry opens
    for it (`on_opened` holds every opened value already): the kit's looks the value up in
    `ctx.opened_now()`, a dict built anew for each call, so the final openings of a long
    game (hundreds of pieces in one entry) built it hundreds of times. The same claims
    check and fields (tests/games/race_to_the_sea/test_rts_fast_paths.py)."""
    check_claims(piece, value)
    piece["value"] = value
    piece["revealed"] = True
    piece["due"] = None
    piece.pop("known", None)


def _check_discard(state: State, ctx: Context, label: str) -> None:
    piece = state["pieces"][label]
    if piece["bids"] is None:
        return  # opened before its turn ended (only the final openings do)
    index = ctx.private_value(piece["draw"])
    cards = decks.private_cards(
        {"pile": piece["pile"], "private": [piece["draw"]]}, {piece["draw"]: index}
    )
    if not cards:
        raise illegal(f"the unseen discard {label} does not open to a card", "7.2.A")
    held = Counter(piece["pile"])
    held.subtract([cards[0], *piece["bids"]])
    if any(n != 0 for n in held.values()):
        raise pieces.false_claim(
            int(piece["placed_at"]),
            str(piece["owner"]),
            f"the discard {cards[0]} and the bids {piece['bids']} are not the six cards",
            "7.2, 7.4",
        )
    ctx.event(f"{label}: the unseen discard was {cards[0]}")


def check_claims(piece: dict[str, Any], value: Any) -> None:
    """The claims checked when a piece opens: a placement's candidates (7.1, 15), a sealed
    bid held in hand (7.4). Stacking and rail-limit claims are recorded, not yet checked."""
    for made in piece["claims"]:
        if "candidates" in made and value not in made["candidates"]:
            raise pieces.false_claim(
                int(made["seq"]),
                str(made["by"]),
                f"{piece['label']} is {value}, not one of {', '.join(made['candidates'])}",
                str(made["rule"]),
            )
        if "cards" in made:
            left = Counter(made["cards"])
            left.subtract(made["played"])
            if not isinstance(value, int) or left[value] <= 0:
                raise pieces.false_claim(
                    int(made["seq"]),
                    str(made["by"]),
                    f"the sealed bid {value} is not a card left in hand",
                    "7.4",
                )
    recovery.check_claim(piece, value)  # 9.5, 9.1.C: a Regroup's claims
