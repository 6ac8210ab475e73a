"""Whole-number points in bands: the exact search behind paytable design.

Variables x_0..x_{n-1} (payouts), each a whole number in its box, some pairs ordered
(x_i >= x_j), and for each shoe d a band lo_d <= sum of w[i][d] * x_i <= hi_d (weights w >= 0).
`BandSearch.count` counts the points, `BandSearch.points` lists them, in integers only.

The variables are taken one by one; at each the values that can still reach every band (the
later ones at their bounds) form an interval found by floor division. The last two are not
enumerated when counting: for each value y of the one before last, the last one's values
form an interval between the lowest of some lines in y and the highest of others, so their
number summed over y is a sum of floors of linear functions, which `floor_sum` gives in a
few steps (the envelopes of the lines split the range of y where they cross). Listing visits
only the values of y that `count` shows hold points (halving the range). `nodes` bounds a
count's work before it starts: every value of each level above the last two, under every
value of the levels before it.

>>> search = BandSearch([[2], [3]], [(0, 10), (0, 10)], [])
>>> search.count([(10, 12)]), sorted(search.points([(10, 11)]))
(7, [(1, 3), (2, 2), (4, 1), (5, 0)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, pairwise

__all__ = ["Band", "BandSearch", "floor_sum"]

Band = tuple[int, int]
#: A line in y: (c0 + c1 * y) / den, den > 0.
LineInY = tuple[int, int, int]
#: A range of the level before last this short is listed value by value, not halved.
_FEW = 16
#: The most nodes of the bound at the levels where a count tells its progress.
_TOLD = 10**4


def _told_nothing(nodes: int) -> None:
    """Progress told to no one."""


def floor_sum(n: int, m: int, a: int, b: int) -> int:
    """Sum of floor((a * i + b) / m) for i = 0..n-1 (m > 0; a, b any integers), exactly, in
    O(log m) steps (the Euclid-like reduction)."""
    total = 0
    if n <= 0:
        return 0
    q, a = divmod(a, m)
    total += q * n * (n - 1) // 2
    q, b = divmod(b, m)
    total += q * n
    while True:
        if a >= m:
            q, a = divmod(a, m)
            total += q * n * (n - 1) // 2
        if b >= m:
            q, b = divmod(b, m)
            total += q * n
        top = a * n + b
        if top < m:
            return total
        n, b = divmod(top, m)
        m, a = a, m


def _floors(line: LineInY, y1: int, y2: int) -> int:
    """Sum of floor(line(y)) for y = y1..y2."""
    c0, c1, den = line
    return floor_sum(y2 - y1 + 1, den, c1, c0 + c1 * y1)


def _extreme(lines: Sequence[LineInY], twice_y: int, sign: int) -> LineInY:
    """The lowest of `lines` at y = twice_y / 2 (sign 1), or the highest (sign -1), compared
    in integers: (2 c0 + c1 twice_y) / (2 den)."""
    best, best_top, best_den = lines[0], sign * (2 * lines[0][0] + lines[0][1] * twice_y), lines[0][2]
    for line in lines[1:]:
        top = sign * (2 * line[0] + line[1] * twice_y)
        if top * best_den < best_top * line[2]:
            best, best_top, best_den = line, top, line[2]
    return best


def _above(upper: LineInY, lower: LineInY, twice_y: int) -> bool:
    """Whether `upper` is at least `lower` at y = twice_y / 2."""
    return (2 * upper[0] + upper[1] * twice_y) * lower[2] >= (2 * lower[0] + lower[1] * twice_y) * upper[2]


def _crossings(lines: Sequence[LineInY], y1: int, y2: int) -> set[int]:
    """Where pieces of y1..y2 start so that no two of `lines` cross in a piece (a crossing at
    a whole y gets a piece of its own): in each piece every pair keeps one strict order, or
    the piece is a single y. Each pair once: the crossing does not depend on their order."""
    cuts = set()
    for (a0, a1, ad), (b0, b1, bd) in combinations(lines, 2):
        slope = a1 * bd - b1 * ad  # the lines meet at y = (b0 ad - a0 bd) / slope
        if slope:
            meet = b0 * ad - a0 * bd
            # The first whole y after the crossing, and the first at or after it (Python's
            # floor division floors for either sign).
            for cut in (meet // slope + 1, -(-meet // slope)):
                if y1 < cut <= y2:
                    cuts.add(cut)
    return cuts


class BandSearch:
    """Whole-number points x with box[i][0] <= x_i <= box[i][1], x_i >= x_j for each (i, j)
    of `at_least`, and each shoe's band on sum of weights[i][d] * x_i."""

    def __init__(
        self, weights: Sequence[Sequence[int]], boxes: Sequence[Band], at_least: Sequence[tuple[int, int]]
    ) -> None:
        n = len(boxes)
        self.n, self.shoes = n, len(weights[0])
        # Search order: the variables by their largest weighted span first (the bounds close
        # in early), the one with the most values (after the spans) last: counted, not listed.
        span = [max(w * (b - a) for w in weights[i]) for i, (a, b) in enumerate(boxes)]
        last = max(range(n), key=lambda i: (boxes[i][1] - boxes[i][0], -max(weights[i])))
        self.order = [*sorted((i for i in range(n) if i != last), key=lambda i: -span[i]), last]
        level_of = {var: level for level, var in enumerate(self.order)}
        self.weights = [list(weights[var]) for var in self.order]
        self.boxes = [boxes[var] for var in self.order]
        # Each level's least and largest sum of the later levels on each shoe.
        self.rest_min = [self._rest(k, 0) for k in range(n)]
        self.rest_max = [self._rest(k, 1) for k in range(n)]
        # Each level's order constraints against earlier levels: x_level >= x_j, x_level <= x_j.
        ordered = [(level_of[i], level_of[j]) for i, j in at_least]
        self.above = [[j for i, j in ordered if i == k and j < k] for k in range(n)]
        self.below = [[i for i, j in ordered if j == k and i < k] for k in range(n)]
        self.values = [0] * n
        # Each level's most nodes in the subtree under one node of it (the last two levels
        # are one node: counted, not enumerated), and the deepest level that tells progress.
        sizes = [max(0, b - a + 1) for a, b in self.boxes]
        self.subtree = [1] * n
        for level in range(n - 3, -1, -1):
            self.subtree[level] = 1 + sizes[level] * self.subtree[level + 1]
        self._telling, reach = 0, 1
        while self._telling < n - 2 and reach * sizes[self._telling] <= _TOLD:
            reach *= sizes[self._telling]
            self._telling += 1
        self._told = -1  # the levels at or above it tell `_advance` (-1: none)
        self._advance: Callable[[int], object] = _told_nothing

    def _rest(self, level: int, side: int) -> list[int]:
        later = range(level + 1, self.n)
        return [sum(self.weights[j][d] * self.boxes[j][side] for j in later) for d in range(self.shoes)]

    def nodes(self) -> int:
        """The most nodes a `count` visits (whatever the bands): the bound of its work."""
        return self.subtree[0]

    def count(self, bands: Sequence[Band], advance: Callable[[int], object] | None = None) -> int:
        """The number of points in every band (bands[d] = (lo, hi) for shoe d); `advance(k)`
        is told the nodes of the bound done (visited or cut off) as it goes, `nodes()` in all."""
        if advance is not None:
            self._told, self._advance = self._telling, advance
        try:
            return self._count(0, [0] * self.shoes, bands)
        finally:
            self._told = -1

    def points(self, bands: Sequence[Band]) -> Iterator[tuple[int, ...]]:
        """Every point in every band, each in the variables' own order."""
        for values in self._points(0, [0] * self.shoes, bands):
            point = [0] * self.n
            for level, var in enumerate(self.order):
                point[var] = values[level]
            yield tuple(point)

    # -- the levels ---------------------------------------------------------------------------

    def _interval(self, level: int, partial: Sequence[int], bands: Sequence[Band]) -> Band:
        """The values of `level` that can still reach every band, the later levels at their
        bounds, given the earlier levels' sums `partial` on each shoe."""
        a, b = self.boxes[level]
        for j in self.above[level]:
            a = max(a, self.values[j])
        for j in self.below[level]:
            b = min(b, self.values[j])
        weights, rest_min, rest_max = self.weights[level], self.rest_min[level], self.rest_max[level]
        for d, (lo, hi) in enumerate(bands):
            w, p = weights[d], partial[d]
            if w:
                a = max(a, -((p + rest_max[d] - lo) // w))
                b = min(b, (hi - p - rest_min[d]) // w)
            elif p + rest_max[d] < lo or p + rest_min[d] > hi:
                return 1, 0
        return a, b

    def _count(self, level: int, partial: list[int], bands: Sequence[Band]) -> int:
        a, b = self._interval(level, partial, bands)
        if level <= self._told:  # this node and the subtrees it cuts off (the deepest: all of it)
            kept = max(0, b - a + 1) if level < self._told else 0
            self._advance(self.subtree[level] - (kept * self.subtree[level + 1] if kept else 0))
        if a > b:
            return 0
        if level == self.n - 1:
            return b - a + 1
        if level == self.n - 2:
            return self._pairs(partial, bands, a, b)
        total = 0
        weights = self.weights[level]
        for x in range(a, b + 1):
            self.values[level] = x
            total += self._count(level + 1, [p + w * x for p, w in zip(partial, weights, strict=True)], bands)
        return total

    def _points(self, level: int, partial: list[int], bands: Sequence[Band]) -> Iterator[list[int]]:
        a, b = self._interval(level, partial, bands)
        if a > b:
            return
        if level == self.n - 1:
            for x in range(a, b + 1):
                self.values[level] = x
                yield list(self.values)
            return
        weights = self.weights[level]
        for x in self._holding(level, partial, bands, a, b):
            self.values[level] = x
            sums = [p + w * x for p, w in zip(partial, weights, strict=True)]
            yield from self._points(level + 1, sums, bands)

    def _holding(
        self, level: int, partial: list[int], bands: Sequence[Band], a: int, b: int
    ) -> Iterator[int]:
        """The values a..b of `level` under which points lie: all of them above the level
        before last; at it, those found by halving the range where `_pairs` counts points."""
        if level < self.n - 2:
            yield from range(a, b + 1)
            return
        stack = [(a, b)]
        while stack:
            y1, y2 = stack.pop()
            if not self._pairs(partial, bands, y1, y2):
                continue
            if y2 - y1 < _FEW:
                yield from range(y1, y2 + 1)  # the last level's interval settles each at once
            else:
                middle = (y1 + y2) // 2
                stack += [(middle + 1, y2), (y1, middle)]

    def _pairs(self, partial: Sequence[int], bands: Sequence[Band], y1: int, y2: int) -> int:
        """The points of the last two levels with the level before last (y) in y1..y2."""
        y_level, z_level = self.n - 2, self.n - 1
        za, zb = self.boxes[z_level]
        for j in self.above[z_level]:
            if j != y_level:
                za = max(za, self.values[j])
        for j in self.below[z_level]:
            if j != y_level:
                zb = min(zb, self.values[j])
        uppers: list[LineInY] = [(zb, 0, 1)]
        lowers: list[LineInY] = [(za, 0, 1)]
        if y_level in self.above[z_level]:
            lowers.append((0, 1, 1))
        if y_level in self.below[z_level]:
            uppers.append((0, 1, 1))
        for d, (lo, hi) in enumerate(bands):
            wy, wz, p = self.weights[y_level][d], self.weights[z_level][d], partial[d]
            if wz:
                uppers.append((hi - p, -wy, wz))
                lowers.append((lo - p, -wy, wz))
            elif wy:
                y1, y2 = max(y1, -((p - lo) // wy)), min(y2, (hi - p) // wy)
            elif not lo <= p <= hi:
                return 0
        if y1 > y2:
            return 0
        cuts = sorted(_crossings(uppers + lowers, y1, y2) | {y1, y2 + 1})
        total = 0
        for start, stop in pairwise(cuts):
            end = stop - 1
            upper, lower = _extreme(uppers, start + end, 1), _extreme(lowers, start + end, -1)
            if not _above(upper, lower, start + end):
                continue  # no whole z between them anywhere in this piece
            c0, c1, den = lower
            total += _floors(upper, start, end) + _floors((-c0, -c1, den), start, end) + (end - start + 1)
        return total
