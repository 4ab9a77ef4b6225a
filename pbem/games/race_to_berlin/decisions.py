"""Race to Berlin decisions: small frozen records (pbem.record) and their text syntax.

Canonical forms (what `format_decision` writes; `parse_decision` reads them back,
case-insensitive, with extra spaces and the aliases listed). Every canonical form is
shell-safe (rules 1.1): typed unquoted after `pbem move GAME`, it reaches pbem word for word.

    place 4 in 17                  logistics phase, the owner's text (4.1.1)
    place block in 17              the same placement as signed: the value is sealed
    move 11 to 12 with us-1, us-3 + block   move units and/or the block (4.2.1.1);
                                   also `move 11 to 12 us-1`, `move us-1 from 11 to 12`,
                                   `move block 11 to 12`, `move 2 units + block 11 to 12`,
                                   `move all 11 to 12`
    attack 12 from 11 cubes 2      attack action (4.2.1.2 steps 1-3); the client adds
                                   ` exhausting` when the cubes exhaust a sealed block
    remove block in 12             remove own logistics block (4.2.1.3)
    support in 12 | support from 13 | no support    defender's step 4
    tokens logistics support | tokens logistics | tokens support | no tokens
    reroll | keep                  Reserves token (attacker first, then defender)
    counterattack | no counterattack
    loss de-4                      a German strength loss, chosen by the loser
    retreat de-4 to 14, de-9 to 15, block to 14    (`block west to 31` names the owner
                                   when B1's two blocks retreat)
    advance us-1 us-3 + block | no advance
    strategic us-1 from 11 to 20 | end strategic   4.3
    place 6ss in 24                the Eastern Front 6th SS Panzer Army (4.3)
    open blocks                    end of turn: open every block still sealed

Areas are written as on the map ("12", "B1"); unit ids as in the data ("us-1").

Rules 1.0 wrote `->` for `to` and a colon before the pieces (`move 11 -> 12: us-1`,
`retreat de-4 -> 14`, `strategic us-1 11 -> 20`): a shell reads `>` as a redirection.
Its games keep signing that text (`format_decision(d, shell_safe=False)`); the parser
reads both spellings in every version.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pbem.errors import InvalidOrderError
from pbem.games.race_to_berlin.state import controlled_units_in
from pbem.record import Record

# --- the decisions ----------------------------------------------------------------------------


class Place(Record, fields=("area", "value")):
    """Place a logistics block (4.1.1); `value` is None in the public, signed decision."""

    area: str
    value: int | None

    def __init__(self, area: str, value: int | None = None) -> None:
        fields = self.__dict__
        fields["area"] = area
        fields["value"] = value


class Move(Record, fields=("frm", "to", "units", "block")):
    """Move units and/or a logistics block to an adjacent friendly area (4.2.1.1)."""

    frm: str
    to: str
    units: tuple[str, ...]
    block: bool

    def __init__(self, frm: str, to: str, units: tuple[str, ...] = (), block: bool = False) -> None:
        fields = self.__dict__
        fields["frm"] = frm
        fields["to"] = to
        fields["units"] = units
        fields["block"] = block


class Attack(Record, fields=("target", "frm", "cubes", "exhausting")):
    """Attack `target` from `frm` with 1 or 2 action cubes (4.2.1.2 steps 1-3).

    `exhausting` is the owner's public claim that these cubes make the block's count
    reach its sealed value (rulebook 4.1: the block is turned face down)."""

    target: str
    frm: str
    cubes: int
    exhausting: bool

    def __init__(self, target: str, frm: str, cubes: int, exhausting: bool = False) -> None:
        fields = self.__dict__
        fields["target"] = target
        fields["frm"] = frm
        fields["cubes"] = cubes
        fields["exhausting"] = exhausting


class RemoveBlock(Record, fields=("area",)):
    """Remove an own logistics block from the board (4.2.1.3)."""

    area: str

    def __init__(self, area: str) -> None:
        fields = self.__dict__
        fields["area"] = area


class Support(Record, fields=("area", "own")):
    """Defender's step 4: the defending area's own block (`own`), an adjacent block, or none."""

    area: str | None
    own: bool

    def __init__(self, area: str | None = None, own: bool = False) -> None:
        fields = self.__dict__
        fields["area"] = area
        fields["own"] = own


class Tokens(Record, fields=("logistics", "support")):
    """Attacker's step 5 decision: reveal, then Logistics and/or Support tokens; rolls the dice."""

    logistics: bool
    support: bool

    def __init__(self, logistics: bool = False, support: bool = False) -> None:
        fields = self.__dict__
        fields["logistics"] = logistics
        fields["support"] = support


