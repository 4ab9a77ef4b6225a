"""Writing files so that a crash leaves the old file or the new one, never half of one."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: Path, data: bytes, mode: int) -> None:
    """Write `data` to `path` with `mode`: a private temp file beside it, synced, renamed.

    mkstemp creates the temp file 0600, so a private key is never readable by others,
    not even for an instant; each run has its own temp file, so two runs writing one
    path never mix; the rename makes the file appear whole or not at all, and the
    folder is synced so that the rename itself survives a crash.
    """
    import tempfile  # (here: a command that writes no file loads no tempfile, shutil, bz2...)

    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
