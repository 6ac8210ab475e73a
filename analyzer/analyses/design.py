"""Paytable design: every assignment of whole payouts to a bet's unknown lines whose exact
house edge lies in a window on every shoe asked for.

The house edge is linear in the payouts. With each line's weight w on a shoe of total T,
edge = -(sum of w * net over the fixed lines + sum of w_u * x_u over the unknown lines) / T,
so a window LOW..HIGH on a shoe is a band of whole numbers lo <= sum of w_u * x_u <= hi.
The lines are assigned one by one (the line with the most values last); at each line the
values that can still reach every band, the lines not yet assigned at their bounds, form an
interval found by exact integer division, and the last line's interval is counted, not
listed. Each line's weights come once per shoe from the pricing paths (`analyze_bets`), so
rank-level and card-level bets alike; nothing is rounded.

The work is bounded before it starts: the candidates (`MAX_CANDIDATES`), the nodes a count
of the search visits at most (`max_nodes`, default `MAX_NODES`) and, once the paytables are
counted, the rows of the listing (`MAX_LISTED_ROWS`); the listing keeps only the paytables
it reports.

>>> from analyzer import Shoe, get_bet
>>> from analyzer.core.bets import Unknown
>>> from dataclasses import replace
>>> tie = get_bet("tie")
>>> draft = replace(tie, lines=(replace(tie.lines[0], pays=Unknown()),))
>>> found = design(draft, [Shoe.decks(8)], *parse_window("4.8%..4.9%"))
>>> found.count, found.solutions[0].pays, found.solutions[0].analyses[0].house_edge
(1, (9,), Fraction(63053127805, 1301666217579))
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.analyses.paysearch import BandSearch
from analyzer.analyses.pricing import analyze_bets
from analyzer.core.analysis import BetAnalysis, analysis_from_weights
from analyzer.core.bets import Bet, Unknown
from analyzer.core.checks import check_type
from analyzer.core.conventions import check_arguments
from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.parsing import read_fraction
from analyzer.core.progress import bar, steps, working
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe

__all__ = [
    "MAX_CANDIDATES",
    "MAX_LISTED_ROWS",
    "MAX_NODES",
    "Design",
    "OutOfReach",
    "Solution",
    "design",
    "design_comment",
    "parse_window",
    "top_award_one_in",
]

#: The most candidate assignments (the product of the lines' numbers of payouts) searched.
MAX_CANDIDATES = 10**9
#: The default most nodes a count of the search may visit (`BandSearch.nodes`): some 200,000
#: a second on one shoe, so seconds; each count of the listing's band visits at most as many.
MAX_NODES = 10**6
#: The most rows the listed paytables hold (one a line and one for no line, on each shoe):
#: each is priced exactly and kept until written (about 2 KB and 0.15 ms a row).
MAX_LISTED_ROWS = 10**5


class OutOfReach(AnalyzerError):
    """No payouts within their bounds reach the window `low`..`high` on `shoe`: the bounds
    allow house edges from `lowest` to `highest` only (exact Fractions). The message writes
    them exact; `words` writes them as a renderer writes numbers (the CLI: percentages)."""

    def __init__(
        self, low: Fraction, high: Fraction, shoe: Shoe, lowest: Fraction, highest: Fraction
    ) -> None:
        self.low, self.high, self.shoe, self.lowest, self.highest = low, high, shoe, lowest, highest
        super().__init__(self.words(str))

    def words(self, show: Callable[[Fraction], str]) -> str:
        """The one-line message with each house edge written by `show`."""
        return (
            f"no payouts reach the window {show(self.low)}..{show(self.high)} on {self.shoe}: the payouts' "
            f"bounds allow house edges from {show(self.lowest)} to {show(self.highest)}"
        )


@dataclass(frozen=True)
class Solution:
    """One paytable in the window: `pays`, the whole payouts of the unknown lines in line
    order; `bet`, the bet paying them; `analyses`, its exact figures on each shoe; `distance`,
    the largest over the shoes of |house edge - the window's midpoint| (exact Fraction)."""

    pays: tuple[int, ...]
    bet: Bet
    analyses: tuple[BetAnalysis, ...]
    distance: Fraction


