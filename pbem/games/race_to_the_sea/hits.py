"""Casualties in play (5, 10.4.A): each counter's Casualties markers as sealed pieces.

docs/race-to-the-sea.md, "The casualty cup" and "When the markers open", is the design.

- A counter's markers are a stack `[[marker, "light"|"heavy"], ...]` (casualties.py). A
  counter with no stack piece is fresh, and the public knows it: it was placed fresh and
  has taken no hit since its label was made. Every later stack is a sealed piece
  `markers/<counter>/<n>` of the counter's owner, committed in the owner's entry; the
  counter's current one is `state["stacks"][counter]`.
- Hits (`absorb`): the owner applies them in its own entry, saying publicly whether the
  unit survives. An elimination opens the identity and the stack in that entry, and the
  engine checks it (5.2.6). A unit that survives draws its new markers privately: the
  entry commits a draw secret `draw/<side>/<n>` and asks one roll per hit, used or not
  (`casualties.draw_request`), so the log depends on the hit count alone. The owner's next
  entry (step `restack`) commits the new stack, claiming how it came about; the claim is
  checked at the end of the game, when every piece opens (`check_stacks`): the stack must
  be the old one plus those hits, drawn with those rolls from the owner's cup of that
  time (its own copy of the mix less the markers under its other units), and the unit
  must have survived them.
- Reading a modified rating (`need_ratings`) obliges the owner to open the identity and
  the current stack in its next entry (10.4.A: "until a modified rating needs to be
  referenced"); the step `show` asks it to.
- The shared cup (option `shared_cup`, double-blind games only: docs/race-to-the-sea.md,
  "The shared cup with a referee"). The markers come from the rulebook's one cup (4.2),
  which only the referee knows: after its acknowledgement rolls the draws, the step
  `deal` asks the referee to commit each new stack as `for/SIDE/markers/<counter>/<n>`,
  sealed to the owner (pbem.core.blind); the owner's restack commits what it was dealt.
  At the end the referee's disclose opens the deals and `check_dealt` recomputes each
  from the one cup of its time: a deal that is not the draw is the referee's false
  claim, a stack that is not the deal the owner's.
- The Fog of War step (7.7.4.A) gives each re-labelled counter a fresh stack piece
  (`rehide_stacks`), even an empty one, so that the new labels do not tell which units
  carry markers; the claim is that the new stacks are the old ones, in some order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import cards as rc
from pbem.games.race_to_the_sea import casualties
from pbem.games.race_to_the_sea.shared_pieces import own
from pbem.games.race_to_the_sea.state import (
    NAMES,
    anything_due,
    due_pieces,
    hex_text,
    identity,
    illegal,
    piece_label,
    unit,
)
from pbem.kit import pieces
from pbem.kit.pieces import known_value

Stack = list[list[str]]


# --- labels and what a state knows ------------------------------------------------------------


def stack_label(state: State, counter: str, offset: int = 0) -> str:
    return f"markers/{counter}/{state['next_stack'] + offset}"


def draw_label(state: State, side: str) -> str:
    return f"draw/{side}/{state['next_stack']}"


def current_piece(state: State, counter: str) -> dict[str, Any] | None:
    label = state["stacks"].get(counter)
    return None if label is None else state["pieces"][label]


def stack_of(state: State, counter: str) -> Stack | None:
    """The counter's markers as this state knows them: [] for a fresh counter, the opened
    or own stack, None when it is sealed and not this state's owner's."""
    piece = current_piece(state, counter)
    if piece is None:
        return []
    value = known_value(piece)
    return None if value is None else [list(m) for m in value]


def ratings_of(state: State, counter: str) -> dict[str, Any] | None:
    """The counter's modified ratings (3.2.7), or None if this state lacks its identity or
    its stack. A False Report rates as the Empty Hex defender (12.9.C)."""
    unit_id = identity(state, counter)
    stack = stack_of(state, counter)
    if unit_id is None or stack is None:
        return None
    data = unit(state, unit_id)
    if data["kind"] == "false-report":
        return dict(rc.EMPTY_HEX)
    base: dict[str, Any] = {
        k: data[k] for k in ("sz", "met", "rf", "mg", "art", "special") if k in data
    }
    return casualties.unit_ratings(base, stack, state["markers"])


def hits_on(state: State, counter: str) -> int | None:
    stack = stack_of(state, counter)
    return None if stack is None else casualties.hits_of(stack)


def eliminated_by(state: State, counter: str, count: int) -> bool:
    """The owner's client: whether `count` more hits eliminate the counter (5.2.6); a
    False Report is never eliminated by hits (it carries markers, 10.4.C). False when
    this state does not know the unit or its stack."""
    unit_id, taken = identity(state, counter), hits_on(state, counter)
    if unit_id is None or taken is None or count <= 0:
        return False
    data = unit(state, unit_id)
    return bool(data["kind"] != "false-report" and taken + count >= data["sz"])


def sealed_labels(state: State, counter: str) -> list[str]:
    """The pieces to open so that everyone can read the counter's modified ratings."""
    out = []
    ident = state["pieces"].get(piece_label(counter))
    if state["counters"][counter]["unit"] is None and ident is not None:
        out.append(ident["label"])
    stack = current_piece(state, counter)
    if stack is not None and not stack["revealed"]:
        out.append(stack["label"])
    return out


