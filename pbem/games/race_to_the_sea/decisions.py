"""Race to the Sea 1914: the decisions and their text (docs/race-to-the-sea.md, "Decision
syntax"). Every word is shell-safe; counters are named by public label, hexes by their
printed XXYY number. A hidden unit's own client may name it by its unit id (`place fr-iv
0714`): `seal` turns that into the public form (`place french 0714`) plus the commitment.

    place fr-iv 0714 | place french 0714 | place fr-ii-cav 0615 scouting   7.1, 15
    done                                   end a placement or a forced march
    discard                                7.2: the unseen discard (a private draw)
    rail c03 0620 1007                     7.3: the counter, its hex, the end hex
    end rail                               7.3: the phase is over
    bid 4 | bid                            7.4 (sealed: the public entry shows "bid")
    open bid                               7.4: the sealed bid opens
    move c17 1203 1204 1305                9.1: the path from the counter's hex
    flip c05                               9.1.B: cavalry turns to its other side
    recon c22 0505 to 0506 c31             9.7: the cavalry, its hex, the target's hex, the target
    pass                                   no eligible action (8.4, 9.A)
    flood | flood 0805                     9.8: open the dykes (the hex the Allied counters in
                                           Dixmude are displaced to, if any: dykes.py)
    first germans                          7.7.3: who forced-marches first
    forced march c03 1203 1204             7.7.3
    regroup c04 0807                       9.5: the counter and its hex (recovery.py)
    rebuild fr-xiii 1203                   9.6: the eliminated unit and the hex it returns to
    hide                                   7.7.4.A: fresh commitments for the flipped-back units
    hide up c03 put french 0714 shift c05 0714 0715
                                           7.7.4.B: False Reports picked up and put, the
                                           overstack cured (redeploy.py)
    open all                               7.7.6.C: every sealed piece opens at the end

Actions that come with combat (assault, plan) are refused
with a "not yet" line.
"""

from __future__ import annotations

from typing import Any, TypeVar, dataclass_transform

from pbem.core.engine import State
from pbem.errors import InvalidOrderError
from pbem.games.race_to_the_sea.records import FrozenRecord, frozen_record
from pbem.kit.decisions import spelled

T = TypeVar("T")

# The decision types in the order of declaration (the kit's `decision_types`).
_DECLARED: list[type] = []


@dataclass_transform(frozen_default=True)
def decision(cls: type[T]) -> type[T]:
    """Declare `cls` a decision type of this game: a frozen record with its annotated
    fields (records.py: what the kit's @decision, a frozen dataclass, gives, without
    compiling a dataclass's methods for each of the 37 types), listed."""
    made = frozen_record(cls)
    _DECLARED.append(made)
    return made


NATIONALITY_WORDS = ("french", "british", "belgian", "german")
FACES = ("scouting", "deployed")
# The words a decision names, checked without `re`: compiling three patterns at import was
# a fiftieth of a cold `pbem show` of the game, and these run for every entry verified.
# tests/games/race_to_the_sea/test_rts_fast_paths.py holds each to the pattern it replaced.
COUNTER = r"c[0-9]{2,}\Z"
HEX = r"[0-9]{4}\Z"
UNIT_ID = r"[a-z]{2}-[a-z0-9-]+\Z"
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def is_hex_word(word: str) -> bool:
    """`word` matches HEX: four ASCII digits."""
    return len(word) == 4 and word.isascii() and word.isdigit()


def is_counter_word(word: str) -> bool:
    """`word` matches COUNTER: "c" and two ASCII digits or more."""
    return len(word) >= 3 and word[0] == "c" and word.isascii() and word[1:].isdigit()


def is_unit_id(word: str) -> bool:
    """`word` matches UNIT_ID: two lowercase letters, "-", lowercase letters, digits, "-"."""
    return (
        len(word) >= 4
        and word[0] in _LOWER
        and word[1] in _LOWER
        and word[2] == "-"
        and _ID_CHARS.issuperset(word[3:])
    )


@decision
class Place(FrozenRecord):
    unit: str | None  # the unit id: cavalry (public), or the owner's own form of a hidden one
    nationality: str | None  # the public form of a hidden placement
    hex: int
    face: str | None = None  # cavalry only (15.4)