@dataclass(frozen=True)
class Design:
    """Every paytable of `bet` whose house edge lies in `low`..`high` (exact, per unit bet)
    on each of `shoes`: `count` of them, the first `solutions` closest to the midpoint
    (ties: smaller payouts first, in line order). `ranges` holds each unknown line's
    payouts searched (after --max-pay and, with `monotone`, the fixed lines' bounds)."""

    bet: Bet
    shoes: tuple[Shoe, ...]
    rules: Rules
    low: Fraction
    high: Fraction
    ranges: tuple[tuple[int, int], ...]
    monotone: bool
    count: int
    solutions: tuple[Solution, ...]


def parse_window(text: str, what: str = mention("window")) -> tuple[Fraction, Fraction]:
    """LOW..HIGH from "4.5%..5.5%", "0.045..0.055" or "9/200..11/200" (exact Fractions); a
    side missing, one side in % and the other not, or LOW > HIGH is an AnalyzerError. LOW =
    HIGH is a window of one edge."""
    allowed = "give LOW..HIGH, e.g. 4.5%..5.5% or 0.045..0.055"
    sides = text.split("..")
    if len(sides) != 2 or not all(side.strip() for side in sides):
        raise AnalyzerError(f"{what} {quoted(text)}: an empty window; {allowed}")
    low, high = (_edge(side, what, allowed) for side in sides)
    if len({side.strip().endswith("%") for side in sides}) == 2:
        raise AnalyzerError(
            f"{what} {quoted(text)}: one end in % and the other not; {allowed} (both or neither in %)"
        )
    if low > high:
        raise AnalyzerError(f"{what} {quoted(text)}: LOW is above HIGH; {allowed}")
    return low, high


def _edge(side: str, what: str, allowed: str) -> Fraction:
    text = side.strip()
    scale = 100 if text.endswith("%") else 1
    value = read_fraction(text.removesuffix("%"), what)
    if value is None:
        raise AnalyzerError(f"{what}: {quoted(side)} is not a house edge; {allowed}")
    return value / scale


def design_comment(found: Design, pick: int) -> str:
    """The comment atop the table file of paytable `pick` of `found` (a design written to a
    file): which paytable, of how many, and its exact house edges."""
    solution = found.solutions[pick - 1]
    priced = zip(found.shoes, solution.analyses, strict=True)
    edges = ", ".join(f"{shoe} {analysis.house_edge}" for shoe, analysis in priced)
    return (
        f"Written by baccarat design: paytable {pick} of {found.count:,} with a house edge in "
        f"{found.low}..{found.high}.\nExact house edges: {edges}."
    )


def top_award_one_in(analysis: BetAnalysis) -> Fraction | None:
    """1 / P(the bet pays its highest payout) (every line paying it counted), exact; None if
    no line pays anything or the top award cannot happen."""
    paying = [(row.pays, row.probability) for row in analysis.lines if row.pays is not None and row.pays > 0]
    if not paying:
        return None
    top = max(pays for pays, _ in paying)
    chance = sum((p for pays, p in paying if pays == top), Fraction(0))
    return 1 / chance if chance else None


@dataclass(frozen=True)
class _Shoe:
    """One shoe's line weights (last: no line matched), total and band of unknown sums."""

    weights: list[int]
    total: int
    finite: bool
    fixed: Fraction  # sum of weight * net over the fixed lines and no line
    lo: int
    hi: int