def need_ratings(state: State, counter: str, why: str) -> bool:
    """Oblige the owner to open what hides the counter's modified ratings (10.4.A); True
    if anything must open."""
    owed = False
    for label in sealed_labels(state, counter):
        pieces.oblige(own(state["pieces"], label), why)
        owed = True
    return owed


def need_identity(state: State, counter: str, why: str) -> bool:
    """Oblige the owner to open the counter's identity only (a card reads its SQ/HA)."""
    ident = state["pieces"].get(piece_label(counter))
    if state["counters"][counter]["unit"] is None and ident is not None:
        pieces.oblige(own(state["pieces"], piece_label(counter)), why)
        return True
    return False


def owing(state: State) -> str | None:
    """The side that owes an opening (Allies first), or None."""
    if not anything_due(state):
        return None
    for side in ("allies", "germans"):
        if due_pieces(state, side):
            return side
    return None


# --- hits (5.1-5.2) ---------------------------------------------------------------------------


def elimination_opens(state: State, counter: str) -> list[str]:
    """An elimination is public (5.2.6): the identity and the stack open with it."""
    return sealed_labels(state, counter)


def absorb(
    state: State,
    role: str,
    hits: Mapping[str, int],
    lost: frozenset[str] | set[str],
    ctx: Context,
    rule: str,
) -> list[str]:
    """`role` applies `hits` (counter -> hits, each > 0) to its own counters in its own
    entry; `lost` names those it says are eliminated. Returns the eliminated counters.

    An eliminated counter's identity and stack open in this entry (the engine checks that
    the hits reach its SZ, 5.2.6); it leaves the map, its markers back to the cup. The
    others draw privately (one secret for the entry, one roll per hit) and wait for the
    owner's `restack`."""
    gone = []
    survivors = []
    for counter, count in sorted(hits.items()):
        if count <= 0:
            continue
        c = state["counters"][counter]
        if c["side"] != role:
            raise illegal(f"{counter} is not a counter of {NAMES[role]}", rule)
        if counter in lost:
            known = ratings_of(state, counter)
            stack = stack_of(state, counter)
            unit_id = identity(state, counter)
            if known is None or stack is None or unit_id is None:
                raise illegal(f"the elimination of {counter} must open it", "5.2.6")
            sz = unit(state, unit_id)["sz"]
            if casualties.hits_of(stack) + count < sz:
                raise illegal(
                    f"{counter} ({unit_id}) survives {count} hit(s): it is not eliminated",
                    "5.2.6",
                )
            eliminate(state, counter, ctx, f"{rule}: {count} hit(s)")
            gone.append(counter)
        else:
            known_stack = stack_of(state, counter)
            unit_id = identity(state, counter)
            if known_stack is not None and unit_id is not None and c["unit"] is not None:
                sz = unit(state, unit_id)["sz"]
                if casualties.hits_of(known_stack) + count >= sz and not _is_false(unit_id, state):
                    raise illegal(f"{counter} ({unit_id}) is eliminated by {count} hit(s)", "5.2.6")
            survivors.append((counter, count))
    if survivors:
        secret = draw_label(state, role)
        piece = pieces.place(ctx, secret, role, "5.2.2")
        rolls = casualties.roll_range(state["markers"])
        pending = []
        for counter, count in survivors:
            keys = [
                ctx.private_roll(secret, 0, rolls - 1, f"{rule}: a Casualties marker for {counter}")
                for _ in range(casualties.draw_request(state["markers"], count)[0])
            ]
            pending.append({"counter": counter, "hits": count, "keys": keys})
            ctx.event(f"{counter} takes {count} hit(s) ({rule})")
        piece["pending"] = pending
        state["pieces"][secret] = piece
        state["next_stack"] += 1
        state["restack"] = {"side": role, "secret": secret, "pending": pending}
    return gone