class Reserves(Record, fields=("reroll",)):
    """Reserves token: re-roll the own side's two combat dice, or keep them."""

    reroll: bool

    def __init__(self, reroll: bool) -> None:
        fields = self.__dict__
        fields["reroll"] = reroll


class Counterattack(Record, fields=("play",)):
    """Counterattack token: the losing German defender cancels the retreat."""

    play: bool

    def __init__(self, play: bool) -> None:
        fields = self.__dict__
        fields["play"] = play


class Loss(Record, fields=("unit",)):
    """One German strength loss on `unit`, chosen by the losing player."""

    unit: str

    def __init__(self, unit: str) -> None:
        fields = self.__dict__
        fields["unit"] = unit


class Retreat(Record, fields=("units", "blocks")):
    """Defending pieces' destinations; units not listed are eliminated.

    `blocks` holds (owner, area) pairs; owner None means the only block there."""

    units: tuple[tuple[str, str], ...]
    blocks: tuple[tuple[str | None, str], ...]

    def __init__(
        self,
        units: tuple[tuple[str, str], ...],
        blocks: tuple[tuple[str | None, str], ...] = (),
    ) -> None:
        fields = self.__dict__
        fields["units"] = units
        fields["blocks"] = blocks


class Advance(Record, fields=("units", "block")):
    """Successful attacker: which attacking units (and the block) advance."""

    units: tuple[str, ...]
    block: bool

    def __init__(self, units: tuple[str, ...] = (), block: bool = False) -> None:
        fields = self.__dict__
        fields["units"] = units
        fields["block"] = block


class Strategic(Record, fields=("unit", "frm", "to")):
    """A strategic move (4.3) of one unit through friendly areas."""

    unit: str
    frm: str
    to: str

    def __init__(self, unit: str, frm: str, to: str) -> None:
        fields = self.__dict__
        fields["unit"] = unit
        fields["frm"] = frm
        fields["to"] = to


class EndStrategic(Record):
    """End the own strategic movement (the moves not made are forgone)."""


class PlaceReserve(Record, fields=("area",)):
    """Place the Eastern Front 6th SS Panzer Army next to the Eastern Front line (4.3)."""

    area: str

    def __init__(self, area: str) -> None:
        fields = self.__dict__
        fields["area"] = area


class OpenBlocks(Record):
    """End of the game turn: open every own block of the turn that is still sealed."""


# Every decision type, in the order of declaration (what `GameDefaults.format` accepts).
# They are records (pbem.record), not the kit's `@decision` dataclasses: equal, hashed,
# shown and frozen alike, but making 15 dataclasses was a tenth of a cold `pbem show`.
DECISION_TYPES: tuple[type, ...] = (
    Place,
    Move,
    Attack,
    RemoveBlock,
    Support,
    Tokens,
    Reserves,
    Counterattack,
    Loss,
    Retreat,
    Advance,
    Strategic,
    EndStrategic,
    PlaceReserve,
    OpenBlocks,
)

RESERVE_ALIAS = "6ss"

SYNTAX = (
    "place <value> in <area>, move <from> to <to> with <units> [+ block], "
    "attack <area> from <area> cubes <1|2>, remove block in <area>, support in|from <area>, "
    "no support, tokens [logistics] [support], no tokens, reroll, keep, counterattack, "
    "no counterattack, loss <unit>, retreat <unit> to <area>, ..., advance <units> [+ block], "
    "no advance, strategic <unit> from <from> to <to>, end strategic, place 6ss in <area>, "
    "open blocks"
)


# --- format -----------------------------------------------------------------------------------


