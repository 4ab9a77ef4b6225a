"""Rules engine for Götterdämmerung: Fall of Berlin 1945 (two players, soviet and german).

The engine is a kit step table (`STEPS`); the design is docs/gotterdammerung.md. Modules:
`state` (shape, set-up, reading the state), `decisions` (syntax), `phases` (the ten phases of
3.1 and what happens between them), `setup` (12.4's bid, 6.91, 10.22), `moving` (movement,
railroads, splits, reinforcements, overruns), `fighting` (combat and overrun results),
`reinforcing` (9.x at the German Movement Phase, 8.3-8.4), `places` (who may enter which
hexes, and what entering one changes), `choices` (listed choices and the bot's samples),
`prompts` (the words each step asks with). The imports run one way: rules -> moving ->
fighting -> phases -> reinforcing, each beside the pure rule modules. The rules themselves
are pure functions shared with the data tests:
`map_data`, `tables`, `counters`, `zoc`, `movement`, `combat`, `overrun`, `rail`, `split`,
`countermove`, `arrivals`, `deployment`, `supply`, `victory`.

Information (protocol section 5): nothing is hidden from one side only but the 12.4 bid (a
sealed round, setup.BIDS). Delay markers and Volkssturm strengths are unknown to both until
the rules reveal them, so they are drawn then, by public dice (moving.reveal_delays,
fighting.reveal_volkssturm); the 12th Army cup is a public draw (9.33). Choices of the
player whose phase it is not (losses 6.52, retreats 6.61, advances 6.74, removals 4.18)
are that player's own entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, Outcome, State
from pbem.errors import DataError
from pbem.games.gotterdammerung import (
    choices,
    derived,
    fighting,
    moving,
    phases,
    prompts,
    reinforcing,
    setup,
    victory,
    zoc,
)
from pbem.games.gotterdammerung import counters as gc
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import tables as tb
from pbem.games.gotterdammerung.decisions import (
    DECISION_TYPES,
    Advance,
    Artillery,
    Attack,
    Bid,
    Deploy,
    Done,
    Enter,
    Lose,
    Move,
    OpenBid,
    Overrun,
    Rail,
    Reinforce,
    Remove,
    Retreat,
    Split,
    Volkssturm,
    format_decision,
    parse_decision,
)
from pbem.kit.steps import Step, StepGame

DATA_FILES = (md.MAP_FILE, tb.TABLES_FILE, gc.COUNTERS_FILE)
SIXTH_SS_VP = 25  # 12.39


def _phase_role(state: State) -> str:
    return gs.role_of(state, phases.phase_side(state))


def _side_role(side: str | None) -> Any:
    def asks(state: State) -> str | None:
        return None if side is None else gs.role_of(state, side)

    return asks


def _asks_of(chooser: Any) -> Any:
    def asks(state: State) -> str | None:
        side = chooser(state)
        return None if side is None else gs.role_of(state, side)

    return asks


def _overstacked_side(state: State, found: Mapping[str, Any] | None = None) -> str:
    """The side whose units break the limit in the first broken hex (4.18); `found`: the
    position's phases.overstacks, if the caller has it."""
    broken = sorted(phases.overstacks(state) if found is None else found)
    units = gs.units_at(state, broken[0]) if broken else []
    return str(units[0]["side"]) if units else phases.phase_side(state)


def _remover(state: State) -> str:
    """4.18: "the opposing player chooses which units are removed": the opponent of the
    overstacked units' owner (one side's hexes at a time)."""
    return gs.role_of(state, gs.other(_overstacked_side(state)))


def _reinforcements_done(state: State, role: str, d: Done, ctx: Context) -> None:
    """The German player ends the Supply and Reinforcement Phase (8.3, 8.4)."""
    state["phase_data"]["volkssturm"] = 0
    phases.finish_phase(state, ctx)


def remove(state: State, role: str, d: Remove, ctx: Context) -> None:
    """4.18: the opposing player removes the excess units of each illegal hex."""
    board, data = state["board"], state["counters"]
    overstacked = phases.overstacks(state)  # (once: the side and its hexes read it)
    owner = _overstacked_side(state, overstacked)
    broken = {
        h: found for h, found in overstacked.items() if gs.units_at(state, h)[0]["side"] == owner
    }
    for uid in d.units:
        unit = state["units"].get(uid)
        if unit is None or unit["hex"] not in broken:
            raise gs.illegal(f"{uid} is not in an overstacked hex", "4.18")
    for h in sorted(broken):
        chosen = [uid for uid in d.units if state["units"][uid]["hex"] == h]
        problem = zoc.removal_problem(board, data, gs.units_at(state, h), chosen)
        if problem is not None:
            raise gs.illegal(problem, "4.18")
    for uid in d.units:
        fighting.destroy(state, uid, ctx, "over the stacking limit at the end of a phase, 4.18")
    if not phases.overstacks(state):
        phases.end_phase(state, ctx)  # else the other side's hexes are next