@decision
class Done(FrozenRecord):
    pass


@decision
class Discard(FrozenRecord):
    pass


@decision
class Rail(FrozenRecord):
    counter: str
    start: int
    end: int


@decision
class EndRail(FrozenRecord):
    pass


@decision
class Bid(FrozenRecord):
    value: int | None  # None in a sealed bid's public decision


@decision
class OpenBid(FrozenRecord):
    pass


@decision
class Move(FrozenRecord):
    counter: str
    path: tuple[int, ...]


@decision
class Flip(FrozenRecord):
    counter: str


@decision
class Recon(FrozenRecord):
    counter: str
    at: int
    target_hex: int
    target: str


@decision
class Pass(FrozenRecord):
    pass


@decision
class Flood(FrozenRecord):
    hex: int | None  # 9.8.B: where the Allied counters in Dixmude go (None: none there)


@decision
class First(FrozenRecord):
    side: str


@decision
class March(FrozenRecord):
    counter: str
    path: tuple[int, ...]


@decision
class Hide(FrozenRecord):
    """7.7.4: `hide`, or with a False Report redeployment and the overstack cure (7.7.4.B,
    redeploy.py): `hide up c03 c07 put french 0714 shift c05 0714 0715` (each clause may
    repeat: `put NATIONALITY HEX`, `shift COUNTER FROM TO`)."""

    up: tuple[str, ...] = ()
    put: tuple[tuple[str, int], ...] = ()
    shift: tuple[tuple[str, int, int], ...] = ()


@decision
class OpenAll(FrozenRecord):
    pass


@decision
class Fire(FrozenRecord):
    """9.2, 11: `fire c04 0807 to 0808` (the target's label added when the hex holds several)."""

    counter: str
    at: int
    target_hex: int
    target: str | None = None


@decision
class Regroup(FrozenRecord):
    """9.5: `regroup c04 0807`: the counter recovers hits (the count stays hidden)."""

    counter: str
    at: int


@decision
class Rebuild(FrozenRecord):
    """9.6: `rebuild fr-xiii 1203`: an eliminated unit (public) returns at SZ 1."""

    unit: str
    hex: int


@decision
class Show(FrozenRecord):
    """Open what a modified rating needs (10.4.A, 11.2.I, 12.2.A): the owner's next entry."""


@decision
class Stand(FrozenRecord):
    """11.3.B, 10.5.4.1: scouting cavalry under fire stays (the cards decide)."""


@decision
class FallBack(FrozenRecord):
    """11.3.B, 10.5.4.1: scouting cavalry under fire falls back before the cards flip."""

    to: int


@decision
class Reply(FrozenRecord):
    """11.2.I-J, 11.3.A: the target of a Firepower Combat answers the flipped cards: whether
    it uses its MET rating (which reveals it), whether it falls back one hex instead of one
    hit, and (filled in by its owner's client) whether the hits eliminate it."""

    met: bool = False
    back: int | None = None
    lost: bool = False


@decision
class Pick(FrozenRecord):
    """13.0: the enemy counters an Event picks (`pick c12 c14`)."""

    counters: tuple[str, ...]


@decision
class Absorb(FrozenRecord):
    """5.1.A, 13.0: the owner applies an Event's hits; its client adds `lost` when they
    eliminate the unit (which then opens, 5.2.6)."""

    lost: bool = False


@decision
class Assault(FrozenRecord):
    """9.3, 12: `assault c09 0605 +c12 0706 to 0707`, each attacker with its hex."""

    units: tuple[tuple[str, int], ...]
    target_hex: int


@decision
class Match(FrozenRecord):
    """12.2.D-G: `match c09 c21 c12 c22`: each own unit, then the enemy unit it fights."""

    pairs: tuple[tuple[str, str], ...]


@decision
class Keep(FrozenRecord):
    """9.4.B, 12.5.C: the Big Push card the attacker keeps (`keep 3`)."""

    card: int


@decision
class Retreat(FrozenRecord):
    """12.7: the loser's retreat hex, when it has a choice (`retreat c21 0808`)."""

    counter: str
    to: int


