"""Bets as data: paytables of conditions on a coup, one model whatever the bet reads.

A bet is an ordered list of lines. Each line has a condition (``when``: fields and the
values they may take, all of which must hold) and a result: a payout ratio (a win pays
``pays`` to 1, or ``"N for 1"``), a push, a loss or a partial loss. The first line that
matches settles the bet; a coup no line matches loses the stake. A line may instead pay
an `Unknown` ("?" or "A..B" in a table file): a payout that `baccarat design` finds and
that every pricing path refuses (`check_priced`).

Line indexes run from 0 to ``len(bet.lines)``: the last index, `Bet.no_line`, means no
line matched. `Bet.net` gives the net result of every index, in one place.

Fields of the rank-level `Outcome` (`FIELDS`) are read by every engine; fields that look
at individual cards (ranks, suits, colours; `analyzer.core.fields`) make the bet
*card-level*, priced by the card engine on a shoe whose suits are known where it needs
them. `Bet.reads` says what a bet reads, decided once from its fields.

>>> from analyzer.core.catalogue import get_bet
>>> tie = get_bet("tie")
>>> tie.reads, tie.card_level
(('outcome',), False)
>>> [str(tie.net(i)) for i in range(tie.no_line + 1)]
['8', '-1']
>>> get_bet("perfect-pairs-v1").reads
('ranks', 'suits')
"""

from __future__ import annotations

import decimal
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.outcome import Outcome, Winner
from analyzer.core.parsing import check_keys, plain_text, read_fraction
from analyzer.core.values import value_class

if TYPE_CHECKING:
    from analyzer.core.shoe import Shoe

__all__ = [
    "FIELDS",
    "LOSS",
    "NAME_LIMIT",
    "NAME_RULE",
    "READS",
    "Bet",
    "Line",
    "Unknown",
    "bet_from_mapping",
    "can_price",
    "check_card_bets",
    "check_name",
    "check_priced",
    "commission_banker",
    "parse_pays",
    "parse_ratio",
    "safe_name",
]


def _margin(o: Outcome) -> int:
    return abs(o.player_total - o.banker_total)


#: Outcome fields a condition may test, with how to read them and the values allowed.
FIELDS: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "winner": (lambda o: str(o.winner), tuple(str(w) for w in Winner)),
    "player_total": (lambda o: o.player_total, tuple(range(10))),
    "banker_total": (lambda o: o.banker_total, tuple(range(10))),
    "player_initial": (lambda o: o.player_initial, tuple(range(10))),
    "banker_initial": (lambda o: o.banker_initial, tuple(range(10))),
    "player_cards": (lambda o: o.player_cards, (2, 3)),
    "banker_cards": (lambda o: o.banker_cards, (2, 3)),
    "cards": (lambda o: o.cards, (4, 5, 6)),
    "natural": (lambda o: o.natural, (False, True)),
    "player_pair": (lambda o: o.player_pair, (False, True)),
    "banker_pair": (lambda o: o.banker_pair, (False, True)),
    "margin": (_margin, tuple(range(10))),
}


def parse_ratio(value: Any, what: str) -> Fraction:
    """An exact payout ratio from an int, a "p/q" or decimal string, or a TOML float."""
    if isinstance(value, bool):
        raise AnalyzerError(f'{what}: {quoted(value)} is not a payout ratio; use e.g. 1, 0.95 or "19/20"')
    try:
        if isinstance(value, str):
            ratio = read_fraction(value, what)
        else:
            ratio = Fraction(str(value)) if isinstance(value, (int, float)) else None
    except ValueError:  # a TOML inf or nan, or a number read_fraction finds too large
        ratio = None
    if ratio is None or ratio < 0:
        raise AnalyzerError(f'{what}: {quoted(value)} is not a payout ratio; use e.g. 1, 0.95 or "19/20"')
    return ratio


