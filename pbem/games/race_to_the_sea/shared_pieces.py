"""Pieces shared between a state and its copy until the copy changes one (copy on write).

The same for the counters (`state.writable_counter`): any dict of dicts of a state that
the rules change one member of at a time may be shared this way.

A long game holds hundreds of pieces (`state["pieces"]`), most of them still sealed (the
identities of hidden counters, Casualties markers, draw secrets), and an entry changes
one or two at most. `state.copy_state` copied every sealed one per entry: a third of a
plain entry's rules. Now the copy shares every piece with its source, and the rules copy
a piece just before they change it: every change of a piece goes through `own` (the
rules' own changes) or the kit's `writable` hook (the kit's reveals, settle, views).

What tells a copied piece from a shared one is kept outside the state (nothing here
changes what a state serialises to or what a view shows): for a copy's pieces dict, the
dict it was copied from. A piece of the copy is its own when it is not the very object
its source holds under that label: made in this copy (a new piece, or one copied by
`own`). When the copy is copied in turn, its record is dropped, so a state that has been
copied never has a piece changed in place again, and one with no record (a state from a
snapshot, a test, or a record dropped when the memo was full) copies each piece before
changing it: never a stale answer, at worst one copy more.
"""

from __future__ import annotations

from typing import Any

Piece = dict[str, Any]
Pieces = dict[str, Piece]


def share(source: Pieces) -> Pieces:
    """A copy of `source` (a pieces dict) that shares its pieces until it changes them."""
    copy = dict(source)
    _SOURCES.pop(id(source), None)  # `source` is copied: its pieces change no more in place
    if len(_SOURCES) >= _KEPT:
        _SOURCES.clear()
    _SOURCES[id(copy)] = (copy, source)
    return copy


def own(pieces: Pieces, label: str) -> Piece:
    """The piece `label` of `pieces`, this dict's own, to change in place (copied first
    if it may be shared with another state)."""
    piece = pieces[label]
    found = _SOURCES.get(id(pieces))
    if found is not None and found[0] is pieces and found[1].get(label) is not piece:
        return piece  # made in this copy
    piece = pieces[label] = dict(piece)
    return piece


def own_piece(pieces: Pieces, piece: Piece) -> Piece:
    """`own` for a piece found by value: the one `pieces` holds under its label."""
    label = piece["label"]
    if pieces.get(label) is not piece:
        raise ValueError(f"{label} is not the piece this state holds under its label")
    return own(pieces, label)


def forget() -> None:
    """Drop every record (tests: a state without one copies each piece it changes)."""
    _SOURCES.clear()


# copy's id -> (copy, source), both held so that no id is reused while recorded; the last
# few copies (a verifier needs one at a time, a bot a few). Cleared when full, which
# costs only copies.
_SOURCES: dict[int, tuple[Pieces, Pieces]] = {}
_KEPT = 128  # (two dicts a copy: its pieces and its counters)
