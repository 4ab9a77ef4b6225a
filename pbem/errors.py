"""The exception hierarchy. Every error a user can cause is a PbemError with a one-line message."""


class PbemError(Exception):
    """Root of every error pbem raises on purpose; the CLI prints its message as one line."""


class CanonicalError(PbemError, ValueError):
    """Bytes or objects that are not canonical JSON (protocol section 3)."""


class SignatureError(PbemError):
    """A signature that does not verify, or a key that cannot be used."""


class KeyError_(PbemError):
    """A key file or public-key line that cannot be read."""


class ArmorError(PbemError):
    """An armored entry that is damaged (protocol section 7)."""


class ChainError(PbemError):
    """An entry that does not fit the log: wrong game, seq, prev, reveal or author."""


class EntropyPending(BaseException):
    """Raised inside an engine when a draw is requested before its entropy exists.

    The adjudicator catches it: the decision was valid up to its first draw, and
    the game now waits for the next entry by another role (protocol section 4).

    It is a signal, not an error: it derives from BaseException (like
    GeneratorExit), so no game code that catches rules errors (`except PbemError`,
    `except ValueError`, even `except Exception`) can swallow it and play on as if
    the dice had been rolled.
    """


class InvalidOrderError(PbemError, ValueError):
    """Text that does not parse as a decision in the game's syntax."""


class IllegalOrderError(PbemError, ValueError):
    """A well-formed decision that the rules do not allow now."""


class FalseClaimError(IllegalOrderError):
    """An opening that shows a claim made while the value was sealed was false: names the
    entry that made the claim, its signer, what was false and the rule (pbem.kit.pieces).

    Raised while an opening is checked. In play it refuses the opening entry; at a
    double-blind game's disclose it is the proof the log keeps (pbem.core.blind)."""

    def __init__(self, seq: int, by: str, text: str, rule: str) -> None:
        super().__init__(f"false claim in entry {seq} by {by}: {text} (rulebook {rule})")
        self.seq = seq
        self.by = by
        self.text = text
        self.rule = rule


class DataError(PbemError):
    """A game data file (TOML) that is missing a field or contradicts the rulebook."""


class StoreError(PbemError):
    """The local store cannot do what was asked (unknown game, missing key, ...)."""


class EquivocationError(PbemError):
    """Two validly signed, different entries by one role for the same game and seq."""

    def __init__(self, proof: str) -> None:
        super().__init__(proof.splitlines()[0])
        self.proof = proof
