"""What every game's engine would otherwise write in the same words: the kit's defaults.

- its data files: shipped in the game package's `data/` folder (read through
  importlib.resources), each given one (a user's own) taking the place of the shipped one
  of its name, checked for size and name (`pbem.games.datacheck`); the game writes only
  `read_data`, which turns the files' bytes into its loaded data;
- its syntax: `format` refuses a decision of another game in the same words for every
  game, then asks the game's `format_decision` (as `parse` asks its `parse_decision`);
- its setup: `refuse_options` for a game that has none, and `data_or_shipped` for the
  data a setup is given (None: the shipped files, loaded).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Engine
from pbem.errors import DataError, InvalidOrderError
from pbem.games.datacheck import given_or_shipped, shipped_files


class GameDefaults(Engine):
    """An Engine's data files, `format` and setup checks, as every game of the kit has them."""

    decision_types: tuple[type, ...] = ()

    @property
    def package(self) -> str:
        """The game's package (that of its engine's module): its `data/` folder holds the
        shipped data files."""
        return type(self).__module__.rpartition(".")[0]

    # --- data files -------------------------------------------------------------------------

    def default_data(self) -> dict[str, bytes]:
        return shipped_files(self.package, self.data_files)

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        package = self.package
        return self.read_data(
            given_or_shipped(files, self.data_files, package.rpartition(".")[2], package)
        )

    def read_data(self, raw: Mapping[str, bytes]) -> Any:
        """The loaded data of the files' bytes (every one of `data_files`); DataError with a
        clear message when a file is wrong."""
        raise NotImplementedError(f"{self.name} reads no data files")

    def data_or_shipped(self, data: Any) -> Any:
        """The loaded data a setup is given, or the shipped files loaded when it is None."""
        return data if data is not None else self.load_data({})

    # --- setup ------------------------------------------------------------------------------

    def refuse_options(self, options: Mapping[str, JSON]) -> None:
        """A game without options refuses any."""
        if options:
            raise DataError(f"{self.name} has no options (got {', '.join(sorted(options))})")

    # --- syntax -----------------------------------------------------------------------------

    def format(self, decision: Any) -> str:
        if not isinstance(decision, self.decision_types):
            raise InvalidOrderError(f"not a {self.name} decision: {decision!r}")
        return self.format_decision(decision)

    def format_decision(self, decision: Any, /) -> str:
        """The game's canonical text of one of its decisions."""
        raise NotImplementedError(f"{self.name} has no syntax")
