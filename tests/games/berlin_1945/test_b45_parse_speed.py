"""Berlin 1945's decision parser tries only the forms of a text's first word, and makes
the `to` and `->` substitutions only where the text holds them: the same decision, or the
same error, as the plain parser that tried every form in turn (kept here as the
reference, as it was), for the demo save's decisions, the syntax tests' texts and
texts made of the grammar's words."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import PbemError
from pbem.games.berlin_1945.decisions import (
    _TO,
    ZONE,
    Cancel,
    Cards,
    Casualties,
    Discard,
    Draw,
    EndMovement,
    Execute,
    Fight,
    Move,
    NoReaction,
    Open,
    Play,
    Rebuild,
    Reinforce,
    RemoveUnit,
    RetreatOrder,
    _bad,
    _groups,
    _int,
    _parse_plan,
    _slots,
    _units,
    normal_text,
    parse_decision,
    zone_id,
)
from pbem.verify import parse_entries

SAVE = Path(__file__).resolve().parents[3] / "saves" / "berlin-1945-demo.pbem"


def reference_parse(text: str) -> object:
    whole = text
    t = " ".join(text.strip().lower().split())
    t = _TO.sub("->", t)  # "15 to 8:2" (1.2) reads as "15 -> 8:2" (1.0, 1.1)
    t = re.sub(r"\s*->\s*", " -> ", t)
    if t == "draw":
        return Draw()
    if t == "open":
        return Open()
    if t == "end movement":
        return EndMovement()
    if t == "no cards":
        return Cards(())
    if m := re.fullmatch(r"discard (.+?)( for move)?", t):
        return Discard(_slots(m.group(1), whole), "move" if m.group(2) else "limit")
    if t == "plan" or t.startswith("plan "):
        return _parse_plan(t[5:].strip(), whole)
    if m := re.fullmatch(rf"move ({ZONE}) -> (.+)", t):
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
    if m := re.fullmatch(rf"rebuild (\S+) in ({ZONE})(?: discard (.+))?", t):
        slots = _slots(m.group(3), whole) if m.group(3) else ()
        return Rebuild(m.group(1), zone_id(m.group(2)), slots)
    if m := re.fullmatch(r"(execute|retreat|cancel) (\d+)(?: with (.+?))?(?: discard (.+))?", t):
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
    if m := re.fullmatch(rf"play (\d+)(?: in ({ZONE}(?:\s*,\s*{ZONE})*))?", t):
        if not m.group(2):
            return Play(_int(m.group(1), whole))
        first, *more = [zone_id(z.strip()) for z in m.group(2).split(",")]
        return Play(_int(m.group(1), whole), first, more_zones=tuple(more))
    if m := re.fullmatch(r"play (\d+) on card (\d+)", t):
        return Play(_int(m.group(1), whole), None, None, _int(m.group(2), whole))
    if m := re.fullmatch(r"play (\d+) on (\d+)", t):
        return Play(_int(m.group(1), whole), None, _int(m.group(2), whole))
    if t == "no reaction":
        return NoReaction()
    if m := re.fullmatch(rf"reinforce ({ZONE})\s*,\s*({ZONE})", t):
        return Reinforce(zone_id(m.group(1)), zone_id(m.group(2)))
    if m := re.fullmatch(rf"fight ({ZONE})", t):
        return Fight(zone_id(m.group(1)))
    if m := re.fullmatch(r"cards play (.+)", t):
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
    if m := re.fullmatch(r"casualties (.+)", t):
        return Casualties(_units(m.group(1), whole))
    if t == "remove none":
        return RemoveUnit(None)
    if m := re.fullmatch(r"remove (\S+)", t):
        return RemoveUnit(m.group(1))
    raise _bad(
        whole,
        "a Berlin 1945 decision such as 'draw', 'plan ...', 'move 4 to 3 with g1', "
        "'execute 1', 'play 24', 'cards play 7', 'no cards', 'casualties s1', 'end movement'",
    )


def outcome(parse, text: str) -> tuple[str, object]:
    try:
        return "ok", parse(text)
    except PbemError as exc:
        return type(exc).__name__, str(exc)


def check(text: str) -> None:
    assert outcome(parse_decision, text) == outcome(reference_parse, text), text


def test_the_demo_save_decisions_parse_as_before() -> None:
    texts = [e.body["decision"] for e in parse_entries(SAVE.read_bytes()) if "decision" in e.body]
    assert len(texts) > 100
    for text in texts:
        check(text)
        check(text.upper())
        check(text.replace(" -> ", " to "))


WORDS = [
    "draw",
    "open",
    "end",
    "movement",
    "no",
    "cards",
    "reaction",
    "discard",
    "for",
    "move",
    "plan",
    "extra",
    "rebuild",
    "in",
    "card",
    "execute",
    "retreat",
    "cancel",
    "with",
    "play",
    "on",
    "reinforce",
    "fight",
    "casualties",
    "remove",
    "none",
    "then",
    "and",
    "to",
    "->",
    ";",
    ",",
    ":",
    "/",
    "#",
    "#2",
    "slot",
    "slots",
    "1",
    "2",
    "13",
    "22",
    "all",
    "iv",
    "a",
    "b",
    "de-hj",
    "g1",
    "su-a",
    "to-do",
    "toe",
    "0",
    "99",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), st.sampled_from(["", " ", "  "]))
def test_texts_of_the_grammar_parse_as_before(words: list[str], pad: str) -> None:
    check(pad + " ".join(words) + pad)
    check("".join(words))


def test_the_syntax_tests_texts_parse_as_before() -> None:
    source = (Path(__file__).parent / "test_b45_syntax.py").read_text(encoding="utf-8")
    texts = set(re.findall(r'"([^"\\]{1,80})"', source))
    assert len(texts) > 20
    for text in texts:
        check(text)


def reference_normal(text: str) -> str:
    t = " ".join(text.strip().lower().split())
    t = _TO.sub("->", t)
    return re.sub(r"\s*->\s*", " -> ", t)


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet="toTO->-: ,\t\nab1#", max_size=14))
def test_the_text_is_read_as_before(text: str) -> None:
    assert normal_text(text) == reference_normal(text)


def test_a_text_parsed_again_is_the_same_decision_and_a_refusal_is_refused_again() -> None:
    """parse_decision keeps each text's decision (`_parsed`): asked again, a text gives the
    decision the parser itself gives (parse_text), and a text refused is refused every time."""
    from pbem.games.berlin_1945.decisions import _parsed, parse_text

    _parsed.cache_clear()
    texts = [e.body["decision"] for e in parse_entries(SAVE.read_bytes()) if "decision" in e.body]
    for text in texts * 2:
        assert parse_decision(text) == parse_text(text) == reference_parse(text)
    assert _parsed.cache_info().hits >= len(texts)
    for _ in range(2):
        for bad in ("cards play 3, 3", "execute", "fly to the moon"):
            assert outcome(parse_decision, bad) == outcome(parse_text, bad)
            assert outcome(parse_decision, bad)[0] != "ok"
