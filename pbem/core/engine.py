"""The engine interface every game implements, and the registry that finds games by name.

An engine is a pure, deterministic rules object. It never does I/O, never reads
the clock and never uses global `random`: every draw goes through the `Context`
that the adjudicator passes to `apply`. State is plain JSON data (dicts, lists,
ints, strings, bools, None); `apply` returns a new state and never mutates its input.

Shape learned from OpenSpiel (explicit chance, observers), boardgame.io (pure
moves, playerView), Rally the Troops (named steps with prompts) and python-chess
(parse/format pairs, a registry of variants).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from types import ModuleType

from pbem.core.canonical import JSON
from pbem.errors import PbemError
from pbem.hints import TYPE_CHECKING, Any, Protocol
from pbem.lazy import lazy_module
from pbem.record import Record

if TYPE_CHECKING:
    import random  # (only named in a signature: not imported by a `pbem verify`)

# (copy imports weakref: both run at the first copy, which a genesis alone never makes)
copy = lazy_module("copy")

State = dict[str, Any]

# `Engine.seal` returns this as the value of a label that must hold a fresh 32-byte
# random secret (the x of a private draw); the client puts the secret in its place.
FRESH = "<fresh 32-byte secret>"


_NEW_DICT: Any = object()  # "no data given": each Event then gets a dict of its own

# Prompt, Event and Outcome are frozen records (pbem.record: what @dataclass(frozen=True)
# gives, without the dataclasses module a `pbem verify` would otherwise import).


class Prompt(Record, fields=("role", "text")):
    """A role is asked for a decision. At most one role is asked at a time (protocol
    section 8): choices the rules make "at the same time" are sealed rounds (pbem.kit)."""

    role: str
    text: str

    def __init__(self, role: str, text: str) -> None:
        fields = self.__dict__
        fields["role"] = role
        fields["text"] = text


class Event(Record, fields=("text", "data")):
    """Something that happened, with the reason, for summaries and replays."""

    text: str
    data: Mapping[str, JSON]

    def __init__(self, text: str, data: Mapping[str, JSON] = _NEW_DICT) -> None:
        fields = self.__dict__
        fields["text"] = text
        fields["data"] = {} if data is _NEW_DICT else data  # (a fresh dict, as default_factory)


class Outcome(Record, fields=("winner", "level", "score", "text")):
    """The end of a game: who won, how well, and the score by role."""

    winner: str | None
    level: str
    score: Mapping[str, int]
    text: str

    def __init__(self, winner: str | None, level: str, score: Mapping[str, int], text: str) -> None:
        fields = self.__dict__
        fields["winner"] = winner
        fields["level"] = level
        fields["score"] = score
        fields["text"] = text


class Decision(Protocol):
    """A decision is a small frozen dataclass; the engine's `format` gives its text."""


class Context(Protocol):
    """What `apply` may ask the adjudicator for. Every draw is logged with its purpose."""

    @property
    def seq(self) -> int:
        """The seq of the entry whose decision is being applied."""
        ...

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        """A public random integer in [lo, hi] (a d6 is roll(1, 6, ...))."""
        ...

    def event(self, text: str, **data: JSON) -> None:
        """Record what happened and why ("river +1", "box 5 of Minsk marked")."""
        ...

    def committed_now(self) -> list[str]:
        """Labels the entry being applied commits to (protocol section 5)."""
        ...

    def opened_now(self) -> dict[str, JSON]:
        """Label -> value of every commitment the entry being applied opens (checked)."""
        ...

    def is_committed(self, label: str) -> bool: ...

    def committed_at(self, label: str) -> int | None:
        """The seq of the entry that committed `label` (None: never committed): a false
        claim names the entry that made it."""
        ...

    def is_opened(self, label: str) -> bool: ...

    def value(self, label: str) -> JSON:
        """The opened value of a commitment (a rules error while it is sealed)."""
        ...

    def private_roll(self, secret: str, lo: int, hi: int, purpose: str) -> str:
        """A draw only the owner of the sealed secret `secret` (committed by the entry being
        applied, with the value FRESH in `seal`) can compute; returns the draw's key.
        The owner's client gets the value in `known` under that key."""
        ...

    def private_value(self, key: str) -> int | None:
        """A private draw's value once its secret is opened in the log, else None."""
        ...

    def draw(self, pile: list[Any], purpose: str) -> Any:
        """Take one item out of `pile` at random (a public draw of index int(len(pile)),
        protocol section 7) and return it; `pile` is the engine's own list, in its
        canonical order."""
        ...

    def shuffle(self, pile: list[Any], purpose: str) -> None:
        """Shuffle `pile` in place: Fisher-Yates from the top index down (section 7)."""
        ...