def _is_false(unit_id: str, state: State) -> bool:
    return bool(unit(state, unit_id)["kind"] == "false-report")


def eliminate(state: State, counter: str, ctx: Context, why: str) -> None:
    """5.2.6: off the map; an eliminated unit may be rebuilt (9.6), a False Report returns
    to the pool (10.4.C)."""
    unit_id = identity(state, counter)
    c = state["counters"].pop(counter)
    state["stacks"].pop(counter, None)
    if unit_id is not None and not _is_false(str(unit_id), state):
        gone = sorted({*state["eliminated"][c["side"]], str(unit_id)})
        state["eliminated"] = {**state["eliminated"], c["side"]: gone}  # (shared by copies)
    ctx.event(f"{counter} ({unit_id}) is eliminated in {hex_text(c['hex'])} ({why})")


# --- the new stacks after a draw (the `restack` step) -----------------------------------------


def restack_labels(state: State, role: str) -> list[str]:
    pending = state.get("restack")
    if not pending or pending["side"] != role:
        return []
    return [stack_label(state, p["counter"], i) for i, p in enumerate(pending["pending"])]


def shared(state: State) -> bool:
    """Whether the markers come from the one shared cup (option `shared_cup`)."""
    return bool(state.get("shared_cup"))


def dealt_label(side: str, stack: str) -> str:
    """The referee's commitment of the stack `stack` it dealt `side` (shared cup)."""
    return f"for/{side}/{stack}"


def restack_values(state: State, role: str, known: Mapping[str, Any]) -> dict[str, Any]:
    """The owner's client: each new stack from the old one, its hits and the rolls it
    knows (`known` holds the private values by draw key); with the shared cup, the stacks
    the referee dealt (`deals`, filled in by the owner's `with_secrets`)."""
    pending = state.get("restack")
    if not pending or pending["side"] != role:
        return {}
    if shared(state):
        deals = pending.get("deals") or {}
        labels = restack_labels(state, role)
        if any(deals.get(label) is None for label in labels):
            raise illegal("the referee's deal of these markers is not known yet", "4.2")
        return {label: deals[label] for label in labels}
    return _drawn(state, role, known, cup_now(state, role))


def deal_values(state: State) -> dict[str, Any]:
    """The referee's client (shared cup): the new stacks drawn from the one cup, each
    committed for its owner. `state` holds every stack and the owner's rolls (the
    referee's `with_secrets`)."""
    pending = state.get("restack")
    if not pending:
        return {}
    side = pending["side"]
    stacks = [stack_of(state, counter) for counter in state["counters"]]
    if any(stack is None for stack in stacks):
        raise illegal("the referee does not know every stack: it cannot draw", "4.2")
    cup = casualties.shared_cup(state["markers"], [s for s in stacks if s])
    drawn = _drawn(state, side, pending.get("rolls") or {}, cup)
    return {dealt_label(side, label): stack for label, stack in drawn.items()}


def _drawn(state: State, role: str, known: Mapping[str, Any], cup: list[str]) -> dict[str, Any]:
    """Each pending counter's new stack: the old one plus its hits, drawn from `cup` with
    the rolls `known` holds, one counter after the other."""
    pending = state["restack"]
    values: dict[str, Any] = {}
    for i, p in enumerate(pending["pending"]):
        rolls = [r for r in (known.get(k) for k in p["keys"]) if isinstance(r, int)]
        if len(rolls) != len(p["keys"]):
            raise illegal("the Casualties marker draws are not known yet", "5.2.2")
        old = stack_of(state, p["counter"]) or []
        new = casualties.apply_hits(old, p["hits"], casualties.drawer(cup, rolls))
        for marker, _side in new:
            if marker in cup:
                cup.remove(marker)
        values[stack_label(state, p["counter"], i)] = new
    return values


def cup_now(state: State, side: str) -> list[str]:
    """`side`'s cup as its owner knows it: the mix less the markers under its counters on
    the map (a unit taking hits keeps its old markers: they are not in the cup)."""
    stacks = []
    for counter, c in state["counters"].items():
        if c["side"] != side:
            continue
        stack = stack_of(state, counter)
        if stack:
            stacks.append(stack)
    return casualties.cup_for(side, state["markers"], stacks)


def deal(state: State, ctx: Context) -> None:
    """The referee's deal (shared cup): it must commit one stack for each hit counter,
    for their owner, and nothing else; the owner restacks next."""
    pending = state["restack"]
    side = pending["side"]
    wanted = {dealt_label(side, label) for label in restack_labels(state, side)}
    if set(ctx.committed_now()) != wanted:
        raise illegal(f"the deal commits {', '.join(sorted(wanted))}", "4.2")
    pending["dealt"] = True
    ctx.event(f"the referee draws the markers for {NAMES[pending['side']]} from the cup (4.2)")


