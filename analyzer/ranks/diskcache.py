"""The user's disk cache of files slow to build (compiled tableaux, plan products): where it
is, each file written whole with a checksum of its content and verified on every read, the
folder kept within bounds, and its listing and clearing (`baccarat cache [--clear]`).

Folder: `$BACCARAT_CACHE` if set and not empty, else the platform's user cache folder for
baccarat-analyzer (platformdirs: `$XDG_CACHE_HOME/baccarat-analyzer`, by default
`~/.cache/baccarat-analyzer`, on Linux; `~/Library/Caches/baccarat-analyzer` on macOS;
`%LOCALAPPDATA%\\baccarat-analyzer\\Cache` on Windows).

A file `KIND-HASH.EXT` (KINDS) is one line `baccarat-cache 1 KEY SHA256` then the payload.
KEY is the content key of what the payload depends on, the producing code's version
(`code_version`) included, so changed code never reads what other code wrote; SHA256 is the
payload's hash. A file whose line, key or hash does not match (truncated, corrupted, edited,
foreign) is ignored: its producer builds the payload again and overwrites it. The checksum
catches damage and edits, not a forger who rewrites the hash too (who can write the
package's own code as well).

Bounds: at most CACHE_FILES files and CACHE_BYTES bytes of the project's files; after each
write the least recently used (read or written) are removed first. Only the project's own
file names (KINDS, and their unfinished temporary files) are ever counted or removed, so
`$BACCARAT_CACHE` may name a folder holding other files.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.version import __version__

__all__ = [
    "CACHE_BYTES",
    "CACHE_FILES",
    "KINDS",
    "CacheFiles",
    "CacheStatus",
    "cache_dir",
    "cache_info",
    "cache_path",
    "cache_status",
    "clear_cache",
    "code_version",
    "read_cache_file",
    "sources_digest",
    "write_cache_file",
]

#: Most files the cache keeps (the least recently used go first).
CACHE_FILES = 128
#: Most bytes the cache keeps, 256 MiB (a plan's products take up to about 10 MB).
CACHE_BYTES = 256 * 2**20
#: The kinds of cached file and their extensions: compiled tableaux, plan products.
KINDS = {"coups": ".bin", "plans": ".npz"}

_MAGIC = b"baccarat-cache 1"
_ROOT = Path(__file__).resolve().parents[1]  # the analyzer package
# The project's file names (older versions' names too: 8 to 64 hex digits), and the
# temporary files of writes that never finished.
_KIND_NAMES = "|".join(f"{kind}-[0-9a-f]{{8,64}}{re.escape(ext)}" for kind, ext in KINDS.items())
_OURS = re.compile(rf"(?:{_KIND_NAMES})")
_TEMP = re.compile(rf"\.(?:{_KIND_NAMES})\.[A-Za-z0-9_]+\.tmp")


@dataclass(frozen=True)
class CacheFiles:
    """Files of the cache folder: how many, and their bytes."""

    folder: Path
    files: int
    bytes: int


def cache_dir() -> Path:
    """The cache folder: $BACCARAT_CACHE if set and not empty, else the platform's."""
    chosen = os.environ.get("BACCARAT_CACHE")
    if chosen:
        return Path(chosen)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("baccarat-analyzer", appauthor=False))


def sources_digest(root: Path, packages: tuple[str, ...]) -> str:
    """A SHA-256 of every .py file of `packages` (folders of `root`): paths and text."""
    digest = hashlib.sha256()
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            with suppress(OSError):
                digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=8)
def code_version(*packages: str) -> str:
    """The version of the code of `packages` (analyzer's subpackages, e.g. "core", "ranks"):
    the package version and a hash of their source, computed once per process (a few ms).
    By the layer contract, code in a layer imports only the layers below it, so the layers
    up to a producer's are all the code its payload can depend on."""
    return f"{__version__}-{sources_digest(_ROOT, packages)[:32]}"


def cache_path(kind: str, key: str) -> Path:
    """Where the cache file of `kind` (KINDS) and content key `key` (hex digits) lives."""
    return cache_dir() / f"{kind}-{key[:24]}{KINDS[kind]}"


