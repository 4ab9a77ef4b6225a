"""Every input that once broke a target (fuzz/corpus/<target>/<what>) through every target.

A file is kept in the folder of the target it broke, but every target reads every
file: a move file, a decision text or a data file is also a fine test of the others.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fuzz.fuzzing import CORPUS, corpus_files, outcome, targets

TARGETS = targets()
# (corpus file, target) pairs that still fail, with where the fix belongs (none now).
KNOWN: dict[tuple[str, str], str] = {}


def cases() -> list[Any]:
    found: list[Any] = []
    for path in corpus_files():
        name = path.relative_to(CORPUS).as_posix()
        for target in TARGETS:
            reason = KNOWN.get((name, target))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            found.append(pytest.param(path, target, marks=marks, id=f"{name}-{target}"))
    return found


def test_corpus_is_not_empty() -> None:
    folders = {p.parent.name for p in corpus_files()}
    assert {"movefile", "entry", "decision-barbarossa", "data-berlin-1945-map"} <= folders
    assert all(folder in TARGETS for folder in folders), folders - set(TARGETS)


@pytest.mark.parametrize(("path", "target"), cases())
def test_corpus(path: Path, target: str) -> None:
    outcome(TARGETS[target], path.read_bytes())
