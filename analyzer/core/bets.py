"""Bets as data: paytables of conditions on a coup's outcome, and their exact analysis.

A bet is an ordered list of lines. Each line has a condition (``when``: outcome fields
and the values they may take, all of which must hold) and a result: a payout ratio
(a win pays ``pays`` to 1, or ``"N for 1"``), a push, a loss or a partial loss. The first
line that matches settles the bet; an outcome no line matches loses the stake. Fields
that look at individual cards (ranks, suits, colours; `analyzer.core.fields`) make the
bet *card-level*: it is priced by `analyzer.cards.engine` on a shoe whose suits are known
where it needs them.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from operator import add, sub
from typing import TYPE_CHECKING, Any

from analyzer.core.outcome import Outcome, Winner
from analyzer.ranks.enumeration import Distribution

if TYPE_CHECKING:
    from analyzer.core.rules import Rules
    from analyzer.core.shoe import Shoe
    from analyzer.ranks.coupstore import StoredClasses
from analyzer.core.errors import AnalyzerError, check_keys

__all__ = [
    "FIELDS",
    "Bet",
    "BetAnalysis",
    "Line",
    "LineResult",
    "analysis_from_weights",
    "analyze",
    "analyze_bets",
    "bet_from_mapping",
    "commission_banker",
    "parse_pays",
    "parse_ratio",
]


def _margin(o: Outcome) -> int:
    return abs(o.punto_total - o.banco_total)


#: Outcome fields a condition may test, with how to read them and the values allowed.
FIELDS: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "winner": (lambda o: str(o.winner), tuple(str(w) for w in Winner)),
    "player_total": (lambda o: o.punto_total, tuple(range(10))),
    "banker_total": (lambda o: o.banco_total, tuple(range(10))),
    "player_initial": (lambda o: o.punto_initial, tuple(range(10))),
    "banker_initial": (lambda o: o.banco_initial, tuple(range(10))),
    "player_cards": (lambda o: o.punto_cards, (2, 3)),
    "banker_cards": (lambda o: o.banco_cards, (2, 3)),
    "cards": (lambda o: o.cards, (4, 5, 6)),
    "natural": (lambda o: o.natural, (False, True)),
    "player_pair": (lambda o: o.punto_pair, (False, True)),
    "banker_pair": (lambda o: o.banco_pair, (False, True)),
    "margin": (_margin, tuple(range(10))),
}


def parse_ratio(value: Any, what: str) -> Fraction:
    """An exact payout ratio from an int, a "p/q" or decimal string, or a TOML float."""
    if isinstance(value, bool):
        raise AnalyzerError(f'{what}: {value!r} is not a payout ratio; use e.g. 1, 0.95 or "19/20"')
    try:
        ratio = Fraction(str(value)) if isinstance(value, (int, float, str)) else None
    except (ValueError, ZeroDivisionError):
        ratio = None
    if ratio is None or ratio < 0:
        raise AnalyzerError(f'{what}: {value!r} is not a payout ratio; use e.g. 1, 0.95 or "19/20"')
    return ratio


@dataclass(frozen=True)
class Line:
    """One paytable line: `when` (field -> allowed values) and `pays` (None: push; -1: loss)."""

    when: tuple[tuple[str, tuple[Any, ...]], ...]
    pays: Fraction | None
    label: str = ""

    def matches(self, outcome: Outcome) -> bool:
        return all(FIELDS[name][0](outcome) in allowed for name, allowed in self.when)

    @property
    def card_level(self) -> bool:
        """Whether a condition looks at individual cards (not only the rank-level Outcome)."""
        return any(name not in FIELDS for name, _ in self.when)

    @property
    def result(self) -> str:
        if self.pays is None:
            return "push"
        if self.pays < 0:
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


@dataclass(frozen=True)
class Bet:
    """A named paytable. Lines are tried in order; no match loses the stake."""

    name: str
    title: str
    lines: tuple[Line, ...]
    source: str = ""
    kind: str = "side"  # "player", "banker", "tie" (the main bets) or "side"

    def settle(self, outcome: Outcome) -> Fraction | None:
        """Net win per unit staked on `outcome` (None for a push)."""
        i = self.line_index(outcome)
        return LOSS if i < 0 else self.lines[i].pays

    def line_index(self, outcome: Outcome) -> int:
        """Index of the first matching line, or -1 (the stake is lost)."""
        return _line_index(self, outcome)

    @cached_property
    def card_level(self) -> bool:
        """Whether any line looks at individual cards (priced by analyzer.cards.engine)."""
        return any(line.card_level for line in self.lines)


@cache
def _line_index(bet: Bet, outcome: Outcome) -> int:
    if bet.card_level:
        raise AnalyzerError(f"bet {bet.name!r} looks at individual cards: an outcome cannot settle it")
    for i, line in enumerate(bet.lines):
        if line.matches(outcome):
            return i
    return -1


def _allowed(name: str, value: Any, what: str) -> tuple[Any, ...]:
    if name not in FIELDS:
        from analyzer.core.fields import card_field, card_field_names

        field = card_field(name)
        if field is None:
            known = ", ".join((*FIELDS, *card_field_names()))
            raise AnalyzerError(f"{what}: unknown field {name!r}; allowed: {known}")
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
            raise AnalyzerError(f"{what}.{name}: {v!r} is not allowed; use {shown}")
    return tuple(values)


_LINE_KEYS = {"when", "pays", "label"}
_BET_KEYS = {"title", "source", "lines", "kind"}
KINDS = ("player", "banker", "tie", "side")


def bet_from_mapping(name: str, data: Mapping[str, Any], source: str = "bet") -> Bet:
    """A bet from a TOML-shaped mapping: title, source, and lines of {when, pays, label}.

    `pays` is a ratio (1, 0.95, "19/20"), "push" or "lose".
    """
    where = f"{source}: bets.{name}"
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
        lines.append(Line(when=conditions, pays=pays, label=str(raw.get("label", ""))))
    title = data.get("title", name)
    kind = data.get("kind", "side")
    if kind not in KINDS:
        raise AnalyzerError(f"{where}.kind: {kind!r} is not allowed; use {', '.join(KINDS)}")
    return Bet(name=name, title=str(title), lines=tuple(lines), source=str(data.get("source", "")), kind=kind)


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


def parse_pays(value: Any, what: str) -> Fraction | None:
    """A line's result: a ratio paid to 1 (1, 0.95, "19/20"), "N for 1" (net N - 1),
    "push" (None), "lose" (-1) or a partial loss "lose 1/2" / "lose half" (-1/2)."""
    if value == "push":
        return None
    if value == "lose":
        return LOSS
    if isinstance(value, str):
        text = value.strip().lower()
        if text.endswith("for 1"):
            gross = parse_ratio(text[: -len("for 1")].strip(), what)
            if gross < 1:
                raise AnalyzerError(f'{what}: {value!r} returns less than the stake; use "N for 1", N >= 1')
            return gross - 1
        if text.startswith("lose "):
            part = text[len("lose ") :].strip()
            lost = Fraction(1, 2) if part == "half" else parse_ratio(part, what)
            if not 0 < lost <= 1:
                raise AnalyzerError(f'{what}: {value!r}: a partial loss is a fraction of the stake in (0, 1]')
            return -lost
    return parse_ratio(value, what)


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


@dataclass(frozen=True)
class LineResult:
    """A row of a combinatorial table: `combinations` is None for the infinite deck."""

    label: str
    combinations: int | None
    probability: Fraction
    pays: Fraction | None  # None: push
    result: str

    @property
    def ret(self) -> Fraction:
        """Contribution to the expectation: probability times net win."""
        return Fraction(0) if self.pays is None else self.probability * self.pays


@dataclass(frozen=True)
class BetAnalysis:
    """Exact figures of one bet on one shoe, per unit staked.

    - `expectation`: the bettor's expected net win (exact Fraction).
    - `house_edge`: -expectation, positive when the house wins (pushes count as bets).
    - `house_edge_resolved`: house edge per bet that wins or loses (pushes excluded).
    - `hit_frequency`: probability that the bet wins something.
    - `variance`: of the net win; `std_dev` is its square root (a float, display only).
    """

    bet: Bet
    lines: tuple[LineResult, ...]
    expectation: Fraction
    push: Fraction
    hit_frequency: Fraction
    variance: Fraction

    @property
    def house_edge(self) -> Fraction:
        return -self.expectation

    @property
    def house_edge_resolved(self) -> Fraction | None:
        return None if self.push == 1 else self.house_edge / (1 - self.push)

    # -- notebook use --------------------------------------------------------------------

    def __repr__(self) -> str:
        return (
            f"BetAnalysis({self.bet.name}: house edge {float(self.house_edge) * 100:.4f}%, "
            f"{len(self.lines)} lines)"
        )

    def _repr_markdown_(self) -> str:
        from analyzer.present.format import bet_table, percent

        heading = f"**{self.bet.title}** (`{self.bet.name}`): house edge {percent(self.house_edge)}"
        return heading + "\n\n" + bet_table(self, "markdown") + "\n"

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per paytable line: exact probability, pays and return."""
        from analyzer.core.frames import frame

        rows = [(r.label, r.combinations, r.probability, r.pays, r.result, r.ret) for r in self.lines]
        return frame(rows, ["event", "combinations", "probability", "pays", "result", "return"], "event")

    @property
    def std_dev(self) -> float:
        """Square root of the variance; inf only beyond the float range (payouts near 1e308)."""
        try:
            return math.sqrt(self.variance)
        except OverflowError:  # a huge payout: take the root through logarithms of the exact terms
            half_log = (math.log(self.variance.numerator) - math.log(self.variance.denominator)) / 2
            return math.exp(half_log) if half_log < 709 else math.inf