def design(
    bet: Bet,
    shoes: Sequence[Shoe],
    low: Fraction,
    high: Fraction,
    rules: Rules = STANDARD,
    max_pay: int = 1000,
    monotone: bool = False,
    limit: int = 20,
    max_nodes: int = MAX_NODES,
) -> Design:
    """Every paytable of `bet` (its `Unknown` lines given whole payouts: "?" from 1 to
    `max_pay`, "A..B" from A to B) whose exact house edge lies in `low`..`high` on every
    shoe; the first `limit` listed. With `monotone`, a line never pays less than a commoner
    one (rarer: no likelier on any shoe and less likely on one; winning lines only, and
    pairs of fixed lines are as given). A search that may visit more than `max_nodes`
    nodes, or a listing over `MAX_LISTED_ROWS` rows, is refused. Bad input raises an
    AnalyzerError."""
    check_type("design()", "bet", bet, Bet, "one Bet with unknown payouts")
    if not bet.unknowns:
        raise AnalyzerError(
            f'bet {quoted(bet.name)} has no unknown payouts: give a line pays "?" or "A..B" '
            "(`baccarat edges` prices it as it is)"
        )
    if isinstance(shoes, Shoe) or not shoes:
        raise AnalyzerError("design(): shoes: give a list of Shoes, e.g. [Shoe.decks(8)]")
    check_arguments("design()", rules=rules)
    for shoe in shoes:
        check_arguments("design()", shoe=shoe)
    if low > high:
        raise AnalyzerError(f"window {low}..{high}: LOW is above HIGH")
    if isinstance(max_pay, bool) or not isinstance(max_pay, int) or max_pay < 1:
        raise AnalyzerError(f"{mention('max_pay')} {quoted(max_pay)}: use a whole payout of at least 1")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise AnalyzerError(f"{mention('limit')} {quoted(limit)}: use a whole number, 0 or more")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise AnalyzerError(f"{mention('max_nodes')} {quoted(max_nodes)}: use a whole number, 1 or more")
    ranges = [_range(bet.lines[u].pays, max_pay) for u in bet.unknowns]
    _check_candidates(bet, ranges)
    template = bet.with_pays({u: 1 for u in bet.unknowns})
    priced = [_priced(template, bet.unknowns, shoe, rules, low, high) for shoe in shoes]
    for u in bet.unknowns:
        if not any(s.weights[u] for s in priced):
            raise AnalyzerError(
                f"bet {quoted(bet.name)}: line {quoted(bet.lines[u].describe())} never happens on "
                f"{_shoe_names(shoes)}: its payout changes nothing; give it a fixed payout"
            )
    rarer = _rarer(bet, priced) if monotone else set()
    ranges = _tightened(bet, ranges, rarer)
    if any(a > b for a, b in ranges):
        return Design(bet, tuple(shoes), rules, low, high, tuple(ranges), monotone, 0, ())
    _check_reach(bet, ranges, priced, shoes, low, high)
    slot = {line: k for k, line in enumerate(bet.unknowns)}
    search = BandSearch(
        [[s.weights[u] for s in priced] for u in bet.unknowns],
        ranges,
        [(slot[i], slot[j]) for i, j in rarer if i in slot and j in slot],
    )
    _check_nodes(bet, ranges, search, max_nodes)
    bands = [(s.lo, s.hi) for s in priced]
    count = _counted(search, bands, "design: counting paytables")
    _check_listing(bet, len(shoes), limit, count)
    keys = _DistanceKeys(priced, [[s.weights[u] for u in bet.unknowns] for s in priced], (low + high) / 2)
    best = _closest(search, priced, bands, keys, (high - low) / 2, limit, count)
    listing = steps(best, "design: pricing the paytables")
    solutions = tuple(_solution(bet, pays, distance, priced) for distance, pays in listing)
    return Design(bet, tuple(shoes), rules, low, high, tuple(ranges), monotone, count, solutions)


def _closest(
    search: BandSearch,
    priced: list[_Shoe],
    bands: list[tuple[int, int]],
    keys: _DistanceKeys,
    half: Fraction,
    limit: int,
    count: int,
) -> list[tuple[Fraction, tuple[int, ...]]]:
    """The `limit` paytables of least distance to the window's middle `keys.mid` (ties:
    smaller payouts first), of the `count` in `bands`: listed from a band around it that
    holds at least `limit` of them, found by halving and doubling its width from the share
    of the window they fill."""
    if not limit or not count:
        return []

    mid = keys.mid

    def within(width: Fraction) -> list[tuple[int, int]]:
        """Each shoe's band of the paytables whose edge lies within `width` of `mid`."""
        return [
            (max(lo, math.ceil(-width * s.total - s.fixed - mid * s.total)),
             min(hi, math.floor(width * s.total - s.fixed - mid * s.total)))
            for (lo, hi), s in zip(bands, priced, strict=True)
        ]  # fmt: skip

    width, found = half, count
    if count > limit:  # bracket the width: `narrow` holds too few, `width` enough
        what = "design: narrowing the listing's band"
        narrow, width = Fraction(0), half * limit / count
        found = _counted(search, within(width), what)
        while found < limit:
            narrow, width = width, width * 2
            found = _counted(search, within(width), what)
        for _ in range(_BISECTIONS):
            if found <= 4 * limit:
                break
            middle = (narrow + width) / 2
            inside = _counted(search, within(middle), what)
            if inside >= limit:
                width, found = middle, inside
            else:
                narrow = middle
    with working(f"design: listing the {min(limit, found):,} closest of {found:,} paytables"):
        ranked = heapq.nsmallest(limit, ((keys.key(pays), pays) for pays in search.points(within(width))))
    return [(keys.distance(key), pays) for key, pays in ranked]


