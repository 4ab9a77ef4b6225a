"""Decisions of Berlin 1945 and their typeable syntax (case-insensitive; `format` is canonical).

Every canonical form is shell-safe (rules 1.2): typed unquoted after `pbem move GAME`, it
reaches pbem word for word.

draw                                  card draw (rulebook 2.3, 7.1)
discard slot 3                        hand limit discard (7.1), unseen; `discard slots 3, 5`
discard slot 3 for move               German additional Movement order (5.4)
plan 15 to 8:2, 16:2 then 3 to 9:all then extra 4 to 3:2 then rebuild in 12 then card 13
plan none                             the Soviet's own (sealed) plan (7.2)
plan                                  the public decision that commits it
open                                  open the plan (7.3) / every secret (end)
move 4 to 3 with g1, g2 and to 9 with g3   German Movement order (5)
rebuild g5 in 12 discard slots 1, 2   German Rebuild order (6)
execute 2 [with s1, s2 / s3] [discard slots 1, 2]   Soviet order execution (7.3)
retreat 2 [with s1, s2 / s3]          a cancelled order executed as a Retreat (7.3)
cancel 2 [discard slots 1, 2]         a planned order not executed (7.3)
end movement
play 24 [in 13]                       an M / ! card (2.3)
play 5 in 12, 13, 14                  a card placing markers, one a zone
play 7 on 2 | no reaction             a reaction card cancels the opponent's order 2
reinforce b, e                        Soviet reinforcements (8.1)
fight 8                               the German chooses the next combat (7.4)
cards play 7, 12 | no cards           combat cards (7.4.1)
cards play 1 bang, 7                  "N bang": a two-mode card in its ! mode (2.3; "bang"
                                      is how "!" is read aloud)
casualties s1, s2                     the owner's casualties (7.4.4)
remove g5 | remove none               Reichstag presence check (7.5)

Rules 1.0 and 1.1 wrote `->` for `to`, `;` between orders or destinations, a colon before
a destination's units, `#` before a card slot and `!` after a card in its ! mode
(`plan 15 -> 8:2; 3 -> 9:all`, `move 4 -> 3: g1; 9: g2`, `discard #3`, `cards play 1!`):
a shell reads `>` as a redirection, `;` as the end of the command, `#` as a comment and
`!` (interactive bash) as a history expansion. Their games keep signing that text
(`format_decision(d, shell_safe=False)`); the parser reads both spellings in every version.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pbem.errors import InvalidOrderError
from pbem.record import Record

Dest = tuple[str, int | None]  # destination zone, count (None: "all")


class Draw(Record):
    pass


class Discard(Record, fields=("slots", "purpose")):
    slots: tuple[int, ...]
    purpose: str  # "limit" or "move"

    def __init__(self, slots: tuple[int, ...], purpose: str = "limit") -> None:
        fields = self.__dict__
        fields["slots"] = slots
        fields["purpose"] = purpose


class PlanOrder(Record, fields=("frm", "dests")):
    frm: str
    dests: tuple[Dest, ...]

    def __init__(self, frm: str, dests: tuple[Dest, ...]) -> None:
        fields = self.__dict__
        fields["frm"] = frm
        fields["dests"] = dests


class Plan(Record, fields=("orders", "extra", "rebuild", "card", "sealed")):
    """The Soviet plan; `sealed` is the public decision (`plan`) that only commits it."""

    orders: tuple[PlanOrder, ...]
    extra: PlanOrder | None
    rebuild: str | None
    card: int | None
    sealed: bool

    def __init__(
        self,
        orders: tuple[PlanOrder, ...] = (),
        extra: PlanOrder | None = None,
        rebuild: str | None = None,
        card: int | None = None,
        sealed: bool = False,
    ) -> None:
        fields = self.__dict__
        fields["orders"] = orders
        fields["extra"] = extra
        fields["rebuild"] = rebuild
        fields["card"] = card
        fields["sealed"] = sealed


class Open(Record):
    pass


class Move(Record, fields=("frm", "dests")):
    frm: str
    dests: tuple[tuple[str, tuple[str, ...]], ...]

    def __init__(self, frm: str, dests: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
        fields = self.__dict__
        fields["frm"] = frm
        fields["dests"] = dests


class Rebuild(Record, fields=("unit", "zone", "slots")):
    unit: str
    zone: str
    slots: tuple[int, ...]

    def __init__(self, unit: str, zone: str, slots: tuple[int, ...]) -> None:
        fields = self.__dict__
        fields["unit"] = unit
        fields["zone"] = zone
        fields["slots"] = slots


class Execute(Record, fields=("index", "units", "slots")):
    index: int
    units: tuple[tuple[str, ...], ...] | None
    slots: tuple[int, ...]

    def __init__(
        self,
        index: int,
        units: tuple[tuple[str, ...], ...] | None = None,
        slots: tuple[int, ...] = (),
    ) -> None:
        fields = self.__dict__
        fields["index"] = index
        fields["units"] = units
        fields["slots"] = slots


class RetreatOrder(Record, fields=("index", "units")):
    index: int
    units: tuple[tuple[str, ...], ...] | None

    def __init__(self, index: int, units: tuple[tuple[str, ...], ...] | None = None) -> None:
        fields = self.__dict__
        fields["index"] = index
        fields["units"] = units


class Cancel(Record, fields=("index", "slots")):
    index: int
    slots: tuple[int, ...]

    def __init__(self, index: int, slots: tuple[int, ...] = ()) -> None:
        fields = self.__dict__
        fields["index"] = index
        fields["slots"] = slots


class EndMovement(Record):
    pass


class Play(Record, fields=("card", "zone", "order", "target", "more_zones")):
    card: int
    zone: str | None
    order: int | None  # a reaction card: the opponent's order it cancels
    target: int | None  # a reaction card: the opponent's card it cancels
    more_zones: tuple[str, ...]  # a card placing several markers, one a zone

    def __init__(
        self,
        card: int,
        zone: str | None = None,
        order: int | None = None,
        target: int | None = None,
        more_zones: tuple[str, ...] = (),
    ) -> None:
        fields = self.__dict__
        fields["card"] = card
        fields["zone"] = zone
        fields["order"] = order
        fields["target"] = target
        fields["more_zones"] = more_zones


class NoReaction(Record):
    pass


class Reinforce(Record, fields=("first", "second")):
    first: str
    second: str

    def __init__(self, first: str, second: str) -> None:
        fields = self.__dict__
        fields["first"] = first
        fields["second"] = second


class Fight(Record, fields=("zone",)):
    zone: str

    def __init__(self, zone: str) -> None:
        fields = self.__dict__
        fields["zone"] = zone


class Cards(Record, fields=("cards", "bang")):
    cards: tuple[int, ...]
    bang: tuple[int, ...]  # those of `cards` played in their ! mode ("1 bang", 2.3)

    def __init__(self, cards: tuple[int, ...] = (), bang: tuple[int, ...] = ()) -> None:
        fields = self.__dict__
        fields["cards"] = cards
        fields["bang"] = bang


class Casualties(Record, fields=("units",)):
    units: tuple[str, ...]

    def __init__(self, units: tuple[str, ...]) -> None:
        fields = self.__dict__
        fields["units"] = units


class RemoveUnit(Record, fields=("unit",)):
    unit: str | None

    def __init__(self, unit: str | None) -> None:
        fields = self.__dict__
        fields["unit"] = unit


# Every decision type, in the order of declaration (what `GameDefaults.format` accepts).
# They are records (pbem.record), not the kit's `@decision` dataclasses: equal, hashed,
# shown and frozen alike, but making 15 dataclasses was a tenth of a cold `pbem show`.
DECISION_TYPES: tuple[type, ...] = (
    Draw,
    Discard,
    Plan,
    Open,
    Move,
    Rebuild,
    Execute,
    RetreatOrder,
    Cancel,
    EndMovement,
    Play,
    NoReaction,
    Reinforce,
    Fight,
    Cards,
    Casualties,
    RemoveUnit,
)

ZONE = r"[a-z0-9]+"
_TO = re.compile(r"(?<![\w-])to(?![\w-])")  # the word `to`, not a part of a unit id
_ORDER_VERBS = frozenset({"execute", "retreat", "cancel"})


def _bad(text: str, expected: str) -> InvalidOrderError:
    return InvalidOrderError(f"{text!r}: expected {expected}")


def _int(digits: str, whole: str) -> int:
    """A number of the text; one past Python's digit limit for int() is no decision."""
    try:
        return int(digits)
    except ValueError:
        raise _bad(whole, f"a number, not one of {len(digits)} digits") from None


