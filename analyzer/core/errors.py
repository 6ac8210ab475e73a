"""The one exception type for bad input, and how a message quotes a bad value.

The CLI turns an AnalyzerError into a one-line error and exit code 2. The parsers of numbers,
lists and data files every module shares are in `analyzer.core.parsing`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["QUOTE_LIMIT", "AnalyzerError", "library_words", "mention", "quoted", "word_mentions"]

#: The most characters of an offending value that a message quotes.
QUOTE_LIMIT = 80


#: The marks around an argument's mention in a message (`mention`): control characters, which
#: `quoted` never leaves in a value (its repr escapes them), so no value can forge a mention.
_OPEN, _PART, _CLOSE = "\x0e", "\x1f", "\x0f"
_MENTION = re.compile("\x0e([^\x1f\x0f]*)\x1f([^\x1f\x0f]*)\x1f([^\x1f\x0f]*)\x0f")


def mention(argument: str, value: str = "", words: str = "") -> str:
    """The library argument `argument` (a parameter's name: "decks", "max_pay") named inside
    an error message, perhaps with a `value` ("N"). Each reader words it: the library as
    `library_words` does (or as `words`, e.g. "Shoe.decks(N)"), the CLI as its flag ("--decks N").

    >>> str(AnalyzerError(f"use {mention('decks', 'N', 'Shoe.decks(N)')} or {mention('counts')}"))
    'use Shoe.decks(N) or counts'
    """
    return f"{_OPEN}{argument}{_PART}{value}{_PART}{words}{_CLOSE}"


def library_words(argument: str, value: str) -> str:
    """A mentioned argument in the library's words: its name, with a value as name=value."""
    return f"{argument}={value}" if value else argument


class AnalyzerError(ValueError):
    """Bad input: the message names the bad value and what is allowed, on one line, in the
    library's words. `argument` is the library parameter the bad value was given as ("decks",
    "counts", "cards", "remove", "rules", "bets", "table", ...): by default the argument the
    message starts by mentioning (`mention`), else None. `worded` gives the message with each
    mentioned argument worded by a reader (the CLI: as its flag).

    >>> error = AnalyzerError(f"{mention('max_pay')} 0: use a whole payout of at least 1")
    >>> str(error), error.argument
    ('max_pay 0: use a whole payout of at least 1', 'max_pay')
    >>> error.worded(lambda argument, value: "--" + argument.replace("_", "-"))
    '--max-pay 0: use a whole payout of at least 1'
    """

    def __init__(self, message: str = "", argument: str | None = None) -> None:
        super().__init__(message)
        first = _MENTION.match(message)
        self.argument = argument if argument is not None or first is None else first[1]

    @property
    def template(self) -> str:
        """The message with its mentions unworded: what an error that quotes this one embeds."""
        return str(self.args[0]) if self.args else ""

    def worded(self, word: Callable[[str, str], str] | None = None) -> str:
        """The message with each mentioned argument as `word(argument, value)` gives it
        (default: the library's words)."""
        return word_mentions(self.template, word)

    def __str__(self) -> str:
        return self.worded()


def word_mentions(template: str, word: Callable[[str, str], str] | None = None) -> str:
    """`template` (a message or a note with `mention`s) with each mentioned argument as
    `word(argument, value)` gives it (default: the library's words)."""
    if word is None:
        return _MENTION.sub(lambda m: m[3] or library_words(m[1], m[2]), template)
    return _MENTION.sub(lambda m: word(m[1], m[2]), template)


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
