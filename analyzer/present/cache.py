"""The disk cache as `baccarat cache` shows it: its folder, the project's files in it and
their bytes, what clearing removed, its bounds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.core.errors import quoted
from analyzer.present.document import Block, Paragraph, write

if TYPE_CHECKING:
    from analyzer.ranks.diskcache import CacheStatus

__all__ = ["CACHE_FORMATS", "cache_blocks", "cache_data", "render_cache"]

#: The formats of the cache's status.
CACHE_FORMATS = ("table", "json")


def cache_data(status: CacheStatus) -> dict[str, Any]:
    """The JSON document of the cache's status: folder, files, bytes, removed ({files,
    bytes} or None), max_files, max_bytes."""
    info, removed = status.info, status.removed
    gone = None if removed is None else {"files": removed.files, "bytes": removed.bytes}
    return {
        "folder": str(info.folder),
        "files": info.files,
        "bytes": info.bytes,
        "removed": gone,
        "max_files": status.max_files,
        "max_bytes": status.max_bytes,
    }


def cache_blocks(status: CacheStatus) -> list[Block]:
    """The cache's status as one paragraph of lines (a folder name that does not print is quoted)."""
    info, removed = status.info, status.removed
    folder = str(info.folder) if str(info.folder).isprintable() else quoted(str(info.folder))
    lines = [f"Cache folder: {folder}"]
    if removed is not None:
        lines.append(f"Removed: {removed.files:,} files ({removed.bytes:,} bytes)")
    lines += [
        f"Files: {info.files:,} ({info.bytes:,} bytes)",
        f"Kept: at most {status.max_files:,} files and {status.max_bytes:,} bytes, the least recently used "
        "go first",
        "BACCARAT_CACHE moves it; baccarat cache --clear empties it",
    ]
    return [Paragraph("\n".join(lines))]


def render_cache(status: CacheStatus, fmt: str = "table") -> str:
    """The cache's status as a terminal text (`fmt` "table"; JSON comes from `cache_data`
    through `analyzer.present.outputs`)."""
    return write(cache_blocks(status), fmt)
