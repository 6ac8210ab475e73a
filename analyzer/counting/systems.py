"""Card-counting systems: integer tags per rank, running and true counts, betting triggers,
and the best linear counts derived from effects of removal.

A system's running count starts at `initial` and adds the tag of every card the counter
sees (by default the face-up burn card and every card dealt). The true count is the
running count per deck left in the shoe: decks left exactly (cards left / 52), or rounded
to the nearest half deck or whole deck as a counter estimates them at the table. A system
bets when its chosen count reaches `threshold` (or exceeds it, with `strict`).

The trigger is defined once, in `CountSystem.fires`, in integer arithmetic on running
counts and cards left; it works on Python ints and on numpy arrays alike, and both the
one-composition path (`CountSystem.bets`) and the simulation's vectorised path use it.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.parsing import check_keys, plain_text, read_fraction, read_toml
from analyzer.core.ranks import RANK_POINTS, RANKS, parse_rank
from analyzer.counting.search import exact_best_count

if TYPE_CHECKING:  # the effects (and the card engine under them) load only where they are computed
    from analyzer.analyses.effects import EffectsOfRemoval, RemovalEffects
    from analyzer.core.bets import Bet
    from analyzer.core.catalogue import Table

__all__ = [
    "SYSTEMS",
    "CountSystem",
    "DerivedCount",
    "Divisor",
    "Trigger",
    "best_linear_count",
    "betting_correlation",
    "derived_counts",
    "derived_system",
    "get_system",
    "linear_break_even",
    "named_systems",
    "system_bet",
    "system_from_mapping",
    "tens_of",
]


class Trigger(StrEnum):
    """Which count a system bets on."""

    TRUE = "true"  # running count per deck left
    RUNNING = "running"


class Divisor(StrEnum):
    """How the decks left are reckoned for the true count."""

    EXACT = "exact"  # cards left / 52
    HALF_DECK = "half-deck"  # rounded to the nearest half deck (at least one half)
    DECK = "deck"  # rounded to the nearest whole deck (at least one)


TRIGGERS = tuple(Trigger)
#: Bound on tags, initial counts and threshold terms, so count arithmetic stays in int64.
_LIMIT = 10**6
N = TypeVar("N", int, np.ndarray)


@dataclass(frozen=True)
class CountSystem:
    """A counting system for one bet.

    - `tags`: integer tag of each rank, in rank order A..K.
    - `initial`: the running count at the start of a shoe (non-zero for unbalanced counts).
    - `trigger`: "true" (running count per deck left) or "running".
    - `threshold`: the system bets when that count is >= threshold (> with `strict`).
    - `divisor`: how the true count reckons the decks left (exact, half-deck, deck).
    """

    name: str
    title: str
    bet: str
    tags: tuple[int, ...]
    threshold: Fraction
    trigger: str = Trigger.TRUE
    initial: int = 0
    source: str = ""
    divisor: str = Divisor.EXACT
    strict: bool = False

    @property
    def balanced(self) -> bool:
        """True when a full deck's tags sum to zero."""
        return sum(self.tags) == 0

    @property
    def level(self) -> int:
        return max(abs(t) for t in self.tags)

    def running_count(self, seen: Sequence[int]) -> int:
        """Running count after seeing `seen` cards of each rank (13 counts)."""
        return self.initial + sum(t * n for t, n in zip(self.tags, seen, strict=True))

    def count_parts(self, running: N, cards_left: N) -> tuple[N, N]:
        """The count as numerator / divisor (integers, or integer arrays): running count
        times 1, 52 or 2 (per deck, per half deck) over 1, cards left, or decks left rounded
        (in half decks or decks). Never divides by zero."""
        if self.trigger == Trigger.RUNNING:
            return running, cards_left * 0 + 1
        if self.divisor == Divisor.HALF_DECK:  # nearest half deck (26 cards), at least one
            return running * 2, np.maximum((cards_left + 13) // 26, 1)
        if self.divisor == Divisor.DECK:
            return running, np.maximum((cards_left + 26) // 52, 1)
        return running * 52, np.maximum(cards_left, 1)

    def fires(self, running: N, cards_left: N) -> N:
        """Whether the system bets: count >= threshold (> when `strict`), in exact integer
        arithmetic. The one definition of the trigger, for ints and numpy arrays alike."""
        return self.fires_on(*self.count_parts(running, cards_left))

    def fires_on(self, top: N, under: N) -> N:
        """`fires` for a count already split by `count_parts` into numerator and divisor."""
        lhs = top * self.threshold.denominator
        rhs = under * self.threshold.numerator
        return (lhs > rhs) if self.strict else (lhs >= rhs)

    def count(self, seen: Sequence[int], cards_left: int) -> Fraction:
        """The count this system triggers on: running, or true (per deck left)."""
        return self.count_of(self.running_count(seen), cards_left)

    def count_of(self, running: int, cards_left: int) -> Fraction:
        """`count` from the running count (exact Fraction)."""
        top, under = self.count_parts(running, cards_left)
        return Fraction(int(top), int(under))

    def bets(self, seen: Sequence[int], cards_left: int) -> bool:
        """Whether the system bets after seeing `seen` with `cards_left` cards left."""
        return bool(self.fires(self.running_count(seen), cards_left))

    def variant(self, divisor: str | None = None, strict: bool | None = None) -> CountSystem:
        """This system with another true-count divisor or trigger comparison."""
        changes: dict[str, Any] = {}
        if divisor is not None:
            if divisor not in tuple(Divisor):
                raise AnalyzerError(f"true count {quoted(divisor)}: use one of {', '.join(Divisor)}")
            changes["divisor"] = Divisor(divisor)
        if strict is not None:
            changes["strict"] = strict
        return replace(self, **changes)

    @property
    def rule(self) -> str:
        """The betting rule in words, e.g. 'true count (exact) >= 4'."""
        sign = ">" if self.strict else ">="
        if self.trigger == Trigger.RUNNING:
            return f"running count {sign} {self.threshold} (start {self.initial})"
        return f"true count ({self.divisor}) {sign} {self.threshold}"


_KEYS = {"title", "bet", "tags", "threshold", "trigger", "initial", "source"}


def _tags(value: Any, where: str) -> tuple[int, ...]:
    """Tags from 13 integers (A..K), 10 integers (A..9, then all ten-valued), or a table by rank."""
    if isinstance(value, Mapping):
        tags = [0] * 13
        for key, tag in value.items():
            try:
                rank = parse_rank(str(key))
            except AnalyzerError as error:
                raise AnalyzerError(f"{where}.tags: {error.template}") from None
            tags[RANKS.index(rank)] = _int(tag, f"{where}.tags.{key}")
        return tuple(tags)
    if isinstance(value, list) and len(value) in (10, 13):
        ints = [_int(v, f"{where}.tags") for v in value]
        if len(ints) == 10:
            return tuple(ints[p - 1] if p else ints[9] for p in RANK_POINTS)
        return tuple(ints)
    raise AnalyzerError(f"{where}.tags: give 13 integers (A..K), 10 (A..9, ten-valued) or a table by rank")


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AnalyzerError(f"{where}: {quoted(value)} is not an integer")
    if abs(value) > _LIMIT:
        raise AnalyzerError(f"{where}: {quoted(value)} is out of range; use at most {_LIMIT} in size")
    return value


def system_from_mapping(name: str, data: Mapping[str, Any], source: str = "systems") -> CountSystem:
    """A counting system from a TOML-shaped mapping (keys: title, bet, tags, threshold,
    trigger, initial, source)."""
    where = f"{source}: systems.{plain_text(name, f'{source}: a system name')}"
    if not isinstance(data, Mapping):
        raise AnalyzerError(f"{where} must be a table with bet, tags and threshold")
    check_keys(data, _KEYS, where)
    for key in ("bet", "tags", "threshold"):
        if key not in data:
            raise AnalyzerError(f"{where}: missing {key}")
    trigger = data.get("trigger", "true")
    if trigger not in TRIGGERS:
        raise AnalyzerError(f"{where}.trigger: {quoted(trigger)} is not allowed; use true or running")
    threshold = data["threshold"]
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, str)):
        raise AnalyzerError(f"{where}.threshold: {quoted(threshold)} is not a number")
    try:
        exact = read_fraction(threshold, f"{where}.threshold") if isinstance(threshold, str) else None
        if isinstance(threshold, str) and exact is None:
            raise ValueError(threshold)
        limit = exact if exact is not None else Fraction(str(threshold))
    except ValueError:
        raise AnalyzerError(f"{where}.threshold: {quoted(threshold)} is not a number") from None
    if abs(limit.numerator) > _LIMIT or limit.denominator > _LIMIT:
        raise AnalyzerError(
            f"{where}.threshold: {quoted(threshold)} is out of range; "
            f"use a fraction p/q with |p|, q <= {_LIMIT}"
        )
    return CountSystem(
        name=name,
        title=plain_text(data.get("title", name), f"{where}.title"),
        bet=str(data["bet"]),
        tags=_tags(data["tags"], where),
        threshold=limit,
        trigger=Trigger(trigger),
        initial=_int(data.get("initial", 0), f"{where}.initial"),
        source=plain_text(data.get("source", ""), f"{where}.source"),
    )


