"""Step tables: a game's turn structure as data, and the one `apply` every game shares.

A game is a table of named steps (Rally the Troops' `states[game.state]`). Each `Step`
declares who is asked, the prompt, the decisions it accepts with their handlers, the
legal choices (listed, and optionally sampled for boards too big to list), and the
openings and commitments a decision may carry. `StepGame` builds the Engine interface
on that table, so that a game writes only its rules:

- `prompts`, `asked_roles`, `choices`, `sample_choice`, `parse` (a step may have its own
  parser) and `due_openings` come from the current step;
- `apply` does, in the same words for every game, the checks that come before any rule:
  the game is over, this role is not asked, this decision is not possible in this step,
  this entry opens or commits what it may not, a reveal obligation is not met; then it
  copies the state (its static parts are shared, never copied), reveals the pieces the
  signer was obliged to open, runs the step's handler, the continuations it names
  (`follow`) and the game's `after` hook;
- `follow` is the one place that decides what comes next (boardgame.io's flow loop): a
  handler only changes the state, and returns None when the state holds the next step,
  or the name of a continuation in the game's table (`continuations`), which may name
  another. So rules never call up into the code that moves play on: a combat's module
  does not import the sequence of play, and a game's modules import one way;
- `with_secrets` and `view` fill and strip hidden pieces (`pieces`), so a view for one
  role never shows another role's sealed values, even from a state that holds them.

One role at a time: a step names exactly one role (protocol section 8). Choices the
rules make simultaneously are a sealed round (`pbem.kit.sealed`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pbem.core.canonical import JSON, copy_json
from pbem.core.engine import Context, Prompt, State
from pbem.errors import IllegalOrderError
from pbem.kit import orders as kit_orders
from pbem.kit import pieces as kit_pieces
from pbem.kit.defaults import GameDefaults
from pbem.record import Record

if TYPE_CHECKING:
    import random  # (the bots' generator, in annotations only: a replay loads no random)

# What a handler (or a continuation) says comes next: None when the state holds the next
# step (the handler set it, or the step goes on), else the name of a continuation in the
# game's table (`StepGame.continuations`).
Next = str | None
Handler = Callable[[State, str, Any, Context], Next]
Continuation = Callable[[State, Context], Next]


class Openings(Record, fields=("required", "optional", "rule")):
    """What a decision opens: labels it must open, and labels it may open (the handler
    then decides what they mean, e.g. the hand slot that holds the card played); `rule`,
    if given, is what a refusal of the entry's openings cites (else the step's rule).

    A frozen record (pbem.record), as Step: a @dataclass costs a `pbem show` the
    compiling of its methods."""

    required: tuple[str, ...]
    optional: frozenset[str]
    rule: str

    def __init__(
        self, required: tuple[str, ...] = (), optional: frozenset[str] = frozenset(), rule: str = ""
    ) -> None:
        fields = self.__dict__
        fields["required"] = required
        fields["optional"] = optional
        fields["rule"] = rule


NO_OPENINGS = Openings()


class Step(
    Record,
    fields=(
        "asks",
        "prompt",
        "handlers",
        "choices",
        "sample",
        "opens",
        "commits",
        "parse",
        "rule",
        "exhaustive",
    ),
):
    """One named step: who is asked, what, which decisions, and what they may carry.

    A frozen record (pbem.record), with what @dataclass(frozen=True) gave it."""

    asks: Callable[[State], str | None]
    prompt: Callable[[State, str], str]
    handlers: Mapping[type, Handler]
    choices: Callable[[State, str], list[Any]]
    sample: Callable[[State, str, random.Random], Any] | None
    opens: Callable[[State, str, Any], Openings] | None
    commits: Callable[[State, str, Any], Collection[str]] | None
    parse: Callable[[str, State, str], Any] | None
    rule: str  # the rule cited when a decision is not possible in this step
    # Whether `choices` lists every legal decision (the handler refuses all others), so
    # that a single listed choice is the only one and its owner's client may sign it
    # without asking (pbem.answers). A callable decides per state. Off by default: a step
    # that lists "a sensible subset" must never be answered for its player.
    exhaustive: bool | Callable[[State], bool]

    def __init__(
        self,
        asks: Callable[[State], str | None],
        prompt: Callable[[State, str], str],
        handlers: Mapping[type, Handler],
        choices: Callable[[State, str], list[Any]],
        sample: Callable[[State, str, random.Random], Any] | None = None,
        opens: Callable[[State, str, Any], Openings] | None = None,
        commits: Callable[[State, str, Any], Collection[str]] | None = None,
        parse: Callable[[str, State, str], Any] | None = None,
        rule: str = "",
        exhaustive: bool | Callable[[State], bool] = False,
    ) -> None:
        fields = self.__dict__
        fields["asks"] = asks
        fields["prompt"] = prompt
        fields["handlers"] = handlers
        fields["choices"] = choices
        fields["sample"] = sample
        fields["opens"] = opens
        fields["commits"] = commits
        fields["parse"] = parse
        fields["rule"] = rule
        fields["exhaustive"] = exhaustive

    @property
    def decisions(self) -> tuple[type, ...]:
        return tuple(self.handlers)


def asks(role: str) -> Callable[[State], str]:
    """A step that always asks `role`."""
    return lambda state: role


def asks_key(*path: str) -> Callable[[State], str | None]:
    """A step that asks the role stored at `state[path[0]][path[1]]...`."""

    def who(state: State) -> str | None:
        value: Any = state
        for key in path:
            if value is None:
                return None
            value = value[key]
        return value

    return who


class StepGame(GameDefaults):
    """An Engine made of a step table. Subclasses set the metadata, `steps`, the decision
    types and the syntax (`parse_decision`, `format_decision`), read their data files
    (`read_data`: pbem.kit.defaults) and write handlers."""

    steps: Mapping[str, Step] = {}

    # what the shared checks cite and say (and `decision_types`: pbem.kit.defaults)
    over_step = "over"
    turn_rule = ""  # the rule cited when a role is asked out of turn
    over_rule = ""  # the rule cited when the game is over
    static_keys: tuple[str, ...] = ()  # parts of the state shared between copies, never changed
    role_names: Mapping[str, str] = {}
    orders: Mapping[str, kit_orders.StandingOrder] = {}  # the standing orders it accepts
    continuations: Mapping[str, Continuation] = {}  # what comes next, by name (`follow`)

    # --- the game's syntax (the only part of the interface a game must write) ------------

    def parse_decision(self, text: str, state: State, role: str) -> Any:
        """The game's text syntax (a step with its own `parse` takes precedence)."""
        raise NotImplementedError(f"{self.name} has no parser")

    # --- the current step -------------------------------------------------------------------

    def step_name(self, state: State) -> str:
        # (`current` and `asked_roles` read the same key in line: asked several times for
        # every entry of every log, a call saved each time)
        return str(state["step"])

    def is_over(self, state: State) -> bool:
        return self.step_name(state) == self.over_step

    def current(self, state: State) -> Step | None:
        name = str(state["step"])  # (`step_name`)
        return None if name == self.over_step else self.steps[name]

    def asked_role(self, state: State) -> str | None:
        step = self.current(state)
        return None if step is None else step.asks(state)

    def asked_roles(self, state: State) -> list[str]:
        # (asked for every entry of every log: `current` in line, no call through asked_role)
        name = str(state["step"])  # (`step_name`)
        if name == self.over_step:
            return []
        role = self.steps[name].asks(state)
        return [] if role is None else [role]

    def name_of(self, role: str | None) -> str:
        if role is None:
            return "nobody"
        return self.role_names.get(role, role)

    def refuse(self, message: str, rule: str) -> IllegalOrderError:
        """A refusal in the game's words; the rule broken is quoted unless already named."""
        if not rule or (message.endswith(")") and "(rulebook " in message):
            return IllegalOrderError(f"illegal: {message}")
        return IllegalOrderError(f"illegal: {message} (rulebook {rule})")

    # --- Engine interface from the table ----------------------------------------------------

    def prompts(self, state: State) -> list[Prompt]:
        role = self.asked_role(state)
        if role is None:
            return []
        step = self.current(state)
        assert step is not None
        return [Prompt(role, step.prompt(state, role))]

    def choices(self, state: State, role: str) -> list[Any]:
        step = self.current(state)
        if step is None or step.asks(state) != role:
            return []
        return step.choices(state, role)

    def sample_choice(self, state: State, role: str, rng: random.Random) -> Any:
        step = self.current(state)
        if step is not None and step.sample is not None and step.asks(state) == role:
            return step.sample(state, role, rng)
        return super().sample_choice(state, role, rng)

    def only_choice(self, state: State, role: str) -> Any | None:
        step = self.current(state)
        if step is None or step.asks(state) != role:
            return None
        exhaustive = step.exhaustive(state) if callable(step.exhaustive) else step.exhaustive
        if not exhaustive:
            return None
        listed = step.choices(state, role)
        return listed[0] if len(listed) == 1 else None

    def standing_orders(self) -> Mapping[str, kit_orders.StandingOrder]:
        return self.orders

    def standing_answer(
        self, state: State, role: str, orders: Mapping[str, str]
    ) -> tuple[Any, str] | None:
        step = self.current(state)
        if step is None or step.asks(state) != role or not orders:
            return None
        return kit_orders.answer(self.orders, self.step_name(state), state, role, orders)

    def parse(self, text: str, state: State, role: str) -> Any:
        step = self.current(state)
        if step is not None and step.parse is not None:
            return step.parse(text, state, role)
        return self.parse_decision(text, state, role)

    def openings(self, state: State, role: str, decision: Any) -> Openings:
        """What `decision` opens, by its step's table, plus `role`'s reveal obligations."""
        return self._openings(self.current(state), state, role, decision, self._owed(state, role))

    def _owed(self, state: State, role: str) -> tuple[str, ...]:
        due = self.due_pieces(state, role)
        return tuple(p["label"] for p in due) if due else ()  # (most often none is due)

    def due_pieces(self, state: State, role: str) -> list[kit_pieces.Piece]:
        """`role`'s pieces that its next entry must open (`pieces.due` of every piece),
        asked for every entry. A game that knows its sealed pieces without looking at each
        opened one (a long game holds hundreds) may override this, with the same answer."""
        return kit_pieces.due(self.pieces(state), role)

    @staticmethod
    def _openings(
        step: Step | None, state: State, role: str, decision: Any, owed: tuple[str, ...]
    ) -> Openings:
        spec = NO_OPENINGS
        if step is not None and step.opens is not None:
            spec = step.opens(state, role, decision)
        if not owed:
            return spec
        required = spec.required + tuple(label for label in owed if label not in spec.required)
        return Openings(required, spec.optional, spec.rule)

    def due_openings(self, state: State, role: str, decision: Any) -> list[str]:
        return list(self.openings(state, role, decision).required)

    # --- hidden pieces ----------------------------------------------------------------------

    def pieces(self, state: State) -> Iterable[kit_pieces.Piece]:
        """Every hidden piece of the state (kit storage: `state["pieces"]`, label -> piece).
        A game that keeps pieces elsewhere (blocks on a map, slots in a hand) overrides this."""
        return list((state.get("pieces") or {}).values())

    def check_claims(self, piece: kit_pieces.Piece, value: JSON) -> None:
        """Check the claims made on `piece` while it was sealed against its opened value."""

    def settle(self, state: State, ctx: Context) -> State:
        """Open every sealed piece the referee's disclose entry opens, each claim on it
        checked (`settle_piece`), as a reveal in play would (Engine.settle)."""
        opened = ctx.opened_now()
        if not any(p["label"] in opened and not p["revealed"] for p in self.pieces(state)):
            return state
        new = self.clone(state)
        for piece in self.pieces(new):
            if piece["label"] in opened and not piece["revealed"]:
                self.settle_piece(new, self.writable(new, piece), ctx)
        return new

    def settle_piece(self, state: State, piece: kit_pieces.Piece, ctx: Context) -> None:
        """Open one sealed piece after the game, checking its claims (a game whose reveals
        check more, such as the values a side owns, overrides this)."""
        kit_pieces.reveal(piece, ctx, self.check_claims)

    def unchecked_claims(self, state: State) -> list[tuple[int, str, str]]:
        """Every claim on a piece still sealed, as made (its facts as the game recorded them)."""
        found = []
        for piece in self.pieces(state):
            if piece["revealed"]:
                continue
            for made in piece["claims"]:
                facts = ", ".join(
                    f"{name} {value}" for name, value in made.items() if name not in ("seq", "by")
                )
                about = f"a claim about {piece['label']}" + (f" ({facts})" if facts else "")
                found.append((int(made["seq"]), str(made["by"]), about))
        return found

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        """`state` with `role`'s own sealed values filled in (only its own client does this)."""
        mine = [p for p in self.pieces(state) if p["owner"] == role and p["label"] in known]
        if not any(not p["revealed"] for p in mine):
            return state
        new = self.clone_for_secrets(state)
        for piece in self.pieces(new):
            if piece["owner"] == role and not piece["revealed"] and piece["label"] in known:
                piece = self.writable(new, piece)
                piece["value"] = known[piece["label"]]
                piece["known"] = True
        return new

    def view(self, state: State, role: str | None) -> State:
        """What `role` may see: every sealed value that is not its own is stripped, even
        from a state that holds them (boardgame.io's STRIP_SECRETS)."""
        view = self.clone(state)
        for piece in self.pieces(view):
            if piece.get("known") and piece["owner"] != role:
                piece = self.writable(view, piece)
                piece["value"] = None
                del piece["known"]
        return view

    # --- state copies -----------------------------------------------------------------------

    def clone_for_secrets(self, state: State) -> State:
        """The copy `with_secrets` fills in: by default a whole `clone`. A game may copy less
        (only the parts holding its pieces): a role's filled-in state is only read (choices,
        parse, seal, views), never applied."""
        return self.clone(state)

    def writable(self, state: State, piece: kit_pieces.Piece) -> kit_pieces.Piece:
        """`piece` of `state` (a copy being changed), to change in place: the kit asks this
        before each change it makes to a piece (a reveal, a view's stripping). A `clone`
        that copies every piece has nothing to do (the default); one that shares pieces
        with the state it copied returns the copy's own (copied first if shared)."""
        return piece

    def clone(self, state: State) -> State:
        """A copy to change; static parts (`static_keys`: map, card texts) are shared."""
        if not self.static_keys:
            copied: State = copy_json(state)
            return copied
        static = {key: state[key] for key in self.static_keys if key in state}
        copied = copy_json({k: v for k, v in state.items() if k not in static})
        copied.update(static)
        return copied

    # --- apply ------------------------------------------------------------------------------

    def before(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        """Hook: runs on the copy after the shared checks, before the step's handler."""

    def after(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        """Hook: runs on the copy after the step's handler and the continuations it named
        (end-of-game checks...)."""

    def follow(self, state: State, what: Next, ctx: Context) -> None:
        """The one place that decides what comes next: while a handler or a continuation
        names one (`Next`), run it from the game's table, on the copy being changed. A
        handler that sets the next step itself returns None, and nothing runs."""
        while what is not None:
            continuation = self.continuations.get(what)
            if continuation is None:  # a bug in the game, not a player's illegal decision
                raise KeyError(f"{self.name} has no continuation {what!r}")
            what = continuation(state, ctx)

    def standing_commits(self, state: State, role: str) -> Collection[str]:
        """Labels `role`'s next entry may commit whatever its decision (e.g. drawn cards)."""
        return ()

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        if not isinstance(decision, self.decision_types):
            raise IllegalOrderError(f"illegal: {decision!r} is not a {self.title} decision")
        step = self.current(state)
        if step is None:
            raise self.refuse("the game is over", self.over_rule)
        asked = step.asks(state)
        if role != asked:
            raise self.refuse(
                f"{role!r} is not asked now; the game waits for {self.name_of(asked)}",
                self.turn_rule,
            )
        handler = step.handlers.get(type(decision))
        if handler is None:
            raise self.refuse(
                f"{self.format(decision)!r} is not possible now ({step.prompt(state, role)})",
                step.rule or self.turn_rule,
            )
        owed = self._owed(state, role)
        spec = (  # (`_openings`, its call saved when the step opens nothing and none is owed)
            NO_OPENINGS
            if step.opens is None and not owed
            else self._openings(step, state, role, decision, owed)
        )
        self._check_openings(state, role, spec, step, ctx)
        self._check_commits(state, role, decision, step, ctx)
        new = self.clone(state)
        if owed:  # the pieces the signer was obliged to open: open them before the rules run
            for piece in self.due_pieces(new, role):
                kit_pieces.reveal(self.writable(new, piece), ctx, self.check_claims)
        self.before(new, role, decision, ctx)
        self.follow(new, handler(new, role, decision, ctx), ctx)
        self.after(new, role, decision, ctx)
        return new

    def _check_openings(
        self, state: State, role: str, spec: Openings, step: Step, ctx: Context
    ) -> None:
        opened = ctx.opened_now()
        if not opened and not spec.required:
            return  # most entries open nothing and owe nothing
        rule = spec.rule or step.rule or self.turn_rule
        missing = [label for label in spec.required if label not in opened]
        if missing:
            why = [p["due"] for p in self.pieces(state) if p["label"] in missing and p["due"]]
            raise self.refuse(
                f"this entry must open {', '.join(missing)}" + (f" ({why[0]})" if why else ""),
                rule,
            )
        extra = sorted(set(opened) - set(spec.required) - spec.optional)
        if extra:
            raise self.refuse(f"{', '.join(extra)} may not be opened by this decision", rule)

    def _check_commits(
        self, state: State, role: str, decision: Any, step: Step, ctx: Context
    ) -> None:
        committed = ctx.committed_now()
        if not committed:
            return
        allowed = set(self.standing_commits(state, role))
        if step.commits is not None:
            allowed.update(step.commits(state, role, decision))
        extra = [label for label in committed if label not in allowed]
        if extra:
            raise self.refuse(
                f"{', '.join(extra)} may not be committed by this decision",
                step.rule or self.turn_rule,
            )