@decision
class Withdraw(FrozenRecord):
    """12.4.B: a unit of the next matchup retreats instead (`withdraw c12 0706`)."""

    counter: str
    to: int


@decision
class FightOn(FrozenRecord):
    """12.4.B: no withdrawal before the next matchup."""


@decision
class GoBack(FrozenRecord):
    """12.8.B: an attacker over the stacking limit goes back (`back c12`)."""

    counter: str


@decision
class CounterAttack(FrozenRecord):
    """13.0: the Counter-Attack Event: `counter c21`, or `no counter`."""

    counter: str | None


@decision
class Plan(FrozenRecord):
    """9.4: `plan 0807 0808`: the marker's hex and one adjacent hex."""

    at: int
    other: int


@decision
class Deploy(FrozenRecord):
    """7.7.5.A: `deploy 0807` (a friendly-controlled hex), or `keep marker`."""

    hex: int | None


@decision
class Restack(FrozenRecord):
    """5.2: commit the Casualties markers just drawn under the hit units."""


@decision
class Deal(FrozenRecord):
    """4.2, shared cup (a double-blind game): the referee commits the markers drawn from
    the one cup for the hit units, each sealed to their owner."""


DECISION_TYPES = tuple(_DECLARED)

SIMPLE: dict[str, Any] = {
    "done": Done(),
    "discard": Discard(),
    "end rail": EndRail(),
    "bid": Bid(None),
    "open bid": OpenBid(),
    "pass": Pass(),
    "hide": Hide(),
    "open all": OpenAll(),
    "show": Show(),
    "stand": Stand(),
    "restack": Restack(),
    "deal": Deal(),
    "absorb": Absorb(),
    "absorb lost": Absorb(True),
    "fight on": FightOn(),
    "no counter": CounterAttack(None),
    "keep marker": Deploy(None),
}


def _hex(word: str, text: str) -> int:
    if not is_hex_word(word):
        raise InvalidOrderError(f"{text!r}: {word!r} is not a hex (four digits, e.g. 0714)")
    return int(word)


def _counter(word: str, text: str) -> str:
    if not is_counter_word(word):
        raise InvalidOrderError(f"{text!r}: {word!r} is not a counter label (e.g. c07)")
    return word


def _path(words: list[str], text: str) -> tuple[int, ...]:
    if len(words) < 2:
        raise InvalidOrderError(f"{text!r}: give the counter's hex and at least one more hex")
    return tuple(_hex(w, text) for w in words)