def zone_text(zone: str) -> str:
    return zone.lower()


def zone_id(token: str) -> str:
    """Zone ids: areas and sectors are upper case ("A", "IV"), districts digits."""
    return token.upper()


def _slots(text: str, whole: str) -> tuple[int, ...]:
    # "slots 1, 2" (1.2), "#1, #2" (1.0, 1.1), "slot 1, slot 2": each spelling reads alike
    text = re.sub(r"^slots?\s+", "", text.strip())
    items = [s.strip() for s in text.split(",")]
    out = []
    for item in items:
        m = re.fullmatch(r"(?:#|slot\s+)?(\d+)", item)
        if not m:
            raise _bad(whole, "card slots like 'slots 1, 2'")
        out.append(_int(m.group(1), whole))
    if len(set(out)) != len(out):
        raise _bad(whole, "different card slots")
    return tuple(sorted(out))


def _units(text: str, whole: str) -> tuple[str, ...]:
    items = [s.strip() for s in text.split(",") if s.strip()]
    if not items or any(not re.fullmatch(r"[a-z0-9_\-]+", i) for i in items):
        raise _bad(whole, "unit ids separated by commas")
    if len(set(items)) != len(items):
        raise _bad(whole, "each unit once")
    return tuple(sorted(items))


def _groups(text: str, whole: str) -> tuple[tuple[str, ...], ...]:
    return tuple(_units(part, whole) for part in text.split("/"))