def format_decision(decision: Any, shell_safe: bool = True) -> str:
    """The canonical text of a decision: shell-safe words (rules 1.1), or with `shell_safe`
    off the text of rules 1.0 (`->` and a colon), which the games of 1.0 keep signing."""
    arrow = "to" if shell_safe else "->"
    match decision:
        case Place(area=area, value=value):
            return f"place {'block' if value is None else value} in {area}"
        case Move(frm=frm, to=to, units=units, block=block):
            if shell_safe:
                return f"move {frm} to {to} with {_pieces(units, block)}"
            return f"move {frm} -> {to}: {_pieces(units, block)}"
        case Attack(target=target, frm=frm, cubes=cubes, exhausting=exhausting):
            return f"attack {target} from {frm} cubes {cubes}" + (
                " exhausting" if exhausting else ""
            )
        case RemoveBlock(area=area):
            return f"remove block in {area}"
        case Support(area=None):
            return "no support"
        case Support(area=area, own=own):
            return f"support {'in' if own else 'from'} {area}"
        case Tokens(logistics=False, support=False):
            return "no tokens"
        case Tokens(logistics=logistics, support=support):
            names = [n for n, on in (("logistics", logistics), ("support", support)) if on]
            return "tokens " + " ".join(names)
        case Reserves(reroll=reroll):
            return "reroll" if reroll else "keep"
        case Counterattack(play=play):
            return "counterattack" if play else "no counterattack"
        case Loss(unit=unit):
            return f"loss {unit}"
        case Retreat(units=units, blocks=blocks):
            parts = [f"{u} {arrow} {a}" for u, a in units]
            parts += [
                f"block {owner} {arrow} {a}" if owner else f"block {arrow} {a}"
                for owner, a in blocks
            ]
            return "retreat " + ", ".join(parts)
        case Advance(units=(), block=False):
            return "no advance"
        case Advance(units=units, block=block):
            return "advance " + " ".join([*units, "+ block"] if block else units)
        case Strategic(unit=unit, frm=frm, to=to):
            if shell_safe:
                return f"strategic {unit} from {frm} to {to}"
            return f"strategic {unit} {frm} -> {to}"
        case EndStrategic():
            return "end strategic"
        case PlaceReserve(area=area):
            return f"place {RESERVE_ALIAS} in {area}"
        case OpenBlocks():
            return "open blocks"
    raise InvalidOrderError(f"not a race-to-berlin decision: {decision!r}")


def _pieces(units: tuple[str, ...], block: bool) -> str:
    if not units:
        return "block"
    return ", ".join(units) + (" + block" if block else "")


# The same texts by the decision's exact type, without the `match` above trying each class
# in turn (every entry of a game is formatted once, to check its text is canonical): one
# writer a type, each the text of its `case`s, or `format_decision` itself where a field is
# not of the type the parser gives it (a pattern may read such a field otherwise).
# tests/games/race_to_berlin/test_rtb_fast_format.py compares the two.


def _write_place(d: Any, shell_safe: bool) -> str:
    value = d.value
    return f"place {'block' if value is None else value} in {d.area}"


def _write_move(d: Any, shell_safe: bool) -> str:
    if shell_safe:
        return f"move {d.frm} to {d.to} with {_pieces(d.units, d.block)}"
    return f"move {d.frm} -> {d.to}: {_pieces(d.units, d.block)}"


def _write_attack(d: Any, shell_safe: bool) -> str:
    text = f"attack {d.target} from {d.frm} cubes {d.cubes}"
    return text + " exhausting" if d.exhausting else text


def _write_remove(d: Any, shell_safe: bool) -> str:
    return f"remove block in {d.area}"


def _write_support(d: Any, shell_safe: bool) -> str:
    area = d.area
    if area is None:
        return "no support"
    return f"support {'in' if d.own else 'from'} {area}"


def _write_tokens(d: Any, shell_safe: bool) -> str:
    logistics, support = d.logistics, d.support
    if logistics is False and support is False:
        return "no tokens"
    if logistics:
        return "tokens logistics support" if support else "tokens logistics"
    return "tokens support" if support else "tokens "


def _write_reserves(d: Any, shell_safe: bool) -> str:
    return "reroll" if d.reroll else "keep"


def _write_counterattack(d: Any, shell_safe: bool) -> str:
    return "counterattack" if d.play else "no counterattack"


