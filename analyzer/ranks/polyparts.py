"""Factor tables and parts: the inputs of the batch evaluation of monomials
(analyzer.ranks.polyeval).

For a batch of W rank compositions, `factor_tables` gives the flat factor table, (rows, W):
the falling factorials (c_v)_j of the cards c_v of each point value v (rows (v, j)) after
the pair-kind rows (z, j), and the tails T[k] = (N-k)_(6-k); in uint64 (modulo 2**64) or
float64. A monomial's value is FA[a] * FB[b] * T(e + d): an a-part (pair kind z, values
0-4) of degree e, a b-part (values 5-9) of degree d. `Side` lays one side's parts out as
grids of left x right half-products, each part a product of table rows.

Exactness. Every table entry and partial product is at most c**6 for the batch's largest
count c, so for counts up to FLOAT_COUNTS (456) every one is an integer below 2**53: the
float64 tables and parts are exact. `Workspace` keeps the work arrays from batch to batch.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.ranks import RANK_POINTS, ZERO_RANKS

__all__ = [
    "FLOAT_COUNTS",
    "ORDERS",
    "SIX",
    "TEN_RANKS",
    "VALUE_RANKS",
    "ZERO_ROWS",
    "Side",
    "Workspace",
    "factor_tables",
    "tail_factors",
    "value_counts",
]

SIX = CARDS_PER_COUP
ORDERS = SIX + 1  # falling-factorial orders 0..6
#: The one rank of each value 1-9, and the ten-value ranks (index arrays, int64).
VALUE_RANKS = np.array([RANK_POINTS.index(v) for v in range(1, 10)], dtype=np.int64)
TEN_RANKS = np.array(ZERO_RANKS, dtype=np.int64)
#: Largest count whose sixth power, a bound on every factor product, is below 2**53.
FLOAT_COUNTS = max(c for c in range(1, 1000) if c**SIX < 2**53)
ZERO_ROWS = 3 * ORDERS  # flat factor table: pair-kind rows (z, j), then value rows (v, j)


class Workspace:
    """Work arrays kept from batch to batch by name: fresh arrays of a megabyte or so
    each batch cost a page fault per page (measured 1.5 times slower overall)."""

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}
        self.views: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[np.ndarray, ...]]]] = {}

    def __getstate__(self) -> dict[str, object]:
        """Pickled empty (a pickle would copy views apart from their arrays)."""
        return {"_arrays": {}, "views": {}}

    def get(self, name: str, shape: tuple[int, ...], dtype: type = np.uint64) -> np.ndarray:
        """The array `name` of this shape and dtype (contents left from the last batch)."""
        found = self._arrays.get(name)
        if found is None or found.shape != shape or found.dtype != dtype:
            found = self._arrays[name] = np.empty(shape, dtype=dtype)
        return found


class Side:
    """One side's parts (a: pair kind and values 0-4; b: values 5-9), each a product of a
    left half and a right half of its factors, laid out as grids: for each degree, for each
    degree of the left half, every left half of that degree times every right half of the
    rest (one broadcast product per grid); a unit part (value 1) ends each degree.

    `keys` (B, factors): each monomial's row of the flat factor table for each factor;
    `degree` (B, factors): the number of cards each factor stands for; the first `split`
    factors are the left half; `unit`: each factor's row of value 1."""

    def __init__(self, name: str, keys: np.ndarray, degree: np.ndarray, split: int, unit: np.ndarray) -> None:
        self.name = name
        halves = []
        for columns in (slice(0, split), slice(split, keys.shape[1])):
            half, index = np.unique(keys[:, columns], axis=0, return_inverse=True)
            half_degree = np.zeros(len(half), dtype=np.int64)
            half_degree[index.ravel()] = degree[:, columns].sum(axis=1)
            order = np.argsort(half_degree, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            halves.append((half[order], half_degree[order], rank[index.ravel()]))
        (self.left, left_degree, left_of), (self.right, right_degree, right_of) = halves
        total = left_degree[left_of] + right_degree[right_of]
        self.grids: list[tuple[int, slice, slice]] = []  # (first row, left halves, right halves)
        self.grid_degree: list[int] = []
        self.hot_rows = 0  # rows of the shared work array for one degree's parts (see `hot`)
        self.spans: dict[int, slice] = {}  # each degree's rows; its unit part follows
        row_of = np.full((len(self.left), len(self.right)), -1, dtype=np.int64)
        row = 0
        for e in np.unique(total).tolist():
            first = row
            for i in range(e + 1):
                lefts, rights = np.flatnonzero(left_degree == i), np.flatnonzero(right_degree == e - i)
                if len(lefts) and len(rights):
                    grid = (
                        slice(int(lefts[0]), int(lefts[-1]) + 1),
                        slice(int(rights[0]), int(rights[-1]) + 1),
                    )
                    self.grids.append((row, *grid))
                    self.grid_degree.append(e)
                    row_of[grid] = row + np.arange(len(lefts) * len(rights)).reshape(len(lefts), len(rights))
                    row += len(lefts) * len(rights)
            self.spans[e] = slice(first, row)
            row += 1  # the unit part
        self.rows = row
        self.index = row_of[left_of, right_of]  # each monomial's part
        # Each part's factor-table rows (a unit part: `unit`, rows of value 1).
        self.factor_rows = np.tile(unit, (row, 1))
        for first, left_span, right_span in self.grids:
            left, right = self.left[left_span], self.right[right_span]
            pairs = np.concatenate(
                [np.repeat(left, len(right), axis=0), np.tile(right, (len(left), 1))], axis=1
            )
            self.factor_rows[first : first + len(pairs)] = pairs
        self.degree = np.full(row, -1, dtype=np.int64)  # -1: a unit part
        for e, span in self.spans.items():
            self.degree[span] = e

    def evaluate(
        self, table: np.ndarray, work: Workspace, degrees: Collection[int] | None = None
    ) -> np.ndarray:
        """(rows, W) products of `table`'s rows, in its dtype (uint64 modulo 2**64, or
        float64, exact when every partial product is an integer below 2**53); with
        `degrees`, only the parts of those degrees (`fill` computes the others)."""
        width, dtype = table.shape[1], table.dtype.type
        halves = []
        for side, rows in (("left", self.left), ("right", self.right)):
            half = work.get(f"{self.name}-{side}", (len(rows), width), dtype)
            factor = work.get(f"{self.name}-{side}-factor", half.shape, dtype)
            np.take(table, rows[:, 0], axis=0, out=half, mode="clip")
            for column in range(1, rows.shape[1]):
                np.multiply(half, np.take(table, rows[:, column], axis=0, out=factor, mode="clip"), out=half)
            halves.append(half)
        product = work.get(self.name, (self.rows, width), dtype)
        views = work.views.get(self.name)
        if views is None or views[0] is not product or views[1] is not halves[0] or views[2] is not halves[1]:
            views = work.views[self.name] = (
                product,
                halves[0],
                halves[1],
                self._grid_views(product, *halves),
            )
        self.fill(work, degrees)
        return product

    def fill(self, work: Workspace, degrees: Collection[int] | None = None) -> None:
        """Compute the parts of `degrees` (all: None) from the halves `evaluate` computed:
        just before a product reads them, they are still in cache."""
        for degree, (left, right, block) in zip(self.grid_degree, work.views[self.name][3], strict=True):
            if degrees is None or degree in degrees:
                np.multiply(left, right, out=block)

    def hot(self, work: Workspace, degree: int) -> np.ndarray:
        """The parts of `degree` then a unit part, (parts + 1, W), from the halves `evaluate`
        left, in a work array every group shares (still in cache when its product reads it)."""
        span = self.spans[degree]
        _, left, right, _ = work.views[self.name]
        hot = work.get("hot", (self.hot_rows, left.shape[1]), left.dtype.type)
        key = f"{self.name}-hot-{degree}"
        views = work.views.get(key)
        if views is None or views[0] is not hot or views[1] is not left or views[2] is not right:
            blocks: list[tuple[np.ndarray, ...]] = []
            for (first, left_span, right_span), grid_degree in zip(self.grids, self.grid_degree, strict=True):
                if grid_degree == degree:
                    rows = (left_span.stop - left_span.start) * (right_span.stop - right_span.start)
                    block = hot[first - span.start : first - span.start + rows]
                    block = block.reshape(left_span.stop - left_span.start, -1, hot.shape[1])
                    blocks.append((left[left_span][:, None, :], right[right_span][None, :, :], block))
            views = work.views[key] = (hot, left, right, blocks)
        for left_half, right_half, block in views[3]:
            np.multiply(left_half, right_half, out=block)
        hot[span.stop - span.start] = 1
        return hot[: span.stop - span.start + 1]

    def _grid_views(
        self, product: np.ndarray, left: np.ndarray, right: np.ndarray
    ) -> list[tuple[np.ndarray, ...]]:
        """Each grid's (left halves, right halves, rows of `product`) as broadcast views, kept
        while the work arrays stay the same; the unit parts are set here, once."""
        views: list[tuple[np.ndarray, ...]] = []
        for first, left_span, right_span in self.grids:
            rows = (left_span.stop - left_span.start) * (right_span.stop - right_span.start)
            block = product[first : first + rows].reshape(
                left_span.stop - left_span.start, -1, product.shape[1]
            )
            views.append((left[left_span][:, None, :], right[right_span][None, :, :], block))
        for span in self.spans.values():
            product[span.stop] = 1
        return views


def value_counts(counts: np.ndarray) -> np.ndarray:
    """(10, W) cards of each point value in (W, 13) rank counts."""
    values = np.empty((10, len(counts)), dtype=np.int64)
    values[0] = counts[:, TEN_RANKS].sum(axis=1)
    values[1:] = counts[:, VALUE_RANKS].T
    return values


def factor_tables(
    counts: np.ndarray, work: Workspace, dtype: type, sizes: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The flat factor table (pair kinds (z, j), then values (v, j)) and the tails
    T[k] = (N-k)_(6-k), (rows, W) each: uint64 modulo 2**64, or float64 (exact below
    2**53, else rounded). N is each row's number of cards, or `sizes` (the tails of a
    larger shoe whose coups use only these cards)."""
    width = len(counts)
    c: np.ndarray = value_counts(counts).astype(dtype)  # (10, W) cards of each value
    table = work.get("table", (ZERO_ROWS + 10 * ORDERS, width), dtype)
    zero, ff = table[:ZERO_ROWS].reshape(3, ORDERS, width), table[ZERO_ROWS:].reshape(10, ORDERS, width)
    ff[:, 0] = 1
    for j in range(1, ORDERS):
        ff[:, j] = ff[:, j - 1] * (c - dtype(j - 1))  # a zero factor stays zero
    tens: np.ndarray = counts[:, TEN_RANKS].astype(dtype)
    pairs = tens * (tens - dtype(1))
    s2 = pairs.sum(axis=1)
    q = s2 * s2 - (pairs * pairs).sum(axis=1) + (pairs * (tens - dtype(2)) * (tens - dtype(3))).sum(axis=1)
    zero[1:] = 0
    zero[0] = ff[0]
    for kind, (scale, used) in enumerate(((s2, 2), (q, 4)), start=1):
        run = scale.copy()
        for j in range(used, ORDERS):
            zero[kind, j] = run
            run = run * (c[0] - dtype(j))
    return table, tail_factors(counts, work, dtype, sizes=sizes)


def tail_factors(
    counts: np.ndarray, work: Workspace, dtype: type, name: str = "tails", sizes: np.ndarray | None = None
) -> np.ndarray:
    """The tails T[k] = (N-k)_(6-k), (J, W) in `dtype` (uint64: modulo 2**64); N as in
    `factor_tables`."""
    n: np.ndarray = (counts.sum(axis=1) if sizes is None else sizes).astype(dtype)
    tails = work.get(name, (ORDERS, len(counts)), dtype)
    tails[SIX] = 1
    for k in range(SIX - 1, -1, -1):
        np.multiply(tails[k + 1], n - dtype(k), out=tails[k])
    return tails