def _plan_order(text: str, whole: str) -> PlanOrder:
    m = re.fullmatch(rf"({ZONE})\s*->\s*(.+)", text.strip())
    if not m:
        raise _bad(whole, "orders like '15 to 8:2, 16:2'")
    dests: list[Dest] = []
    for part in m.group(2).split(","):
        d = re.fullmatch(rf"\s*({ZONE})\s*(?::\s*(all|\d+))?\s*", part)
        if not d:
            raise _bad(whole, "destinations like '8:2' or '9:all'")
        count = None if d.group(2) in (None, "all") else _int(d.group(2), whole)
        dests.append((zone_id(d.group(1)), count))
    if not 1 <= len(dests) <= 2:
        raise _bad(whole, "one or two destinations per order (rulebook 5)")
    if len(dests) == 2 and dests[1][1] is None:
        raise _bad(whole, "a number of units for the second destination (rulebook 7.2)")
    if any(c is not None and c < 1 for _z, c in dests):
        raise _bad(whole, "at least one unit per destination")
    return PlanOrder(zone_id(m.group(1)), tuple(dests))


def _format_plan_order(order: PlanOrder, arrow: str) -> str:
    dests = ", ".join(f"{zone_text(z)}:{'all' if c is None else c}" for z, c in order.dests)
    return f"{zone_text(order.frm)} {arrow} {dests}"


def _parse_plan(body: str, whole: str) -> Plan:
    if body == "":
        return Plan(sealed=True)
    if body == "none":
        return Plan()
    orders: list[PlanOrder] = []
    extra = None
    rebuild = None
    card = None
    for part in [p.strip() for p in re.split(r";|(?<![\w-])then(?![\w-])", body)]:
        if (extra is not None or rebuild is not None) and not part.startswith("card"):
            raise _bad(whole, "the additional order last (rulebook 6.1)")
        if part.startswith("extra "):
            extra = _plan_order(part[6:], whole)
        elif m := re.fullmatch(rf"rebuild in ({ZONE})", part):
            if extra is not None:
                raise _bad(whole, "one additional order (rulebook 6.1)")
            rebuild = zone_id(m.group(1))
        elif m := re.fullmatch(r"card (\d+)", part):
            if card is not None:
                raise _bad(whole, "one card: #13 and #22 are never played in one turn (5.4)")
            card = _int(m.group(1), whole)
        else:
            if card is not None:
                raise _bad(whole, "'card N' at the end")
            orders.append(_plan_order(part, whole))
    return Plan(tuple(orders), extra, rebuild, card)


