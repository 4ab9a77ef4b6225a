"""pbem: play board wargames by email with signed, hash-chained, verifiable game logs."""

__version__ = "0.1.0"
