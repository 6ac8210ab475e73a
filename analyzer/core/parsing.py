"""The parsers every module shares: numbers and lists given as text, the keys of a data
file's tables, and text and TOML files read within a size limit. Each refuses bad input with
one `AnalyzerError` naming the value and what is allowed.

>>> read_fraction("19/20", "a payout"), read_int("+12", "a count", 100)
(Fraction(19, 20), 12)
>>> list_items("tie, banker", "--bets")
['tie', 'banker']
"""

from __future__ import annotations

import gc
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, TypeVar

from analyzer.core.errors import AnalyzerError, quoted

__all__ = [
    "MAX_TOML_BYTES",
    "bulk_loaded",
    "check_keys",
    "files_read",
    "list_items",
    "plain_text",
    "read_fraction",
    "read_int",
    "read_text",
    "read_toml",
]

#: The largest TOML file read (a table, rules or counting-system file), in bytes.
MAX_TOML_BYTES = 10**6
#: Numbers given as text: ASCII digits only (no other script's digits, no underscores).
_INT = re.compile(r"\s*[+-]?[0-9]+\s*")
#: An integer over an integer with a digit other than 0 (p/0 and 1.5/2 write no number), or a
#: decimal with an optional exponent.
_NUMBER = re.compile(
    r"\s*[+-]?(?:[0-9]+/0*[1-9][0-9]*|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?([0-9]+))?)\s*"
)
#: Bounds on a number given as text: digits in all, and the size of a decimal exponent.
_MAX_DIGITS, _MAX_EXPONENT = 1000, 10000

_T = TypeVar("_T")


def bulk_loaded(build: Callable[[], _T]) -> _T:
    """`build()`, run with Python's cyclic garbage collector paused: a shipped data file
    parsed and turned into the objects kept allocates thousands of containers, which a
    collection during it would only scan (each lives on, or is freed when `build` returns,
    before the collector runs again). The collector is left as it was found."""
    if not gc.isenabled():
        return build()
    gc.disable()
    try:
        return build()
    finally:
        gc.enable()


def list_items(text: str, what: str, example: str = "", allowed: str = "") -> list[str]:
    """The items of a comma-separated list, stripped. One rule for every list option: an
    empty value, an empty item or a trailing comma is an error (`what` names the option,
    `example` shows a valid list, or `allowed` says in full what to give)."""
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or not all(items):
        allowed = allowed or f"give a comma-separated list, none empty (e.g. {example})"
        raise AnalyzerError(f"{what} {quoted(text)}: {allowed}")
    return items


def read_int(text: str, what: str, bound: int) -> int | None:
    """The integer `text` writes in ASCII digits (a sign and spaces around allowed), or None
    when it writes none; one beyond `bound` in size is an error naming `what` and the bound."""
    if not _INT.fullmatch(text):
        return None
    if len(text.strip().lstrip("+-").lstrip("0")) > len(str(bound)) or abs(int(text)) > bound:
        raise AnalyzerError(f"{what} {quoted(text)} is too large: use at most {bound:,}")
    return int(text)


