"""Checks of the trust core that mutation testing found no test for (issue 11, item 10).

Each test makes the attack end to end (entries signed with real keys on a real
adjudicator, then the whole log verified as a move file or a save, and on the CLI where a
user meets it) and fails when its check is deleted from pbem/core/adjudicator.py (or
context.py, for a draw's purpose):

* a label opened twice; committed and opened in one entry; empty or over 200 characters
  (and exactly 200 accepted);
* a private draw from a secret not committed in the requesting entry (not at all, or in
  an earlier entry);
* a draw purpose that holds a newline, public and private (it would add lines of its
  own to the printed dice log), taken from a game's own data file;
* a signed genesis missing `rules` or `options`, or with `roles`, `data` or `options`
  not an object: a clean refusal, never a KeyError or an AttributeError.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.cli import main
from pbem.core import engine as engine_module
from pbem.core.adjudicator import Adjudicator, EntryRefused
from pbem.core.canonical import JSON
from pbem.core.commit import Opening, commitment
from pbem.core.engine import Context, Engine, Outcome, Prompt, State
from pbem.core.log import Entry
from pbem.errors import InvalidOrderError
from pbem.ledger import check_signature, data_source, engine_by_name
from pbem.transport.savefile import move_file, save_text
from pbem.verify import verify_path, verify_text
from tests.support.players import Table, assert_refused, hex_of

# --- a lax engine: it trusts the adjudicator for every protocol check ---------------------------


class Lax(Engine):
    """Two roles in turn: `roll` (a public d6), `peek LABEL` (a private d6 from the secret
    LABEL, which it does not check itself), or `pass`. Every draw's purpose comes from
    the game's data file, as a unit's name would in a real game."""

    name = "toy-lax"
    title = "Lax toy"
    version = "1"
    roles = ("a", "b")
    required_roles = ("a", "b")
    data_files = ("lax.toml",)

    def default_data(self) -> dict[str, bytes]:
        return {"lax.toml": b'purpose = "die"\n'}

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        return tomllib.loads(files["lax.toml"].decode())

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        return {"next": "a", "purpose": data["purpose"], "rolls": [], "keys": []}

    def prompts(self, state: State) -> list[Prompt]:
        return [Prompt(state["next"], "roll, peek LABEL or pass")]

    def choices(self, state: State, role: str) -> list[Any]:
        return [("roll",), ("pass",)] if role == state["next"] else []

    def parse(self, text: str, state: State, role: str) -> Any:
        words = tuple(text.split())
        if words in (("roll",), ("pass",)) or (len(words) == 2 and words[0] == "peek"):
            return words
        raise InvalidOrderError(f"{text!r}: expected 'roll', 'peek LABEL' or 'pass'")

    def format(self, decision: Any) -> str:
        return " ".join(decision)

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        new = copy.deepcopy(state)
        if decision[0] == "roll":
            new["rolls"].append(ctx.roll(1, 6, state["purpose"]))
        elif decision[0] == "peek":
            new["keys"].append(ctx.private_roll(decision[1], 1, 6, state["purpose"]))
        new["next"] = "b" if role == "a" else "a"
        return new

    def view(self, state: State, role: str | None) -> State:
        return copy.deepcopy(state)

    def outcome(self, state: State) -> Outcome | None:
        return None


LAX = Lax()


@pytest.fixture(autouse=True)
def _lax_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """toy-lax is known only while a test of this file runs: a game that never ends is no
    game for the conformance tests, which play every registered one."""
    monkeypatch.setitem(engine_module._LAZY, "toy-lax", f"{__name__}:LAX")
    monkeypatch.setitem(engine_module._LOADED, "toy-lax", LAX)


def table(rules: str = "toy-dice", data: Mapping[str, bytes] | None = None) -> Table:
    t = Table(rules, ("a", "b"), data=data, nonce="core checks")
    t.join_all()
    return t


def verified_as_move_file(t: Table, *more: Entry) -> str:
    """The game's log and `more` after it, verified as one move file: the failure."""
    report = verify_text(move_file([*t.game.entries, *more]))
    assert not report.ok and report.failure is not None
    assert "\n" not in report.failure
    return report.failure


def sealed(t: Table, label: str, value: JSON = "attack at dawn") -> tuple[str, Opening]:
    """A commitment to `value` under `label` in this game, and its opening."""
    salt = hex_of(b"salt", label.encode())
    return commitment(t.game.id, label, salt, value), Opening(label, salt, value)


# --- commitments and openings ---------------------------------------------------------------


