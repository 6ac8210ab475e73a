"""Fixed-size, mergeable summaries of counting studies.

A study's result never holds a value per shoe: counts, exact integer sums by shoe size,
float sums and sums of squares of per-shoe wins, and per-count bins. Its size depends on
the shoe (at most one exact sum per number of cards left, one bin per integer count value
reachable), never on the number of shoes. Summaries of chunks of shoes merged in a fixed
order give identical results for any number of workers or any executor. `add_bets` and
`add_cover` add a chunk's coups bet, and its cover bet's stakes, to a summary.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from analyzer.core.bets import Bet
from analyzer.counting.cover import Cover
from analyzer.counting.systems import CountSystem

__all__ = [
    "PER_SHOE",
    "ColumnFigures",
    "ExactSum",
    "SystemEvaluation",
    "add_bets",
    "add_cover",
    "binned_sums",
    "count_bins",
    "distinct_values",
    "mean_sd",
]

#: The per-shoe wins a summary keeps moments of: exact EV of the coups bet, the outcomes
#: dealt on them, and the perfect-information win (exact EV of the coups with EV > 0); with a
#: cover (`SystemEvaluation.cover`), also the cover's exact EV on the coups bet and the net.
PER_SHOE = ("expected", "realized", "perfect")
COVERED = ("cover", "net")


def mean_sd(total: float, squares: float, n: int) -> tuple[float, float]:
    """Mean and sample standard deviation of `n` values from their sum and sum of squares."""
    if n == 0:
        return 0.0, 0.0
    mean = total / n
    var = max(squares - total * mean, 0.0) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def count_bins(floor: np.ndarray, ev: np.ndarray) -> dict[int, list[float]]:
    """{count: [coups, sum of ev]} of the coups by `floor` (integers), in increasing order."""
    low = int(floor.min(initial=0))
    sizes, sums = np.bincount(floor - low), np.bincount(floor - low, weights=ev)
    keys = np.flatnonzero(sizes)
    bins = zip((keys + low).tolist(), sizes[keys].tolist(), sums[keys].tolist(), strict=True)
    return {k: [float(n), t] for k, n, t in bins}


def distinct_values(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(values, return_inverse=True) of integers (counts' floors, shoe sizes):
    (keys, index), the distinct values in increasing order and each value's place among
    them; counted over their range (a bincount, no sort) when it is narrow."""
    if not len(values):
        return np.zeros(0, dtype=values.dtype), np.zeros(0, dtype=np.intp)
    low = int(values.min())
    if int(values.max()) - low > 4 * len(values) + 65536:
        keys, index = np.unique(values, return_inverse=True)
        return keys, index
    shifted = values - low
    present = np.bincount(shifted) > 0
    return (np.flatnonzero(present) + low).astype(values.dtype), (np.cumsum(present) - 1)[shifted]