# -- pricing over stored coup classes: each bet's line per outcome, computed once --------

#: Outcome columns read straight from the stored classes (Outcome's field order); the
#: others come from FIELDS' readers. A test checks these equal the readers.
_STORED_COLUMNS = {
    "player_initial": 0,
    "banker_initial": 1,
    "player_total": 2,
    "banker_total": 3,
    "player_cards": 4,
    "banker_cards": 5,
    "natural": 6,
    "player_pair": 7,
    "banker_pair": 8,
}
_WINNER_NAMES = (str(Winner.TIE), str(Winner.PLAYER), str(Winner.BANKER))  # by sign of p - b


@lru_cache(maxsize=256)
def _column(classes: StoredClasses, name: str) -> list[Any]:
    """Field `name` of every stored outcome, in stored order."""
    if name in _STORED_COLUMNS:
        return list(classes.column(_STORED_COLUMNS[name]))
    if name in ("winner", "margin", "cards"):
        left, right = (_column(classes, f) for f in ("player_total", "banker_total"))
        if name == "cards":
            return list(map(add, _column(classes, "player_cards"), _column(classes, "banker_cards")))
        differences = list(map(sub, left, right))
        if name == "margin":
            return list(map(abs, differences))
        return [_WINNER_NAMES[(d > 0) - (d < 0)] for d in differences]
    return list(map(FIELDS[name][0], classes.outcomes))