def test_a_label_opened_twice_is_refused() -> None:
    t = table()
    digest, opening = sealed(t, "plan/a/1")
    t.apply(t.make("a", "move", {"decision": "roll", "commit": {"plan/a/1": digest}}))
    t.move("b", "roll")
    t.apply(t.make("a", "move", {"decision": "roll", "open": [opening.to_json()]}))
    t.move("b", "roll")
    again = t.make("a", "move", {"decision": "roll", "open": [opening.to_json()]})
    message = assert_refused(t.game, again, "entry 7 by a refused", "plan/a/1 was already opened")
    assert "(entry 5)" in message
    assert verified_as_move_file(t, again) == message


def test_a_label_committed_and_opened_in_one_entry_is_refused() -> None:
    """Opening in the committing entry binds nothing: the value is chosen with the
    commitment, after seeing everything; a commitment must come before."""
    t = table()
    digest, opening = sealed(t, "plan/a/1")
    body = {"decision": "roll", "commit": {"plan/a/1": digest}, "open": [opening.to_json()]}
    both = t.make("a", "move", body)
    message = assert_refused(t.game, both, "entry 3 by a refused", "commits and opens plan/a/1")
    assert verified_as_move_file(t, both) == message


@pytest.mark.parametrize("length", [0, 201, 5000])
def test_a_label_empty_or_over_200_characters_is_refused(length: int) -> None:
    t = table()
    label = "x" * length
    entry = t.make("a", "move", {"decision": "roll", "commit": {label: sealed(t, label)[0]}})
    message = assert_refused(t.game, entry, "entry 3 by a refused", "must be 1 to 200 characters")
    assert verified_as_move_file(t, entry) == message


def test_a_label_of_exactly_200_characters_is_accepted_and_opens() -> None:
    t = table()
    label = "y" * 200
    digest, opening = sealed(t, label)
    t.apply(t.make("a", "move", {"decision": "roll", "commit": {label: digest}}))
    t.move("b", "roll")
    t.apply(t.make("a", "move", {"decision": "roll", "open": [opening.to_json()]}))
    assert t.game.sealed[label].opened and t.game.sealed[label].value == opening.value
    assert verify_text(move_file(t.game.entries)).ok


# --- private draws ----------------------------------------------------------------------------


def test_a_private_draw_from_a_secret_never_committed_is_refused() -> None:
    """Without a commitment in the requesting entry, the owner could choose x after the
    producing reveal is known, and so choose the value of the draw."""
    t = table("toy-lax")
    peek = t.make("a", "move", {"decision": "peek x/a/1"})
    message = assert_refused(
        t.game, peek, "entry 3 by a refused", "a private draw needs x/a/1 committed in the "
        "requesting entry"
    )  # fmt: skip
    assert verified_as_move_file(t, peek) == message


def test_a_private_draw_from_a_secret_committed_earlier_is_refused() -> None:
    """A secret committed (and maybe opened: known to all) in an earlier entry is not the
    fresh secret of this request."""
    t = table("toy-lax")
    x = hex_of(b"x")
    digest, opening = sealed(t, "x/a/1", x)
    t.apply(t.make("a", "move", {"decision": "pass", "commit": {"x/a/1": digest}}))
    t.move("b", "pass")
    peek = t.make("a", "move", {"decision": "peek x/a/1"})
    assert_refused(t.game, peek, "entry 5 by a refused", "needs x/a/1 committed in the requesting")
    t.apply(t.make("a", "move", {"decision": "pass", "open": [opening.to_json()]}))
    t.move("b", "pass")
    late = t.make("a", "move", {"decision": "peek x/a/1"})  # x is public now
    message = assert_refused(t.game, late, "entry 7 by a refused", "committed in the requesting")
    assert verified_as_move_file(t, late) == message


def test_a_private_draw_committed_in_its_request_is_accepted() -> None:
    t = table("toy-lax")
    digest, _opening = sealed(t, "x/a/1", hex_of(b"x"))
    t.apply(t.make("a", "move", {"decision": "peek x/a/1", "commit": {"x/a/1": digest}}))
    t.move("b", "pass")
    assert [r.line() for r in t.game.rng_log] == ["rng 3 4 private die"]


# --- purposes -------------------------------------------------------------------------------

FORGED_LINES = b'purpose = "die\\nrng 3 4 1..6 6 die\\nrng 5 6 1..6 6 die"\n'


def test_a_public_draw_purpose_with_a_newline_is_refused(tmp_path: Path) -> None:
    """A data file (a user's own, hashed into the genesis) names the draw: with a newline,
    its RNG log line would print as several lines, forged records among them. The
    requesting entry is refused, not the entry that would have rolled."""
    t = table("toy-lax", data={"lax.toml": FORGED_LINES})
    roll = t.make("a", "move", {"decision": "roll"})
    message = assert_refused(
        t.game, roll, "entry 3 by a refused", "a draw's purpose must be one line",
        "'die\\x0arng 3 4 1..6 6 die\\x0arng 5 6 1..6 6 die'", "U+000A",
    )  # fmt: skip
    report = verify_text(move_file([*t.game.entries, roll]), {"lax.toml": FORGED_LINES})
    assert report.failure == message
    # on the CLI, with the data file given as a user would
    data = tmp_path / "lax.toml"
    data.write_bytes(FORGED_LINES)
    result = CliRunner().invoke(
        main,
        ["verify", "--data", f"lax.toml={data}", "-"],
        input=move_file([*t.game.entries, roll]),
    )
    assert result.exit_code == 1 and result.stderr.strip() == f"error: {message}"


