"""What a replayed game's end proves, and what it rests on: one reading for every verifier.

Protocol section 8: "A verdict says exactly what it proved." `pbem verify` (its text and
its JSON), `pbem standings` and `pbem evidence` read a replayed game's end here, so that
they never disagree about it:

    OK           every claim that can be checked now was checked; what cannot be yet (an
                 unfinished game, a hand never shown after a resignation) is listed
    NOT CHECKED  the log holds, but its result is not checked in full: a double-blind game
                 over whose referee has not disclosed the values it holds, or a result that
                 rests on someone's word (a referee's void of an escrow that does not open
                 with the key it gave; a player's word that a deal to it does not open)
    PROVEN       the log itself proves that a role lied (pbem.core.blind's proven ends: a
                 false escrow, a claim the referee's disclose shows false, a false deal,
                 a false void, a false dispute); the result says so

A result on a referee's clock (a forfeit) is OK, as a league agreed to when it set a
deadline, but the summary says it is the referee's word. (A failed verification, a
signature, a chain, a rule broken, is pbem.verify's, before any of this.)
"""

from __future__ import annotations

from pbem.core import blind
from pbem.core.referee import FORFEIT, REFEREE
from pbem.hints import TYPE_CHECKING
from pbem.record import NamedTuple

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator

OK, NOT_CHECKED, PROVEN = "ok", "not-checked", "proven"
AGREED = frozenset({"resignation", "draw"})  # the ends pbem.core.meta signs


class Verdict(NamedTuple):
    """`kind` (OK, NOT_CHECKED, PROVEN); `text`, the verdict line after its word (None
    for OK); `culprit`, the role a PROVEN verdict names; `seq`, the entry of its lie."""

    kind: str
    text: str | None = None
    culprit: str | None = None
    seq: int | None = None


def basis(game: Adjudicator) -> str | None:
    """How the game ended: None (it has not), "rules", "agreement" (a resignation or an
    agreed draw), "forfeit" (the referee's clock) or "blind" (one of a double-blind
    game's own entries: pbem.core.blind)."""
    outcome = game.outcome()
    if outcome is None:
        return None
    if game.blind_end is not None:
        return "blind"
    if game.meta.ended is None:
        return "rules"
    return "forfeit" if outcome.level == FORFEIT else "agreement"


def undisclosed(game: Adjudicator) -> bool:
    """Whether a double-blind game is over and its referee still owes the disclose of
    values it holds (its own entries did not end the game)."""
    return (
        game.double_blind
        and basis(game) in ("rules", "agreement", "forfeit")
        and game.disclosed_at is None
        and bool(game.unopened())
    )


def of(game: Adjudicator) -> Verdict:
    """The verdict on a replayed game's end (see the module's docstring)."""
    settled = game.blind_end
    if settled is not None and settled.proven:
        return Verdict(PROVEN, settled.text, settled.culprit, settled.seq)
    if settled is not None:
        return Verdict(NOT_CHECKED, word_line(settled))
    if undisclosed(game):
        count = len(game.unopened())
        return Verdict(
            NOT_CHECKED,
            f"the game is over, but its referee has not disclosed the {count} sealed "
            "value(s) it holds (a disclose entry), so the claims made on them are not checked",
        )
    return Verdict(OK)


def word_line(settled: blind.Settled) -> str:
    """What an end on someone's word says: whose word, that nothing proves it, and who
    can answer it and how."""
    if settled.level == blind.VOID:
        answer = (
            f"{settled.culprit} can answer with `pbem unseal GAME {settled.seq}`, which "
            "publishes its escrow's key for anyone to open"
        )
    else:
        answer = (
            "the referee can answer with `pbem referee disclose GAME`, which publishes its "
            "own key for the deal"
        )
    return f"the result rests {settled.text}; {answer}"


def unchecked_why(game: Adjudicator) -> str | None:
    """Why `game.unchecked()` is listed in a verdict ("cannot be checked yet"), or None
    when it is not (the game ended by its rules, every value opened; or a cheat is proven,
    which makes the rest moot)."""
    how = basis(game)
    if how is None:
        return "the game is unfinished"
    if undisclosed(game):
        return "the referee has not disclosed them"
    if how == "agreement":
        return "the game ended by agreement (a resignation or an agreed draw)"
    if how == "forfeit":
        return "the game ended by a forfeit"
    if how == "blind" and game.blind_end is not None and not game.blind_end.proven:
        return "the game ended on someone's word"
    return None


def ending_lines(game: Adjudicator) -> list[str]:
    """What the summary says about how the game ended, beyond its result line."""
    how = basis(game)
    if how == "forfeit":
        return [
            "ended by a forfeit: on the referee's clock, its word on when mail arrived "
            "(docs/referee.md)"
        ]
    settled = game.blind_end
    if settled is None:
        return []
    if settled.proven:
        return [f"ended by entry {settled.at}, which proves that {settled.culprit} lied"]
    who = "the referee" if settled.word == REFEREE else str(settled.word)
    return [f"ended by entry {settled.at}, on {who}'s word: nothing in the log proves it"]
