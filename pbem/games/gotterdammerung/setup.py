"""Götterdämmerung: the set-up steps (12.4, 10, 6.91) on the engine state.

    bid, open_bid   12.4 (an option): each seat bids Soviet Support Points in a sealed round
                    (pbem.kit.sealed); the smaller bid commands the Soviet forces; a tie
                    starts a new round (12.43). Ruling (the rulebook gives no starting figure
                    under 12.4): the Soviet player starts with the Support Points he bid, and
                    earns the difference of the bids as VP (12.44).
    artillery       6.91: the Soviet player puts each of the four Artillery Support markers
                    on a corps of its army (one entry for the four).
    deploy          10.22 (and 12.33): the German player places the A-J units (and the 6th SS
                    Panzer Army) in one entry, or takes the stand-in layout ("deploy standard").
Then the game begins at turn 1's Soviet Combat Phase (10.4).
"""

from __future__ import annotations

from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import deployment, phases
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung.decisions import Artillery, Bid, Deploy, OpenBid
from pbem.kit import seats
from pbem.kit.sealed import SealedRound

BIDS = SealedRound("bids", lambda s, r: f"bid/{r}/round{s['bid_round']}", "12.42")
BID_ORDER = ("soviet", "german")  # the seats, in the genesis' order of roles
MAX_BID = 99


def start(state: State) -> None:
    if state["options"]["bidding"]:
        state["bid_round"] = 1
        state["pieces"] = {}
        BIDS.start(state, BID_ORDER)
        state["step"] = "bid"
    else:
        state["step"] = "artillery"


def bid(state: State, role: str, d: Bid, ctx: Context) -> None:
    if d.points is not None and not 0 <= d.points <= MAX_BID:
        raise gs.illegal(f"a bid is 0 to {MAX_BID} Support Points", "12.42")
    BIDS.choose(state, role, d.points, ctx)
    if not BIDS.choosing(state):
        state["step"] = "open_bid"


def open_bid(state: State, role: str, d: OpenBid, ctx: Context) -> None:
    values = BIDS.finish(state)
    bids = {r: int(v) for r, v in values.items()}
    if not all(0 <= v <= MAX_BID for v in bids.values()):
        raise gs.illegal(f"a bid is 0 to {MAX_BID} Support Points", "12.42")
    (a, bid_a), (b, bid_b) = sorted(bids.items())
    if bid_a == bid_b:
        ctx.event(f"both seats bid {bid_a}: the bidding is repeated (12.43)")
        state["bid_round"] += 1
        BIDS.start(state, BID_ORDER)
        state["step"] = "bid"
        return
    soviet, german = (a, b) if bid_a < bid_b else (b, a)
    seats.assign(state, soviet, "soviet")
    seats.assign(state, german, "german")
    state["support_points"] = bids[soviet]
    state["bid_vp"] = bids[german] - bids[soviet]  # 12.44
    ctx.event(
        f"bids: {soviet} {bids[soviet]}, {german} {bids[german]}: {soviet} commands the Soviet "
        f"forces with {bids[soviet]} Support Points and {state['bid_vp']} VP (12.42-12.44)"
    )
    state["step"] = "artillery"


def artillery(state: State, role: str, d: Artillery, ctx: Context) -> None:
    data = state["counters"]
    markers = {m["id"] for m in data["artillery"]}
    named = [m for m, _ in d.placements]
    if sorted(named) != sorted(markers):
        raise gs.illegal(f"place each of the markers once: {', '.join(sorted(markers))}", "6.91")
    units = gs.on_map(state)
    for marker, uid in d.placements:
        problems = deployment.artillery_problems(data, units, marker, uid)
        if problems:
            raise IllegalOrderError(f"illegal: {problems[0]}")
    for marker, uid in d.placements:
        gs.own(state, uid)["artillery"] = marker
    ctx.event(
        "Artillery Support markers: "
        + ", ".join(f"{m} on {u}" for m, u in d.placements)
        + " (6.91)"
    )
    state["step"] = "deploy"


def deploy(state: State, role: str, d: Deploy, ctx: Context) -> None:
    board, data = state["board"], state["counters"]
    if d.placements is None:
        placements = {
            uid: h
            for uid, h in deployment.default_german_deployment(board, data).items()
            if uid not in state["units"]
        }
        if state["options"]["sixth_ss"]:
            placed = [*gs.on_map(state), *(gs.new_unit(data, u, h) for u, h in placements.items())]
            placements.update(deployment.default_sixth_ss(board, data, placed))
    else:
        placements = {}
        for uid, text in d.placements:
            if uid in placements:
                raise gs.illegal(f"{uid} is placed twice", "10.22")
            placements[uid] = gs.hex_of(state, text)
    expected = {
        uid
        for uid in deployment.to_deploy(data, sixth_ss=state["options"]["sixth_ss"])
        if uid not in state["units"]  # (units with a chart hex are already placed)
    }
    missing, extra = sorted(expected - set(placements)), sorted(set(placements) - expected)
    if missing or extra:
        what = (
            f"{', '.join(missing)} not placed"
            if missing
            else f"{', '.join(extra)} not deployed now"
        )
        raise gs.illegal(what, "10.22")
    for uid, h in sorted(placements.items()):
        gs.put(state, gs.new_unit(data, uid, h))
    problems = deployment.german_deployment_problems(board, data, gs.on_map(state))
    if state["options"]["sixth_ss"]:
        problems += deployment.sixth_ss_problems(board, data, gs.on_map(state))
    if problems:
        raise IllegalOrderError(f"illegal: {problems[0]}")
    ctx.event(f"the German player deploys {len(placements)} units (10.22)")
    phases.begin_game(state, ctx)
