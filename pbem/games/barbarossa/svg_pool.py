"""The Barbarossa gamesheet's dice pool, drawn from a view.

rulebook: Rolling your dice (the dice, what each shows and what it did), Rolling sixes
(a natural six claimed with a blue cube).
"""

from __future__ import annotations

from typing import Any

from pbem.games.barbarossa.svg_pen import (
    BLUE,
    INK,
    RED,
    Marks,
    View,
    figure,
    outline_changed,
    section_label,
    sized,
)
from pbem.games.barbarossa.view import city_names, shows_text, six_state
from pbem.maps.layout import Place
from pbem.maps.svg import Drawing


def draw_pool(d: Drawing, view: View, at: Place, marks: Marks) -> None:
    """rulebook: Rolling your dice -- the pool's dice, what each shows and what it did; an
    empty pool (between turns) lists what the dice of the last turn did, from `marks`."""
    w, h = sized(at, "w", 990), sized(at, "h", 104)
    with d.group(id="pool", data_dice=len(view["pool"])):
        d.rect(at.x, at.y, w, h, rx=8, fill="#fff", stroke="#b9ad8c")
        if view["pool"]:
            _dice(d, view, at, w, marks)
        else:
            _last_dice(d, view, at, marks)


def _dice(d: Drawing, view: View, at: Place, w: float, marks: Marks) -> None:
    pool = view["pool"]
    rolled = pool[0]["roll"] is not None
    section_label(d, at.x + 10, at.y + 20, "Dice pool" + ("" if rolled else ": rolled on 'accept'"))
    step = min(140.0, (w - 30) / len(pool))
    for i, die in enumerate(pool):
        _die(d, view, die, at.x + 20 + i * step, at.y + 34, marks)


def _last_dice(d: Drawing, view: View, at: Place, marks: Marks) -> None:
    done = sorted(
        (int(k[4:]), v) for k, v in marks.items() if k.startswith("die.") and k[4:].isdigit()
    )
    empty = "the game is over" if view["phase"] == "over" else "empty until 'roll event'"
    last = "; what the dice of the last turn did:" if done else ""
    section_label(d, at.x + 10, at.y + 20, f"Dice pool: {empty}{last}")
    for i, (n, text) in enumerate(done):
        d.text(
            at.x + 20 + (i // 3) * 330,
            at.y + 42 + (i % 3) * 18,
            f"die {n}: {text}",
            font_size=12,
            fill=INK,
            class_="last-die",
        )


def _die(d: Drawing, view: View, die: dict[str, Any], x: float, y: float, marks: Marks) -> None:
    names = city_names(view)
    # a natural six can only be claimed while the command tracker has room (Rolling sixes)
    full = view["cubes"]["command"] >= view["limits"]["command"]
    n = die["die"]
    alloc = die["allocated"]
    six = six_state(die)
    red = die["colour"] == "red"
    classes = f"die {die['colour']}" + (" used" if alloc else "") + (f" six-{six}" if six else "")
    with d.group(id=f"die-{n}", class_=classes, data_value=die["value"]):
        d.rect(
            x,
            y,
            44,
            44,
            rx=7,
            fill=RED if red else "#fff",
            stroke=INK,
            stroke_width=1.5,
            opacity=0.55 if alloc else None,
        )
        shown = "?" if die["value"] is None else die["value"]
        figure(d, x + 22, y + 30, shown, 24, "#fff" if red else INK)
        if six == "unclaimed":
            d.rect(
                x + 34,
                y - 6,
                14,
                14,
                "natural six: the command tracker is full, spend a blue cube first"
                if full
                else f"natural six: claim {n} takes a blue cube",
                rx=2,
                fill=BLUE,
                stroke="#fff",
                class_="unclaimed-six",
            )
        # "roll 5 = D3 3": the caption has the room of about 15 characters
        shows = (
            "not rolled yet" if die["roll"] is None else shows_text(die).replace("rolled", "roll")
        )
        lines = [f"die {n}", shows]
        if alloc and alloc["kind"] == "supply":
            lines.append(f"→ supply +{alloc['gained']}")
        elif alloc:
            boxes = ",".join(str(b) for b in alloc.get("marked") or [])
            lines.append(f"→ {names.get(alloc['city'], alloc['city'])} {boxes}")
        elif die["roll"] is not None:
            lines.append("free")
        if six == "unclaimed":
            lines.append("six: tracker full" if full else f"six: claim {n}")
        for k, line in enumerate(lines):
            claim = line.startswith("six:")
            d.text(
                x + 50,
                y + 10 + 13 * k,
                line,
                font_size=11,
                fill=BLUE if claim else INK,
                font_weight="bold" if k == 0 or claim else None,
            )
        if f"die.{n}" in marks:
            outline_changed(d, x, y, 44, 44, marks[f"die.{n}"])