def format_plan(plan: Plan, shell_safe: bool = True) -> str:
    if plan.sealed:
        return "plan"
    arrow = "to" if shell_safe else "->"
    parts = [_format_plan_order(o, arrow) for o in plan.orders]
    if plan.extra is not None:
        parts.append(f"extra {_format_plan_order(plan.extra, arrow)}")
    if plan.rebuild is not None:
        parts.append(f"rebuild in {zone_text(plan.rebuild)}")
    if plan.card is not None:
        parts.append(f"card {plan.card}")
    return "plan " + ((" then " if shell_safe else "; ").join(parts) if parts else "none")


def normal_text(text: str) -> str:
    """A decision's text as the parser reads it: lower case, one space between words, the
    word `to` as `->` ("15 to 8:2" in 1.2 reads as "15 -> 8:2" in 1.0 and 1.1), spaced."""
    t = " ".join(text.strip().lower().split())
    # (each substitution only where it can change something: most decisions have neither)
    if "to" in t:
        t = _TO.sub("->", t)
    if "->" in t:
        t = re.sub(r"\s*->\s*", " -> ", t)
    return t


def parse_decision(text: str) -> object:
    """The decision of `text` (the state is never read: a text is always the same
    decision). Decisions are immutable values, and a game repeats many texts word for word
    ("draw", "no cards", "execute 2"): each text is parsed once per process (`_parsed`),
    a refusal every time it is asked."""
    if type(text) is str:
        return _parsed(text)
    return parse_text(text)