class Engine(ABC):
    """One object per game. Subclasses set the metadata and implement the rules."""

    name: str  # registry id, e.g. "barbarossa"
    title: str
    version: str
    roles: tuple[str, ...]  # every role that may appear in a game, in display order
    required_roles: tuple[str, ...]  # roles a game cannot start without
    data_files: tuple[str, ...]  # default data file names, shipped in the game package
    # Versions of the rules still played and verified: a game made under one of them keeps
    # its rules (saves are promises), through the engine `for_version` gives.
    earlier_versions: tuple[str, ...] = ()
    # Options that need a referee holding every player's secrets (a double-blind game,
    # pbem.core.blind): refused in any other game. Race to the Sea's `shared_cup`.
    double_blind_options: frozenset[str] = frozenset()

    def for_version(self, version: str) -> Engine:
        """The engine that plays `version` of the rules: this one for `self.version`; for one
        of `earlier_versions`, an engine that keeps that version's behaviour (a game that
        fixes a rule overrides this, e.g. returning a copy with the fix switched off)."""
        if version == self.version:
            return self
        raise ValueError(f"{self.name} does not play version {version}")

    def earlier(self, version: str, **changes: Any) -> Engine:
        """A copy of this engine that plays `version`, with `changes` to its attributes (the
        switches of the fixes it predates): made once per version, so that two games of one
        version have the same engine and compare equal."""
        kept: dict[str, Engine] = self.__dict__.setdefault("_earlier_engines", {})
        if version not in kept:
            old = copy.copy(self)
            old.__dict__["_earlier_engines"] = {}
            old.version = version
            for name, value in changes.items():
                setattr(old, name, value)
            kept[version] = old
        return kept[version]

    @abstractmethod
    def default_data(self) -> dict[str, bytes]:
        """The shipped data files by name (bytes exactly as hashed into genesis)."""

    @abstractmethod
    def load_data(self, files: Mapping[str, bytes]) -> Any:
        """Parse and validate the data files; raise DataError with a clear message."""

    @abstractmethod
    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        """The initial state."""

    @abstractmethod
    def prompts(self, state: State) -> list[Prompt]:
        """Who must decide what now; empty when the game is over."""

    @abstractmethod
    def choices(self, state: State, role: str) -> list[Any]:
        """Legal decisions for `role` now (enumerated; used by bots, menus and tests)."""

    def asked_roles(self, state: State) -> list[str]:
        """The roles asked now, without building prompt texts (the adjudicator asks this
        for every entry). An honest engine names at most one; the adjudicator refuses an
        entry after which an engine asks two (protocol section 8)."""
        return [prompt.role for prompt in self.prompts(state)]

    def sample_choice(self, state: State, role: str, rng: random.Random) -> Any:
        """One legal decision for `role`, at random (bots and fuzzing). A game whose
        choices are too many to list (a hex map) overrides this to sample directly."""
        options = self.choices(state, role)
        if not options:
            raise PbemError(f"dead end: {role} is asked but has no legal choice")
        return rng.choice(options)

    @abstractmethod
    def parse(self, text: str, state: State, role: str) -> Any:
        """Parse the human syntax; raise InvalidOrderError quoting the text."""

    @abstractmethod
    def format(self, decision: Any) -> str:
        """The canonical text of a decision; parse(format(d)) == d."""

    @abstractmethod
    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        """Validate completely, then play the decision. Raise IllegalOrderError before any draw."""

    @abstractmethod
    def view(self, state: State, role: str | None) -> State:
        """What `role` may see (None: the public). Templates only ever get views."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over, else None."""

    # --- hidden information (optional: games without secrets keep the defaults) -------------
    # The public state is built from the log alone, so it never holds a sealed value.
    # A role's own client adds that role's own sealed values (label -> value, from its
    # store) with `with_secrets`, and calls `choices`, `parse`, `seal`, `due_openings`
    # and `view` on the result. The adjudicator only ever applies public decisions to
    # the public state.

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        """`state` as `role` knows it: its own sealed values filled in. Never applied."""
        return state

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        """Split a decision made by its owner into its public part and the values to commit.

        "place 4 in 17" becomes the public "place block in 17" plus {"block/west/1/3": 4}.
        `state` is the owner's `with_secrets` state, so claims that depend on sealed
        values ("this cube exhausts the block") can be added to the public decision.
        """
        return decision, {}

    def due_openings(self, state: State, role: str, decision: Any) -> list[str]:
        """Labels of `role`'s own commitments that this public decision must open now."""
        return []

    def view_known(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        """`role`'s view with its own sealed values; only its own client calls this."""
        return self.view(self.with_secrets(state, role, known), role)

    def unchecked_claims(self, state: State) -> list[tuple[int, str, str]]:
        """Public claims about values still sealed: (seq, role, what), checked only when the
        value opens. `verify` of an unfinished game lists them (protocol section 8)."""
        return []

    def settle(self, state: State, ctx: Context) -> State:
        """After the game ends, the referee of a double-blind game opens every value still
        sealed (`ctx.opened_now()`, private draws' values with them: pbem.core.blind).
        Check every claim made on them while sealed (a false one raises, naming its
        entry and rule) and return the state with them open. Called on the final state,
        never during play. Default: a game with no claims on sealed values."""
        return state

    # --- automatic answers (optional: the defaults ask a person every time) ----------------
    # A role's own client answers for it, without asking its person, what has one answer
    # (pbem.answers). Every answer is signed and checked like any other entry: these only
    # decide *when* a person is asked, never what is legal.

    def only_choice(self, state: State, role: str) -> Any | None:
        """The decision when `role`'s one legal decision is known for sure (None: a person
        decides, or the engine cannot tell that there is only one). `state` is the role's
        own `with_secrets` state."""
        return None

    def standing_orders(self) -> Mapping[str, Any]:
        """The standing orders this game accepts, by name (pbem.kit.orders.StandingOrder)."""
        return {}

    def standing_answer(
        self, state: State, role: str, orders: Mapping[str, str]
    ) -> tuple[Any, str] | None:
        """The decision one of `role`'s standing orders (name -> argument) gives now, with
        the order's name; None when none of them applies (then a person decides)."""
        return None

    def describe(self) -> str:
        """First line of the module docstring: what the game is."""
        return (self.__doc__ or self.title).strip().splitlines()[0]


# --- registry -------------------------------------------------------------------------------
# Games register by name with a "module:attribute" path, so that listing games or
# printing --help imports no rules code.

_LAZY: dict[str, str] = {}
_LOADED: dict[str, Engine] = {}
_FACTS: dict[str, Mapping[str, Any]] = {}


def register(name: str, target: str, facts: Mapping[str, Any] | None = None) -> None:
    """Register the engine at `target`. `facts`, if given, are what it declares about
    itself (title, version, earlier_versions, roles, required_roles, data_files,
    double_blind_options, and `data`: the folder of its shipped data files), so that a
    command needing no more (verifying a genesis) imports no rules: see
    pbem.ledger.CachedEngine. A test holds them equal to the engine's own."""
    if facts is not None:
        _FACTS[name] = facts
    elif _LAZY.get(name) != target:
        _FACTS.pop(name, None)  # (facts are the target's: the same one keeps its own)
    _LAZY[name] = target


def registered_facts(name: str) -> Mapping[str, Any] | None:
    """The facts the engine `name` was registered with (None: none declared)."""
    return _FACTS.get(name)


def registered() -> list[str]:
    return sorted(_LAZY)


def registered_target(name: str) -> str | None:
    """The "module:attribute" a game is registered under (None: not registered)."""
    return _LAZY.get(name)


def is_loaded(name: str) -> bool:
    """Whether the engine `name` has been imported in this process."""
    return name in _LOADED


def game_part(name: str, part: str) -> ModuleType | None:
    """A registered game's own module beside its rules, by name (`svg`: its map drawing,
    `bot`: its bot, `report`: its reading of a view for summaries, `card_list`: its card
    lister), or None when the game has none: the registry is the one place where a game is
    loaded lazily. A module the part imports that is missing is an error, not "none"."""
    target = _LAZY.get(name)
    if target is None:
        known = ", ".join(registered()) or "none"
        raise PbemError(f"unknown game {name!r} (known: {known})")
    package = target.partition(":")[0].rpartition(".")[0]
    if not package:
        return None  # (an engine in a module of no package, as a test's: no parts beside it)
    module = f"{package}.{part}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (module + ".").startswith(exc.name + "."):
            raise  # a module the part imports is missing
        return None


def get_engine(name: str) -> Engine:
    if name in _LOADED:
        return _LOADED[name]
    if name not in _LAZY:
        known = ", ".join(registered()) or "none"
        raise PbemError(f"unknown game {name!r} (known: {known})")
    module_name, _, attribute = _LAZY[name].partition(":")
    engine = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(engine, Engine):
        raise PbemError(f"{_LAZY[name]} is not an Engine")
    _LOADED[name] = engine
    return engine
