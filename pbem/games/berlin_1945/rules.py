"""Rules engine for Berlin 1945: The Fall of the Reichstag (roles german and soviet).

A turn (rulebook 7): card draw (private draws, hand limit 6), secret Soviet planning (one
commitment `plan/turn-<n>`), German movement, Soviet movement (the plan is opened and
executed; orders the German made illegal are cancelled or converted into a Retreat),
combat in every disputed zone (German then Soviet card choice, deterministic strengths,
the winner's d10 casualty checks), and the Reichstag presence check. Soviet reinforcements
arrive after the draw of turn 4 (8.1). From the end of turn 4 the German wins at once when
his strength in Berlin exceeds the Soviet one; otherwise the Soviet wins at the end of turn
12 with twice the German strength in Sector V (9). At the end both sides open every hand
slot and draw secret and every draw is recomputed and checked.

Modules: `decisions` (syntax), `tables` (data to tables), `state`, `moves` (5), `plan`
(7.2, 7.3), `hands` (2.3, private draws), `cards` (effects by primitive), `flow` (7, 9),
`actions` (handlers), `choices`, `bot`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import FRESH, Context, Engine, Outcome, Prompt, State
from pbem.errors import DataError, IllegalOrderError, InvalidOrderError, PbemError
from pbem.games.berlin_1945 import data as b45_data
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.actions import HANDLERS, STEPS
from pbem.games.berlin_1945.choices import choices, prompt_text
from pbem.games.berlin_1945.decisions import (
    DECISION_TYPES,
    Cards,
    Draw,
    Open,
    Plan,
    Play,
    format_decision,
    parse_decision,
)
from pbem.games.berlin_1945.flow import asked, start_deal
from pbem.games.berlin_1945.hands import (
    check_commits,
    commit_pending,
    fill_secrets,
    hand_cards,
    reveal_labels,
    seal_values,
    secret_label,
    slot_of,
)
from pbem.games.berlin_1945.plan import check_plan_legal, plan_label, plan_to_json, snapshot
from pbem.games.berlin_1945.state import NAMES, ROLES, clone, illegal, initial_state

OPENS = (Play, Cards, Open)


class Berlin1945Engine(Engine):
    """Berlin 1945: The Fall of the Reichstag, German against Soviet in 12 turns, with a secret
    Soviet plan and hidden hands drawn privately."""

    name = "berlin-1945"
    title = "Berlin 1945: The Fall of the Reichstag"
    version = "1.0"
    roles = ROLES
    required_roles = ROLES
    data_files = b45_data.DATA_FILES

    def default_data(self) -> dict[str, bytes]:
        return tables.default_files()

    def load_data(self, files: Mapping[str, bytes]) -> dict[str, Any]:
        merged = {**self.default_data(), **dict(files)}
        b45_data.load_data(merged)  # validates (DataError with a clear message)
        return tables.build(merged)

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        if options:
            raise DataError(f"berlin-1945 has no options (got {', '.join(sorted(options))})")
        if data is None:
            data = self.load_data({})
        state = initial_state(data)
        start_deal(state)
        return state

    # --- prompts and syntax -------------------------------------------------------------

    def prompts(self, state: State) -> list[Prompt]:
        return [Prompt(r, prompt_text(state, r)) for r in asked(state)]

    def choices(self, state: State, role: str) -> list[Any]:
        if role not in asked(state):
            return []
        return choices(state, role)

    def parse(self, text: str, state: State, role: str) -> Any:
        return parse_decision(text)

    def format(self, decision: Any) -> str:
        if not isinstance(decision, DECISION_TYPES):
            raise InvalidOrderError(f"not a Berlin 1945 decision: {decision!r}")
        return format_decision(decision)

    # --- hidden information -------------------------------------------------------------

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        if role not in ROLES:
            return state
        return fill_secrets(state, role, known)

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        values = seal_values(state, role)
        if isinstance(decision, Draw):
            n = len(state["hands"][role]["secrets"]) + 1
            values[secret_label(role, n)] = FRESH
        if isinstance(decision, Plan) and not decision.sealed:
            plan = plan_to_json(decision)
            temp = clone(state)
            temp["plan"] = {"snapshot": snapshot(state)}
            try:
                check_plan_legal(temp, plan)
            except PbemError as exc:
                raise illegal(f"the plan is illegal: {exc}", "7.2") from exc
            if plan["card"] is not None and slot_of(state, role, int(plan["card"])) is None:
                raise illegal(f"card #{plan['card']} is not in your hand", "5.4")
            values[plan_label(state["turn"])] = plan
            return Plan(sealed=True), values
        if isinstance(decision, (Play, Cards)):
            cards = (decision.card,) if isinstance(decision, Play) else decision.cards
            held = hand_cards(state, role)
            for c in cards:
                if c not in held.values():
                    raise illegal(f"card {c} is not in your hand", "2.3")
        return decision, values

    def due_openings(self, state: State, role: str, decision: Any) -> list[str]:
        slots = state["hands"][role]["slots"]
        if isinstance(decision, Play):
            k = slot_of(state, role, decision.card)
            return [] if k is None else [slots[str(k)]["label"]]
        if isinstance(decision, Cards):
            out = []
            for c in decision.cards:
                k = slot_of(state, role, c)
                if k is not None:
                    out.append(slots[str(k)]["label"])
            return out
        if isinstance(decision, Open):
            if state["step"] == "reveal":
                return reveal_labels(state, role)
            if state["step"] == "open" and state["plan"] is not None:
                labels = [state["plan"]["label"]]
                mine = state["plan"].get("mine")
                if isinstance(mine, dict) and mine.get("card") is not None:
                    k = slot_of(state, role, int(mine["card"]))
                    if k is not None:
                        labels.append(slots[str(k)]["label"])
                return labels
        return []

    # --- apply --------------------------------------------------------------------------

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        if not isinstance(decision, DECISION_TYPES):
            raise IllegalOrderError(f"illegal: {decision!r} is not a Berlin 1945 decision")
        if state["step"] == "over":
            raise illegal("the game is over", "9")
        if role not in asked(state):
            who = ", ".join(NAMES[r] for r in asked(state)) or "nobody"
            raise illegal(f"{role!r} is not asked now; the game waits for {who}", "7")
        if not isinstance(decision, STEPS[state["step"]]):
            raise illegal(
                f"{format_decision(decision)!r} is not possible now ({prompt_text(state, role)})",
                "7",
            )
        if not isinstance(decision, OPENS) and ctx.opened_now():
            raise illegal(f"{', '.join(sorted(ctx.opened_now()))} may not be opened now", "2.3")
        allowed: set[str] = set()
        if isinstance(decision, Draw):
            allowed.add(secret_label(role, len(state["hands"][role]["secrets"]) + 1))
        if isinstance(decision, Plan):
            allowed.add(plan_label(state["turn"]))
        new = clone(state)
        check_commits(new, role, ctx, allowed)
        commit_pending(new, role, ctx)
        HANDLERS[type(decision)](new, role, decision, ctx)
        return new

    # --- views and the result -----------------------------------------------------------

    def view(self, state: State, role: str | None) -> State:
        view = clone(state)
        if role is None:
            for hand in view["hands"].values():
                for slot in hand["slots"].values():
                    slot.pop("known", None)
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state["step"] != "over":
            return None
        result = state["result"]
        winner = result["winner"]
        score = {r: (1 if r == winner else 0) for r in ROLES}
        return Outcome(winner, result["level"], score, result["reason"])


ENGINE = Berlin1945Engine()