def _write_loss(d: Any, shell_safe: bool) -> str:
    return f"loss {d.unit}"


def _write_advance(d: Any, shell_safe: bool) -> str:
    units, block = d.units, d.block
    if type(units) is not tuple:
        return format_decision(d, shell_safe)  # (a sequence pattern reads other types)
    if not units and block is False:
        return "no advance"
    return "advance " + " ".join([*units, "+ block"] if block else units)


def _write_strategic(d: Any, shell_safe: bool) -> str:
    if shell_safe:
        return f"strategic {d.unit} from {d.frm} to {d.to}"
    return f"strategic {d.unit} {d.frm} -> {d.to}"


def _write_end_strategic(d: Any, shell_safe: bool) -> str:
    return "end strategic"


def _write_place_reserve(d: Any, shell_safe: bool) -> str:
    return f"place {RESERVE_ALIAS} in {d.area}"


def _write_open_blocks(d: Any, shell_safe: bool) -> str:
    return "open blocks"


WRITERS: dict[type, Callable[[Any, bool], str]] = {
    Place: _write_place,
    Move: _write_move,
    Attack: _write_attack,
    RemoveBlock: _write_remove,
    Support: _write_support,
    Tokens: _write_tokens,
    Reserves: _write_reserves,
    Counterattack: _write_counterattack,
    Loss: _write_loss,
    Retreat: format_decision,  # (rare)
    Advance: _write_advance,
    Strategic: _write_strategic,
    EndStrategic: _write_end_strategic,
    PlaceReserve: _write_place_reserve,
    OpenBlocks: _write_open_blocks,
}


# --- parse ------------------------------------------------------------------------------------


class Lexicon:
    """What the parser needs to know about the game: area ids, unit ids, the asking role.

    Unit ids are lower case (the data files' rule), so a unit is looked up as typed, lower
    cased; area ids by the static map's lower-case index."""

    def __init__(self, state: dict[str, Any], role: str) -> None:
        self.state = state
        self.role = role
        self.areas: dict[str, str] = state["map"]["area_keys"]
        self.units: dict[str, Any] = state["units"]

    def area(self, token: str, text: str) -> str:
        found = self.areas.get(token.strip().lower())
        if found is None:
            known = ", ".join(self.areas.values())
            raise InvalidOrderError(f"cannot read {text!r}: no area {token!r} (areas: {known})")
        return found

    def unit(self, token: str, text: str) -> str:
        found = token.strip().lower()
        if found not in self.units:
            raise InvalidOrderError(
                f"cannot read {text!r}: no unit {token!r} (units are named as in the data, "
                "e.g. us-1, de-4)"
            )
        return found

    def own_units_in(self, area: str) -> list[str]:
        return sorted(controlled_units_in(self.state, area, self.role))


# The patterns are kept as text and compiled by `re` on first use (its own cache keeps them):
# compiling them all is most of importing this module, and `pbem show` parses nothing.
_ARROW = r"\s*(?:->|→|=>)\s*"
_TO = r"(?<![\w-])to(?![\w-])"
_SPACED = {
    ",": (r"\s*,\s*", ", "),
    "+": (r"\s*\+\s*", " + "),
    ":": (r"\s*:\s*", ": "),
}


@lru_cache(maxsize=1024)
def normalise(text: str) -> str:
    """The text in one spelling: lower case, arrows and separators spaced alike (many
    decisions of a game repeat word for word: each spelling is worked out once)."""
    norm = text.lower().replace("re-roll", "reroll").replace("counter-attack", "counterattack")
    # each substitution only where its text occurs (every entry of a game is parsed)
    if "to" in norm:
        norm = re.sub(_TO, "->", norm)
    if ">" in norm or "→" in norm:
        norm = re.sub(_ARROW, " -> ", norm)
    for mark, (pattern, spaced) in _SPACED.items():
        if mark in norm:
            norm = re.sub(pattern, spaced, norm)
    return " ".join(norm.split())


