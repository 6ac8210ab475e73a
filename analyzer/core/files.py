"""Files written whole or not at all: every file the package writes goes through here.

A file is written to a temporary file beside it, then renamed over it (`os.replace`, atomic
on one filesystem): a full disk, an error or Ctrl-C leaves the old file as it was and no
half-written one. Several files are written all or none (`write_files`): every one is
written to its temporary file first, and only then are they renamed into place.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Mapping
from itertools import count
from pathlib import Path

__all__ = ["write_atomic", "write_files", "write_temporary"]

_SERIAL = count()


def _staged(path: Path, data: str | bytes) -> Path:
    """`data` (text as UTF-8) written to a new temporary file in `path`'s folder, named
    ".NAME.PID-N.tmp"; it takes the mode of the file it will replace, else the umask's."""
    temp = path.with_name(f".{path.name}.{os.getpid()}-{next(_SERIAL)}.tmp")
    handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data.encode("utf-8") if isinstance(data, str) else data)
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temp, stat.S_IMODE(path.stat().st_mode))
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write `data` (str as UTF-8) to `path` whole or not at all; raises OSError on failure,
    and then `path` is as it was."""
    target = Path(path)
    temp = _staged(target, data)
    try:
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def write_files(folder: str | os.PathLike[str], files: Mapping[str, str | bytes]) -> None:
    """Write each of `files` (name, which may name a subfolder, -> data) under `folder`, all
    or none: every file is written to a temporary file first and renamed only when all are
    written, so a failure before that leaves `folder` as it was (OSError is raised)."""
    base = Path(folder)
    staged: list[tuple[Path, Path]] = []
    try:
        for name, data in files.items():
            path = base / name
            path.parent.mkdir(parents=True, exist_ok=True)
            staged.append((_staged(path, data), path))
        while staged:
            temp, path = staged[0]
            os.replace(temp, path)
            staged.pop(0)
    finally:
        for temp, _ in staged:  # not renamed: a failure or an interrupt
            temp.unlink(missing_ok=True)


def write_temporary(data: bytes, prefix: str, suffix: str) -> str:
    """A new temporary file (in the system's temporary folder) holding `data`, whole: on a
    failure it is removed and OSError raised. Returns its path; the caller removes it."""
    handle, name = tempfile.mkstemp(prefix=prefix, suffix=suffix)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
    except BaseException:
        os.unlink(name)
        raise
    return name