def test_a_private_draw_purpose_with_a_newline_is_refused() -> None:
    t = table("toy-lax", data={"lax.toml": FORGED_LINES})
    digest, _opening = sealed(t, "x/a/1", hex_of(b"x"))
    peek = t.make("a", "move", {"decision": "peek x/a/1", "commit": {"x/a/1": digest}})
    message = assert_refused(
        t.game, peek, "entry 3 by a refused", "a draw's purpose must be one line", "U+000A"
    )
    report = verify_text(move_file([*t.game.entries, peek]), {"lax.toml": FORGED_LINES})
    assert report.failure == message


@pytest.mark.parametrize("char", ["\r", "\x0b", "\x85", "\u2028", "\u202e"])
def test_a_purpose_with_any_line_break_or_bidi_control_is_refused(char: str) -> None:
    escaped = f"\\u{ord(char):04x}"  # (a TOML escape: the file itself is plain text)
    data = {"lax.toml": f'purpose = "die{escaped}rng 3 4 1..6 6 die"\n'.encode()}
    t = table("toy-lax", data=data)
    roll = t.make("a", "move", {"decision": "roll"})
    assert_refused(t.game, roll, "entry 3 by a refused", f"U+{ord(char):04X}")


@pytest.mark.parametrize("purpose", ["", "   "])
def test_an_empty_purpose_is_refused(purpose: str) -> None:
    """An RNG log line that ends in nothing: the independent reader cannot parse it."""
    t = table("toy-lax", data={"lax.toml": f'purpose = "{purpose}"\n'.encode()})
    roll = t.make("a", "move", {"decision": "roll"})
    assert_refused(t.game, roll, "entry 3 by a refused", "purpose", "empty")


def test_an_honest_purpose_prints_one_line(tmp_path: Path) -> None:
    t = table("toy-lax")
    t.move("a", "roll")
    t.move("b", "pass")
    text = save_text(t.game, "lax", {})
    assert text.count("\nrng ") == 1
    path = tmp_path / "lax.pbem"
    path.write_text(text, encoding="utf-8")
    assert verify_text(text).ok and verify_path(path).ok


# --- genesis --------------------------------------------------------------------------------


def _genesis_with(t: Table, **changes: Any) -> Entry:
    body = dict(t.genesis.body)
    for name, value in changes.items():
        if value is None:
            body.pop(name)
        else:
            body[name] = value
    fields = dict(t.genesis.data)
    fields["body"] = body
    return t.sign("a", fields)


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"rules": None}, "genesis body lacks rules"),
        ({"options": None}, "genesis body lacks options"),
        ({"rules_version": None, "roles": None}, "genesis body lacks roles, rules_version"),
        ({"roles": ["a", "b"]}, "genesis roles must be an object"),
        ({"roles": "a b"}, "genesis roles must be an object"),
        ({"data": ["toy.toml"]}, "genesis data must be an object"),
        ({"data": None}, "genesis body lacks data"),
        ({"options": 5}, "genesis options must be an object"),
        ({"options": ["fast"]}, "genesis options must be an object"),
        ({"rules": 7}, "genesis rules and rules_version must be strings"),
    ],
)
def test_a_malformed_signed_genesis_is_refused_cleanly(
    tmp_path: Path, changes: dict[str, Any], fragment: str
) -> None:
    t = Table("toy-dice", ("a", "b"), nonce="genesis")
    genesis = _genesis_with(t, **changes)
    check_signature(t.keys["a"].public.openssh_line(), genesis.canonical, genesis.signature)
    with pytest.raises(EntryRefused) as caught:
        Adjudicator.start(genesis, engine_by_name, data_source(), check_signature)
    assert str(caught.value) == f"entry 0 by a refused: {fragment}"
    # verify reads damage first: without readable roles no key can check the signature,
    # so there it reads as damage; either way one clean line naming the entry
    text = move_file([genesis])
    failure = verify_text(text).failure
    assert failure is not None and failure.startswith("entry 0 by a ")
    if "roles" not in changes:
        assert failure == str(caught.value)
    path = tmp_path / "genesis.txt"
    path.write_text(text, encoding="utf-8")
    assert verify_path(path).failure == failure
    result = CliRunner().invoke(main, ["verify", "-"], input=text)
    assert result.exit_code == 1 and result.stderr.strip() == f"error: {failure}"