# Decisions without arguments (frozen dataclasses: one instance serves every parse).
_SIMPLE: dict[str, Any] = {
    "no support": Support(),
    "no tokens": Tokens(),
    "tokens none": Tokens(),
    "reroll": Reserves(True),
    "keep": Reserves(False),
    "no reroll": Reserves(False),
    "counterattack": Counterattack(True),
    "no counterattack": Counterattack(False),
    "no advance": Advance(),
    "end strategic": EndStrategic(),
    "no strategic": EndStrategic(),
    "open blocks": OpenBlocks(),
    "open": OpenBlocks(),
}


def parse_decision(text: str, state: dict[str, Any], role: str) -> Any:
    """Parse the human syntax against `state` (areas and units are looked up there)."""
    if not isinstance(text, str):
        raise InvalidOrderError(f"cannot read {text!r}: expected text ({SYNTAX})")
    norm = normalise(text)
    if not norm:
        raise InvalidOrderError(f"cannot read {text!r}: empty decision (expected {SYNTAX})")
    if norm in _SIMPLE:
        return _SIMPLE[norm]
    verb = norm.split(" ")[0]
    handler = _VERBS.get(verb)
    if handler is None:
        raise InvalidOrderError(
            f"cannot read {text!r}: unknown command {verb!r} (expected {SYNTAX})"
        )
    return handler(norm, text, Lexicon(state, role))


def _int(digits: str, text: str) -> int:
    """A number of the text; one past Python's digit limit for int() is no decision."""
    try:
        return int(digits)
    except ValueError:
        raise InvalidOrderError(
            f"cannot read {text!r}: a number of {len(digits)} digits is no number here"
        ) from None


# A verb's pattern -> compiled: `re.match(pattern, norm)`, without re's two calls to find
# it again in its own cache (every entry of a game is parsed).
_COMPILED: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    found = _COMPILED.get(pattern)
    if found is None:
        found = _COMPILED[pattern] = re.compile(pattern)
    return found


def _matched(pattern: str, norm: str, text: str, expected: str) -> re.Match[str]:
    """The match of a verb's pattern, or the refusal that says what the verb expects."""
    found = _COMPILED.get(pattern)
    m = (_compiled(pattern) if found is None else found).match(norm)
    if not m:
        raise InvalidOrderError(f"cannot read {text!r}: {expected}")
    return m


_PLACE = r"^place (?P<what>\S+) (?:in|at|on) (?P<area>\S+)$"


def _parse_place(norm: str, text: str, lex: Lexicon) -> Any:
    words = norm.split(" ")  # (`norm` is words joined by one space: `_PLACE` by its words)
    if len(words) == 4 and words[2] in ("in", "at", "on"):
        what, area = words[1], lex.area(words[3], text)
    else:
        expected = (
            "expected 'place <value> in <area>', 'place block in <area>' or 'place 6ss in <area>'"
        )
        m = _matched(_PLACE, norm, text, expected)
        what, area = m.group("what"), lex.area(m.group("area"), text)
    if what == "block":
        return Place(area)
    if what.isdigit() and what.isascii():
        return Place(area, _int(what, text))
    if what == RESERVE_ALIAS or (what in lex.units and lex.units[what].get("replaces")):
        return PlaceReserve(area)
    raise InvalidOrderError(
        f"cannot read {text!r}: {what!r} is not a block value (2, 3, 4, 5), 'block' or '6ss'"
    )


# "move 11 -> 12: us-1" (1.0), "move 11 -> 12 with us-1" and "move 11 -> 12 us-1" (as
# normalised: a typed `to` is read as `->`)
_MOVE_AREAS_FIRST = r"^move (?P<frm>\S+) -> (?P<to>[^\s:]+)(?::| with)? (?P<pieces>.+)$"
_MOVE_PIECES_FIRST = r"^move (?P<pieces>.+?) (?:from )?(?P<frm>\S+) -> (?P<to>\S+)$"


def _parse_move(norm: str, text: str, lex: Lexicon) -> Move:
    m = _compiled(_MOVE_AREAS_FIRST).match(norm) or _compiled(_MOVE_PIECES_FIRST).match(norm)
    if not m:
        raise InvalidOrderError(
            f"cannot read {text!r}: expected 'move <from> to <to> with <units> [+ block]' "
            "or 'move <units> from <from> to <to>'"
        )
    frm, to = lex.area(m.group("frm"), text), lex.area(m.group("to"), text)
    units, block = _pieces_of(m.group("pieces"), text, lex, frm)
    if not units and not block:
        raise InvalidOrderError(f"cannot read {text!r}: nothing to move")
    return Move(frm, to, units, block)