def parse_text(text: str) -> object:
    """The parser itself, without the memo (`parse_decision`)."""
    whole = text
    t = normal_text(text)
    # Every form below starts with its own word and a space: only the forms of the text's
    # first word are tried (the same answer as trying each in turn, with fewer matches).
    verb = t.partition(" ")[0]
    if t == "draw":
        return Draw()
    if t == "open":
        return Open()
    if t == "end movement":
        return EndMovement()
    if t == "no cards":
        return Cards(())
    if verb == "discard" and (m := re.fullmatch(r"discard (.+?)( for move)?", t)):
        return Discard(_slots(m.group(1), whole), "move" if m.group(2) else "limit")
    if t == "plan" or t.startswith("plan "):
        return _parse_plan(t[5:].strip(), whole)
    if verb == "move" and (m := re.fullmatch(rf"move ({ZONE}) -> (.+)", t)):
        dests = []
        # "3 with g1, g2 and -> 9 with g3" (1.2, `to` read as `->`), "3: g1, g2; 9: g3"
        for part in re.split(r";|(?<![\w-])and(?![\w-])", m.group(2)):
            d = re.fullmatch(rf"\s*(?:->\s*)?({ZONE})(?:\s*:\s*|\s+with\s+|\s+)(.+)", part)
            if not d:
                raise _bad(whole, "'move 4 to 3 with g1, g2 and to 9 with g3'")
            dests.append((zone_id(d.group(1)), _units(d.group(2), whole)))
        if not 1 <= len(dests) <= 2 or len({z for z, _u in dests}) != len(dests):
            raise _bad(whole, "one or two different destinations (rulebook 5)")
        return Move(zone_id(m.group(1)), tuple(dests))
    if verb == "rebuild" and (
        m := re.fullmatch(rf"rebuild (\S+) in ({ZONE})(?: discard (.+))?", t)
    ):
        slots = _slots(m.group(3), whole) if m.group(3) else ()
        return Rebuild(m.group(1), zone_id(m.group(2)), slots)
    if verb in _ORDER_VERBS and (
        m := re.fullmatch(r"(execute|retreat|cancel) (\d+)(?: with (.+?))?(?: discard (.+))?", t)
    ):
        kind, index = m.group(1), _int(m.group(2), whole)
        units = _groups(m.group(3), whole) if m.group(3) else None
        slots = _slots(m.group(4), whole) if m.group(4) else ()
        if kind == "execute":
            return Execute(index, units, slots)
        if kind == "retreat" and not slots:
            return RetreatOrder(index, units)
        if kind == "cancel" and units is None:
            return Cancel(index, slots)
        raise _bad(whole, "'retreat N [with ...]' or 'cancel N [discard #a, #b]'")
    if verb == "play" and (m := re.fullmatch(rf"play (\d+)(?: in ({ZONE}(?:\s*,\s*{ZONE})*))?", t)):
        if not m.group(2):
            return Play(_int(m.group(1), whole))
        first, *more = [zone_id(z.strip()) for z in m.group(2).split(",")]
        return Play(_int(m.group(1), whole), first, more_zones=tuple(more))
    if verb == "play" and (m := re.fullmatch(r"play (\d+) on card (\d+)", t)):
        return Play(_int(m.group(1), whole), None, None, _int(m.group(2), whole))
    if verb == "play" and (m := re.fullmatch(r"play (\d+) on (\d+)", t)):
        return Play(_int(m.group(1), whole), None, _int(m.group(2), whole))
    if t == "no reaction":
        return NoReaction()
    if verb == "reinforce" and (m := re.fullmatch(rf"reinforce ({ZONE})\s*,\s*({ZONE})", t)):
        return Reinforce(zone_id(m.group(1)), zone_id(m.group(2)))
    if verb == "fight" and (m := re.fullmatch(rf"fight ({ZONE})", t)):
        return Fight(zone_id(m.group(1)))
    if verb == "cards" and (m := re.fullmatch(r"cards play (.+)", t)):
        nums = []
        bang = []
        for item in m.group(1).split(","):
            c = re.fullmatch(r"\s*(\d+)\s*(!|bang)?\s*", item)
            if not c:
                raise _bad(whole, "'cards play 7, 12', 'cards play 1 bang' or 'no cards'")
            nums.append(_int(c.group(1), whole))
            if c.group(2):
                bang.append(_int(c.group(1), whole))
        if len(set(nums)) != len(nums):
            raise _bad(whole, "each card once")
        return Cards(tuple(sorted(nums)), tuple(sorted(bang)))
    if verb == "casualties" and (m := re.fullmatch(r"casualties (.+)", t)):
        return Casualties(_units(m.group(1), whole))
    if t == "remove none":
        return RemoveUnit(None)
    if verb == "remove" and (m := re.fullmatch(r"remove (\S+)", t)):
        return RemoveUnit(m.group(1))
    raise _bad(
        whole,
        "a Berlin 1945 decision such as 'draw', 'plan ...', 'move 4 to 3 with g1', "
        "'execute 1', 'play 24', 'cards play 7', 'no cards', 'casualties s1', 'end movement'",
    )


def _fmt_slots(slots: tuple[int, ...], shell_safe: bool) -> str:
    if not shell_safe:
        return ", ".join(f"#{s}" for s in slots)
    return ("slot " if len(slots) == 1 else "slots ") + ", ".join(str(s) for s in slots)


def _fmt_groups(groups: tuple[tuple[str, ...], ...]) -> str:
    return " / ".join(", ".join(g) for g in groups)


# text -> its decision, for texts that parse (an error is raised again every time).
_parsed = lru_cache(maxsize=4096)(parse_text)


# --- format: one writer a type ------------------------------------------------------------------
# Each writer is the text of its type. `format_decision` asks the writer of the decision's
# exact type (every entry of a game is formatted once, to check its text is canonical);
# an instance of a subclass takes the first type of `WRITERS` it is an instance of, in
# their order, as the chain of isinstance tests this replaced did (no type here derives
# from another: tests/games/berlin_1945/test_b45_fast_format.py).


def _write_draw(d: Any, shell_safe: bool) -> str:
    return "draw"


def _write_open(d: Any, shell_safe: bool) -> str:
    return "open"


def _write_end_movement(d: Any, shell_safe: bool) -> str:
    return "end movement"


