"""The one exception type for bad input; the CLI turns it into a one-line error."""

from __future__ import annotations

__all__ = ["AnalyzerError"]


class AnalyzerError(ValueError):
    """Bad input: the message names the bad value and what is allowed, on one line."""