def _pieces_of(pieces: str, text: str, lex: Lexicon, frm: str) -> tuple[tuple[str, ...], bool]:
    block = False
    units: list[str] = []
    # (`pieces` is words joined by one space, a comma written ", ": split on spaces and
    # commas as `re.split(r"[ ,]+", ...)` does, without re)
    spaced = pieces.replace(" + ", " ").replace(",", " ")
    words = [w for w in spaced.split(" ") if w and w != "and"]
    i = 0
    while i < len(words):
        word = words[i]
        if word == "block":
            block = True
        elif word == "all" or (word == "units" and i == 0):
            units += lex.own_units_in(frm)
        elif word.isdigit() and i + 1 < len(words) and words[i + 1] in ("unit", "units"):
            n = _int(word, text)
            own = lex.own_units_in(frm)
            if n < 1 or n > len(own):
                raise InvalidOrderError(
                    f"cannot read {text!r}: {n} units asked, {len(own)} of yours in {frm}"
                )
            units += own[:n]
            i += 1
        else:
            units.append(lex.unit(word, text))
        i += 1
    if len(set(units)) != len(units):
        raise InvalidOrderError(f"cannot read {text!r}: a unit is named twice")
    return tuple(sorted(units)), block


_ATTACK = (
    r"^attack (?P<target>\S+) from (?P<frm>\S+)"
    r"(?: (?:with )?(?:cubes? (?P<c1>\d+)|(?P<c2>\d+) cubes?))?(?P<exh> exhausting)?$"
)


def _parse_attack(norm: str, text: str, lex: Lexicon) -> Attack:
    words = norm.split(" ")  # (the canonical form by its words; any other by `_ATTACK`)
    n = len(words)
    if (
        (n == 6 or (n == 7 and words[6] == "exhausting"))
        and words[2] == "from"
        and words[4] == "cubes"
        and words[5] in ("1", "2")
    ):
        target, frm = lex.area(words[1], text), lex.area(words[3], text)
        return Attack(target, frm, 1 if words[5] == "1" else 2, n == 7)
    m = _matched(_ATTACK, norm, text, "expected 'attack <target> from <area> cubes <1|2>'")
    target, frm = lex.area(m.group("target"), text), lex.area(m.group("frm"), text)
    raw = m.group("c1") or m.group("c2")
    # Without a number: the 2 cubes of a German attack, else 1.
    cubes = (2 if _german_block(lex, frm) else 1) if raw is None else _int(raw, text)
    if cubes not in (1, 2):
        raise InvalidOrderError(f"cannot read {text!r}: an attack uses 1 or 2 cubes, not {cubes}")
    return Attack(target, frm, cubes, bool(m.group("exh")))


def _german_block(lex: Lexicon, area: str) -> bool:
    return any(
        b["area"] == area and b["owner"] == lex.role and b["force"] == "german"
        for b in lex.state["blocks"]
    )


_REMOVE = r"^remove (?:block )?(?:in |from )?(?P<area>\S+)$"


def _parse_remove(norm: str, text: str, lex: Lexicon) -> RemoveBlock:
    m = _matched(_REMOVE, norm, text, "expected 'remove block in <area>'")
    return RemoveBlock(lex.area(m.group("area"), text))


_SUPPORT = r"^support (?P<how>in|from) (?P<area>\S+)$"


def _parse_support(norm: str, text: str, lex: Lexicon) -> Support:
    expected = "expected 'support in <area>', 'support from <area>' or 'no support'"
    m = _matched(_SUPPORT, norm, text, expected)
    area = lex.area(m.group("area"), text)
    combat = lex.state.get("combat")
    own = m.group("how") == "in"
    if combat is not None:
        # The defending area's own block is "in", any other "from", however it was typed.
        own = area == combat["defence_area"]
    return Support(area, own)