@value_class
class Unknown:
    """A payout still to be found (`analyzer.analyses.design`): a whole number from `low` to
    `high` paid to 1, written "A..B"; `high` None is "?", up to the designer's maximum."""

    low: int = 1
    high: int | None = None

    def __str__(self) -> str:
        return "?" if self.high is None else f"{self.low}..{self.high}"


#: A payout range "A..B" in a table file: whole numbers in ASCII digits (a pattern compiled
#: on first use, as `_NAME`: a cold command reads no table file).
_RANGE = r"\s*([0-9]+)\s*\.\.\s*([0-9]+)\s*"
#: The largest whole payout a range may name.
MAX_PAYOUT = 10**18


@value_class
class Line:
    """One paytable line: `when` (field -> allowed values) and `pays` (None: push; -1: loss;
    an `Unknown`: a payout to find, which no pricing path takes)."""

    when: tuple[tuple[str, tuple[Any, ...]], ...]
    pays: Fraction | Unknown | None
    label: str = ""

    @property
    def payout(self) -> Fraction | None:
        """`pays` of a line with a known result; an AnalyzerError for an unknown payout."""
        if isinstance(self.pays, Unknown):
            raise AnalyzerError(
                f"line {quoted(self.describe())} pays {quoted(str(self.pays))}, a payout to find: "
                "find it with `baccarat design`"
            )
        return self.pays

    def matches(self, outcome: Outcome) -> bool:
        return all(FIELDS[name][0](outcome) in allowed for name, allowed in self.when)

    @property
    def result(self) -> str:
        if self.pays is None:
            return "push"
        if isinstance(self.pays, Unknown):
            return f"{self.pays} to 1"
        if self.pays.numerator < 0:  # the sign of the payout (an int's or a Fraction's)
            return "loses" if self.pays == -1 else f"loses {-self.pays}"
        return f"{self.pays} to 1"

    def describe(self) -> str:
        if self.label:
            return self.label
        parts = []
        for name, allowed in self.when:
            shown = "/".join(str(v).lower() for v in allowed)
            parts.append(f"{name.replace('_', ' ')} {shown}")
        return ", ".join(parts) or "any outcome"


LOSS = Fraction(-1)
#: What a bet can read, from the coarsest: the rank-level outcome, the point values of
#: individual cards, their ranks, their suits, the colours of hands.
READS = ("outcome", "values", "ranks", "suits", "colours")


@value_class
class Bet:
    """A named paytable. Lines are tried in order; no match loses the stake."""

    name: str
    title: str
    lines: tuple[Line, ...]
    source: str = ""
    kind: str = "side"  # "player", "banker", "tie" (the main bets) or "side"

    @property
    def no_line(self) -> int:
        """The line index meaning no line matched (the stake is lost): `len(lines)`."""
        return len(self.lines)

    @cached_property
    def nets(self) -> tuple[Fraction, ...]:
        """Net win per unit staked for each line index (a push nets 0; last: no line, -1);
        an AnalyzerError for a bet with unknown payouts (`check_priced`)."""
        check_priced(self)
        return (*(line.payout or Fraction(0) for line in self.lines), LOSS)

    @cached_property
    def unknowns(self) -> tuple[int, ...]:
        """Indexes of the lines whose payout is `Unknown` (a bet to design, not to price)."""
        return tuple(i for i, line in enumerate(self.lines) if isinstance(line.pays, Unknown))

    def with_pays(self, pays: Mapping[int, Fraction | int]) -> Bet:
        """This bet with line `i` paying `pays[i]` to 1 (e.g. the unknown lines given payouts)."""
        lines = tuple(
            replace(line, pays=Fraction(pays[i])) if i in pays else line for i, line in enumerate(self.lines)
        )
        return replace(self, lines=lines)

    def net(self, line: int) -> Fraction:
        """Net win per unit staked when line index `line` settles the bet (exact Fraction)."""
        return self.nets[line]

    def settle(self, outcome: Outcome) -> Fraction | None:
        """Net win per unit staked on `outcome` (None for a push)."""
        i = self.line_index(outcome)
        return LOSS if i == self.no_line else self.lines[i].payout

    def line_index(self, outcome: Outcome) -> int:
        """Index of the first matching line, or `no_line` (the stake is lost)."""
        return _line_index(self, outcome)

    def uncached_line_index(self, outcome: Outcome) -> int:
        """`line_index` found again, not looked up: for a caller that keeps its own table
        (the cache's key hashes the bet, its lines and payouts, at every call)."""
        index: int = _line_index.__wrapped__(self, outcome)
        return index

    @cached_property
    def reads(self) -> tuple[str, ...]:
        """What the bet's conditions read, in `READS` order: ("outcome",) for a bet that a
        coup's rank-level outcome settles; for a card-level bet, what of the cards it reads
        (and "outcome" if it reads outcome fields too)."""
        found = set()
        for line in self.lines:
            for name, _ in line.when:
                if name in FIELDS:
                    found.add("outcome")
                else:
                    from analyzer.core.fields import card_field  # numpy-free until evaluated

                    field = card_field(name)
                    assert field is not None  # checked when the bet was read
                    found.update(field.reads)
        return tuple(kind for kind in READS if kind in found) or ("outcome",)

    @property
    def card_level(self) -> bool:
        """Whether the bet reads individual cards (so is priced by the card engine): decided
        from `reads`, like `needs_suits`."""
        return self.reads != ("outcome",)

    @property
    def needs_suits(self) -> bool:
        """Whether the bet reads suits or colours (so needs a shoe whose suits are known)."""
        return "suits" in self.reads or "colours" in self.reads


