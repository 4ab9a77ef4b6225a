"""Rules engine for Race to the Sea 1914 (two players, allies and germans).

The engine is a kit step table (`STEPS`, docs/architecture-notes.md "The game kit"); the
design is docs/race-to-the-sea.md. Modules: `state` (shape, setup, positions, entry
hexes), `decisions` (syntax), `flow` (the sequence of play 7 and its handlers), `choices`
(legal choices and bot samples); the rules pieces `map_data`, `units`, `cards`,
`movement`, `initiative`, `victory` are shared with the data files' tests.

Information (protocol section 5):
- each non-cavalry unit or False Report on the map is a public counter (label, hex, side,
  nationality) whose identity is a kit piece `unit/<label>`, committed by its owner when
  placed (`seal` turns `place fr-iv 0714` into `place french 0714` and the commitment);
  the owner opens it on a Cavalry Recon (9.7, a reveal obligation), at the Fog of War
  step it is re-committed under fresh labels (7.7.4.A), and at the end all open;
- the bids are a `SealedRound` (the Germans commit, the Allies bid in the clear, the
  Germans open), each sealed bid claiming a card left in hand;
- the unseen Initiative discard (7.2.A) is a private draw, opened at 7.7.6 and checked
  against the turn's five bids;
- the Combat Results decks are public draws (7.7.1-7.7.3).

Combat (9.2-9.8, 10.5.3, 11-13) is in its own modules: see flow.py's docstring and
docs/race-to-the-sea.md, "Combat in entries". What comes next after a handler is decided
in one place, `CONTINUATIONS` below (what_next.py names its entries).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import FRESH, Context, Outcome, State
from pbem.core.referee import REFEREE
from pbem.errors import DataError
from pbem.games.race_to_the_sea import (
    assault,
    casualties,
    choices,
    combat_choices,
    derived,
    dykes,
    events,
    firepower,
    flow,
    hits,
    interrupts,
    operations,
    recovery,
    redeploy,
    skirmish,
    standing,
    victory,
)
from pbem.games.race_to_the_sea import cards as rc
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import units as ru
from pbem.games.race_to_the_sea.decisions import (
    DECISION_TYPES,
    Absorb,
    Assault,
    Bid,
    CounterAttack,
    Deal,
    Deploy,
    Discard,
    Done,
    EndRail,
    FallBack,
    FightOn,
    Fire,
    First,
    Flip,
    Flood,
    GoBack,
    Hide,
    Keep,
    March,
    Match,
    Move,
    OpenAll,
    OpenBid,
    Pass,
    Pick,
    Place,
    Plan,
    Rail,
    Rebuild,
    Recon,
    Regroup,
    Reply,
    Restack,
    Retreat,
    Show,
    Stand,
    Withdraw,
    format_decision,
    parse_decision,
)
from pbem.games.race_to_the_sea.shared_pieces import own_piece
from pbem.games.race_to_the_sea.state import (
    NAMES,
    SIDES,
    STATIC_KEYS,
    copy_state,
    due_pieces,
    flooded,
    initial_state,
    new_counter_label,
    piece_label,
)
from pbem.games.race_to_the_sea.what_next import (
    ASSAULT,
    FIRE,
    LATER_EVENT,
    NEXT_ACTION,
    NEXT_FOG,
    PENDING,
    SKIRMISH,
    TURN_END,
)
from pbem.kit import decks
from pbem.kit.pieces import Piece
from pbem.kit.steps import NO_OPENINGS, Continuation, Openings, Step, StepGame, asks_key

DATA_FILES = (rm.MAP_FILE, ru.UNITS_FILE, rc.CARDS_FILE, casualties.MARKERS_FILE)
ACTIVE = asks_key("active")


# --- prompts ----------------------------------------------------------------------------------


# The option of a double-blind game (pbem.core.blind) in which the referee, who knows every
# stack, draws the Casualties markers from the rulebook's one cup (4.2): docs/race-to-the-sea.md.
SHARED_CUP = "shared_cup"


def _p_place(state: State, role: str) -> str:
    where = "set up (15)" if state["turn"] == 0 else f"turn {state['turn']}: reinforcements (7.1)"
    units = ", ".join(state["batch"]["units"]) or "False Reports"
    return (
        f"{where}: place {units} ('place fr-iv 0714', cavalry "
        "'place fr-ii-cav 0615 scouting'), then 'done'"
    )


def _p_act(state: State, role: str) -> str:
    return (
        f"turn {state['turn']} round {state['round']}: action {state['index'] + 1} of "
        f"{len(state['order'])} ('move c07 0714 0715', 'flip c03', 'recon c03 0612 to 0613 c21', "
        "or 'pass' if no unit can act)"
    )


PROMPTS = {
    "discard": lambda s, r: (
        f"turn {s['turn']}: draw your unseen Initiative discard ('discard', 7.2)"
    ),
    "rail": lambda s, r: (
        "Allied railroad movement, 4 SZ at most ('rail c03 0620 1007', then 'end rail', 7.3)"
    ),
    "bid": lambda s, r: (
        f"turn {s['turn']} round {s['round']}: bid an Initiative Card ('bid 1-5', 7.4)"
    ),
    "open_bid": lambda s, r: "open your sealed bid ('open bid')",
    "march_first": lambda s, r: (
        "who forced-marches first ('first germans' or 'first allies', 7.7.3)"
    ),
    "march": lambda s, r: (
        f"forced march: {s['march']['left'][r]} unit(s) left "
        "('forced march c03 0714 0715' or 'done')"
    ),
    "fog": lambda s, r: (
        "fog of war: your face-up units away from the enemy hide again ('hide', 7.7.4.A); "
        "False Reports may be picked up and put, overstacked units must move one hex "
        "('hide up c03 put french 0714 shift c05 0714 0715', 7.7.4.B)"
    ),
    "final": lambda s, r: "the game is over: open every sealed piece ('open all', 7.7.6.C)",
}


# --- openings and commitments ----------------------------------------------------------------


def _place_commits(state: State, role: str, d: Any) -> list[str]:
    if isinstance(d, Place) and d.unit is None:
        return [piece_label(new_counter_label(state)), *recovery.place_commits(state, role, d)]
    return recovery.place_commits(state, role, d)  # 7.1.B: a hit's draw secret


def _discard_commits(state: State, role: str, d: Any) -> list[str]:
    return [flow.discard_label(state, role)]


def _fog_commits(state: State, role: str, d: Any) -> list[str]:
    return redeploy.commits(state, role, d)


def _final_opens(state: State, role: str, d: Any) -> Openings:
    if not isinstance(d, OpenAll):
        return NO_OPENINGS
    return Openings(tuple(flow.sealed_of(state, role)), rule="7.7.6.C")


def _open_all(state: State, role: str, d: OpenAll, ctx: Context) -> None:
    flow.open_all(state, role, d, ctx, flow.check_claims)


def _defender(state: State) -> str | None:
    combat = state.get("combat")
    return None if combat is None else flow.other(combat["side"])


def _event_side(state: State) -> str | None:
    event = state.get("event")
    return None if event is None else str(event["side"])


def _absorbing(state: State) -> str | None:
    pending = state.get("absorbing")
    return None if pending is None else str(pending["side"])


def _act_opens(state: State, role: str, d: Any) -> Openings:
    if isinstance(d, Assault):
        return assault.assault_opens(state, role, d)
    return firepower.fire_opens(state, role, d)


def _attacker(state: State) -> str | None:
    combat = state.get("combat")
    return None if combat is None else str(combat["side"])


def _draw_commits(state: State, role: str, d: Any) -> list[str]:
    return [hits.draw_label(state, role)]


def _restack_commits(state: State, role: str, d: Any) -> list[str]:
    return hits.restack_labels(state, role)


def _deal_commits(state: State, role: str, d: Any) -> list[str]:
    side = state["restack"]["side"]
    return [hits.dealt_label(side, label) for label in hits.restack_labels(state, side)]


def _absorb_opens(state: State, role: str, d: Any) -> Openings:
    labels = events.absorb_opens(state, role, d)
    return Openings(labels, rule="5.2.6") if labels else NO_OPENINGS


STEPS: dict[str, Step] = {
    # 15, 7.1: setting up and reinforcements
    "place": Step(
        asks=ACTIVE,
        prompt=_p_place,
        handlers={Place: flow.place, Done: flow.placement_done},
        choices=choices.placements,
        sample=choices.sample_placement,
        commits=_place_commits,
        rule="7.1",
    ),
    # 7.2: the unseen discard
    "discard": Step(
        asks=ACTIVE,
        prompt=PROMPTS["discard"],
        handlers={Discard: flow.discard},
        choices=choices.discards,
        commits=_discard_commits,
        rule="7.2",
        exhaustive=True,
    ),
    # 7.3: Allied railroad movement
    "rail": Step(
        asks=ACTIVE,
        prompt=PROMPTS["rail"],
        handlers={Rail: flow.rail, EndRail: flow.end_rail},
        choices=choices.rails,
        sample=choices.sample_rail,
        rule="7.3",
    ),
    # 7.4, 8: the bids, a sealed round
    "bid": Step(
        asks=flow.BIDS.asks,
        prompt=PROMPTS["bid"],
        handlers={Bid: flow.bid},
        choices=choices.bids,
        commits=flow.BIDS.commits,
        rule="7.4",
    ),
    "open_bid": Step(
        asks=flow.BIDS.asks,
        prompt=PROMPTS["open_bid"],
        handlers={OpenBid: flow.open_bid},
        choices=choices.open_bids,
        rule="7.4",
        exhaustive=True,
    ),
    # 7.5, 9: the actions
    "act": Step(
        asks=flow.acting,
        prompt=_p_act,
        handlers={
            Move: flow.move,
            Flip: flow.flip,
            Recon: flow.recon,
            Pass: flow.pass_action,
            Flood: dykes.flood,
            Fire: firepower.fire,
            Assault: assault.assault,
            Regroup: recovery.regroup,
            Rebuild: recovery.rebuild,
            Plan: operations.plan,
            Done: operations.plan_done,
        },
        commits=recovery.act_commits,
        choices=choices.actions,
        sample=choices.sample_action,
        opens=_act_opens,
        rule="7.5, 9",
    ),
    # 11.3.B, 10.5.4.1: scouting cavalry under fire, before the cards flip
    "fire_cavalry": Step(
        asks=_defender,
        prompt=lambda s, r: (
            f"{s['combat']['defender']} (scouting cavalry) is under fire: 'stand' or "
            "'fall back HEX' (11.3.B)"
        ),
        handlers={Stand: firepower.stand, FallBack: firepower.fall_back},
        choices=combat_choices.cavalry_replies,
        rule="11.3.B",
    ),
    # 11.2.I-J, 11.3.A: the target answers the cards
    "fire_reply": Step(
        asks=_defender,
        prompt=lambda s, r: (
            f"{s['combat']['defender']} is hit by {firepower.net_hits(s, False)} net hit(s) "
            "before its own ratings: 'reply', 'reply met' (use its MET rating, 11.2.I), "
            "'reply back HEX' (a Fallback Move instead of one hit, 11.3.A)"
        ),
        handlers={Reply: firepower.reply},
        choices=combat_choices.replies,
        sample=combat_choices.sample_reply,
        commits=_draw_commits,
        opens=firepower.reply_opens,
        rule="11.2",
        exhaustive=True,
    ),
    # 7.7.5: the Planned Operations marker deployed
    "deploy": Step(
        asks=ACTIVE,
        prompt=lambda s, r: (
            "Planned Operations: 'deploy HEX' (a friendly-controlled hex) or 'keep marker' "
            "(7.7.5.A)"
        ),
        handlers={Deploy: operations.deploy},
        choices=combat_choices.deploys,
        sample=combat_choices.sample_deploy,
        rule="7.7.5",
    ),
    # 12.2.D-G: matchups
    "match": Step(
        asks=lambda s: None if s.get("combat") is None else assault.match_side(s),
        prompt=lambda s, r: (
            "assign the matchups ('match c09 c21 c12 c22': each of your units, then the "
            "enemy unit it fights, 12.2.D-G)"
        ),
        handlers={Match: assault.match},
        choices=combat_choices.matches,
        rule="12.2",
    ),
    # 9.4.B, 12.5.C: the Big Push card kept
    "keep": Step(
        asks=_attacker,
        prompt=lambda s, r: (
            f"Big Push: keep #{s['combat']['pushed'][0]} or #{s['combat']['pushed'][1]} "
            f"against the defender's #{s['combat']['cards'][flow.other(r)]} ('keep N', 9.4.B)"
        ),
        handlers={Keep: assault.keep},
        choices=combat_choices.keeps,
        rule="9.4.B",
    ),
    # 12.7: the loser's retreat
    "retreat": Step(
        asks=assault.retreat_side,
        prompt=lambda s, r: f"{s['combat']['retreating']} retreats ('retreat cNN HEX', 12.7)",
        handlers={Retreat: assault.retreat},
        choices=combat_choices.retreats,
        rule="12.7",
        exhaustive=True,
    ),
    # 10.5.3.C: the cavalry that lost a skirmish retreats one hex
    "skirmish_retreat": Step(
        asks=skirmish.loser_side,
        prompt=lambda s, r: (
            f"{skirmish.loser(s)} lost the skirmish: it retreats one hex ('retreat cNN HEX', "
            "10.5.3.C)"
        ),
        handlers={Retreat: skirmish.retreat},
        choices=skirmish.choices,
        rule="10.5.3.C",
        exhaustive=True,
    ),
    # 12.4.B: withdrawal before the next matchup
    "withdraw": Step(
        asks=assault.withdraw_side,
        prompt=lambda s, r: "before the next matchup: 'fight on', or 'withdraw cNN HEX' (12.4.B)",
        handlers={Withdraw: assault.withdraw, FightOn: assault.fight_on},
        choices=combat_choices.withdrawals,
        sample=combat_choices.sample_withdrawal,
        rule="12.4.B",
    ),
    # 12.8.B: over the stacking limit, attackers go back
    "occupy": Step(
        asks=assault.occupy_side,
        prompt=lambda s, r: "more than 6 SZ in the captured hex: 'back cNN' (12.8.B)",
        handlers={GoBack: assault.go_back},
        choices=combat_choices.go_backs,
        rule="12.8.B",
    ),
    # 13.0: the Counter-Attack Event
    "counter": Step(
        asks=assault.counter_side,
        prompt=lambda s, r: (
            "Counter-Attack: 'counter cNN' with a unit that fought, or 'no counter' (13.0)"
        ),
        handlers={CounterAttack: assault.counter},
        choices=combat_choices.counters,
        rule="13.0",
    ),
    # 10.4.A: a modified rating is read: its owner opens it
    "show": Step(
        asks=interrupts.asks_show,
        prompt=lambda s, r: "open what the combat reads ('show', 10.4.A)",
        handlers={Show: interrupts.show},
        choices=combat_choices.shows,
        rule="10.4.A",
        exhaustive=True,
    ),
    # 4.2, shared cup (a double-blind game): the referee deals the markers from the one cup
    "deal": Step(
        asks=interrupts.asks_deal,
        prompt=lambda s, r: (
            "draw the Casualties markers from the cup for the hit units ('deal', 4.2)"
        ),
        handlers={Deal: interrupts.deal},
        choices=lambda s, r: [Deal()],
        commits=_deal_commits,
        rule="4.2",
        exhaustive=True,
    ),
    # 5.2: the markers just drawn are committed
    "restack": Step(
        asks=interrupts.asks_restack,
        prompt=lambda s, r: "commit the Casualties markers just drawn ('restack', 5.2)",
        handlers={Restack: interrupts.restack},
        choices=combat_choices.restacks,
        commits=_restack_commits,
        rule="5.2",
        exhaustive=True,
    ),
    # 13.0: an Event's picks and hits
    "event_pick": Step(
        asks=_event_side,
        prompt=lambda s, r: f"{events.describe(s)} ('pick c12', 13.0)",
        handlers={Pick: events.pick},
        choices=combat_choices.picks,
        rule="13.0",
        exhaustive=True,
    ),
    "absorb": Step(
        asks=_absorbing,
        prompt=lambda s, r: (
            "apply the hits on "
            + ", ".join(f"{k} ({n})" for k, n in s["absorbing"]["hits"].items())
            + f" ('absorb', 5.1, {s['absorbing'].get('rule', '13.0')})"
        ),
        handlers={Absorb: events.absorb},
        choices=combat_choices.absorbs,
        commits=_draw_commits,
        opens=_absorb_opens,
        rule="5.1",
        exhaustive=True,
    ),
    # 7.7.3: forced march
    "march_first": Step(
        asks=ACTIVE,
        prompt=PROMPTS["march_first"],
        handlers={First: flow.first},
        choices=choices.firsts,
        rule="7.7.3",
        exhaustive=True,
    ),
    "march": Step(
        asks=ACTIVE,
        prompt=PROMPTS["march"],
        handlers={March: flow.forced_march, Done: flow.march_done},
        choices=choices.marches,
        sample=choices.sample_march,
        rule="7.7.3",
    ),
    # 7.7.4.A: fog of war
    "fog": Step(
        asks=ACTIVE,
        prompt=PROMPTS["fog"],
        handlers={Hide: redeploy.hide},
        choices=choices.hides,
        sample=redeploy.sample,
        commits=_fog_commits,
        opens=redeploy.opens,
        rule="7.7.4",
    ),
    # 7.7.6.C: everything opens
    "final": Step(
        asks=ACTIVE,
        prompt=PROMPTS["final"],
        handlers={OpenAll: _open_all},
        choices=choices.finals,
        opens=_final_opens,
        rule="7.7.6",
        exhaustive=True,
    ),
}


# --- what comes next ---------------------------------------------------------------------------

# The one place that decides what comes next (what_next.py): a handler or a stage of a
# combat returns one of these names, the kit runs the function (StepGame.follow), and that
# function may name another. Built here, where every module is imported once, so that no
# module below calls back up into the sequence of play.
CONTINUATIONS: dict[str, Continuation] = {
    PENDING: interrupts.continue_play,  # 9.B: openings, markers, hits, Events, then play
    FIRE: firepower.proceed,  # the combat in progress, by its kind (11, 10.5.3, 12)
    SKIRMISH: skirmish.proceed,
    ASSAULT: assault.proceed,
    LATER_EVENT: events.later_event,  # 13.0.D
    NEXT_ACTION: flow.next_action,  # 7.5-7.6
    NEXT_FOG: flow.next_fog,  # 7.7.4
    TURN_END: flow.turn_end,  # 7.7.5-7.7.6
}


def _filled(state: State, role: str, known: Mapping[str, JSON]) -> State:
    """The kit's fill of `role`'s unopened pieces (`pieces.fill`), on a copy that shares
    every other piece: the filled-in state is only read (choices, seal, views)."""
    everyone = role == REFEREE  # a double-blind game's referee knows every piece
    mine = [
        label
        for label, piece in state["pieces"].items()
        if (everyone or piece["owner"] == role) and not piece["revealed"] and label in known
    ]
    if not mine:
        return state
    new = dict(state)
    new["pieces"] = dict(state["pieces"])
    for label in mine:
        new["pieces"][label] = dict(state["pieces"][label], value=known[label], known=True)
    return new


class RaceToTheSeaEngine(StepGame):
    """Race to the Sea 1914: the sequence of play, movement, combat and the fog of war."""

    name = "race-to-the-sea"
    title = "Race to the Sea 1914"
    version = "1.0"
    roles = SIDES
    double_blind_options = frozenset({SHARED_CUP})
    required_roles = SIDES
    data_files = DATA_FILES
    steps = STEPS
    decision_types = DECISION_TYPES
    static_keys = STATIC_KEYS
    turn_rule = "7"
    over_rule = "7.7.6.C"
    role_names = NAMES
    orders = standing.ORDERS
    continuations = CONTINUATIONS

    # --- data ---------------------------------------------------------------------------

    def read_data(self, raw: Mapping[str, bytes]) -> dict[str, Any]:
        board, units = rm.load_map(raw[rm.MAP_FILE]), ru.load_units(raw[ru.UNITS_FILE])
        return {
            "map": board,
            "units": units,
            "cards": rc.load_cards(raw[rc.CARDS_FILE]),
            "markers": casualties.load_markers(raw[casualties.MARKERS_FILE]),
            # the map's lookup tables, shipped with the tables (derived.py)
            "derived": derived.derive(board, units, raw[rm.MAP_FILE]),
        }

    # --- 15: setup ----------------------------------------------------------------------

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        unknown = sorted(set(options) - {SHARED_CUP})
        if unknown:
            raise DataError(
                f"race-to-the-sea has no option {', '.join(unknown)} (only {SHARED_CUP})"
            )
        if options.get(SHARED_CUP, True) is not True:
            raise DataError(f"{SHARED_CUP} is true or absent")
        data = self.data_or_shipped(data)
        state = initial_state(data)
        if state["board"] is data["map"] and data.get("derived") is not None:
            derived.seed(state["board"], data["derived"])  # (found ready, not built in play)
        if options.get(SHARED_CUP):  # (absent from every other game's state: saves replay)
            state["shared_cup"] = True
        state["place_order"] = ["allies", "germans"]  # 15.5.A, 15.6.A
        flow.start_placing(state, None)
        return state

    # --- syntax -------------------------------------------------------------------------

    # the decisions module's syntax, as it is (a state and a role are only read when given)
    parse_decision = staticmethod(parse_decision)
    format_decision = staticmethod(format_decision)

    # --- hidden information -------------------------------------------------------------

    def clone(self, state: State) -> State:
        return copy_state(state)

    def due_pieces(self, state: State, role: str) -> list[Piece]:
        """The kit's `pieces.due`, its due pieces picked out in C (`state.due_pieces`)."""
        return due_pieces(state, role)

    def writable(self, state: State, piece: Piece) -> Piece:
        """A copy shares its pieces with its source until it changes one (shared_pieces.py)."""
        return own_piece(state["pieces"], piece)

    def check_claims(self, piece: Piece, value: JSON) -> None:
        flow.check_claims(piece, value)

    def settle(self, state: State, ctx: Context) -> State:
        """After the game: the kit opens what the referee discloses; with the shared cup,
        every deal is then recomputed from the one cup of its time (hits.check_dealt)."""
        settled = super().settle(state, ctx)
        if hits.shared(settled):
            settled = settled if settled is not state else self.clone(state)
            hits.check_dealt(settled, ctx)
        return settled

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        """The owner's client: a hidden placement names its unit only in the commitment; a
        bid is sealed unless it is the round's last; the discard and the fresh labels of
        the fog of war commit their values."""
        step = state["step"]
        if isinstance(decision, Place) and decision.unit is not None and step == "place":
            kind = state["units_data"]["units"].get(decision.unit, {}).get("kind")
            if kind is not None and kind != "cavalry":
                nationality = state["units_data"]["units"][decision.unit]["nationality"]
                public = Place(None, nationality, decision.hex)
                draws = recovery.placement_draws(state, role, decision)  # 7.1.B
                return public, {piece_label(new_counter_label(state)): decision.unit, **draws}
        if isinstance(decision, Place) and step == "place":
            return decision, recovery.placement_draws(state, role, decision)
        if isinstance(decision, (Regroup, Rebuild)) and step == "act":
            return decision, recovery.seal_values(state, role, decision)
        if isinstance(decision, Bid) and decision.value is not None:
            values = flow.BIDS.seal(state, role, decision.value)
            if values:
                return Bid(None), values
        if isinstance(decision, Discard) and step == "discard":
            return decision, {flow.discard_label(state, role): FRESH}
        if isinstance(decision, Hide) and step == "fog":
            return decision, redeploy.values(state, role, decision)
        if isinstance(decision, Reply) and step == "fire_reply":
            sealed = Reply(decision.met, decision.back, firepower.lost_after(state, decision))
            count = firepower.net_hits(state, sealed.met) or 0
            count -= 1 if sealed.back is not None and count > 0 else 0
            drawing = count > 0 and not sealed.lost and not firepower.false_target(state)
            return sealed, ({hits.draw_label(state, role): FRESH} if drawing else {})
        if isinstance(decision, Absorb) and step == "absorb":
            sealed_absorb = Absorb(events.lost_after(state))
            drawing = not sealed_absorb.lost
            return sealed_absorb, ({hits.draw_label(state, role): FRESH} if drawing else {})
        if isinstance(decision, Restack) and step == "restack":
            return decision, hits.restack_values(state, role, state["restack"].get("rolls", {}))
        if isinstance(decision, Deal) and step == "deal":
            return decision, hits.deal_values(state)
        return decision, {}

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        """`role`'s own sealed pieces filled in (as the kit's `with_secrets`, copying only
        the pieces it fills: a long game holds hundreds, and every client decision and
        view starts here); its hand (7.2.B) follows from its discard."""
        filled = _filled(state, role, known)
        pending = state.get("restack")
        referee = role == REFEREE  # a double-blind game's: it knows every sealed value
        if pending and (pending["side"] == role or referee):
            keys = [k for p in pending["pending"] for k in p["keys"]]
            filled = filled if filled is not state else dict(state)
            filled["restack"] = {**pending, "rolls": {k: known.get(k) for k in keys}}
            if hits.shared(state) and not referee:  # what the referee dealt from the cup
                labels = hits.restack_labels(state, role)
                deals = {lb: known.get(hits.dealt_label(role, lb)) for lb in labels}
                filled["restack"]["deals"] = deals
        label = state["discards"].get(role) if role in SIDES else None
        if label is None:
            return filled
        piece = state["pieces"][label]
        index = known.get(piece["draw"])
        if not isinstance(index, int):
            return filled
        new = filled if filled is not state else dict(state)
        drawn = decks.private_cards(
            {"pile": piece["pile"], "private": [piece["draw"]]}, {piece["draw"]: index}
        )
        hand = Counter(piece["pile"])
        hand.subtract([*drawn, *state["played"][role]])
        new["hands"] = {**state["hands"], role: sorted(hand.elements())}
        return new

    def view(self, state: State, role: str | None) -> State:
        """The kit strips every sealed value that is not `role`'s; the other's hand too."""
        stripped = super().view(state, role)
        stripped["hands"] = {r: h if r == role else None for r, h in stripped["hands"].items()}
        pending = stripped.get("restack")
        if pending and ("rolls" in pending or "deals" in pending) and pending["side"] != role:
            # the owner's private marker draws (with_secrets): never in another's view
            hidden = ("rolls", "deals")
            stripped["restack"] = {k: v for k, v in pending.items() if k not in hidden}
        return stripped

    # --- apply hooks --------------------------------------------------------------------

    def before(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        flow.on_opened(state, ctx)

    def after(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        """Every commitment of an entry becomes a piece of the game, which opens by the end
        (7.7.6.C): one the rules do not use could never open, and would leave the game
        unverifiable. (The referee's deals from the shared cup are no pieces: its disclose
        opens them at the end, pbem.core.blind.)"""
        committed = ctx.committed_now()
        if not committed:
            return  # (most entries commit nothing)
        dealt = decision.__class__ is Deal  # (== Deal(): a record without fields, no subclass)
        unused = [label for label in committed if label not in state["pieces"] and not dealt]
        if unused:
            raise self.refuse(f"{', '.join(unused)} is committed but not used", "7.7.6.C")

    # --- the end (14) -------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state["step"] != "over":
            return None
        result = victory.result(state["board"], state["control"], flooded(state))  # 9.8.C
        points = result.points
        text = (
            f"the Allies {points['allies']} VP, the Germans {points['germans']} VP: "
            f"{result.level}" + (f" for {NAMES[result.winner]}" if result.winner else "")
        )
        return Outcome(result.winner, result.level, dict(points), text)


ENGINE = RaceToTheSeaEngine()
