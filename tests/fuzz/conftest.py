"""Hypothesis profiles for the fuzz tests.

The default run is quick (each test asks `fuzz_settings(n)` for a moderate n). For a
long run:

    HYPOTHESIS_PROFILE=long python3 -m pytest tests/fuzz

`long` raises the default to 5000 examples, which `fuzz_settings` turns into 50 times
the examples of a normal run in every fuzz test.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "long",
    max_examples=5000,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)

if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
