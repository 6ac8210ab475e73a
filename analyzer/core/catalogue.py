"""The built-in bets and tables (payout rule sets), and user tables from TOML files.

Built-ins live in `catalogue.toml` beside this module, each bet citing its source. A
*table* is what a casino offers: a tableau and a list of bets.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from analyzer.core.bets import Bet, Line, bet_from_mapping, check_priced, commission_banker, parse_ratio
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.parsing import bulk_loaded, check_keys, list_items, plain_text, read_fraction, read_toml
from analyzer.core.rules import Rules, get_rules, rules_from_mapping
from analyzer.core.values import value_class

__all__ = [
    "ALL_BETS",
    "BETS",
    "CARD_BETS",
    "RANK_BETS",
    "TABLES",
    "Table",
    "get_bet",
    "get_bets",
    "get_table",
    "parse_commission",
    "select_bets",
    "table_from_mapping",
]


@value_class
class Table:
    """A casino's table: a tableau and the bets offered with it."""

    name: str
    title: str
    rules: Rules
    bets: tuple[Bet, ...]


_TABLE_KEYS = {"title", "rules", "offer", "bets", "banker_commission", "tie_pays"}


def parse_commission(value: Any, what: str = "banker_commission") -> Fraction:
    """A commission from "5%", 0.05 or "1/20"."""
    text = str(value).strip()
    try:
        if text.endswith("%"):
            percentage = read_fraction(text[:-1], what)
            if percentage is None:
                raise ValueError(text)
            rate = percentage / 100
        else:
            rate = parse_ratio(value, what)
    except ValueError:
        raise AnalyzerError(
            f"{what}: {quoted(value)} is not a commission; use e.g. 5%, 0.05 or 1/20"
        ) from None
    if not 0 <= rate < 1:
        raise AnalyzerError(f"{what}: {quoted(value)} is not a commission; use a rate from 0% to below 100%")
    return rate


def table_from_mapping(
    name: str, data: Mapping[str, Any], known: Mapping[str, Bet], source: str = "table"
) -> Table:
    """A table from a TOML-shaped mapping (keys: title, rules, offer, bets, banker_commission,
    tie_pays); `offer` names bets of `known` or of this table's own [bets.NAME] tables."""
    check_keys(data, _TABLE_KEYS, source)
    own_raw = data.get("bets", {})
    if not isinstance(own_raw, Mapping):
        raise AnalyzerError(f"{source}: bets must be tables [bets.NAME] with title and lines")
    own = {bet_name: bet_from_mapping(bet_name, spec, source) for bet_name, spec in own_raw.items()}
    offered = data.get("offer", [])
    if not isinstance(offered, list) or not all(isinstance(name, str) for name in offered):
        raise AnalyzerError(f"{source}: offer must be a list of bet names")
    for bet_name in offered:
        if offered.count(bet_name) > 1:
            raise AnalyzerError(f"{source}: offer names {quoted(bet_name)} twice; offer each bet once")
    bets: list[Bet] = []
    for bet_name in offered:
        if bet_name in own:
            bets.append(own.pop(bet_name))
        elif bet_name in known:
            bets.append(known[bet_name])
        else:
            raise AnalyzerError(
                f"{source}: offer names unknown bet {quoted(bet_name)}; built-ins: {', '.join(known)}"
            )
    if "banker_commission" in data:
        bets.append(
            commission_banker(parse_commission(data["banker_commission"], f"{source}: banker_commission"))
        )
    if "tie_pays" in data:
        pays = parse_ratio(data["tie_pays"], f"{source}: tie_pays")
        tie = Line(when=(("winner", ("tie",)),), pays=pays, label="tie")
        bets.append(Bet(f"tie-{pays}to1", f"Tie ({pays}:1)", (tie,), source=source, kind="tie"))
    bets.extend(own.values())
    if not bets:
        raise AnalyzerError(
            f"{source}: the table offers no bets; give offer, bets, banker_commission or tie_pays"
        )
    rules_spec = data.get("rules", "standard")
    if isinstance(rules_spec, Mapping):
        rules = rules_from_mapping(rules_spec, source=f"{source}: rules")
    elif isinstance(rules_spec, str):
        rules = get_rules(rules_spec)
    else:
        raise AnalyzerError(f"{source}: rules must be a rules name, a .toml path or a [rules] table")
    title = plain_text(data.get("title", name), f"{source}: title")
    return Table(name=name, title=title, rules=rules, bets=tuple(bets))