STEPS: dict[str, Step] = {
    "bid": Step(
        asks=setup.BIDS.asks,
        prompt=prompts.bid,
        handlers={Bid: setup.bid},
        choices=choices.bids,
        sample=choices.sample_bid,
        commits=setup.BIDS.commits,
        rule="12.42",
    ),
    "open_bid": Step(
        asks=setup.BIDS.asks,
        prompt=prompts.open_bid,
        handlers={OpenBid: setup.open_bid},
        choices=choices.open_bids,
        rule="12.42",
        exhaustive=True,
    ),
    "artillery": Step(
        asks=_side_role("soviet"),
        prompt=prompts.artillery,
        handlers={Artillery: setup.artillery},
        choices=choices.artillery,
        rule="6.91",
    ),
    "deploy": Step(
        asks=_side_role("german"),
        prompt=prompts.deploy,
        handlers={Deploy: setup.deploy},
        choices=choices.deploys,
        rule="10.22",
    ),
    "move": Step(
        asks=_phase_role,
        prompt=prompts.move,
        handlers={
            Move: moving.move,
            Enter: moving.enter,
            Rail: moving.rail_move,
            Split: moving.split,
            Overrun: moving.start_overrun,
            Done: moving.done,
        },
        choices=choices.moves,
        sample=choices.sample_move,
        rule="5.1",
    ),
    "combat": Step(
        asks=_phase_role,
        prompt=prompts.combat,
        handlers={Attack: fighting.attack, Done: lambda s, r, d, c: phases.finish_phase(s, c)},
        choices=choices.attacks,
        sample=choices.sample_attack,
        rule="6.0",
    ),
    "loss": Step(
        asks=_asks_of(fighting.loss_chooser),
        prompt=prompts.loss,
        handlers={Lose: fighting.lose},
        choices=choices.losses,
        sample=choices.sample_loss,
        rule="6.52",
    ),
    "retreat": Step(
        asks=_asks_of(fighting.retreat_chooser),
        prompt=prompts.retreat,
        handlers={Retreat: fighting.retreat},
        choices=choices.retreats,
        sample=choices.sample_retreat,
        rule="6.61",
        exhaustive=True,
    ),
    "advance": Step(
        asks=_asks_of(fighting.advance_chooser),
        prompt=prompts.advance,
        handlers={Advance: fighting.advance, Done: fighting.end_advance},
        choices=choices.advances,
        sample=choices.sample_advance,
        rule="6.7",
    ),
    "remove": Step(
        asks=_remover,
        prompt=prompts.remove,
        handlers={Remove: remove},
        choices=choices.removals,
        rule="4.18",
    ),
    "reinforce": Step(
        asks=_phase_role,
        prompt=prompts.reinforce,
        handlers={
            Reinforce: reinforcing.reinforce,
            Volkssturm: reinforcing.place_volkssturm,
            Done: _reinforcements_done,
        },
        choices=choices.reinforcements,
        sample=choices.sample_reinforcement,
        rule="8.3",
    ),
}


class GotterdammerungEngine(StepGame):
    """Götterdämmerung: the turn sequence, movement, combat, overruns, supply and the cups."""

    name = "gotterdammerung"
    title = "Götterdämmerung: Fall of Berlin 1945"
    version = "1.0"
    roles = gs.SIDES
    required_roles = gs.SIDES
    data_files = DATA_FILES
    steps = STEPS
    decision_types = DECISION_TYPES
    static_keys = gs.STATIC_KEYS
    turn_rule = "3.1"
    over_rule = "11.0"
    role_names = gs.NAMES

    def read_data(self, raw: Mapping[str, bytes]) -> dict[str, Any]:
        board = md.load_map(raw[md.MAP_FILE])
        return {
            "map": board,
            "tables": tb.load_tables(raw[tb.TABLES_FILE]),
            "counters": gc.load_counters(raw[gc.COUNTERS_FILE]),
            "derived": derived.derive(board, raw[md.MAP_FILE]),  # (the map's lookup tables)
        }

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        try:
            chosen = gs.read_options(options)
        except ValueError as error:
            raise DataError(str(error)) from None
        data = self.data_or_shipped(data)
        state = gs.initial_state(data, chosen)
        if state["board"] is data["map"] and data.get("derived") is not None:
            derived.seed(state["board"], data["derived"])  # (found ready, not built in play)
        setup.start(state)
        return state

    # the decisions module's syntax, as it is (a state and a role are only read when given)
    parse_decision = staticmethod(parse_decision)
    format_decision = staticmethod(format_decision)

    def clone(self, state: State) -> State:
        return gs.copy_state(state)

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        if isinstance(decision, Bid) and decision.points is not None and state["step"] == "bid":
            values = setup.BIDS.seal(state, role, decision.points)
            if values:
                return Bid(None), values
        return decision, {}

    def outcome(self, state: State) -> Outcome | None:
        if state["step"] != "over":
            return None
        points = score(state)
        difference = points["soviet"] - points["german"]
        level = victory.level(difference)
        winner = (
            "soviet"
            if level.startswith("Soviet")
            else "german"
            if level.startswith("German")
            else None
        )
        by_role = {gs.role_of(state, side): points[side] for side in gs.SIDES}
        text = (
            f"Soviet {points['soviet']} VP, German {points['german']} VP: a difference of "
            f"{difference}, {level} (11.2)"
        )
        return Outcome(None if winner is None else gs.role_of(state, winner), level, by_role, text)


def score(state: State) -> dict[str, int]:
    """11.13-11.17, 12.39, 12.44: the points of each side now."""
    board, data = state["board"], state["counters"]
    soviet = victory.soviet_hex_vp(board, state["occupied"])
    soviet += victory.BONUS_VP * len(state["bonus"])
    soviet += victory.elbe_vp(state["elbe"]) if state["elbe"] else 0
    soviet += state["bid_vp"]
    units = gs.on_map(state)
    army = [u for u, c in data["units"].items() if (c.get("place") or {}).get("pool") == "6th-ss"]
    if state["options"]["sixth_ss"] and not any(uid in state["units"] for uid in army):
        soviet += SIXTH_SS_VP  # 12.39 (read as: once the whole army is gone)
    counted = [u for u in units if u["id"] not in army]
    german = victory.german_vp(board, data, counted)
    return {"soviet": soviet, "german": german}


ENGINE = GotterdammerungEngine()
