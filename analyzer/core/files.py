"""Files written whole or not at all: every file the package writes goes through here.

A file is written to a temporary file beside it, then renamed over it (`os.replace`, atomic
on one filesystem): a full disk, an error or Ctrl-C leaves the old file as it was and no
half-written one. Several files are written all or none (`write_files`): every one is
written to its temporary file first, and only then are they renamed into place.

Only a regular file is replaced. A symbolic link is not written through (followed, it would
let anyone who can plant a link in a shared folder such as /tmp choose the file replaced;
replaced, the link would be lost), and a directory, FIFO, socket or device is never replaced:
OSError. `check_target` refuses such a path before anything is computed, with a name ending
in a separator, a read-only file, a folder that is missing or cannot be written, and the
same file as an input of the command.
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
    """`path`, the regular file that writing it replaces or creates. OSError if it is a
    symbolic link or something there is not a regular file."""
    if path.is_symlink():
        raise OSError(errno.ELOOP, "it is a symbolic link, not a regular file", str(path))
    kind = _special(path)
    if kind is not None:
        raise OSError(errno.EEXIST, f"it is {kind}, not a regular file", str(path))
    return path


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
    `write_atomic` must not or cannot write it: no name, "-", a name ending in a separator,
    a symbolic link, something there that is not a regular file, a read-only file, a folder
    that is missing or cannot be written, or the same file as one of `inputs` ((option, path)
    pairs; only paths that exist are compared). Raises AnalyzerError naming it, `example` a
    good name."""
    name = quoted(path)
    if not path.strip() or path.endswith(("/", os.sep)):
        raise AnalyzerError(f"{option} {name}: give a file name, e.g. {example}")
    if path == "-":
        raise AnalyzerError(
            f"{option} {name}: give a file name, e.g. {example}; '-' is not standard output here"
        )
    if os.path.islink(path):
        raise AnalyzerError(f"{option} {name} is a symbolic link: give the file itself, e.g. {example}")
    try:
        kind = _special(Path(path))
    except (OSError, ValueError):  # cannot be looked at: writing it says why
        return
    if kind is not None:
        raise AnalyzerError(
            f"{option} {name} is {kind}, not a regular file: give a file name, e.g. {example}"
        )
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise AnalyzerError(f"{option} {name}: there is no folder {quoted(folder)}")
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise AnalyzerError(f"{option} {name} cannot be written: permission denied")
    for source, given in inputs:
        try:
            same = os.path.samefile(path, given)
        except (OSError, ValueError):  # one of them is not there (or not a path)
            continue
        if same:
            raise AnalyzerError(f"{option} {name} is the {source} file {quoted(given)}: write another file")


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write `data` (str as UTF-8) to `path` whole or not at all; raises OSError on failure
    (a symbolic link, or something there not a regular file, among them), and then `path`
    is as it was."""
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