#: Parsed copies of the built-in TOML files (scripts/build_coups.py writes them), each used
#: only for the exact text it was parsed from: a cold command skips loading tomllib.
PARSED = "parsed-catalogues.json"
#: The folder of the built-in files: this module's (read as files, as `analyzer.ranks.coupstore`
#: reads the coup store; `importlib.resources` would cost a cold command about 6 ms to load,
#: pathlib about 8 ms).
_HERE = os.path.dirname(__file__)


def _builtin_text(name: str) -> str:
    with open(os.path.join(_HERE, name), encoding="utf-8") as file:
        return file.read()


def _read_copies() -> Any:
    """The file of parsed copies (`PARSED`) as JSON; None if it cannot be read."""
    try:
        return json.loads(_builtin_text(PARSED))
    except (OSError, ValueError):
        return None


def _parsed_copy(name: str, copies: Any = None) -> dict[str, Any] | None:
    """The parsed copy of the built-in TOML file `name` if it was made from its present text;
    from `copies` (`_read_copies`, each file's copy taken once) if given, else read now."""
    text = _builtin_text(name)
    try:
        copy = (_read_copies() if copies is None else copies)[name]
        if copy["crc32"] == zlib.crc32(text.encode()) and copy["length"] == len(text):
            return dict(copy)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def builtin_toml(name: str) -> dict[str, Any]:
    """The data of the built-in TOML file `name` (beside this module): its parsed copy if
    that was made from this text, else parsed now."""
    copy = _parsed_copy(name)
    if copy is not None:
        return dict(copy["data"])  # a fresh object from each read
    import tomllib

    return tomllib.loads(_builtin_text(name))


def read_form(bet: Bet) -> dict[str, Any]:
    """A bet as `bet_from_mapping` reads it, as JSON: its conditions checked and normalised,
    payouts as [numerator, denominator] (None: push), and what it reads (`Bet.reads`). The
    parsed copy of a built-in catalogue holds its bets so, and `builtin_bets` takes them as
    they are (the card-level fields then load only when a coup is evaluated)."""
    lines = []
    for line in bet.lines:
        if not (line.pays is None or isinstance(line.pays, Fraction)):
            raise ValueError(f"{bet.name}: a payout to find has no read form")
        pays = None if line.pays is None else [line.pays.numerator, line.pays.denominator]
        when = [[key, list(allowed)] for key, allowed in line.when]
        lines.append({"when": when, "pays": pays, "label": line.label})
    return {
        "title": bet.title,
        "source": bet.source,
        "kind": bet.kind,
        "lines": lines,
        "reads": list(bet.reads),
    }


#: The built-in TOML files of bets, each with the name its errors give it.
_SOURCES = {"catalogue.toml": "catalogue", "card_catalogue.toml": "card catalogue"}


def parsed_copies() -> dict[str, Any]:
    """What `PARSED` holds (scripts/build_coups.py writes it as JSON): for each built-in TOML
    file, the crc32 and length of its text, its data as tomllib parses it and its bets as
    `bet_from_mapping` reads and checks them (`read_form`)."""
    import tomllib

    copies = {}
    for name, source in _SOURCES.items():
        text = _builtin_text(name)
        data = tomllib.loads(text)
        bets = {bet: read_form(bet_from_mapping(bet, spec, source)) for bet, spec in data["bets"].items()}
        copies[name] = {"crc32": zlib.crc32(text.encode()), "length": len(text), "data": data, "bets": bets}
    return copies


def _from_read_form(name: str, form: Mapping[str, Any]) -> Bet:
    lines = tuple(
        Line(  # when, pays, label (by position: value_class's quickest call)
            tuple((key, tuple(allowed)) for key, allowed in line["when"]),
            None if line["pays"] is None else Fraction(*line["pays"]),
            line["label"],
        )
        for line in form["lines"]
    )
    bet = Bet(name, form["title"], lines, form["source"], form["kind"])  # every field, by position
    bet.__dict__["reads"] = tuple(form["reads"])  # Bet.reads, cached as it would compute it
    return bet


