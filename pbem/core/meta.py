"""What every game may carry beside its decisions: a note to the opponent, a resignation,
a draw offered and accepted (issue 14). Engine-independent: the adjudicator handles these
body fields before and after the engine, and no engine ever sees them.

Body fields (docs/protocol-notes.md, "Notes, resignations and draws"):

* `note`: free text to the opponent, 1 to NOTE_MAX characters, on a move or an ack. Text
  from the log is untrusted (protocol section 8): `Entry` already refuses control
  characters in any string, and every renderer escapes it for its medium.
* `resign`: `true`, on a move with no decision: the signer's side loses.
* `draw`: `"offer"` (on a move, with or without a decision, or on an ack) or `"accept"` (on
  a move with no decision, by another side, while an offer is open).

The sides of a game are the engine's required roles present in the genesis: an optional
role (Barbarossa's referee) supplies entropy and never resigns, offers or accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.canonical import JSON
from pbem.core.engine import Outcome
from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.hints import Any
from pbem.record import Record

NOTE_MAX = 500  # characters (code points): a note is a line to the opponent, not a letter
FIELDS = frozenset({"note", "resign", "draw", "takeback"})
META = "meta"  # what a move carrying no decision, only meta fields, is (`turn_kind`)
OFFER, ACCEPT, DECLINE = "offer", "accept", "decline"
UNDO_MAX = 32  # entries a take-back may reach back over, at most


class MetaState(
    Record, fields=("offer_by", "offer_seq", "ended", "undo", "takeback", "takeback_state")
):
    """The open draw offer (its side and entry), the end agreed in the log (a resignation
    or a draw), and what a take-back needs (`undo`: the states before the entries that
    may be taken back; `takeback`: an open proposal and the state it returns to), none of
    which an engine state holds."""

    offer_by: str | None
    offer_seq: int | None
    ended: Outcome | None
    # (seq, by, the state before it) of the trailing run of one role's reversible entries
    undo: tuple[tuple[int, str, Any], ...]
    # (proposer, first entry taken back, the proposal's seq, the role whose entries go)
    takeback: tuple[str, int, int, str] | None
    takeback_state: Any

    def __init__(
        self,
        offer_by: str | None = None,
        offer_seq: int | None = None,
        ended: Outcome | None = None,
        undo: tuple[tuple[int, str, Any], ...] = (),
        takeback: tuple[str, int, int, str] | None = None,
        takeback_state: Any = None,
    ) -> None:
        fields = self.__dict__
        fields["offer_by"] = offer_by
        fields["offer_seq"] = offer_seq
        fields["ended"] = ended
        fields["undo"] = undo
        fields["takeback"] = takeback
        fields["takeback_state"] = takeback_state


NONE = MetaState()


def sides(required: Sequence[str], roles: Mapping[str, str]) -> tuple[str, ...]:
    """The roles that play a side: the engine's required roles, in its order."""
    return tuple(role for role in required if role in roles)


def check_note(note: object) -> str:
    """A note as an entry may carry it, else PbemError (one line). Control characters are
    refused by `Entry` itself, for every string of an entry."""
    if not isinstance(note, str):
        raise PbemError("a note must be text")
    if not note.strip():
        raise PbemError("a note must say something, but it is empty")
    if len(note) > NOTE_MAX:
        raise PbemError(f"a note is at most {NOTE_MAX} characters, this one has {len(note)}")
    return note


def meta_only(body: Mapping[str, JSON]) -> bool:
    """A move body that carries no decision, only a resignation, a draw offer/accept or
    a take-back proposal/answer."""
    return "decision" not in body and ("resign" in body or "draw" in body or "takeback" in body)


def check_body(kind: str, body: Mapping[str, JSON]) -> None:
    """The meta fields of a move or ack body, by shape alone (before any rule)."""
    if "note" in body:
        check_note(body["note"])
    if "resign" in body:
        if body["resign"] is not True:
            raise PbemError("resign must be true")
        if kind != "move" or set(body) - {"resign", "note"}:
            raise PbemError("a resignation is a move of its own: it carries only a note")
    if "draw" in body:
        draw = body["draw"]
        if draw not in (OFFER, ACCEPT):
            raise PbemError("draw must be 'offer' or 'accept'")
        if draw == ACCEPT and (kind != "move" or set(body) - {"draw", "note"}):
            raise PbemError("accepting a draw ends the game: the entry carries only a note")
    if "takeback" in body:
        value = body["takeback"]
        proposal = isinstance(value, int) and not isinstance(value, bool) and value >= 1
        if not proposal and value not in (ACCEPT, DECLINE):
            raise PbemError("takeback must be an entry number, 'accept' or 'decline'")
        if kind != "move" or set(body) - {"takeback", "note"}:
            raise PbemError("a take-back proposal or answer is a move of its own: only a note")
    if kind == "move" and meta_only(body) and set(body) - FIELDS:
        unknown = ", ".join(sorted(set(body) - FIELDS))
        raise PbemError(f"a move without a decision carries no {unknown}")