def _counted(search: BandSearch, bands: list[tuple[int, int]], what: str) -> int:
    """`search.count(bands)`, a bar of its nodes on a terminal when it is long."""
    shown = bar(search.nodes(), what, unit="node")
    try:
        return search.count(bands, shown.update)
    finally:
        shown.close()


#: Halvings of the listing band's width at most (each one count of the paytables).
_BISECTIONS = 12


class _DistanceKeys:
    """The largest over the shoes of |house edge - mid| as an integer key (that distance
    times one common scale), so that many paytables are ranked without fractions."""

    def __init__(self, priced: list[_Shoe], weights: list[list[int]], mid: Fraction) -> None:
        self.mid = mid
        offsets = [s.fixed + mid * s.total for s in priced]  # edge - mid = -(offset + sum) / total
        self.scale = math.lcm(*(o.denominator for o in offsets))
        common = math.lcm(*(s.total for s in priced))
        self.terms = [
            (common // s.total, int(o * self.scale), [self.scale * w for w in shoe])
            for s, o, shoe in zip(priced, offsets, weights, strict=True)
        ]
        self.unit = self.scale * common

    def key(self, pays: tuple[int, ...]) -> int:
        return max(f * abs(o + sum(w * x for w, x in zip(ws, pays, strict=True))) for f, o, ws in self.terms)

    def distance(self, key: int) -> Fraction:
        return Fraction(key, self.unit)


def _range(pays: object, max_pay: int) -> tuple[int, int]:
    assert isinstance(pays, Unknown)
    return pays.low, max_pay if pays.high is None else pays.high


def _candidates(ranges: list[tuple[int, int]]) -> int:
    """The number of candidate paytables: the product of the lines' numbers of payouts."""
    return math.prod(b - a + 1 for a, b in ranges)


def _check_candidates(bet: Bet, ranges: list[tuple[int, int]]) -> None:
    sizes = [b - a + 1 for a, b in ranges]
    candidates = _candidates(ranges)
    if candidates > MAX_CANDIDATES:
        raise AnalyzerError(
            f"bet {quoted(bet.name)}: {candidates:,} candidate paytables "
            f"({' x '.join(f'{n:,}' for n in sizes)} payouts) are over {MAX_CANDIDATES:,}: {_narrowing(bet)}"
        )


def _narrowing(bet: Bet) -> str:
    """What narrows the candidates: the lines' ranges, and max_pay for a "?" line."""
    narrow = 'narrow the lines\' ranges ("A..B")'
    if any(bet.lines[u].pays == Unknown() for u in bet.unknowns):
        narrow += f" or lower {mention('max_pay')}"
    return narrow


def _check_nodes(bet: Bet, ranges: list[tuple[int, int]], search: BandSearch, max_nodes: int) -> None:
    """Refuse a search whose count may visit more than `max_nodes` nodes, before it starts."""
    nodes = search.nodes()
    if nodes > max_nodes:
        raise AnalyzerError(
            f"bet {quoted(bet.name)}: searching its {_candidates(ranges):,} candidate paytables may visit "
            f"{nodes:,} nodes, over the limit of {max_nodes:,}: {_narrowing(bet)}, "
            f"or raise {mention('max_nodes')}"
        )


def _check_listing(bet: Bet, shoes: int, limit: int, count: int) -> None:
    """Refuse a listing of more than `MAX_LISTED_ROWS` rows, before it starts."""
    per = shoes * (len(bet.lines) + 1)
    listed = min(limit, count)
    if listed * per > MAX_LISTED_ROWS:
        raise AnalyzerError(
            f"{mention('limit')} {limit:,}: listing {_of(listed, count)} paytables found takes "
            f"{listed * per:,} rows ({per:,} each: a row a line and one for no line on each shoe), "
            f"over the limit of {MAX_LISTED_ROWS:,}: "
            f"give {mention('limit', f'{MAX_LISTED_ROWS // per:,}')} or less"
        )


def _of(listed: int, count: int) -> str:
    """ "the 63" when all of the `count` are listed, else "20 of the 63"."""
    return f"the {count:,}" if listed == count else f"{listed:,} of the {count:,}"


def _shoe_names(shoes: Sequence[Shoe]) -> str:
    return ", ".join(str(shoe) for shoe in shoes)


def _priced(
    template: Bet, unknowns: Sequence[int], shoe: Shoe, rules: Rules, low: Fraction, high: Fraction
) -> _Shoe:
    """The line weights of `template` (the bet with its `unknowns` lines paying 1) on `shoe`,
    and the band of the unknown lines' sums of weight times payout that the window allows."""
    [analysis] = analyze_bets([template], shoe, rules)
    n = len(template.lines)
    rows = analysis.lines
    finite = rows[0].combinations is not None
    if finite:
        weights = [row.combinations or 0 for row in rows]
    else:
        scale = math.lcm(*(row.probability.denominator for row in rows))
        weights = [int(row.probability * scale) for row in rows]
    weights += [0] * (n + 1 - len(weights))  # no row when no coup is left unmatched
    total = sum(weights)
    nets = template.nets
    fixed = sum((weights[i] * nets[i] for i in range(n + 1) if i not in unknowns), Fraction(0))
    lo, hi = math.ceil(-high * total - fixed), math.floor(-low * total - fixed)
    return _Shoe(weights, total, finite, fixed, lo, hi)


def _rarer(bet: Bet, priced: list[_Shoe]) -> set[tuple[int, int]]:
    """Pairs (i, j) of winning lines, one of them unknown, with i rarer than j (no likelier
    on any shoe, less likely on one): i must pay at least what j pays."""
    winning = [i for i, line in enumerate(bet.lines) if i in bet.unknowns or (line.payout or 0) > 0]
    rarer = set()
    for i in winning:
        for j in winning:
            if i != j and (i in bet.unknowns or j in bet.unknowns):
                pairs = [(s.weights[i], s.weights[j]) for s in priced]
                if all(a <= b for a, b in pairs) and any(a < b for a, b in pairs):
                    rarer.add((i, j))
    return rarer


def _tightened(bet: Bet, ranges: list[tuple[int, int]], rarer: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """`ranges` within the fixed lines' bounds under the monotone order."""
    tight = []
    for u, (a, b) in zip(bet.unknowns, ranges, strict=True):
        for i, j in rarer:
            if i == u and j not in bet.unknowns:
                a = max(a, math.ceil(bet.lines[j].payout or 0))
            if j == u and i not in bet.unknowns:
                b = min(b, math.floor(bet.lines[i].payout or 0))
        tight.append((a, b))
    return tight


def _check_reach(
    bet: Bet,
    ranges: list[tuple[int, int]],
    priced: list[_Shoe],
    shoes: Sequence[Shoe],
    low: Fraction,
    high: Fraction,
) -> None:
    """An OutOfReach naming the edges the payouts' bounds allow on a shoe where no payouts
    within them reach the window."""
    for shoe, s in zip(shoes, priced, strict=True):
        smallest = sum(s.weights[u] * a for u, (a, _) in zip(bet.unknowns, ranges, strict=True))
        largest = sum(s.weights[u] * b for u, (_, b) in zip(bet.unknowns, ranges, strict=True))
        if largest < s.lo or smallest > s.hi:
            lowest, highest = (-(s.fixed + total) / s.total for total in (largest, smallest))
            raise OutOfReach(low, high, shoe, lowest, highest)


def _solution(bet: Bet, pays: tuple[int, ...], distance: Fraction, priced: list[_Shoe]) -> Solution:
    solved = bet.with_pays(dict(zip(bet.unknowns, pays, strict=True)))
    analyses = tuple(analysis_from_weights(solved, s.weights, s.total, s.finite) for s in priced)
    return Solution(pays, solved, analyses, distance)