def builtin_bets(name: str, copies: Any = None) -> tuple[dict[str, Any], dict[str, Bet]]:
    """The data of the built-in TOML file `name` (as `builtin_toml`) and its bets: from its
    parsed copy's read bets if that was made from this text (`read_form`; from `copies` as
    `_parsed_copy` takes them), else read and checked now by `bet_from_mapping`."""
    copy = _parsed_copy(name, copies)
    data = dict(copy["data"]) if copy is not None else builtin_toml(name)
    forms = None if copy is None else copy.get("bets")
    if isinstance(forms, dict):
        return data, {bet_name: _from_read_form(bet_name, form) for bet_name, form in forms.items()}
    source = _SOURCES[name]
    return data, {
        bet_name: bet_from_mapping(bet_name, spec, source) for bet_name, spec in data["bets"].items()
    }


def _load_builtins() -> tuple[dict[str, Bet], dict[str, Table], dict[str, Bet]]:
    copies = _read_copies()  # read and parsed once for both files
    data, bets = builtin_bets("catalogue.toml", copies)
    tables = {
        name: table_from_mapping(name, spec, bets, "catalogue") for name, spec in data["tables"].items()
    }
    return bets, tables, builtin_bets("card_catalogue.toml", copies)[1]


#: Built-in bets that a coup's rank-level outcome settles, the built-in tables, by name, and
#: the built-in card-level bets (they read ranks, suits or colours of individual cards).
RANK_BETS, TABLES, CARD_BETS = bulk_loaded(_load_builtins)
#: Every built-in bet, rank-level then card-level (`Bet.reads` tells them apart);
#: ALL_BETS is the same mapping under its earlier name.
BETS = ALL_BETS = {**RANK_BETS, **CARD_BETS}


def get_bet(name: str) -> Bet:
    """A built-in bet by name (rank-level or card-level).

    >>> from analyzer import get_bet
    >>> [(line.label, line.pays) for line in get_bet("dragon7").lines]
    [('Banker wins with a three-card 7', Fraction(40, 1))]
    """
    if name not in ALL_BETS:
        raise AnalyzerError(f"unknown bet {quoted(name)}: use one of {', '.join(ALL_BETS)}")
    return ALL_BETS[name]


def get_bets(names: str) -> tuple[Bet, ...]:
    """Built-in bets from a comma-separated list of names."""
    items = list_items(names, "bets", "banker,player,tie")
    return tuple(get_bet(item) for item in items)


def select_bets(names: str, table: Table | None = None) -> list[Bet]:
    """Bets from a comma-separated list: `table`'s own bets by name, else built-ins; a bet
    with payouts still to find is refused (`check_priced`)."""
    own = {bet.name: bet for bet in table.bets} if table else {}
    items = list_items(names, "bets", "banker,player,tie")
    chosen: list[Bet] = []
    for item in items:
        bet = own[item] if item in own else get_bet(item)
        check_priced(bet)
        if bet not in chosen:
            chosen.append(bet)
    return chosen


def get_table(spec: str) -> Table:
    """A built-in table by name, or one loaded from a TOML file.

    >>> from analyzer import get_table
    >>> super6 = get_table("super6")
    >>> super6.rules.name, [bet.name for bet in super6.bets]
    ('standard', ['player', 'super6-banker', 'tie'])
    >>> [(line.label, line.pays) for line in super6.bets[1].lines]
    [('Banker wins with 6', Fraction(1, 2)), ('Banker wins otherwise', Fraction(1, 1)), ('tie', None)]
    """
    if spec in TABLES:
        return TABLES[spec]
    from pathlib import Path  # a table file's: a cold command loads no pathlib

    data = read_toml(spec, "table", TABLES)
    rules = data.get("rules")
    if isinstance(rules, str) and rules.lower().endswith(".toml") and not Path(rules).is_absolute():
        beside = Path(spec).parent / rules  # a rules file named in a table file sits next to it
        if beside.exists():
            data["rules"] = str(beside)
    return table_from_mapping(Path(spec).stem, data, ALL_BETS, source=spec)
