"""The independent section-7 reader (tests/independent/section7_reader.py), loaded once.

It is a stand-alone script a referee could have written, not a module of pbem or of the
tests, so it is loaded from its file; tests that compare pbem's verdicts with its own
import `reader` from here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[1] / "independent" / "section7_reader.py"
_NAME = "section7_reader_for_tests"

if _NAME in sys.modules:
    reader = sys.modules[_NAME]
else:
    _spec = importlib.util.spec_from_file_location(_NAME, _PATH)
    assert _spec is not None and _spec.loader is not None
    reader = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = reader
    _spec.loader.exec_module(reader)