def restack(state: State, role: str, ctx: Context) -> None:
    """The owner commits the stacks drawn for its last hits, each claiming its making."""
    pending = state["restack"]
    both = shared(state)  # the one cup: every unit's markers are out of it
    others = [
        label
        for counter, label in sorted(state["stacks"].items())
        if both or state["counters"].get(counter, {}).get("side") == role
    ]
    for i, p in enumerate(pending["pending"]):
        counter = p["counter"]
        label = stack_label(state, counter, i)
        piece = pieces.place(ctx, label, role, "5.2")
        facts: dict[str, Any] = {}
        if both:
            facts["dealt"] = dealt_label(role, label)
            if not ctx.is_committed(facts["dealt"]):
                raise illegal(f"the referee has not dealt {label} ({facts['dealt']})", "4.2")
        pieces.claim(
            piece,
            ctx,
            role,
            rule="5.2",
            made="hits",
            after=state["stacks"].get(counter),
            unit=piece_label(counter),
            hits=p["hits"],
            keys=list(p["keys"]),
            cup_less=list(others),
            **facts,
        )
        state["pieces"][label] = piece
    for i, p in enumerate(pending["pending"]):
        state["stacks"][p["counter"]] = stack_label(state, p["counter"], i)
    state["next_stack"] += len(pending["pending"])
    state["restack"] = None


# --- the Fog of War step (7.7.4.A) -------------------------------------------------------------


def rehide_label(counter: str) -> str:
    """The stack piece a re-labelled counter starts with (its label is never reused)."""
    return f"markers/{counter}/0"


def rehide_stacks(
    state: State, role: str, first: str, count: int, old: list[str], ctx: Context
) -> None:
    """Every counter of a re-hidden group gets a stack piece, even an empty one, so that
    the new labels do not tell which units carry markers. The claim, checked at the end:
    the new stacks are the old ones (`old`, the group's stack pieces; the others were
    fresh), in some order."""
    start = int(first[1:])
    news = [f"c{start + i:02d}" for i in range(count)]
    into = [rehide_label(k) for k in news]
    for i, counter in enumerate(news):
        piece = pieces.place(ctx, into[i], role, "7.7.4.A")
        facts: dict[str, Any] = {"rule": "7.7.4.A", "made": "rehide"}
        if i == 0:
            facts.update(first=True, into=into, fresh=count - len(old))
            facts["from"] = list(old)
        pieces.claim(piece, ctx, role, **facts)
        state["pieces"][piece["label"]] = piece
        state["stacks"][counter] = piece["label"]


# --- the end of the game: every stack recomputed ----------------------------------------------


def check_stacks(state: State, side: str, ctx: Context) -> None:
    """Every stack `side` committed after hits, recomputed from the opened values: the old
    stack plus the hits, drawn with the opened rolls from the cup of its time, and the unit
    alive after them (5.2, 5.2.6). A wrong one names the entry that committed it."""
    for piece in sorted(state["pieces"].values(), key=lambda p: p["label"]):
        if piece["owner"] != side or not piece["label"].startswith("markers/"):
            continue
        for made in piece["claims"]:
            if made.get("made") == "hits" and "dealt" in made:
                continue  # the shared cup's: checked with the referee's deals (check_dealt)
            if made.get("made") == "hits":
                _check_hits(state, piece, made, ctx)
            elif made.get("made") == "rehide":
                _check_rehide(state, piece, made)
            elif made.get("made") == "recover":
                check_recover(state, piece, made)  # 9.5


def check_recover(state: State, piece: Mapping[str, Any], made: Mapping[str, Any]) -> None:
    """A Regroup's stack (9.5), at the end (check_stacks): the new stack is the old one,
    which held a marker, less the allowed hits in reverse order (5.2.5.A, 9.5.5); the unit
    was no False Report."""
    before = _value(state, made["after"])
    seq, by = int(made["seq"]), str(made["by"])
    if casualties.hits_of(before) == 0:
        raise pieces.false_claim(seq, by, f"{made['after']} held no Casualties marker", "9.5")
    unit_id = _value_of(state, str(made["unit"]))
    if isinstance(unit_id, str) and unit(state, unit_id)["kind"] == "false-report":
        raise pieces.false_claim(seq, by, f"{unit_id} is a False Report: it may only move", "9.1.C")
    expected, _back = casualties.recover(before, int(made["hits"]))
    if [list(m) for m in piece["value"] or []] != expected:
        raise pieces.false_claim(
            seq,
            by,
            f"{piece['label']} is {piece['value']}, but the regroup gives {expected}",
            "9.5.5, 5.2.5",
        )


