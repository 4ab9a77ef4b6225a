"""Players on machines of their own, through the real CLI: a store folder and a state
folder each (the signing journal: pbem/store/journal.py), and backups of either.

    a, b, game = start(tmp_path)          # a toy-dice game a made and b joined; a asked
    b.back_up()                            # a copy of b's store folder (what a backup keeps)
    e = a.sign(game, "roll", "E")          # tmp_path/E.txt
    b.ok("apply", str(e))
    b.restore()                            # the store folder put back; the state stays
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner, Result

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.cli import main


class Player:
    """One player's machine: a store folder and a state folder of its own."""

    def __init__(self, tmp_path: Path, name: str) -> None:
        self.name = name
        self.home = tmp_path / f"{name}-store"
        self.state = tmp_path / f"{name}-state"
        self.dir = tmp_path

    def run(self, *args: str) -> Result:
        return CliRunner().invoke(
            main, ["--home", str(self.home), *args], env={"PBEM_STATE": str(self.state)}
        )

    def ok(self, *args: str) -> Result:
        result = self.run(*args)
        assert result.exit_code == 0, f"{self.name}: pbem {' '.join(args)}: {result.output}"
        return result

    def sign(self, game: str, words: str, label: str) -> Path:
        out = self.dir / f"{label}.txt"
        self.ok("move", game[:8], *words.split(), "-o", str(out))
        return out

    def _kept(self, folder: str, label: str) -> Path:
        return self.dir / "backups" / label / f"{self.name}-{folder}"

    def back_up(self, label: str = "backup") -> None:
        """What a backup of the store folder keeps (a copy of the whole folder)."""
        shutil.copytree(self.home, self._kept("store", label))

    def restore(self, label: str = "backup") -> None:
        """The store folder put back as the backup `label` kept it; the state stays."""
        shutil.rmtree(self.home)
        shutil.copytree(self._kept("store", label), self.home)

    def back_up_machine(self, label: str = "machine") -> None:
        """A backup of the whole machine: the store folder and the state folder."""
        self.back_up(label)
        shutil.copytree(self.state, self._kept("state", label))

    def restore_machine(self, label: str = "machine") -> None:
        """Both folders put back: no local record is left of what was signed since."""
        self.restore(label)
        shutil.rmtree(self.state)
        shutil.copytree(self._kept("state", label), self.state)


def start(tmp_path: Path) -> tuple[Player, Player, str]:
    """A toy-dice game made by a and joined by b, through the CLI; a is asked first."""
    a, b = Player(tmp_path, "a"), Player(tmp_path, "b")
    a.ok("key", "new", "a")
    b.ok("key", "new", "b")
    a.ok("key", "import", "b", str(b.home / "keys" / "b.pub"))
    b.ok("key", "import", "a", str(a.home / "keys" / "a.pub"))
    game = a.ok("new", "toy-dice", "--key", "a=a", "--key", "b=b").stdout.strip()
    genesis = tmp_path / "start.txt"
    genesis.write_text(a.ok("export", game[:8]).stdout)
    b.ok("apply", str(genesis))
    b.ok("join", game[:8], "-o", str(tmp_path / "join.txt"))
    a.ok("apply", str(tmp_path / "join.txt"))
    return a, b, game