def can_price(bet: Bet, shoe: Shoe) -> bool:
    """Whether `shoe` says enough to price `bet` (its suits are known if the bet reads them)."""
    return shoe.is_infinite or shoe.types is not None or not bet.needs_suits


#: Where a bet's payouts are found, in the library's words.
_DESIGN = "analyzer.analyses.results.design_result"


def check_priced(bet: Bet) -> None:
    """An AnalyzerError, pointing to `baccarat design`, if a line of `bet` pays `Unknown`:
    every pricing path calls it (`analyzer.core.conventions`, `Bet.nets`)."""
    if bet.unknowns:
        i = bet.unknowns[0]
        raise AnalyzerError(
            f"bet {quoted(bet.name)}: lines[{i}] pays {quoted(str(bet.lines[i].pays))}, a payout to find, "
            f"not to price: find it with {mention('design', bet.name, _DESIGN)}"
        )


def check_card_bets(bets: Sequence[Bet], shoe: Shoe) -> None:
    """An AnalyzerError unless `shoe` says enough to price every bet of `bets`."""
    from analyzer.core.shoe import suits_remedy

    suited = [bet.name for bet in bets if bet.needs_suits]
    if suited and shoe.types is None:
        raise AnalyzerError(
            f"{', '.join(suited)} read suits but the shoe's suits are not known ({shoe}): "
            f"{suits_remedy(shoe)}"
        )


@cache
def _line_index(bet: Bet, outcome: Outcome) -> int:
    if bet.card_level:
        raise AnalyzerError(f"bet {quoted(bet.name)} looks at individual cards: an outcome cannot settle it")
    for i, line in enumerate(bet.lines):
        if line.matches(outcome):
            return i
    return bet.no_line


def _allowed(name: str, value: Any, what: str) -> tuple[Any, ...]:
    if name not in FIELDS:
        from analyzer.core.fields import card_field, card_field_names

        field = card_field(name)
        if field is None:
            known = ", ".join((*FIELDS, *card_field_names()))
            raise AnalyzerError(f"{what}: unknown field {quoted(name)}; allowed: {known}")
        items = value if isinstance(value, list) else [value]
        if not items:
            raise AnalyzerError(f"{what}.{name}: an empty list never matches; give at least one value")
        return tuple(field.allowed(v, what) for v in items)
    values = value if isinstance(value, list) else [value]
    legal = FIELDS[name][1]
    if not values:
        raise AnalyzerError(f"{what}.{name}: an empty list never matches; give at least one value")
    for v in values:
        if v not in legal or isinstance(v, bool) != isinstance(legal[0], bool):
            shown = ", ".join(str(x).lower() for x in legal)
            raise AnalyzerError(f"{what}.{name}: {quoted(v)} is not allowed; use {shown}")
    return tuple(values)