Key = tuple[Any, ...]


@lru_cache(maxsize=256)
def _groups(classes: StoredClasses, names: tuple[str, ...]) -> tuple[list[int], list[Key]]:
    """Stored outcomes grouped by the values of fields `names`: each outcome's group, and
    each group's values."""
    keys = list(zip(*(_column(classes, name) for name in names), strict=True))
    distinct = list(dict.fromkeys(keys))
    index = {key: i for i, key in enumerate(distinct)}
    return list(map(index.__getitem__, keys)), distinct


def _read_fields(bet: Bet) -> tuple[str, ...]:
    return tuple(sorted({name for line in bet.lines for name, _ in line.when}))


@lru_cache(maxsize=1024)
def _group_lines(bet: Bet, classes: StoredClasses) -> list[int]:
    """The line that settles `bet` in each group of `_groups` (-1: no line matched)."""
    names = _read_fields(bet)
    position = {name: i for i, name in enumerate(names)}
    return [
        next(
            (
                i
                for i, line in enumerate(bet.lines)
                if all(key[position[name]] in allowed for name, allowed in line.when)
            ),
            -1,
        )
        for key in _groups(classes, names)[1]
    ]


def line_indexes(bet: Bet, classes: StoredClasses) -> list[int]:
    """`bet.line_index` of every stored outcome, in stored order (-1: no line matched);
    each group of outcomes alike in the fields the bet reads is settled once."""
    groups, _ = _groups(classes, _read_fields(bet))
    return list(map(_group_lines(bet, classes).__getitem__, groups))