def _write_discard(d: Any, shell_safe: bool) -> str:
    slots = _fmt_slots(d.slots, shell_safe)
    return f"discard {slots}" + (" for move" if d.purpose == "move" else "")


def _write_move(d: Any, shell_safe: bool) -> str:
    if shell_safe:
        dests = " and to ".join(f"{zone_text(z)} with {', '.join(u)}" for z, u in d.dests)
        return f"move {zone_text(d.frm)} to {dests}"
    dests = "; ".join(f"{zone_text(z)}: {', '.join(u)}" for z, u in d.dests)
    return f"move {zone_text(d.frm)} -> {dests}"


def _write_rebuild(d: Any, shell_safe: bool) -> str:
    tail = f" discard {_fmt_slots(d.slots, shell_safe)}" if d.slots else ""
    return f"rebuild {d.unit} in {zone_text(d.zone)}{tail}"


def _write_execute(d: Any, shell_safe: bool) -> str:
    text = f"execute {d.index}"
    if d.units is not None:
        text += f" with {_fmt_groups(d.units)}"
    if d.slots:
        text += f" discard {_fmt_slots(d.slots, shell_safe)}"
    return text


def _write_retreat(d: Any, shell_safe: bool) -> str:
    text = f"retreat {d.index}"
    return text + (f" with {_fmt_groups(d.units)}" if d.units is not None else "")


def _write_cancel(d: Any, shell_safe: bool) -> str:
    tail = f" discard {_fmt_slots(d.slots, shell_safe)}" if d.slots else ""
    return f"cancel {d.index}{tail}"


def _write_play(d: Any, shell_safe: bool) -> str:
    if d.target is not None:
        return f"play {d.card} on card {d.target}"
    if d.order is not None:
        return f"play {d.card} on {d.order}"
    zones = [d.zone, *d.more_zones] if d.zone else []
    return f"play {d.card}" + (f" in {', '.join(map(zone_text, zones))}" if zones else "")


def _write_no_reaction(d: Any, shell_safe: bool) -> str:
    return "no reaction"


def _write_reinforce(d: Any, shell_safe: bool) -> str:
    return f"reinforce {zone_text(d.first)}, {zone_text(d.second)}"


def _write_fight(d: Any, shell_safe: bool) -> str:
    return f"fight {zone_text(d.zone)}"


def _write_cards(d: Any, shell_safe: bool) -> str:
    if not d.cards:
        return "no cards"
    bang = " bang" if shell_safe else "!"
    return "cards play " + ", ".join(f"{n}{bang}" if n in d.bang else str(n) for n in d.cards)


def _write_casualties(d: Any, shell_safe: bool) -> str:
    return "casualties " + ", ".join(d.units)


def _write_remove(d: Any, shell_safe: bool) -> str:
    return f"remove {d.unit or 'none'}"


# In the order the isinstance tests ran.
WRITERS: dict[type, Callable[[Any, bool], str]] = {
    Draw: _write_draw,
    Open: _write_open,
    EndMovement: _write_end_movement,
    Discard: _write_discard,
    Plan: format_plan,
    Move: _write_move,
    Rebuild: _write_rebuild,
    Execute: _write_execute,
    RetreatOrder: _write_retreat,
    Cancel: _write_cancel,
    Play: _write_play,
    NoReaction: _write_no_reaction,
    Reinforce: _write_reinforce,
    Fight: _write_fight,
    Cards: _write_cards,
    Casualties: _write_casualties,
    RemoveUnit: _write_remove,
}


def format_decision(d: object, shell_safe: bool = True) -> str:
    """The canonical text of `d`: shell-safe words (rules 1.2), or with `shell_safe` off the
    text of rules 1.0 and 1.1 (`->`, `;`, `#`, `!`), which their games keep signing."""
    writer = WRITERS.get(type(d))
    if writer is None:
        for kind, written in WRITERS.items():
            if isinstance(d, kind):
                return written(d, shell_safe)
        raise InvalidOrderError(f"not a Berlin 1945 decision: a {type(d).__name__}")
    return writer(d, shell_safe)
