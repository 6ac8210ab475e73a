"""Files written whole or not at all: every file the package writes goes through here.

A file is written to a temporary file beside it, then renamed over it (`os.replace`, atomic
on one filesystem): a full disk, an error or Ctrl-C leaves the old file as it was and no
half-written one. Several files are written all or none (`write_files`): every one is
written to its temporary file first, and only then are they renamed into place.

Only a regular file is replaced: a symbolic link is followed (the file it leads to is
replaced, the link kept), and a directory, FIFO, socket or device there is never replaced
(OSError). `check_target` refuses such a path before anything is computed, and one that is
the same file as an input of the command.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from analyzer.core.errors import AnalyzerError, quoted

__all__ = ["check_target", "write_atomic", "write_files", "write_temporary"]

#: The kinds of file that are not regular, as a message names them.
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _special(path: Path) -> str | None:
    """What is at `path` (symbolic links followed) when it exists and is not a regular
    file, e.g. "a FIFO (named pipe)"; None for a regular file or nothing there. OSError for
    a path that cannot be looked at (a loop of links, a permission)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISREG(mode):
        return None
    return next((words for test, words in _KINDS if test(mode)), "a special file")


def _destination(path: Path) -> Path:
    """The regular file that writing `path` replaces or creates: `path`, or the file its
    symbolic links lead to. OSError if something there is not a regular file."""
    target = Path(os.path.realpath(path))
    kind = _special(target)
    if kind is not None:
        raise OSError(errno.EEXIST, f"it is {kind}, not a regular file", str(path))
    return target


def _staged(path: Path, data: str | bytes) -> Path:
    """`data` (text as UTF-8) written to a new temporary file in `path`'s folder, with a
    short name of its own (".baccarat-RANDOM.tmp": within any file system's limit whatever
    `path`'s name); it takes the mode of the file it will replace, else the umask's."""
    temp = path.with_name(f".baccarat-{os.getpid()}-{os.urandom(6).hex()}.tmp")
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


def check_target(path: str, option: str, example: str, inputs: Iterable[tuple[str, str]] = ()) -> None:
    """Refuse the file `path` that `option` (its flag or `mention`) names for writing when
    `write_atomic` must not write it: no name, "-", something there (links followed) that
    is not a regular file, or the same file as one of `inputs` ((option, path) pairs; only
    paths that exist are compared). Raises AnalyzerError naming it, `example` a good name."""
    name = quoted(path)
    if not path.strip():
        raise AnalyzerError(f"{option} {name}: give a file name, e.g. {example}")
    if path == "-":
        raise AnalyzerError(
            f"{option} {name}: give a file name, e.g. {example}; '-' is not standard output here"
        )
    try:
        kind = _special(Path(path))
    except (OSError, ValueError):  # cannot be looked at: writing it says why
        return
    if kind is not None:
        linked = os.path.islink(path)
        where = f"links to {kind}, {quoted(os.path.realpath(path))}" if linked else f"is {kind}"
        raise AnalyzerError(f"{option} {name} {where}, not a regular file: give a file name, e.g. {example}")
    for source, given in inputs:
        try:
            same = os.path.samefile(path, given)
        except (OSError, ValueError):  # one of them is not there (or not a path)
            continue
        if same:
            raise AnalyzerError(f"{option} {name} is the {source} file {quoted(given)}: write another file")


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write `data` (str as UTF-8) to `path` whole or not at all; raises OSError on failure
    (something there not a regular file among them), and then `path` is as it was. A
    symbolic link is followed: the file it leads to is replaced, the link kept."""
    target = _destination(Path(path))
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
            (base / name).parent.mkdir(parents=True, exist_ok=True)
            path = _destination(base / name)
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