def _parse_tokens(norm: str, text: str, lex: Lexicon) -> Tokens:
    words = norm.split(" ")[1:]
    words = [w for w in words if w not in ("and", "+", "token", "tokens")]
    expected = (
        "expected 'tokens logistics support', 'tokens logistics', 'tokens support' or 'no tokens'"
    )
    if not words or any(w not in ("logistics", "support") for w in words):
        raise InvalidOrderError(f"cannot read {text!r}: {expected}")
    if len(set(words)) != len(words):
        raise InvalidOrderError(f"cannot read {text!r}: a token is named twice ({expected})")
    return Tokens("logistics" in words, "support" in words)


def _parse_loss(norm: str, text: str, lex: Lexicon) -> Loss:
    words = norm.split(" ")
    if len(words) != 2:
        raise InvalidOrderError(f"cannot read {text!r}: expected 'loss <unit>'")
    return Loss(lex.unit(words[1], text))


def _parse_retreat(norm: str, text: str, lex: Lexicon) -> Retreat:
    body = norm[len("retreat") :].strip()
    expected = "expected 'retreat <unit> to <area>, ..., block to <area>'"
    if not body:
        raise InvalidOrderError(f"cannot read {text!r}: {expected}")
    units: list[tuple[str, str]] = []
    blocks: list[tuple[str | None, str]] = []
    for part in body.split(", "):
        m = re.match(r"^(?P<what>.+?) -> (?P<area>\S+)$", part.strip())
        if not m:
            raise InvalidOrderError(f"cannot read {text!r}: {part!r} ({expected})")
        what, area = m.group("what").split(" "), lex.area(m.group("area"), text)
        if what[0] == "block":
            if len(what) == 1:
                blocks.append((None, area))
            elif len(what) == 2 and what[1] in ("west", "soviet"):
                blocks.append((what[1], area))
            else:
                raise InvalidOrderError(
                    f"cannot read {text!r}: {part!r} (expected 'block to <area>' or "
                    "'block west|soviet to <area>')"
                )
        elif len(what) == 1:
            units.append((lex.unit(what[0], text), area))
        else:
            raise InvalidOrderError(f"cannot read {text!r}: {part!r} ({expected})")
    if len({u for u, _ in units}) != len(units):
        raise InvalidOrderError(f"cannot read {text!r}: a unit is named twice")
    return Retreat(tuple(sorted(units)), tuple(sorted(blocks, key=lambda b: (b[0] or "", b[1]))))


def _parse_advance(norm: str, text: str, lex: Lexicon) -> Advance:
    body = norm[len("advance") :].strip()
    if not body:
        raise InvalidOrderError(
            f"cannot read {text!r}: expected 'advance <units> [+ block]' or 'no advance'"
        )
    combat = lex.state.get("combat")
    frm = combat["from"] if combat else ""
    units, block = _pieces_of(body, text, lex, frm)
    if not units:
        raise InvalidOrderError(
            f"cannot read {text!r}: name the advancing units; a block never advances alone "
            "(rulebook 4.2.1.2: Advance)"
        )
    return Advance(units, block)


_STRATEGIC = r"^strategic (?P<unit>\S+) (?:from )?(?:(?P<frm>\S+) )?-> (?P<to>\S+)$"


def _parse_strategic(norm: str, text: str, lex: Lexicon) -> Strategic:
    expected = "expected 'strategic <unit> from <from> to <to>' or 'end strategic'"
    m = _matched(_STRATEGIC, norm, text, expected)
    unit = lex.unit(m.group("unit"), text)
    to = lex.area(m.group("to"), text)
    if m.group("frm"):
        frm = lex.area(m.group("frm"), text)
    else:
        frm = lex.state["units"][unit]["area"] or ""
    return Strategic(unit, frm, to)


def _parse_end(norm: str, text: str, lex: Lexicon) -> EndStrategic:
    if norm in ("end", "end strategic", "end strategic movement"):
        return EndStrategic()
    raise InvalidOrderError(f"cannot read {text!r}: expected 'end strategic'")


_VERBS: dict[str, Any] = {
    "place": _parse_place,
    "move": _parse_move,
    "attack": _parse_attack,
    "remove": _parse_remove,
    "support": _parse_support,
    "tokens": _parse_tokens,
    "loss": _parse_loss,
    "retreat": _parse_retreat,
    "advance": _parse_advance,
    "strategic": _parse_strategic,
    "end": _parse_end,
}
