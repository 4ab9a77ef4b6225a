"""Rules engine for Operation Barbarossa: A WW2 Roll & Write Game.

Dynamics: solitaire. One role, "german", makes every decision over 12 turns; each
turn is a campaign phase (timeline, dice pool, event chart) and a German phase
(roll the pool, then spend dice on attacks and re-supply, cubes on re-rolls and
+1 modifiers). A second role, "referee", never decides anything: it only
supplies the entropy for the dice (protocol section 4), so that the German
player cannot know a roll before signing the decision that asks for it.

Chance: six-sided dice only. White dice are d6; red dice are D3s, rolled as a
d6 and halved rounding up. Every roll goes through `ctx.roll` with its purpose,
and only after the decision that asks for it has been validated completely: so every
handler validates first and rolls last, since the adjudicator's first call uses a
context whose roll() raises EntropyPending, which must mean "legal, waiting for dice".

Information: perfect; nothing is hidden. `view` returns the whole state, with the
gamesheet in words beside it for the summaries (`view.sheet_view`).

The engine is a `StepGame` (pbem.kit): three named steps, "roll_event" and
"modify_event" (the campaign phase, `campaign`) and "allocate" (the German phase,
`german`). The state is plain JSON data and describes itself (turn, phase, timeline,
pool, cubes, map, VP, the event chart), so templates need nothing else; the parts
printed on the gamesheet that never change during a game are its `static_keys`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import Engine, Outcome, State
from pbem.errors import IllegalOrderError
from pbem.games.barbarossa import campaign, german
from pbem.games.barbarossa.board import MAX_DIE_VALUE, R_END, R_PHASE, die_text, illegal, new_die
from pbem.games.barbarossa.data import EFFECTS, FILE_NAME, load_gamesheet
from pbem.games.barbarossa.decisions import (
    DECISION_TYPES,
    FORMS,
    Accept,
    Attack,
    Boost,
    BoostEvent,
    Claim,
    Decision,
    End,
    Reroll,
    RerollEvent,
    RollEvent,
    Supply,
    format_decision,
    parse_decision,
)
from pbem.games.barbarossa.view import sheet_view
from pbem.kit.steps import Handler, Step, StepGame, asks

GERMAN = "german"
REFEREE = "referee"


# Printed on the gamesheet and never changed by play: shared by every copy of the state.
STATIC_KEYS = ("limits", "victory", "events", "event_chart")
# Most of the state, changed only by replacing them (board.own_path, board.mark_timeline):
# shared by copies of the state as well, until a decision replaces them.
COPY_ON_WRITE = ("paths", "timeline")
_SHARED_IN_ORDER = STATIC_KEYS + COPY_ON_WRITE  # a fixed order: copies are built alike
_SHARED = frozenset(_SHARED_IN_ORDER)
# What `clone` copies knowing its shape: the dice of the pool (`board.new_die`: scalars,
# and an allocation, a record the rules make anew when they allocate a die and never
# change afterwards, so that copies share it as they share the paths) and the records
# of scalars. A copy_json of them (marshal), made on every entry, cost about a fifth of
# an entry's rules; anything else, or any of them not of that shape, is still copy_json'd.
_SCALARS = frozenset({str, int, bool, float, type(None)})
_FLAT_RECORDS = frozenset({"cubes", "event_die", "event", "event_cubes"})
_DIE_KEYS = new_die(1, "white").keys()


def _flat(record: dict[str, Any]) -> bool:
    return all(type(value) in _SCALARS for value in record.values())


def copy_part(key: str, value: Any) -> Any:
    """A copy of one part of the state that `clone` does not share: what copy_json gives
    (but for the dice's allocations, shared: see above), faster for the parts whose shape
    is known."""
    kind = type(value)
    if kind is not dict and kind is not list:
        return value  # (a scalar: nothing to copy)
    if key == "pool" and kind is list:
        if all(type(die) is dict and die.keys() == _DIE_KEYS for die in value):
            return [dict(die) for die in value]
    elif key in _FLAT_RECORDS and kind is dict and _flat(value):
        return dict(value)
    return copy_json(value)


# --- The Game Turn: the step table --------------------------------------------------------------
# Each prompt ends with the forms its step accepts, so that a decision refused as "not
# possible now" says what would be ("... (Turn 3 of 12 ..., German phase: ...; expected
# 'attack <city> with <die>', ...)").


def _turn(state: State) -> str:
    turn = state["turn"]
    return f"Turn {turn} of {state['turns']} ({state['timeline'][turn - 1]['label']})"


def _alternatives(forms: list[str]) -> str:
    return forms[0] if len(forms) == 1 else f"{', '.join(forms[:-1])} or {forms[-1]}"


def _step(
    situation: Callable[[State], str],
    handlers: Mapping[type, Handler],
    choices: Callable[[State, str], list[Any]],
) -> Step:
    """A step asking the German player; its prompt is the turn, `situation`, the forms."""
    expected = _alternatives([FORMS[kind] for kind in handlers])
    return Step(
        asks=asks(GERMAN),
        prompt=lambda state, role: f"{_turn(state)}, {situation(state)}; expected {expected}",
        handlers=handlers,
        choices=choices,
        rule=R_PHASE,
    )


def _event_die(state: State) -> str:
    ev = state["event_die"]
    return f"campaign phase: event die {ev['value']} = {ev['name']}"


def _free_dice(state: State) -> str:
    dice = ", ".join(die_text(d) for d in state["pool"] if d["allocated"] is None)
    return f"German phase: free dice {dice or 'none'}"


STEPS: dict[str, Step] = {
    "roll_event": _step(
        lambda state: "campaign phase: roll on the event chart",
        {RollEvent: campaign.roll_event},
        campaign.roll_event_choices,
    ),
    "modify_event": _step(
        _event_die,
        {
            BoostEvent: campaign.boost_event,
            RerollEvent: campaign.reroll_event,
            Accept: campaign.accept,
        },
        campaign.modify_event_choices,
    ),
    "allocate": _step(
        _free_dice,
        {
            Attack: german.attack,
            Supply: german.supply,
            Reroll: german.reroll,
            Boost: german.boost,
            Claim: german.claim,
            End: german.end,
        },
        german.allocate_choices,
    ),
}


class BarbarossaEngine(StepGame):
    """Operation Barbarossa: A WW2 Roll & Write Game, a solitaire dice game of the 1941 campaign.

    The German player rolls a pool of white (d6) and red (D3) dice each of 12 turns
    and spends them to attack Soviet cities along three army group paths or to
    re-supply; cities captured earn victory points.
    """

    name = "barbarossa"
    title = "Operation Barbarossa"
    version = "1.1"
    # 1.0: before the rules fix of issue 13 (one black and one blue cube at most on the
    # event die); its games keep its rules (`for_version`). A 1.1 game records "rules":
    # "1.1" in its state (`board.fixed`), which the fix reads.
    earlier_versions = ("1.0",)
    fixes = True
    roles = (GERMAN, REFEREE)
    required_roles = (GERMAN,)
    data_files = (FILE_NAME,)

    steps = STEPS
    decision_types = DECISION_TYPES
    turn_rule = R_PHASE
    over_rule = R_END
    role_names = {GERMAN: "the German player", REFEREE: "the referee"}
    static_keys = STATIC_KEYS

    def for_version(self, version: str) -> Engine:
        """1.0 keeps the rules as they were: its states never hold "rules"."""
        if version == "1.0":
            return self.earlier("1.0", fixes=False)
        return super().for_version(version)

    def refuse(self, message: str, rule: str) -> IllegalOrderError:
        # Barbarossa's rules are cited by their section titles: "(rulebook: Re-supplying)".
        return illegal(message, rule)

    def clone(self, state: State) -> State:
        """A copy to change: the static parts and the map and timeline are shared.

        The rest is copied part by part (`copy_part`), in the key order a copy_json of it
        gives, then the shared parts in a fixed order: copies are built alike."""
        new: State = {}
        for key, value in state.items():
            if key not in _SHARED:
                kind = type(value)
                new[key] = copy_part(key, value) if kind is dict or kind is list else value
        for key in _SHARED_IN_ORDER:
            if key in state:
                new[key] = state[key]
        return new

    def view(self, state: State, role: str | None) -> State:
        # Perfect information: every role, and the public, sees everything, in a copy of
        # its own (a view shares nothing with the state it shows), with the sheet in words.
        return sheet_view(state)

    # --- data ---------------------------------------------------------------------------

    def read_data(self, raw: Mapping[str, bytes]) -> dict[str, Any]:
        return load_gamesheet(raw[FILE_NAME], FILE_NAME)

    # --- Game Setup ---------------------------------------------------------------------
    # rulebook: Game Setup -- four black cubes in the supply section, two blue cubes in the
    # command section; the timeline is empty and the first city of each path is unlocked.

    def setup(self, data: Any, options: Mapping[str, Any]) -> State:
        self.refuse_options(options)
        data = copy_json(self.data_or_shipped(data))
        paths = []
        for path in data["paths"]:
            cities = []
            for i, city in enumerate(path["cities"]):
                cities.append(
                    {
                        "id": city["id"],
                        "name": city["name"],
                        "stars": city["stars"],
                        "status": "unlocked" if i == 0 else "locked",
                        "boxes": [
                            {"value": b["value"], "supply": b["supply"], "marked": False}
                            for b in city["boxes"]
                        ],
                    }
                )
            paths.append({"id": path["id"], "name": path["name"], "cities": cities})
        state: State = {
            "game": self.name,
            "turn": 1,
            "turns": len(data["timeline"]),
            "phase": "campaign",
            "step": "roll_event",
            "timeline": [dict(box, marked=False) for box in data["timeline"]],
            "event_die": None,
            "event": None,
            "pool": [],
            "cubes": {"supply": data["setup"]["supply"], "command": data["setup"]["command"]},
            "limits": dict(data["limits"], die_value=MAX_DIE_VALUE),
            "pool_size": data["pool"]["white_dice"],
            "paths": paths,
            "vp": 0,
            "victory": data["victory"],
            "events": {
                key: dict(ev, text=EFFECTS[ev["effect"]]) for key, ev in data["events"].items()
            },
            "event_chart": data["event_chart"],
        }
        if self.fixes:
            state["rules"] = self.version
            state["event_cubes"] = None  # {"black": n, "blue": n} spent on the event die
        return state

    # --- syntax -------------------------------------------------------------------------

    def parse_decision(self, text: str, state: State, role: str) -> Decision:
        # (made only if the parser reads them: only a decision that names a city does)
        cities = ((c["id"], c["name"]) for p in state["paths"] for c in p["cities"])
        return parse_decision(text, cities)

    def format_decision(self, decision: Any) -> str:
        return format_decision(decision)

    # --- Winning the Game / Losing the Game ----------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        vp = state["vp"]
        bands = state["victory"]
        top = bands["max"]
        if vp >= bands["triumph"]:
            winner, level = GERMAN, "triumph"
            text = f"German triumph: {vp} VP ({bands['triumph']}-{top})"
        elif vp >= bands["win"]:
            winner, level = GERMAN, "win"
            text = f"German victory: {vp} VP ({bands['win']} or more)"
        elif vp >= bands["historical"]:
            winner, level = None, "historical loss"
            text = (
                f"Historical outcome, a German defeat: {vp} VP "
                f"({bands['historical']}-{bands['win'] - 1})"
            )
        else:
            winner, level = None, "loss"
            text = f"German defeat: {vp} VP ({bands['win'] - 1} or fewer)"
        return Outcome(winner=winner, level=level, score={GERMAN: vp}, text=text)


ENGINE = BarbarossaEngine()