def read_fraction(text: str, what: str) -> Fraction | None:
    """The exact number `text` writes in ASCII digits (an integer, a decimal with an optional
    exponent, or p/q of integers with q not 0), or None when it writes none (so p/0 and 1.5/2
    are None); more than 1,000 digits or an exponent beyond 10,000 is an error naming `what`."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        return None
    exponent = match.group(1) or ""
    digits = sum(c.isdigit() for c in text) - len(exponent)
    if digits > _MAX_DIGITS or len(exponent.lstrip("0")) > 5 or int(exponent or 0) > _MAX_EXPONENT:
        raise AnalyzerError(
            f"{what} {quoted(text)} is too large: use at most {_MAX_DIGITS:,} digits "
            f"and an exponent up to {_MAX_EXPONENT:,}"
        )
    return Fraction(text.strip())


def check_keys(data: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    """Reject any key of `data` not in `allowed`, naming it."""
    allowed = set(allowed)
    for key in data:
        if key not in allowed:
            raise AnalyzerError(f"{where}: unknown key {quoted(key)}; allowed: {', '.join(sorted(allowed))}")


#: What a user's text (a title, a source, a label) may not hold: control characters other
#: than tab, line feed and carriage return, which every output escapes (C0, DEL, C1: a NUL in
#: an HTML file, an escape sequence on a terminal), and the bidirectional embeddings,
#: overrides and isolates, which make a report read other than it is written (the marks LRM
#: and RLM stay).
_HIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def plain_text(value: object, what: str, remedy: str = "write plain text") -> str:
    """`value` as text (`str`), or AnalyzerError naming it (and `remedy`) when it holds a
    character of `_HIDDEN`.

    >>> plain_text("Dragon 7 (40:1)", "title")
    'Dragon 7 (40:1)'
    """
    text = str(value)
    found = _HIDDEN.search(text)
    if found:
        raise AnalyzerError(
            f"{what} {quoted(text)} holds U+{ord(found.group()):04X}, a control character or a "
            f"text-direction override; {remedy}"
        )
    return text


#: The SHA-256 (hex) of the bytes `read_text` last read from each path: what a result
#: computed from the file can state it was computed from (`read_digest`).
_DIGESTS: dict[str, str] = {}


def read_digest(path: str) -> str | None:
    """The SHA-256 (hex) of the bytes `read_text` last read from `path` (the very bytes
    parsed, not the file as it may be now); None if it has read none there."""
    return _DIGESTS.get(path)


def files_read() -> tuple[str, ...]:
    """The paths `read_text` has read in this process: a command's input files, those a
    file names among them (a table file's rules file)."""
    return tuple(_DIGESTS)


def read_text(path: str, what: str, limit: int = MAX_TOML_BYTES) -> str:
    """The text of the file `path` (UTF-8, a byte-order mark at its start dropped, as editors
    on Windows write it; newlines as text mode reads them), a `what` file: no name, missing,
    unreadable or larger than `limit` bytes, one AnalyzerError naming it. At most `limit` + 1
    bytes are read, so that a device or a pipe (/dev/zero) cannot fill memory."""
    from pathlib import Path  # loaded only when a file is read: a cold `baccarat odds` reads none

    name = quoted(path)
    if not path:  # Path("") is the current directory: "Is a directory" would say nothing true
        raise AnalyzerError(f"{what} file {name}: give a file name")
    plain_text(path, f"{what} file", "rename the file")  # shown in outputs (a par sheet's table file)
    try:
        with Path(path).open("rb") as file:
            status = os.fstat(file.fileno())
            size = status.st_size if stat.S_ISREG(status.st_mode) else 0
            if size > limit:  # a regular file tells its size: refused unread
                over = f"over the limit of {limit:,} bytes"
                raise AnalyzerError(f"{what} file {name} is {size:,} bytes, {over}")
            data = file.read(limit + 1)
        if len(data) > limit:
            raise AnalyzerError(f"{what} file {name} is larger than the limit of {limit:,} bytes")
        text = data.decode("utf-8-sig")
        import hashlib  # only when a file is read

        _DIGESTS[path] = hashlib.sha256(data).hexdigest()
    except FileNotFoundError:
        raise AnalyzerError(f"{what} file {name} not found") from None
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise AnalyzerError(f"{what} file {name} cannot be read: {reason}") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as text mode


def read_toml(spec: str, what: str, builtins: Iterable[str]) -> dict[str, Any]:
    """The parsed TOML file `spec` holding `what` (e.g. "rules"); a name that is neither a
    built-in nor a .toml path is an error listing the built-ins."""
    import tomllib  # loaded only when a file is read: a cold `baccarat odds` reads none
    from pathlib import Path

    path = Path(spec)
    name = quoted(spec)
    if path.suffix.lower() != ".toml":
        raise AnalyzerError(f"unknown {what} {name}: use one of {', '.join(builtins)} or a .toml file")
    text = read_text(spec, what)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise AnalyzerError(f"{what} file {name} is not valid TOML: {error}") from None
    except RecursionError:
        raise AnalyzerError(
            f"{what} file {name}: a value is nested too deeply; nest arrays and tables a few levels at most"
        ) from None