def turn_kind(kind: str, body: Mapping[str, JSON]) -> str:
    """What a move or an ack carries, for the adjudicator to dispatch: META for a move with
    no decision (a resignation, a draw offer or accept, a take-back), else its kind."""
    return META if kind == "move" and meta_only(body) else kind


def check_entry(meta: MetaState, kind: str, body: Mapping[str, JSON]) -> bool:
    """Whether a move or ack body carries meta fields, checked by shape (`check_body`);
    PbemError too for any entry but an answer while a take-back proposal is open."""
    has_meta = not FIELDS.isdisjoint(body)
    if has_meta:
        check_body(kind, body)
    takeback = body.get("takeback") if has_meta else None
    proposed = meta.takeback
    if proposed is not None and not isinstance(takeback, str):
        raise PbemError(
            f"{proposed[0]} proposed in entry {proposed[2]} to take back {proposed[3]}'s "
            f"entries from {proposed[1]} on: {proposed[3]} accepts or declines it first"
        )
    return has_meta


def signer_asked(body: Mapping[str, JSON], rolled: bool) -> bool:
    """Whether a move with no decision must come from the role the game asks: not when it
    `rolled` waiting dice (its signer was the one to sign next), nor when it answers a
    take-back (the proposal asks that role: `answer`). PbemError for a take-back proposed
    by an entry that rolls dice."""
    takeback = body.get("takeback")
    if isinstance(takeback, int) and rolled:
        raise PbemError("a take-back is proposed with no dice waiting: roll them first")
    return not rolled and not isinstance(takeback, str)


def after(
    meta: MetaState,
    entry: Entry,
    has_meta: bool,
    game_sides: Sequence[str],
    state_before: Any,
    drew: bool,
    waits: bool,
) -> tuple[MetaState, str, str, Any]:
    """The meta state after a move or an ack (checked by `check_entry`, whose answer is
    `has_meta`), played on `state_before` (`drew`: it drew dice; `waits`: its decision
    waits for them): the state, what its offer, resignation or note said and what its
    take-back said (each '' for nothing), and the state an accepted take-back returns to
    (None: play goes on). PbemError for an entry the rules refuse."""
    seq, by, body = entry.seq, entry.by, entry.body
    said = ""
    if has_meta or meta.offer_by is not None:
        meta, said = step(meta, seq, by, body, game_sides)
    takeback = body.get("takeback") if has_meta else None
    if isinstance(takeback, int):
        meta, proposed = propose(meta, seq, by, takeback, game_sides)
        return meta, said, proposed, None
    if isinstance(takeback, str):
        meta, back, answered = answer(meta, seq, by, takeback)
        return meta, said, answered, back
    if len(game_sides) == 2:  # (a take-back needs the other side's agreement)
        # `reversible` and `recorded` in line, and the state made at once rather than by
        # Record.replace: three calls saved on every entry of a two-sided game.
        if (
            entry.kind == "move"
            and "decision" in body
            and not drew
            and not waits
            and _REVERSIBLE_FIELDS.issuperset(body)
        ):
            undo = (*meta.undo, (seq, by, state_before))[-UNDO_MAX:]
        elif meta.undo:
            undo = ()
        else:
            return meta, said, "", None
        meta = MetaState(
            meta.offer_by, meta.offer_seq, meta.ended, undo, meta.takeback, meta.takeback_state
        )
    return meta, said, "", None