#: What a bet's name in a table file may hold: it names files and HTML ids, so it is data,
#: never a path or markup.
NAME_LIMIT = 64
NAME_RULE = f"use letters, digits, '-', '_' and '.' (not first), at most {NAME_LIMIT} characters"
_NAME = r"[A-Za-z0-9_-][A-Za-z0-9_.-]*"


def check_name(name: object, where: str) -> str:
    """`name` if it is a safe name (NAME_RULE), else AnalyzerError naming it and the rule."""
    if not isinstance(name, str) or len(name) > NAME_LIMIT or not re.fullmatch(_NAME, name, re.ASCII):
        raise AnalyzerError(f"{where}: bet name {quoted(name)} is not allowed; {NAME_RULE}")
    return name


def safe_name(name: str) -> str:
    """`name` as a file name or an HTML id: itself when it keeps NAME_RULE; else its allowed
    characters (any other as "_", no leading "."), cut short, and "-" and 8 hex digits of
    its SHA-256, so that different names stay apart.

    >>> safe_name("dragon7"), safe_name("tie-17/2to1"), safe_name("../../x")
    ('dragon7', 'tie-17_2to1-d68fccc8', '_.._x-9cdf6a50')
    """
    if len(name) <= NAME_LIMIT and re.fullmatch(_NAME, name, re.ASCII):
        return name
    import hashlib

    kept = re.sub(r"[^A-Za-z0-9_.-]", "_", name, flags=re.ASCII).lstrip(".")[: NAME_LIMIT - 9] or "bet"
    return f"{kept}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


_LINE_KEYS = {"when", "pays", "label"}
_BET_KEYS = {"title", "source", "lines", "kind"}
KINDS = ("player", "banker", "tie", "side")


def bet_from_mapping(name: str, data: Mapping[str, Any], source: str = "bet") -> Bet:
    """A bet from a TOML-shaped mapping: title, source, and lines of {when, pays, label}.

    `pays` is a ratio (1, 0.95, "19/20"), "push" or "lose".
    """
    where = f"{source}: bets.{check_name(name, source)}"
    if not isinstance(data, Mapping):
        raise AnalyzerError(f"{where} must be a table with title and lines")
    check_keys(data, _BET_KEYS, where)
    raw_lines = data.get("lines")
    if not isinstance(raw_lines, list) or not raw_lines:
        raise AnalyzerError(f"{where}: lines must be a non-empty list of {{when, pays}} tables")
    lines = []
    for i, raw in enumerate(raw_lines):
        at = f"{where}.lines[{i}]"
        if not isinstance(raw, Mapping):
            raise AnalyzerError(f"{at} must be a table with when and pays")
        check_keys(raw, _LINE_KEYS, at)
        when = raw.get("when", {})
        if not isinstance(when, Mapping):
            raise AnalyzerError(f"{at}.when must be a table of outcome fields")
        if "pays" not in raw:
            raise AnalyzerError(f'{at}: missing pays (a ratio, "push" or "lose")')
        pays = parse_pays(raw["pays"], f"{at}.pays")
        conditions = tuple((key, _allowed(key, value, f"{at}.when")) for key, value in _flat(when))
        lines.append(Line(when=conditions, pays=pays, label=plain_text(raw.get("label", ""), f"{at}.label")))
    title = data.get("title", name)
    kind = data.get("kind", "side")
    if kind not in KINDS:
        raise AnalyzerError(f"{where}.kind: {quoted(kind)} is not allowed; use {', '.join(KINDS)}")
    title = plain_text(title, f"{where}.title")
    source_text = plain_text(data.get("source", ""), f"{where}.source")
    return Bet(name=name, title=title, lines=tuple(lines), source=source_text, kind=kind)


