"""A game's shipped data files read from its package folder (datacheck.shipped_files, so
that a `pbem show` does not import importlib.resources) are the bytes importlib.resources
reads, and a package it cannot find in a plain folder is read by importlib.resources."""

from __future__ import annotations

import importlib
from importlib import resources

import pytest

from pbem.games import datacheck
from pbem.ledger import engine_by_name

TITLES = ("barbarossa", "race-to-berlin", "berlin-1945", "race-to-the-sea", "gotterdammerung")


@pytest.mark.parametrize("title", TITLES)
def test_the_folders_bytes_are_the_resources_bytes(title: str) -> None:
    engine = engine_by_name(title)
    package, names = engine.package, tuple(engine.data_files)
    importlib.import_module(package)
    assert datacheck._plain_data_folder(package) is not None
    expected = {name: (resources.files(package) / "data" / name).read_bytes() for name in names}
    assert datacheck.shipped_files(package, names) == expected


def test_a_package_not_in_one_folder_is_read_by_importlib_resources(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = engine_by_name("berlin-1945")
    package, names = engine.package, tuple(engine.data_files)
    expected = datacheck.shipped_files(package, names)
    monkeypatch.setattr(datacheck, "_plain_data_folder", lambda package: None)
    assert datacheck.shipped_files(package, names) == expected
    with pytest.raises(FileNotFoundError):
        datacheck.shipped_files(package, ("no-such-file.toml",))