def parse_decision(text: str, state: State | None = None, role: str | None = None) -> Any:
    words = text.split()
    joined = " ".join(words)
    if joined in SIMPLE:
        return SIMPLE[joined]
    if not words:
        raise InvalidOrderError("an empty decision")
    head = words[0]
    if head == "place" and len(words) in (3, 4):
        who, where = words[1], _hex(words[2], text)
        face = words[3] if len(words) == 4 else None
        if face is not None and face not in FACES:
            raise InvalidOrderError(f"{text!r}: a cavalry unit is placed scouting or deployed")
        if who in NATIONALITY_WORDS and face is None:
            return Place(None, who, where)
        if is_unit_id(who):
            return Place(who, None, where, face)
        raise InvalidOrderError(f"{text!r}: name a unit id (fr-iv) or a nationality (french)")
    if head == "bid" and len(words) == 2:
        if words[1] not in ("1", "2", "3", "4", "5"):
            raise InvalidOrderError(f"{text!r}: a Bid Number is 1-5")
        return Bid(int(words[1]))
    if head == "rail" and len(words) == 4:
        return Rail(_counter(words[1], text), _hex(words[2], text), _hex(words[3], text))
    if head == "move" and len(words) >= 4:
        return Move(_counter(words[1], text), _path(words[2:], text))
    if head == "flip" and len(words) == 2:
        return Flip(_counter(words[1], text))
    if head == "recon" and len(words) == 6 and words[3] == "to":
        return Recon(
            _counter(words[1], text),
            _hex(words[2], text),
            _hex(words[4], text),
            _counter(words[5], text),
        )
    if head == "fire" and len(words) in (5, 6) and words[3] == "to":
        target = _counter(words[5], text) if len(words) == 6 else None
        return Fire(_counter(words[1], text), _hex(words[2], text), _hex(words[4], text), target)
    if head == "regroup" and len(words) == 3:
        return Regroup(_counter(words[1], text), _hex(words[2], text))
    if head == "rebuild" and len(words) == 3:
        if not is_unit_id(words[1]):
            raise InvalidOrderError(f"{text!r}: {words[1]!r} is not a unit id (e.g. fr-xiii)")
        return Rebuild(words[1], _hex(words[2], text))
    if words[:2] == ["fall", "back"] and len(words) == 3:
        return FallBack(_hex(words[2], text))
    if head == "reply":
        return _reply(words, text)
    if head == "assault":
        return _assault(words, text)
    if head == "plan" and len(words) == 3:
        return Plan(_hex(words[1], text), _hex(words[2], text))
    if head == "deploy" and len(words) == 2:
        return Deploy(_hex(words[1], text))
    if head == "match" and len(words) >= 3 and len(words) % 2 == 1:
        pairs = [
            (_counter(words[i], text), _counter(words[i + 1], text))
            for i in range(1, len(words), 2)
        ]
        return Match(tuple(pairs))
    if head == "keep" and len(words) == 2 and words[1].isdigit():
        return Keep(int(words[1]))
    if head in ("retreat", "withdraw") and len(words) == 3:
        kind = Retreat if head == "retreat" else Withdraw
        return kind(_counter(words[1], text), _hex(words[2], text))
    if head == "back" and len(words) == 2:
        return GoBack(_counter(words[1], text))
    if head == "counter" and len(words) == 2:
        return CounterAttack(_counter(words[1], text))
    if head == "pick" and len(words) >= 2:
        return Pick(tuple(_counter(w, text) for w in words[1:]))
    if head == "flood" and len(words) <= 2:
        return Flood(_hex(words[1], text) if len(words) == 2 else None)
    if head == "hide":
        return _hide(words[1:], text)
    if head == "first" and len(words) == 2 and words[1] in ("allies", "germans"):
        return First(words[1])
    if words[:2] == ["forced", "march"] and len(words) >= 5:
        return March(_counter(words[2], text), _path(words[3:], text))
    raise InvalidOrderError(
        f"{text!r}: expected e.g. 'place fr-iv 0714', 'bid 4', 'move c17 1203 1204', "
        "'flip c05', 'recon c22 0505 to 0506 c31', 'rail c03 0620 1007', 'pass', 'done'"
    )


def _assault(words: list[str], text: str) -> Assault:
    """`assault c09 0605 +c12 0706 to 0707`."""
    usage = f"{text!r}: expected 'assault c09 0605 +c12 0706 to 0707'"
    if len(words) < 5 or words[-2] != "to":
        raise InvalidOrderError(usage)
    body = words[1:-2]
    if len(body) % 2:
        raise InvalidOrderError(usage)
    units = []
    for i in range(0, len(body), 2):
        word = body[i]
        if i > 0:
            if not word.startswith("+"):
                raise InvalidOrderError(usage)
            word = word[1:]
        units.append((_counter(word, text), _hex(body[i + 1], text)))
    return Assault(tuple(units), _hex(words[-1], text))


def _reply(words: list[str], text: str) -> Reply:
    rest = words[1:]
    met = lost = False
    back = None
    while rest:
        word = rest.pop(0)
        if word == "met" and not met:
            met = True
        elif word == "back" and back is None and rest:
            back = _hex(rest.pop(0), text)
        elif word == "lost" and not lost and not rest:
            lost = True
        else:
            raise InvalidOrderError(f"{text!r}: expected 'reply [met] [back HEX] [lost]'")
    return Reply(met, back, lost)


