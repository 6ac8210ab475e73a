"""The one exception type for bad input, and how a message quotes a bad value.

The CLI turns an AnalyzerError into a one-line error and exit code 2. The parsers of numbers,
lists and data files every module shares are in `analyzer.core.parsing`.
"""

from __future__ import annotations

__all__ = ["QUOTE_LIMIT", "AnalyzerError", "quoted"]

#: The most characters of an offending value that a message quotes.
QUOTE_LIMIT = 80


class AnalyzerError(ValueError):
    """Bad input: the message names the bad value and what is allowed, on one line."""


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` as an error message quotes it: its repr, cut to about `limit` characters (a
    long text shows its start, "..." and its length). Every message quotes values so."""
    try:
        text = repr(value)
    except RecursionError:
        return f"<a {type(value).__name__} nested too deeply>"
    if len(text) <= limit:
        return text
    if isinstance(value, str):
        return f"{text[: limit - 4]}...{text[0]} ({len(value):,} characters)"
    return f"{text[: limit - 3]}..."