def step(
    meta: MetaState, seq: int, by: str, body: Mapping[str, JSON], game_sides: Sequence[str]
) -> tuple[MetaState, str]:
    """The meta state after entry `seq` by `by` (its body already `check_body`-ed), and
    what it did in words ('' for nothing). PbemError for an entry the rules refuse."""
    said: list[str] = []
    offer_by, offer_seq = meta.offer_by, meta.offer_seq
    acting = "resign" in body or "draw" in body or "takeback" in body
    if acting and by not in game_sides:
        raise PbemError(
            f"{by} is not a side of this game ({', '.join(game_sides)}): it cannot resign, "
            "offer or accept a draw, or take back"
        )
    ended: Outcome | None = None
    draw = body.get("draw")
    if offer_by is not None and by != offer_by and by in game_sides:
        # The other side's next entry answers the offer: an accept, or anything else.
        if draw == ACCEPT:
            said.append(f"accepts the draw {offer_by} offered in entry {offer_seq}")
            score = {side: 0 for side in game_sides}
            ended = Outcome(
                None,
                "draw",
                score,
                f"drawn by agreement: {offer_by} offered a draw in entry {offer_seq}, "
                f"{by} accepted in entry {seq}",
            )
        else:
            said.append(f"declines the draw {offer_by} offered in entry {offer_seq}")
        offer_by, offer_seq = None, None
    elif draw == ACCEPT:
        if offer_by == by:
            raise PbemError(
                f"{by} offered this draw (entry {offer_seq}): only the other side accepts it"
            )
        raise PbemError("there is no draw offer to accept")
    if draw == OFFER:
        if len(game_sides) < 2:
            raise PbemError("a draw needs two sides, and this game has one")
        if offer_by == by:
            raise PbemError(f"{by} already offered a draw in entry {offer_seq}")
        said.append("offers a draw")
        offer_by, offer_seq = by, seq
    if "resign" in body:
        others = [side for side in game_sides if side != by]
        winner = others[0] if len(others) == 1 else None
        said.append("resigns")
        ended = Outcome(
            winner,
            "resignation",
            {side: int(side == winner) for side in game_sides},
            f"{by} resigned" + (f": {winner} wins" if winner is not None else ""),
        )
        offer_by, offer_seq = None, None
    if "note" in body:
        said.append(f"says: {body['note']}")
    if ended is not None:
        offer_by, offer_seq = None, None
    kept = meta.replace(offer_by=offer_by, offer_seq=offer_seq, ended=ended)
    return kept, "; ".join(said)


# --- take-back: a signed pair, the proposal and its answer --------------------------------------


# What a body that may be taken back holds (`reversible`; `after` asks it in line).
_REVERSIBLE_FIELDS = frozenset({"decision", "note"})


def reversible(kind: str, body: Mapping[str, JSON], drew: bool, waits: bool) -> bool:
    """Whether an entry may be taken back: a move with a decision that draws nothing,
    commits and opens nothing, waits for no dice and carries no resignation, draw or
    take-back. Taking it back then changes nothing but the engine state."""
    if kind != "move" or "decision" not in body or drew or waits:
        return False
    return set(body) <= {"decision", "note"}


def recorded(
    meta: MetaState, seq: int, by: str, state_before: Any, can_undo: bool
) -> tuple[tuple[int, str, Any], ...]:
    """`undo` after entry `seq`: the run of reversible entries at the head (any side's:
    the proposal consents for the proposer's own, the acceptance for the other side's)."""
    if not can_undo:
        return ()
    return (*meta.undo, (seq, by, state_before))[-UNDO_MAX:]


def propose(
    meta: MetaState, seq: int, by: str, to: int, game_sides: Sequence[str]
) -> tuple[MetaState, str]:
    """A take-back proposal by `by` (who signs next) of the entries from `to` on."""
    if meta.takeback is not None:
        raise PbemError(f"a take-back proposed in entry {meta.takeback[2]} is still open")
    others = [side for side in game_sides if side != by]
    if len(others) != 1:
        raise PbemError("a take-back needs the agreement of one other side")
    whose = others[0]
    seqs = [s for s, _by, _state in meta.undo]
    if not seqs:
        raise PbemError(
            "nothing to take back: only the latest entries that rolled no dice and sealed, "
            "opened or drew nothing can be taken back"
        )
    if to not in seqs:
        span = str(seqs[0]) if len(seqs) == 1 else f"{seqs[0]} to {seqs[-1]}"
        raise PbemError(
            f"entry {to} cannot be taken back: only entries {span} can (the latest ones "
            "with no dice, sealed value, opening or draw)"
        )
    state = next(state for s, _by, state in meta.undo if s == to)
    last = seqs[-1]
    span = f"entry {to}" if to == last else f"entries {to} to {last}"
    said = f"proposes taking back {span}; {whose} accepts or declines"
    return meta.replace(undo=(), takeback=(by, to, seq, whose), takeback_state=state), said


def answer(meta: MetaState, seq: int, by: str, value: JSON) -> tuple[MetaState, Any, str]:
    """The answer to the open proposal: (meta after it, the state to return to or None to
    keep the current one, what it did in words)."""
    if meta.takeback is None:
        raise PbemError("there is no take-back proposal to answer")
    proposer, to, at, whose = meta.takeback
    if by != whose:
        raise PbemError(f"only {whose} answers the take-back {proposer} proposed in entry {at}")
    cleared = meta.replace(undo=(), takeback=None, takeback_state=None)
    if value == ACCEPT:
        said = f"accepts the take-back {proposer} proposed in entry {at}: entries {to} on undone"
        return cleared, meta.takeback_state, said
    return cleared, None, f"declines the take-back {proposer} proposed in entry {at}"
