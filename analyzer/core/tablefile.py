"""Table files written back: a bet and its tableau as the TOML text that
`analyzer.core.catalogue.get_table` reads (what `baccarat design --write` saves).

>>> from analyzer.core.catalogue import get_bet
>>> from analyzer.core.rules import STANDARD
>>> print(table_text(get_bet("tie"), STANDARD, "Casino X"), end="")
title = "Casino X"
rules = "standard"
<BLANKLINE>
[bets.tie]
title = "Tie (8:1)"
source = "Wikipedia, Baccarat (English, Russian and Hebrew articles): a tie pays 8 to 1"
kind = "tie"
lines = [
  { when = { winner = "tie" }, pays = 8, label = "tie" },
]
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from analyzer.core.bets import Bet, Unknown
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.rules import RULES, Rules

__all__ = ["table_text", "written_pays"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def written_pays(pays: Fraction | Unknown | None) -> int | str:
    """A line's result as a table file writes it: a whole payout as an integer, else "p/q",
    "push", "lose", "lose p/q" (a partial loss), or an unknown payout's "?" / "A..B"."""
    if pays is None:
        return "push"
    if isinstance(pays, Unknown):
        return str(pays)
    if pays < 0:
        return "lose" if pays == -1 else f"lose {-pays}"
    return pays.numerator if pays.denominator == 1 else str(pays)


def table_text(bet: Bet, rules: Rules, title: str, comment: str = "") -> str:
    """TOML text of a table offering `bet` under `rules` (a built-in tableau by name, any
    other inline), `comment` lines first; checked to read back as the same bet and rules."""
    head = "".join(f"# {line}\n" for line in comment.splitlines())
    rules_value = rules.name if RULES.get(rules.name) == rules else rules.to_mapping()
    spec: dict[str, Any] = {"title": bet.title}
    if bet.source:
        spec["source"] = bet.source
    if bet.kind != "side":
        spec["kind"] = bet.kind
    rows = []
    for line in bet.lines:
        when = {name: allowed[0] if len(allowed) == 1 else list(allowed) for name, allowed in line.when}
        row: dict[str, Any] = {"when": when, "pays": written_pays(line.pays)}
        if line.label:
            row["label"] = line.label
        rows.append(f"  {_value(row)},\n")
    text = (
        f"{head}title = {_value(title)}\nrules = {_value(rules_value)}\n\n[bets.{_key(bet.name)}]\n"
        + "".join(f"{key} = {_value(value)}\n" for key, value in spec.items())
        + "lines = [\n"
        + "".join(rows)
        + "]\n"
    )
    _check_reads_back(text, bet, rules)
    return text


def _check_reads_back(text: str, bet: Bet, rules: Rules) -> None:
    import tomllib

    from analyzer.core.catalogue import ALL_BETS, table_from_mapping

    try:
        table = table_from_mapping(bet.name, tomllib.loads(text), ALL_BETS, source="written table")
    except (tomllib.TOMLDecodeError, AnalyzerError) as error:
        raise AnalyzerError(f"bet {quoted(bet.name)} cannot be written as a table file: {error}") from None
    [written] = table.bets
    if written.lines != bet.lines or table.rules != rules:
        raise AnalyzerError(f"bet {quoted(bet.name)} does not read back the same from a table file")


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key)


def _value(value: Any) -> str:
    """A TOML value on one line (a JSON string is a TOML basic string)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        items = ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    raise AnalyzerError(f"{quoted(value)} cannot be written in a table file")