def _value(state: State, label: str | None) -> Stack:
    if label is None:
        return []
    return [list(m) for m in state["pieces"][label]["value"] or []]


def _value_of(state: State, label: str) -> Any:
    """An identity piece's opened value (a revealed counter's piece, or its counter's unit)."""
    piece = state["pieces"].get(label)
    if piece is not None and piece["value"] is not None:
        return piece["value"]
    counter = state["counters"].get(label.removeprefix("unit/"))
    return None if counter is None else counter["unit"]


def check_dealt(state: State, ctx: Context) -> None:
    """After the game (shared cup): every stack drawn from the one cup, recomputed once the
    referee's disclose has opened its deals and every stack is known. A deal that is not
    the draw is the referee's false claim; a stack that is not its deal, its owner's."""
    for piece in sorted(state["pieces"].values(), key=lambda p: p["label"]):
        for made in piece["claims"]:
            if made.get("made") != "hits" or "dealt" not in made:
                continue
            expected = _recomputed(state, piece, made, ctx, shared=True)
            dealt = [list(m) for m in ctx.value(str(made["dealt"])) or []]
            if dealt != expected:
                # The referee's lie is its deal: the entry that committed the stack.
                at = ctx.committed_at(str(made["dealt"]))
                raise pieces.false_claim(
                    int(made["seq"]) if at is None else at,
                    "referee",
                    f"the referee dealt {dealt} for {piece['label']}, but the draws from the "
                    f"cup give {expected}",
                    "4.2",
                )
            _check_stack(piece, made, dealt, "the referee dealt", "4.2, 5.2")


def _check_hits(state: State, piece: dict[str, Any], made: Mapping[str, Any], ctx: Context) -> None:
    _check_stack(piece, made, _recomputed(state, piece, made, ctx), "the draws give", "5.2, 4.2")


def _check_stack(
    piece: Mapping[str, Any], made: Mapping[str, Any], found: Stack, source: str, rule: str
) -> None:
    """The claim `made` is false when the stack its piece holds is not `found` (what
    `source` gives): the claimant's."""
    if [list(m) for m in piece["value"]] != found:
        raise pieces.false_claim(
            int(made["seq"]),
            str(made["by"]),
            f"{piece['label']} is {piece['value']}, but {source} {found}",
            rule,
        )


def _recomputed(
    state: State, piece: dict[str, Any], made: Mapping[str, Any], ctx: Context, shared: bool = False
) -> Stack:
    """The stack the claim's draws give (from its owner's cup, or the one `shared` cup),
    after checking that the unit survived them as its owner said (5.2.6)."""
    values = [ctx.private_value(k) for k in made["keys"]]
    rolls = [r for r in values if r is not None]
    if len(rolls) != len(values):
        raise pieces.false_claim(
            int(made["seq"]), str(made["by"]), "a marker draw cannot be recomputed", "5.2.2"
        )
    held = [_value(state, label) for label in made["cup_less"]]
    if shared:
        cup = casualties.shared_cup(state["markers"], held)
    else:
        cup = casualties.cup_for(piece["owner"], state["markers"], held)
    expected = casualties.apply_hits(
        _value(state, made["after"]), int(made["hits"]), casualties.drawer(cup, rolls)
    )
    unit_id = _value_of(state, str(made["unit"]))
    real = isinstance(unit_id, str) and not _is_false(unit_id, state)
    if real and casualties.hits_of(expected) >= unit(state, str(unit_id))["sz"]:
        raise pieces.false_claim(
            int(made["seq"]),
            str(made["by"]),
            f"{unit_id} said it survived, but {casualties.hits_of(expected)} hits eliminate it",
            "5.2.6",
        )
    return expected


def _check_rehide(state: State, piece: dict[str, Any], made: Mapping[str, Any]) -> None:
    if not made.get("first"):
        return  # the group is checked once, on its first new piece
    old = Counter(repr(_value(state, label)) for label in made["from"])
    old[repr([])] += int(made["fresh"])
    new = Counter(repr(_value(state, label)) for label in made["into"])
    if old != new:
        raise pieces.false_claim(
            int(made["seq"]),
            str(made["by"]),
            "the re-hidden counters' stacks are not the ones they had",
            "7.7.4.A",
        )