@lru_cache(maxsize=8)
def _group_weights(dist: Distribution, names: tuple[str, ...]) -> list[int]:
    """The weight of each group of `_groups` in `dist` (shared by bets reading the same fields)."""
    assert dist.classes is not None and dist.weight_list is not None
    groups, keys = _groups(dist.classes, names)
    sums = [0] * len(keys)
    for group, w in zip(groups, dist.weight_list, strict=True):
        sums[group] += w
    return sums


def _line_weights(bet: Bet, dist: Distribution) -> list[int]:
    """Weight of each line of `bet` in `dist`, and last the weight no line matched."""
    weights = [0] * (len(bet.lines) + 1)  # last slot: no line matched (loss)
    if dist.classes is not None and dist.weight_list is not None:
        sums = _group_weights(dist, _read_fields(bet))
        for line, w in zip(_group_lines(bet, dist.classes), sums, strict=True):
            weights[line] += w
        return weights
    for outcome, w in dist.weights.items():
        weights[bet.line_index(outcome)] += w
    return weights


def analyze(bet: Bet, dist: Distribution) -> BetAnalysis:
    """Exact expectation, push and hit frequency, variance and paytable rows of `bet`,
    priced on the outcome weights of `dist`. A card-level bet (one that looks at individual
    cards, which outcome weights do not carry) is priced on `dist.shoe` under `dist.rules`
    instead: from its shipped polynomials in the number of decks, else by the card engine."""
    if bet.card_level:
        found = _from_polynomials(bet, dist.shoe, dist.rules)
        if found is not None:
            return found
        from analyzer.cards.engine import analyze_cards

        return analyze_cards(bet, dist.shoe, dist.rules)
    weights = _line_weights(bet, dist)
    return analysis_from_weights(bet, weights, dist.total, finite=not dist.shoe.is_infinite)


def analyze_bets(bets: Sequence[Bet], shoe: Shoe, rules: Rules) -> list[BetAnalysis]:
    """`analyze` of each of `bets` on `shoe` under `rules`; the outcome distribution is
    computed only if a bet needs it (full decks price built-in bets from polynomials)."""
    from analyzer.ranks.enumeration import distribution

    analyses: list[BetAnalysis | None] = [_from_polynomials(bet, shoe, rules) for bet in bets]
    if any(a is None for a in analyses):
        dist = distribution(shoe, rules)
        analyses = [a or analyze(bet, dist) for a, bet in zip(analyses, bets, strict=True)]
    return [a for a in analyses if a is not None]


def _from_polynomials(bet: Bet, shoe: Shoe, rules: Rules) -> BetAnalysis | None:
    """`bet` on a full-deck shoe or the infinite deck from its shipped line polynomials
    (analyzer.ranks.polynomials), or None."""
    from analyzer.ranks.polynomials import line_weights

    found = line_weights(bet, shoe, rules)
    return None if found is None else analysis_from_weights(bet, *found, finite=not shoe.is_infinite)


def analysis_from_weights(bet: Bet, weights: Sequence[int], total: int, finite: bool) -> BetAnalysis:
    """A BetAnalysis from each line's weight (last: no line matched) over `total`."""
    rows = []
    paid: list[tuple[int, Fraction | None]] = []  # each row's weight and net win (None: push)
    pays: Fraction | None
    for line, w in zip((*bet.lines, None), weights, strict=True):
        if line is None:
            if not w:
                continue
            label, pays, result = "any other outcome", LOSS, "loses"
        else:
            label, pays, result = line.describe(), line.pays, line.result
        rows.append(LineResult(label, w if finite else None, Fraction(w, total), pays, result))
        paid.append((w, pays))
    # Weights times payouts summed first, one division by the total last (the same exact values).
    settled = [(w, p) for w, p in paid if p is not None]
    expectation = sum((w * p for w, p in settled), Fraction(0)) / total
    second = sum((w * p**2 for w, p in settled), Fraction(0)) / total
    return BetAnalysis(
        bet=bet,
        lines=tuple(rows),
        expectation=expectation,
        push=Fraction(sum(w for w, p in paid if p is None), total),
        hit_frequency=Fraction(sum(w for w, p in settled if p > 0), total),
        variance=second - expectation**2,
    )