def _flat(when: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Conditions with the counted cards of count_first_four / count_coup tables spelled
    out: {count_first_four = {"9" = 2}} becomes count_first_four.9 = 2."""
    flat: list[tuple[str, Any]] = []
    for key, value in when.items():
        if isinstance(value, Mapping):
            flat.extend((f"{key}.{card}", allowed) for card, allowed in value.items())
        else:
            flat.append((key, value))
    return flat


def parse_pays(value: Any, what: str) -> Fraction | Unknown | None:
    """A line's result: a ratio paid to 1 (1, 0.95, "19/20"), "N for 1" (net N - 1),
    "push" (None), "lose" (-1) or a partial loss "lose 1/2" / "lose half" (-1/2); or a
    payout to find: "?" or "A..B" (whole numbers, 1 <= A <= B), an `Unknown`."""
    if value == "push":
        return None
    if value == "lose":
        return LOSS
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "?":
            return Unknown()
        if ".." in text:
            return _parse_range(value, what)
        if text.endswith("for 1"):
            gross = parse_ratio(text[: -len("for 1")].strip(), what)
            if gross < 1:
                raise AnalyzerError(
                    f'{what}: {quoted(value)} returns less than the stake; use "N for 1", N >= 1'
                )
            return gross - 1
        if text.startswith("lose "):
            part = text[len("lose ") :].strip()
            lost = Fraction(1, 2) if part == "half" else parse_ratio(part, what)
            if not 0 < lost <= 1:
                raise AnalyzerError(
                    f"{what}: {quoted(value)}: a partial loss is a fraction of the stake in (0, 1]"
                )
            return -lost
    return parse_ratio(value, what)


def _parse_range(value: str, what: str) -> Unknown:
    """A payout range "A..B": whole numbers, 1 <= A <= B <= MAX_PAYOUT."""
    match = re.fullmatch(_RANGE, value, re.ASCII)
    allowed = 'a range of whole payouts "A..B", 1 <= A <= B, e.g. "20..60"'
    if match is None:
        raise AnalyzerError(f"{what}: {quoted(value)} is not {allowed}")
    digits = match.group(1).lstrip("0"), match.group(2).lstrip("0")
    if max(len(d) for d in digits) > len(str(MAX_PAYOUT)) or int(match.group(2)) > MAX_PAYOUT:
        raise AnalyzerError(f"{what}: {quoted(value)} is too large: pay at most {MAX_PAYOUT:,}")
    low, high = int(match.group(1)), int(match.group(2))
    if not 1 <= low <= high:
        raise AnalyzerError(f"{what}: {quoted(value)} is not {allowed}")
    return Unknown(low, high)


def commission_banker(commission: Fraction, name: str = "") -> Bet:
    """Banker paying 1 - `commission` to 1 (e.g. 1/20 for the usual 5%), ties push."""
    if not 0 <= commission < 1:
        raise AnalyzerError(f"commission {commission}: use a fraction in [0, 1), e.g. 0.05 or 5%")
    percent = commission * 100
    shown = f"{percent.numerator}" if percent.denominator == 1 else _short(percent)
    return Bet(
        name=name or f"banker-{shown}pct",
        title=f"Banker ({shown}% commission)",
        lines=(
            Line(when=(("winner", ("banker",)),), pays=1 - commission, label="Banker wins"),
            Line(when=(("winner", ("tie",)),), pays=None, label="tie"),
        ),
        source="commission game with any commission",
        kind="banker",
    )


def _short(value: Fraction) -> str:
    """`value` to 6 significant digits, never rounded to 0 (1e-400 stays 1E-400)."""
    with decimal.localcontext(prec=6):
        return str(decimal.Decimal(value.numerator) / decimal.Decimal(value.denominator))
