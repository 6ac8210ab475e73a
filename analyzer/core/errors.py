"""The one exception type for bad input, and the checks every data file shares.

The CLI turns an AnalyzerError into a one-line error and exit code 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["AnalyzerError", "check_keys", "read_toml"]


class AnalyzerError(ValueError):
    """Bad input: the message names the bad value and what is allowed, on one line."""


def check_keys(data: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    """Reject any key of `data` not in `allowed`, naming it."""
    allowed = set(allowed)
    for key in data:
        if key not in allowed:
            raise AnalyzerError(f"{where}: unknown key {key!r}; allowed: {', '.join(sorted(allowed))}")


def read_toml(spec: str, what: str, builtins: Iterable[str]) -> dict[str, Any]:
    """The parsed TOML file `spec` holding `what` (e.g. "rules"); a name that is neither a
    built-in nor a .toml path is an error listing the built-ins."""
    import tomllib  # loaded only when a file is read: a cold `baccarat odds` reads none

    path = Path(spec)
    if path.suffix.lower() != ".toml":
        raise AnalyzerError(f"unknown {what} {spec!r}: use one of {', '.join(builtins)} or a .toml file")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AnalyzerError(f"{what} file {spec!r} not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise AnalyzerError(f"{what} file {spec!r} cannot be read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise AnalyzerError(f"{what} file {spec!r} is not valid TOML: {error}") from None