def _load_builtins() -> dict[str, CountSystem]:
    text = resources.files("analyzer.counting").joinpath("counting.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return {name: system_from_mapping(name, spec, "counting.toml") for name, spec in data["systems"].items()}


#: Built-in counting systems by name.
SYSTEMS: dict[str, CountSystem] = _load_builtins()


def get_system(spec: str) -> list[CountSystem]:
    """A built-in system by name, or every system of a TOML file ([systems.NAME] tables)."""
    if spec in SYSTEMS:
        return [SYSTEMS[spec]]
    systems = read_toml(spec, "counting system", SYSTEMS).get("systems")
    if not isinstance(systems, Mapping) or not systems:
        raise AnalyzerError(f"counting system file {quoted(spec)} has no [systems.NAME] tables")
    for name in systems:
        if name in SYSTEMS:
            raise AnalyzerError(
                f"counting system file {quoted(spec)}: systems.{name} has the name of a built-in "
                "system; give it another name"
            )
    return [system_from_mapping(name, body, spec) for name, body in systems.items()]


def named_systems(specs: Sequence[str]) -> list[tuple[str, CountSystem]]:
    """The systems of `specs` (built-in names or .toml files, `get_system`), each with the
    spec naming it; two systems of one name are an error."""
    named = [(spec, system) for spec in specs for system in get_system(spec)]
    for i, (spec, system) in enumerate(named):
        if any(system.name == other.name for _, other in named[:i]):
            raise AnalyzerError(
                f"{mention('systems')}: {quoted(spec)} gives a system named {quoted(system.name)} again; "
                "give each system one name"
            )
    return named


def system_bet(spec: str, system: CountSystem, table: Table | None = None) -> Bet:
    """The system's own bet: one of `table`'s bets by name, else a built-in; an unknown one is
    named with the spec giving it."""
    from analyzer.core.catalogue import select_bets

    try:
        return select_bets(system.bet, table)[0]
    except AnalyzerError as error:
        raise AnalyzerError(f"{spec}: systems.{system.name}.bet: {error.template}") from None


def betting_correlation(tags: Sequence[int], effects: Sequence[Fraction]) -> float:
    """Correlation of tags with effects of removal over the 13 ranks (Griffin's betting
    correlation for a shoe holding equal numbers of each rank). Display value (float)."""
    n = len(tags)
    mt, me = sum(tags) / n, sum(map(float, effects)) / n
    st = sum((t - mt) ** 2 for t in tags)
    se = sum((float(e) - me) ** 2 for e in effects)
    if st == 0 or se == 0:
        return 0.0
    return sum((t - mt) * (float(e) - me) for t, e in zip(tags, effects, strict=True)) / math.sqrt(st * se)


def best_linear_count(
    effects: Sequence[Fraction], level: int, balanced: bool = True, tens: str | None = None
) -> tuple[tuple[int, ...], float]:
    """Integer tags in [-level, level] with the highest betting correlation with `effects`,
    found exactly over every tag vector of the level (`counting.search.exact_best_count`;
    `tens` "tied" gives the ten-valued ranks of 13 one tag, "split" one each; by default tied
    when their effects agree, `tens_of`). With `balanced`, only tags
    summing to zero over the ranks (a full deck counts to zero), or, if no balanced vector of
    the level correlates positively, the best unbalanced one. Sign convention: a positive tag
    marks a rank whose removal raises the bettor's expectation, so a high count favours the
    bettor. All zeros (correlation 0) when every effect is the same."""
    tens = tens or tens_of(effects)
    found = exact_best_count(effects, level, balanced, tens) or (
        exact_best_count(effects, level, False, tens) if balanced else None
    )
    if found is None:
        return tuple(0 for _ in effects), 0.0
    return found[0], betting_correlation(found[0], effects)


def linear_break_even(
    tags: Sequence[int], effects: Sequence[Fraction], expectation: Fraction, cards: int
) -> float:
    """True count at which the linear estimate of the expectation crosses zero.

    With effects of removal e_r measured on a full shoe of `cards` cards and tags fitted as
    e_r ~ alpha * t_r + beta (least squares over the ranks; beta = 0 for balanced tags and
    effects summing to 0), the expectation at true count TC is about
    expectation + (cards - 1) * alpha * TC / 52 (the linear estimate of `linear_estimates`);
    an unbalanced count's own start shifts TC (`derived_system`). Display value (float).
    """
    if len(set(tags)) < 2:
        raise AnalyzerError("tags are all alike: a count needs at least two different tags")
    n = len(tags)
    mt, me = sum(tags) / n, sum(map(float, effects)) / n
    top = sum((t - mt) * (float(e) - me) for t, e in zip(tags, effects, strict=True))
    alpha = top / sum((t - mt) ** 2 for t in tags)
    return -52 * float(expectation) / ((cards - 1) * alpha)


@dataclass(frozen=True)
class DerivedCount:
    """The best linear count of one level for a bet, from its effects of removal: balanced or
    not (the best balanced count of the level follows an unbalanced one that beats it), found
    by `search` (the exact search in words: the vectors it covers, `counting.search`), the
    ten-valued ranks `tens` ("tied": one tag, "split": one each)."""

    bet: str
    level: int
    tags: tuple[int, ...]
    correlation: float
    break_even: float  # true count where the linear estimate of the expectation crosses zero
    tens: str = "tied"
    search: str = ""

    @property
    def balanced(self) -> bool:
        """True when a full deck's tags sum to zero (13 ranks)."""
        return sum(self.tags) == 0


#: The largest effect of removal whose square and sums stay finite in float64.
_FLOAT_SAFE = 2**500


def tens_of(effects: Sequence[Fraction]) -> str:
    """ "tied" when the ten-valued ranks (the last four of 13) have one effect (a counter reads
    them alike), else "split"."""
    return "tied" if len(effects) == 13 and len(set(effects[9:])) == 1 else "split"


def derived_counts(eor: EffectsOfRemoval | RemovalEffects, bets: Sequence[str]) -> list[DerivedCount]:
    """Best linear counts at levels 1-3 for each of `bets` from effects of removal measured on
    a full shoe, per rank (`by_rank`: a card-level bet's card types weighted by their counts);
    none for a bet whose every rank's removal has the same effect (pair bets).

    Each level's count is the best over every tag vector of the level (exact search,
    `counting.search`; the ten-valued ranks tied when their effects agree, `tens_of`),
    balanced or not, a balanced one on a tie; when an unbalanced count is the best, the best
    balanced count of the level follows it (if any balanced vector correlates positively).
    The first count of level 1 is the best level-1 count.
    Effects beyond 2**500 (of bets paying beyond floats) are first divided by the largest,
    and the expectation with them: the tags, correlations and break-evens are the same at any
    scale, and the floats they are found in stay finite."""
    result, by_rank = [], eor.by_rank
    for bet in bets:
        values = [by_rank[bet].get(str(rank), Fraction(0)) for rank in RANKS]
        if len(set(values)) == 1:
            continue
        exact_values, tens = list(values), tens_of(values)
        top, expectation = max(map(abs, values)), eor.base[bet]
        if top > _FLOAT_SAFE:
            values, expectation = [value / top for value in values], expectation / top
        for level in (1, 2, 3):
            best = exact_best_count(exact_values, level, False, tens)
            balanced = exact_best_count(exact_values, level, True, tens)
            found = [best] if best is None or sum(best[0]) == 0 else [best, balanced]
            for tags, search in (f for f in found if f is not None):
                corr = betting_correlation(tags, values)
                even = linear_break_even(tags, values, expectation, eor.shoe.size)
                result.append(DerivedCount(bet, level, tags, corr, even, tens, search.text))
    return result


def derived_system(count: DerivedCount, counts: Sequence[int], name: str = "") -> CountSystem:
    """The derived count `count` as a system to play on a shoe of rank `counts` (A..K): bet
    at its linear break-even true count, rounded up (as the built-in *-eor systems).

    An unbalanced count starts at minus its tags' sum over the shoe, so that its running
    count is minus the sum of the tags of the cards left; its threshold is the break-even
    less 52 x (that sum) / (cards in the shoe). The system then bets exactly where the
    linear estimate of the expectation is positive, balanced or not (for balanced tags the
    start is 0 and the threshold the break-even)."""
    start = -sum(t * n for t, n in zip(count.tags, counts, strict=True))
    threshold = math.ceil(count.break_even + 52 * start / sum(counts))
    return CountSystem(
        name=name or f"{count.bet}-level-{count.level}",
        title=f"best level-{count.level} count for {count.bet}",
        bet=count.bet,
        tags=count.tags,
        threshold=Fraction(threshold),
        initial=start,
        source="derived here from the exact effects of removal (the exact search of counting.search)",
    )