def _header(key: str, payload: bytes | memoryview) -> bytes:
    return b" ".join([_MAGIC, key.encode(), hashlib.sha256(payload).hexdigest().encode()]) + b"\n"


def read_cache_file(kind: str, key: str) -> bytes | None:
    """The payload cached for `key`, or None if there is none or the file does not check
    out (its line, key or checksum); a file read is marked as just used."""
    path = cache_path(kind, key)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    start = data.find(b"\n", 0, 200) + 1
    if not start or data[:start] != _header(key, memoryview(data)[start:]):
        return None
    with suppress(OSError):
        os.utime(path)
    return data[start:]


def write_cache_file(kind: str, key: str, payload: bytes) -> None:
    """Cache `payload` for `key`, whole (a temporary file renamed) with its checksum, then
    keep the cache within its bounds; a cache that cannot be written is skipped."""
    header = _header(key, payload)
    if len(header) + len(payload) > CACHE_BYTES:
        return
    target = cache_path(kind, key)
    temp: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(handle, "wb") as file:
            file.write(header)
            file.write(payload)
        os.replace(temp, target)
        temp = None
        _bound(target.parent, target)
    except OSError:
        if temp is not None:
            with suppress(OSError):
                os.unlink(temp)


def _ours(folder: Path, temporary: bool = False) -> list[tuple[int, int, Path]]:
    """The project's files in `folder` (with `temporary`, unfinished writes too), each
    with its time of last use and size, the least recently used first."""
    found = []
    for entry in os.scandir(folder):
        if _OURS.fullmatch(entry.name) or (temporary and _TEMP.fullmatch(entry.name)):
            with suppress(OSError):
                if entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    found.append((stat.st_mtime_ns, stat.st_size, Path(entry.path)))
    return sorted(found, key=lambda item: (item[0], item[2].name))


def _bound(folder: Path, keep: Path) -> None:
    """Remove the least recently used files until CACHE_FILES and CACHE_BYTES hold (never `keep`)."""
    files = _ours(folder)
    count, size = len(files), sum(item[1] for item in files)
    for _, bytes_, path in files:
        if count <= CACHE_FILES and size <= CACHE_BYTES:
            break
        if path != keep:
            with suppress(OSError):
                path.unlink()
            count, size = count - 1, size - bytes_


def _listed(folder: Path) -> list[tuple[int, int, Path]]:
    """The project's files in `folder` (none if it does not exist); one error line if it
    is not a folder or cannot be read."""
    if not folder.exists():
        return []
    try:
        return _ours(folder, temporary=True)
    except OSError as error:
        reason = "it is not a folder" if isinstance(error, NotADirectoryError) else error.strerror
        raise AnalyzerError(
            f"the cache folder {quoted(str(folder))} cannot be read: {reason} "
            "(set BACCARAT_CACHE to a folder, or unset it for the platform's)"
        ) from None


@dataclass(frozen=True)
class CacheStatus:
    """The cache folder as `baccarat cache` reports it: its files (`info`), what clearing
    removed first (`removed`, None when not cleared), and its bounds."""

    info: CacheFiles
    removed: CacheFiles | None
    max_files: int
    max_bytes: int


def cache_status(clear: bool = False) -> CacheStatus:
    """The cache folder's files and bounds; with `clear`, after removing the project's files
    from it (`clear_cache`)."""
    removed = clear_cache() if clear else None
    return CacheStatus(cache_info(), removed, CACHE_FILES, CACHE_BYTES)


def cache_info() -> CacheFiles:
    """The cache folder and the project's files in it (count, bytes)."""
    folder = cache_dir()
    files = _listed(folder)
    return CacheFiles(folder, len(files), sum(item[1] for item in files))


def clear_cache() -> CacheFiles:
    """Remove the project's files from the cache folder (no other file); what was removed."""
    folder = cache_dir()
    count = size = 0
    for _, bytes_, path in _listed(folder):
        try:
            path.unlink()
        except FileNotFoundError:  # removed meanwhile (another process's bound)
            continue
        except OSError as error:
            reason = error.strerror or error
            raise AnalyzerError(f"the cache file {quoted(str(path))} cannot be removed: {reason}") from None
        count, size = count + 1, size + bytes_
    return CacheFiles(folder, count, size)