def _hide(rest: list[str], text: str) -> Hide:
    """7.7.4.B: clauses `up C`, `put NATIONALITY HEX`, `shift C FROM TO`, in that order."""
    up: list[str] = []
    put: list[tuple[str, int]] = []
    shift: list[tuple[str, int, int]] = []
    order = 0
    while rest:
        word = rest.pop(0)
        if word == "up" and order <= 0 and rest:
            up.append(_counter(rest.pop(0), text))
        elif word == "put" and order <= 1 and len(rest) >= 2 and rest[0] in NATIONALITY_WORDS:
            order = 1
            put.append((rest.pop(0), _hex(rest.pop(0), text)))
        elif word == "shift" and len(rest) >= 3:
            order = 2
            shift.append((_counter(rest[0], text), _hex(rest[1], text), _hex(rest[2], text)))
            del rest[:3]
        else:
            raise InvalidOrderError(
                f"{text!r}: expected 'hide [up c03 ...] [put french 0714 ...] "
                "[shift c05 0714 0715 ...]'"
            )
    return Hide(tuple(up), tuple(put), tuple(shift))


def _h(hex_: int) -> str:
    return f"{hex_:04d}"


# The decisions whose text is their fields in fixed words (hexes as four digits); the
# forms without a field (`keep marker`, `no counter`, `bid`) are in SIMPLE.
TEXTS: dict[type, str] = {
    Bid: "bid {value}",
    Rail: "rail {counter} {start:04d} {end:04d}",
    Flip: "flip {counter}",
    Recon: "recon {counter} {at:04d} to {target_hex:04d} {target}",
    Regroup: "regroup {counter} {at:04d}",
    Rebuild: "rebuild {unit} {hex:04d}",
    Plan: "plan {at:04d} {other:04d}",
    Deploy: "deploy {hex:04d}",
    Keep: "keep {card}",
    Retreat: "retreat {counter} {to:04d}",
    Withdraw: "withdraw {counter} {to:04d}",
    GoBack: "back {counter}",
    CounterAttack: "counter {counter}",
    FallBack: "fall back {to:04d}",
    First: "first {side}",
}


# SIMPLE backwards, the first text of each decision: decisions are frozen dataclasses, so
# equal ones hash equally and a lookup finds what comparing them one by one found.
_SIMPLE_TEXTS: dict[Any, str] = {}
for _text, _simple in SIMPLE.items():
    _SIMPLE_TEXTS.setdefault(_simple, _text)


def format_decision(d: Any) -> str:
    try:
        simple_text = _SIMPLE_TEXTS.get(d)
    except TypeError:  # a field that is no hashable value: compared one by one
        simple_text = next((text for text, simple in SIMPLE.items() if d == simple), None)
    if simple_text is not None:
        return simple_text
    written = spelled(TEXTS, d)
    if written is not None:
        return written
    if isinstance(d, Place):
        who = d.unit if d.unit is not None else d.nationality
        return f"place {who} {_h(d.hex)}" + (f" {d.face}" if d.face else "")
    if isinstance(d, Move):
        return f"move {d.counter} " + " ".join(_h(h) for h in d.path)
    if isinstance(d, Fire):
        return f"fire {d.counter} {_h(d.at)} to {_h(d.target_hex)}" + (
            f" {d.target}" if d.target else ""
        )
    if isinstance(d, Pick):
        return "pick " + " ".join(d.counters)
    if isinstance(d, Assault):
        parts = [f"{'+' if i else ''}{k} {_h(h)}" for i, (k, h) in enumerate(d.units)]
        return "assault " + " ".join(parts) + f" to {_h(d.target_hex)}"
    if isinstance(d, Match):
        return "match " + " ".join(f"{a} {b}" for a, b in d.pairs)
    if isinstance(d, Reply):
        words = ["reply"] + (["met"] if d.met else []) + (["back", _h(d.back)] if d.back else [])
        return " ".join(words + (["lost"] if d.lost else []))
    if isinstance(d, Flood):
        return "flood" + (f" {_h(d.hex)}" if d.hex is not None else "")
    if isinstance(d, Hide):
        words = ["hide", *(f"up {k}" for k in d.up)]
        words += [f"put {n} {_h(h)}" for n, h in d.put]
        words += [f"shift {k} {_h(a)} {_h(b)}" for k, a, b in d.shift]
        return " ".join(words)
    if isinstance(d, March):
        return f"forced march {d.counter} " + " ".join(_h(h) for h in d.path)
    raise InvalidOrderError(f"not a race-to-the-sea decision: {d!r}")