def _distinct_totals(totals: np.ndarray, sizes: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(totals, return_inverse=True) of int64 `totals`; given `sizes`, the shoes'
    cards N with totals = N(N-1)...(N-5), which increase with N, by the sizes' (no sort)."""
    if sizes is None:
        keys, index = np.unique(totals, return_inverse=True)
        return keys, index.ravel()
    distinct, index = distinct_values(sizes)
    keys = np.zeros(len(distinct), dtype=np.int64)
    keys[index] = totals
    return keys, index


@dataclass
class ExactSum:
    """An exact sum of expectations numerator / (denominator * total), kept as integer
    numerator sums per total (the 6-card count of the shoe valued) until asked for."""

    denominator: int = 1
    by_total: dict[int, int] = field(default_factory=dict)

    def add(
        self, numerators: np.ndarray, totals: np.ndarray, denominator: int, sizes: np.ndarray | None = None
    ) -> None:
        """Add the terms numerators[i] / (denominator * totals[i]), exactly. `sizes`: the
        shoes' cards N, when totals[i] = N(N-1)...(N-5) (the terms grouped by N, a bincount
        instead of a sort; the same sums)."""
        self.denominator = denominator
        if not len(numerators):
            return
        if numerators.dtype == object or totals.dtype == object:
            for num, tot in zip(numerators.tolist(), totals.tolist(), strict=True):
                self.by_total[tot] = self.by_total.get(tot, 0) + num
            return
        keys, index = _distinct_totals(totals, sizes)
        sums = _limb_sums(index, numerators, len(keys))
        self._add_items(zip(keys.tolist(), sums, strict=True))

    def _add_items(self, items: Iterable[tuple[int, int]]) -> None:
        """Add each (total, numerator sum) of `items` (totals distinct), exactly."""
        mine = self.by_total
        if not mine:  # each total once: the same dict as adding them one by one
            mine.update(items)
            return
        get = mine.get
        for tot, num in items:
            mine[tot] = get(tot, 0) + num

    def merge(self, other: ExactSum) -> None:
        self.denominator = other.denominator
        self._add_items(other.by_total.items())

    def value(self) -> Fraction:
        """The sum, exact: over the totals' lcm at once (one reduction, not one per total)."""
        common = math.lcm(*self.by_total)
        return Fraction(sum(n * (common // t) for t, n in self.by_total.items()), self.denominator * common)


def binned_sums(
    keys: np.ndarray,
    index: np.ndarray,
    numerators: np.ndarray,
    totals: np.ndarray,
    denominator: int,
    sizes: np.ndarray | None = None,
) -> dict[int, ExactSum]:
    """Exact sums of numerators[i] / (denominator * totals[i]) by bin: term i goes to bin
    keys[index[i]] (every key gets a sum, 0 if no term). One pass over the terms: the
    (bin, total) pairs are grouped at once, their numerators summed exactly in 32-bit limbs
    (each pair's limb sums below 2**53 for under 2**20 terms, as in `ExactSum.add`).
    `sizes`: the shoes' cards N when totals[i] = N(N-1)...(N-5) (grouped by a bincount
    instead of sorts; the same sums)."""
    found = {int(k): ExactSum(denominator) for k in keys.tolist()}
    if not len(numerators):
        return found
    bins = keys.tolist()
    if numerators.dtype == object or totals.dtype == object:
        for at, num, tot in zip(index.tolist(), numerators.tolist(), totals.tolist(), strict=True):
            cell = found[bins[at]].by_total
            cell[tot] = cell.get(tot, 0) + num
        return found
    values, where = _distinct_totals(totals, sizes)
    width = len(values)
    cell = index.ravel() * width + where
    if len(bins) * width <= 4 * len(cell) + 65536:  # a small grid: counted, not sorted
        used = np.bincount(cell, minlength=len(bins) * width)
        pairs = np.flatnonzero(used)
        group = (np.cumsum(used > 0) - 1)[cell]
    else:
        pairs, group = np.unique(cell, return_inverse=True)
    sums = _limb_sums(group.ravel(), numerators, len(pairs))
    at, size = pairs // width, values[pairs % width].tolist()
    bounds = np.searchsorted(at, np.arange(len(bins) + 1)).tolist()
    for i, (lo, hi) in enumerate(itertools.pairwise(bounds)):
        if hi > lo:  # each (bin, total) pair once, totals increasing
            found[bins[i]].by_total.update(zip(size[lo:hi], sums[lo:hi], strict=True))
    return found


def _limb_sums(group: np.ndarray, numerators: np.ndarray, groups: int) -> list[int]:
    """The exact sum of the int64 `numerators` of each of `groups` groups (`group` each
    term's), as Python ints: 32-bit limbs summed in float64, exact while each group's limb
    sums stay below 2**53 (groups under 2**20 terms)."""
    high = np.bincount(group, weights=numerators >> 32, minlength=groups).astype(np.int64)
    low = np.bincount(group, weights=numerators & 0xFFFFFFFF, minlength=groups).astype(np.int64)
    if np.abs(high).max(initial=0) < 2**30:  # (high << 32) + low fits int64
        joined: list[int] = ((high << 32) + low).tolist()
        return joined
    return [(h << 32) + lo for h, lo in zip(high.tolist(), low.tolist(), strict=True)]


@dataclass(frozen=True)
class ColumnFigures:
    """The figures of one bet's column of a chunk that no count changes, computed once for
    every system judged on that bet: each coup's expectation as a float (statistics only),
    how many are positive, the exact sums over every coup and over the positive ones, the
    moments of the perfect-information win per shoe, and the sums of ev and ev**2."""

    ev: np.ndarray
    positive: int
    every: ExactSum
    perfect: ExactSum
    perfect_moments: tuple[float, float]
    ev_sums: tuple[float, float]

    @classmethod
    def of(
        cls,
        num: np.ndarray,
        totals: np.ndarray,
        denominator: int,
        sizes: np.ndarray,
        fsize: np.ndarray,
        shoe: np.ndarray,
        shoes: int,
    ) -> ColumnFigures:
        """The column's figures: `num` / (`denominator` * `totals`) each coup's exact
        expectation, `sizes` its shoe's cards, `fsize` totals as floats, `shoe` its shoe
        among `shoes`."""
        positive = num > 0
        ev = num.astype(np.float64) / (denominator * fsize)
        every, perfect = ExactSum(), ExactSum()
        every.add(num, totals, denominator, sizes)
        perfect.add(num[positive], totals[positive], denominator, sizes[positive])
        per_shoe = np.bincount(shoe, weights=ev * positive, minlength=shoes)
        moments = (float(per_shoe.sum()), float((per_shoe * per_shoe).sum()))
        return cls(
            ev, int(positive.sum()), every, perfect, moments, (float(ev.sum()), float((ev * ev).sum()))
        )


def _sums() -> dict[str, ExactSum]:
    return {key: ExactSum() for key in ("all", "triggered", "perfect", "cover")}


@dataclass
class SystemEvaluation:
    """A counting system judged on one bet over simulated shoes: a fixed-size summary.

    Exact sums (Fractions) cover every coup; `shoe_moments[which]` holds the float sum and
    sum of squares over shoes of each per-shoe win (`PER_SHOE`), for means, standard
    deviations and standard errors; `by_count` maps floor(count) to [coups, sum of EV] (display
    floats), `by_count_exact` floor(count) to the exact sum of its coups' EV (`by_count_values`).
    With a `cover`, `sums["cover"]` holds the exact EV of one unit of the cover bet over the
    coups bet, and `shoe_moments` the cover's and the net's per shoe (`COVERED`).
    """

    system: CountSystem
    bet: Bet
    shoes: int = 0
    coups: int = 0
    triggers: int = 0
    positive: int = 0
    realized_triggered: Fraction = Fraction(0)
    realized_squares: Fraction = Fraction(0)  # sum of squared net results of the coups bet
    sums: dict[str, ExactSum] = field(default_factory=_sums)
    shoe_moments: dict[str, list[float]] = field(
        default_factory=lambda: {k: [0.0, 0.0] for k in PER_SHOE + COVERED}
    )
    moments: list[float] = field(default_factory=lambda: [0.0] * 5)  # n-free sums: x, y, xx, yy, xy
    by_count: dict[int, list[float]] = field(default_factory=dict)  # floor(count) -> [coups, sum EV]
    by_count_exact: dict[int, ExactSum] = field(default_factory=dict)  # floor(count) -> exact sum EV
    cover: Cover | None = None

    @property
    def cover_expectation(self) -> Fraction | None:
        """The cover's exact expected win over the coups bet (units; negative: its cost),
        None without a cover."""
        return None if self.cover is None else self.sums["cover"].value() * self.cover.units

    @property
    def by_count_values(self) -> dict[int, tuple[int, Fraction]]:
        """floor(count) -> (coups, exact sum of their expectations), for the bins with coups;
        a ValueError for a study run without exact sums by count (`exact_bins` False)."""
        if self.coups and not self.by_count_exact:
            raise ValueError("this study kept no exact sums by count (run with exact_bins)")
        return {
            k: (int(n), self.by_count_exact[k].value() if k in self.by_count_exact else Fraction(0))
            for k, (n, _) in sorted(self.by_count.items())
            if n
        }

    @property
    def expectation_all(self) -> Fraction:
        """Sum of the exact expectations of every coup (exact)."""
        return self.sums["all"].value()

    @property
    def expectation_triggered(self) -> Fraction:
        """Sum of the exact expectations of the coups the system bets on: the expected win."""
        return self.sums["triggered"].value()

    @property
    def perfect(self) -> Fraction:
        """Sum of the positive exact expectations: the perfect-information win."""
        return self.sums["perfect"].value()

    @property
    def trigger_edge(self) -> Fraction | None:
        """Mean exact expectation of the coups the system bets on (player's view)."""
        return self.expectation_triggered / self.triggers if self.triggers else None

    @property
    def correlation(self) -> float:
        """Correlation across coups between the system's count and the bet's exact expectation."""
        sx, sy, sxx, syy, sxy = self.moments
        n = self.coups
        if n == 0:
            return 0.0
        vx, vy = sxx - sx * sx / n, syy - sy * sy / n
        return (sxy - sx * sy / n) / math.sqrt(vx * vy) if vx > 0 and vy > 0 else 0.0

    def per_shoe(self, which: str) -> tuple[float, float]:
        """Mean and standard error per shoe of 'expected', 'realized' or 'perfect' win (and,
        with a cover, 'cover' and 'net')."""
        mean, sd = self.shoe_stats(which)
        return mean, sd / math.sqrt(self.shoes) if self.shoes else 0.0

    def shoe_stats(self, which: str) -> tuple[float, float]:
        """Mean and sample standard deviation over shoes of one per-shoe win (`PER_SHOE`)."""
        total, squares = self.shoe_moments[which]
        return mean_sd(total, squares, self.shoes)

    def merge(self, other: SystemEvaluation) -> None:
        """Add another chunk's summary to this one (merge chunks in a fixed order: the float
        sums depend on it; the exact ones, `merge_exact`, do not)."""
        self.shoes += other.shoes
        self.coups += other.coups
        self.cover = self.cover or other.cover
        self.triggers += other.triggers
        self.positive += other.positive
        self.merge_exact(other)
        for which, (s, ss) in other.shoe_moments.items():
            moments = self.shoe_moments[which]
            moments[0] += s
            moments[1] += ss
        self.moments = [a + b for a, b in zip(self.moments, other.moments, strict=True)]
        for count, (n, s) in other.by_count.items():
            cell = self.by_count.setdefault(count, [0.0, 0.0])
            cell[0] += n
            cell[1] += s

    def merge_exact(self, other: SystemEvaluation) -> None:
        """Add another summary's exact sums (Fractions and `ExactSum`s) to this one's: the
        same values in any order and grouping, unlike the float sums."""
        self.realized_triggered += other.realized_triggered
        self.realized_squares += other.realized_squares
        for key, total in other.sums.items():
            self.sums[key].merge(total)
        for count, total in other.by_count_exact.items():
            self.by_count_exact.setdefault(count, ExactSum(total.denominator)).merge(total)

    def without_exact(self) -> SystemEvaluation:
        """This summary with its exact sums taken out (empty, their denominators kept; the
        realized Fractions zero; its float fields shared with this one): what is left once
        they are merged elsewhere (`merge_exact`); merging it adds the counts and floats."""
        light = replace(self, realized_triggered=Fraction(0), realized_squares=Fraction(0))
        light.sums = {key: ExactSum(total.denominator) for key, total in self.sums.items()}
        light.by_count_exact = {}
        return light


def add_bets(
    result: SystemEvaluation,
    shoe: np.ndarray,
    num: np.ndarray,
    totals: np.ndarray,
    denominator: int,
    shoes: int,
    sizes: np.ndarray | None = None,
) -> None:
    """Add to `result` the coups bet in a chunk of `shoes` shoes (each coup's shoe within
    the chunk, its exact expectation num / (denominator * totals)): the bets, their exact
    sum and the moments of the expected win per shoe."""
    result.triggers = len(num)
    result.sums["triggered"].add(num, totals, denominator, sizes)
    ev = num.astype(np.float64) / (denominator * totals.astype(np.float64))
    per_shoe = np.bincount(shoe, weights=ev, minlength=shoes)
    result.shoe_moments["expected"] = [float(per_shoe.sum()), float((per_shoe * per_shoe).sum())]


def add_cover(
    result: SystemEvaluation,
    cover: Cover,
    num: np.ndarray,
    totals: np.ndarray,
    denominator: int,
    shoe: np.ndarray,
    side: np.ndarray,
    shoes: int,
) -> None:
    """Add the cover staked on the coups bet (`num` / (`denominator` * `totals`) per unit of
    its bet, `side` the side bet's expectation on them, `shoe` their shoes): its exact sum
    and the moments of the cover's and the net's expected win per shoe."""
    result.cover = cover
    result.sums["cover"].add(num, totals, denominator)
    ev = float(cover.units) * num.astype(np.float64) / (denominator * totals.astype(np.float64))
    staked = np.bincount(shoe, weights=ev, minlength=shoes)
    net = staked + np.bincount(shoe, weights=side, minlength=shoes)
    for key, values in (("cover", staked), ("net", net)):
        result.shoe_moments[key] = [float(values.sum()), float((values * values).sum())]
