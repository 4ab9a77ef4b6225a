"""Short, stable names for what a failed verification found (`cheat` in `pbem verify --json`).

A league's archive is checked by scripts: they need to tell a broken signature from an
illegal move without reading English. `pbem.verify` names the failures it knows by where
they happen (an equivocation, the RNG log, a bad signature found by the damage check);
every other failure is named here, from its reason, by the one table below (docs/json.md
lists the names; tests/cli/test_archive_verify.py has a case for each). The first row
holding a fragment of the reason wins, so the more specific rows come first.
"""

from __future__ import annotations

# Every name a record's `cheat` may hold (null: the game verifies).
NAMES = (
    "signature",  # a signature that does not verify with the signer's key (damage, forgery)
    "chain",  # prev/seq/game or order: an entry dropped, reordered, inserted, misplaced
    "reveal",  # a hash-chain reveal that does not follow the signer's chain
    "rules",  # an entry the rules refuse (an illegal move, out of turn)
    "false-claim",  # an opening that is not its commitment, a claim the opening shows false
    "unopened",  # a finished game with a commitment never opened
    "equivocation",  # two validly signed entries of one role for one seq
    "rng-log",  # a save's printed RNG log differs from the recomputed dice (or is missing)
    "header",  # a save's header differs from its entries (game id, field lines)
    "forfeit",  # a forfeit (a referee's entry) the rules refuse
    "format",  # armor or canonical damage, a foreign line break, no entries at all
    "unreadable",  # the file or mailbox cannot be read (not a verdict on any game)
)

# (name, fragments of the reason): the first row with a fragment in the reason names it.
TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("equivocation", ("EQUIVOCATION",)),
    ("unreadable", ("cannot read ", "is not a Maildir", "no mbox file")),
    (
        "signature",
        (
            "signature does not verify",
            "bad signature by",
            "SSH signature",
            "not an Ed25519 signature",
        ),
    ),
    ("false-claim", ("false claim", "does not match its commitment")),
    ("unopened", ("was never opened",)),
    ("reveal", ("reveal does not hash", "hash chain is used up")),
    (
        "chain",
        (
            "does not follow the head",
            "stale head",
            "belongs to game",
            "out of order",
            "is missing:",
            "so it holds no entry",
            "holds a copy of it",
            "holds another entry",
            "genesis entry, found",
            "no genesis for game",
        ),
    ),
    ("rng-log", ("RNG log", "RNG LOG", "a forged record")),
    ("header", ("'s header", "header line")),
    ("forfeit", ("forfeit",)),
    (
        "format",
        (
            "damaged",
            "no PBEM entries",
            "line break",
            "not UTF-8",
            "canonical",
            "armor",
            "no entries found",
        ),
    ),
)


def classify(reason: str, kind: str | None = None) -> str:
    """The name of a failure from its reason. `kind`: the kind of the entry the adjudicator
    refused (EntryRefused), None for any other failure. A refusal no row names is the
    rules' ("forfeit" for a referee's forfeit entry); any other failure, damage."""
    for name, fragments in TABLE:
        if any(fragment in reason for fragment in fragments):
            return name
    if kind is None:
        return "format"
    return "forfeit" if kind == "forfeit" else "rules"
