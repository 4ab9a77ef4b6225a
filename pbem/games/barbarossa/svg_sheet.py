"""The Barbarossa gamesheet's timeline, trackers and dice pool, drawn from a view.

rulebook: The Timeline, Capturing Cities and Gaining Victory Points (the VP tracker),
Re-supplying and Rolling sixes (the supply and command trackers), Rolling your dice
(the dice pool).
"""

from __future__ import annotations

from typing import Any

from pbem.games.barbarossa.svg_pen import (
    BLUE,
    INK,
    RED,
    Marks,
    View,
    cross,
    figure,
    outline_changed,
    red_die,
    section_label,
    sized,
)
from pbem.games.barbarossa.view import city_names, shows_text, six_state
from pbem.maps.layout import Place
from pbem.maps.svg import Drawing


def draw_timeline(d: Drawing, view: View, at: Place, marks: Marks) -> None:
    """rulebook: The Timeline -- 12 boxes, one marked a turn; Rasputitsa boxes show red dice."""
    w, h, gap = sized(at, "w", 76), sized(at, "h", 54), sized(at, "gap", 5)
    section_label(d, at.x, at.y - 7, "Timeline")
    for i, box in enumerate(view["timeline"]):
        x = at.x + i * (w + gap)
        n = box["box"]
        classes = "timeline-box" + (" marked" if box["marked"] else "")
        with d.group(
            id=f"timeline-{n}", class_=classes, data_value=n, data_red_dice=box["red_dice"]
        ):
            d.rect(
                x,
                at.y,
                w,
                h,
                f"timeline box {n}: {box['label']}",
                rx=3,
                fill="#fff",
                stroke=INK,
            )
            d.text(x + 5, at.y + 14, str(n), font_size=12, font_weight="bold", fill=INK)
            d.text(
                x + w / 2, at.y + h - 6, box["label"], font_size=10, fill=INK, text_anchor="middle"
            )
            for k in range(box["red_dice"]):
                red_die(d, x + w - 16 - 15 * k, at.y + 5)
            if box["marked"]:
                cross(d, x + w * 0.25, at.y + 8, w * 0.5, h - 24)
            if f"timeline.{n}" in marks:
                outline_changed(d, x, at.y, w, h, marks[f"timeline.{n}"])


def draw_vp(d: Drawing, view: View, at: Place) -> None:
    """rulebook: Capturing Cities -- one box of the VP tracker per red star; the bands of
    Winning the Game and Losing the Game shaded under it."""
    size, gap = sized(at, "box", 27), sized(at, "gap", 3)
    bands = view["victory"]
    top = bands["max"] or 20
    vp = view["vp"]
    section_label(d, at.x, at.y - 7, f"Victory points: {vp}")
    with d.group(id="vp", data_value=vp):
        for n in range(1, top + 1):
            x = at.x + (n - 1) * (size + gap)
            if n >= bands["triumph"]:
                fill = "#f3d36b"
            elif n >= bands["win"]:
                fill = "#bfe0b0"
            elif n >= bands["historical"]:
                fill = "#d9d4c6"
            else:
                fill = "#fff"
            with d.group(id=f"vp-{n}", class_="vp-box" + (" marked" if n <= vp else "")):
                d.rect(
                    x,
                    at.y,
                    size,
                    size,
                    fill=fill,
                    stroke=INK,
                )
                d.text(
                    x + size / 2,
                    at.y + size / 2 + 4,
                    str(n),
                    font_size=11,
                    fill=INK,
                    text_anchor="middle",
                )
                if n <= vp:
                    cross(d, x, at.y, size, size, 2.5)
        step = size + gap
        for low, high, name in (
            (bands["historical"], bands["win"] - 1, "historical"),
            (bands["win"], bands["triumph"] - 1, "victory"),
            (bands["triumph"], top, "triumph"),
        ):
            x = at.x + (low - 1) * step + (high - low + 1) * step / 2
            d.text(
                x,
                at.y + size + 13,
                f"{name} {low}-{high}",
                font_size=10,
                fill=INK,
                text_anchor="middle",
            )


# The cube trackers: their label and the colour of their cubes.
TRACKERS = {"supply": ("Supply (black cubes)", INK), "command": ("Command (blue cubes)", BLUE)}


def draw_cubes(d: Drawing, view: View, name: str, at: Place) -> None:
    """The supply or command tracker: a slot per cube it can hold, the cubes it holds."""
    label, colour = TRACKERS[name]
    count, cap = view["cubes"][name], view["limits"][name]
    size, gap = sized(at, "box", 27), sized(at, "gap", 5)
    section_label(d, at.x, at.y - 7, f"{label}: {count}/{cap}")
    with d.group(id=name, class_="tracker", data_value=count, data_cap=cap):
        for n in range(1, cap + 1):
            x = at.x + (n - 1) * (size + gap)
            filled = n <= count
            d.rect(
                x,
                at.y,
                size,
                size,
                rx=3,
                fill="#fff",
                stroke=INK,
                stroke_dasharray=None if filled else "3 2",
                id=f"{name}-{n}",
                class_="slot" + (" cube" if filled else ""),
            )
            if filled:
                inset = size * 0.18
                d.rect(
                    x + inset,
                    at.y + inset,
                    float(size - 2 * inset),
                    float(size - 2 * inset),
                    rx=2,
                    fill=colour,
                )


# --- the dice pool --------------------------------------------------------------------------


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
