"""Compiled passes inside the numpy paths (`analyzer.ranks.polyeval.MonomialForm`), taken
when the compiled kernels are loaded (`analyzer.ranks.kernel.ready`): the BLAS products
stay, the per-element numpy passes around them go.

- `tables`: the factor table and the tails (`analyzer.ranks.polyparts.factor_tables`:
  uint64 values, the table read as float64) and each table row's largest entry, in one
  pass (about fifty numpy passes over rows of W: 0.55 against 0.1 µs a composition);
- `parts`: every part of a side, (rows, W), each the product of its factor-table rows, in
  one pass (the numpy paths build them from halves, one broadcast product per grid, and
  a group's again just before its product: about 2 µs a composition of all 19 rank-level
  bets, 0.3 here, on `analyzer.ranks.fast.kernel_pays`'s host);
- `contract`: each output's factor (its other-side part times its tail) times its
  products read as uint64 less the magic constant, summed (modulo 2**64) into their
  columns, (cols, W), a group at a time just after its product (still in cache: every
  group's products of all 19 rank-level bets are 6 MB a batch of 384), each product row
  placed by its output and column (`MonomialForm` leaves out the rows whose coefficients
  are all zero: 18% of those bets' multiply-adds); `combine`: those sums combined
  into the caller's outputs, (W, outputs) (`relation @ E + (N)_6 * anchor`: a bet's
  numerators from the payoff lattice's columns). In numpy: a gather of the factors, an
  integer einsum and a correction over every group's products at once, and an integer
  product for the outputs (1.5 µs a composition of all 19 bets; here 1.0, on the
  nonzero rows).

Exactness is the numpy paths': the same ring operations modulo 2**64 (uint64 wraps), and
float64 products of exact integers below 2**53 (the tables of `_wrapped`), so the results
are the numpy paths' to the bit; ``BACCARAT_KERNEL=numpy`` takes neither (the tests
compare the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.ranks import kernel
from analyzer.ranks.polyparts import ORDERS, TEN_RANKS, VALUE_RANKS, ZERO_ROWS
from analyzer.ranks.polyproducts import MAGIC_BITS

__all__ = ["combine", "contract", "parts", "ready", "tables", "warm"]


def ready() -> bool:
    """Whether the compiled passes are to be taken: the kernels loaded in this process."""
    return kernel.ready()


def warm() -> None:
    """Compile the passes, or load them from numba's cache, now if the kernels are loaded
    (before forking workers, which then have them)."""
    if ready():  # microseconds once compiled
        parts(np.ones((5, 1)), np.zeros((1, 5), dtype=np.int64), np.empty((1, 1)))
        one, ones = np.zeros(1, dtype=np.int64), np.ones((1, 1, 1), dtype=np.uint64)
        square = np.zeros((1, 1), dtype=np.int64)
        table, tails = np.empty((ZERO_ROWS + 10 * ORDERS, 1)), np.empty((ORDERS, 1), dtype=np.uint64)
        tables(np.full((1, 13), 4, dtype=np.int64), None, table, tails)
        contract((np.ones((1, 1)),) * 2, 0, (one, one), ones[0], ones[0], (one, one), ones[0])
        combine(ones[0], ones[0], (square, one), square)


def tables(counts: np.ndarray, sizes: np.ndarray | None, table: np.ndarray, tails: np.ndarray) -> np.ndarray:
    """`factor_tables` of (W, 13) int64 rank counts (the shoes' sizes `sizes`, or each row's
    cards): the flat factor table into `table` (rows, W) float64 (each entry its uint64
    value modulo 2**64, rounded to float64 as numpy casts it), the tails into `tails` (J, W)
    uint64; returns (rows,) float64 each row's largest uint64 entry, so rounded."""
    width = len(counts)
    if (
        counts.shape[1:] != (13,)
        or table.shape != (ZERO_ROWS + 10 * ORDERS, width)
        or tails.shape != (ORDERS, width)
    ):
        raise ValueError("tables takes (W, 13) counts, a factor table and tails of W columns")
    if sizes is not None and len(sizes) != width:
        raise ValueError("tables takes a size for each composition")
    top = np.zeros(len(table), dtype=np.uint64)
    given = np.zeros(0, dtype=np.int64) if sizes is None else np.ascontiguousarray(sizes, dtype=np.int64)
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    kernel.compiled_pass("tables", _tables)(counts, given, TEN_RANKS, VALUE_RANKS, table, tails, top)
    return top.astype(np.float64)


def parts(table: np.ndarray, factor_rows: np.ndarray, out: np.ndarray) -> np.ndarray:
    """`out` (rows, W): row p the product of `table`'s (T, W) rows `factor_rows[p]` (rows,
    5), in `table`'s dtype (float64: exact while every partial product is an integer below
    2**53)."""
    if factor_rows.shape[1] != 5:
        raise ValueError("parts takes five factor-table rows a part")
    kernel.compiled_pass("parts", _parts)(table, factor_rows, out)
    return out


def contract(
    parts: tuple[np.ndarray, np.ndarray],
    split: int,
    factors: tuple[np.ndarray, np.ndarray],
    tails: np.ndarray,
    products: np.ndarray,
    places: tuple[np.ndarray, np.ndarray],
    total: np.ndarray,
) -> np.ndarray:
    """`total` (cols, W) uint64 plus, modulo 2**64, each row k of `products` (K, W) uint64
    less MAGIC_BITS times the factor of output outputs[k], in column columns[k] of `total`
    (`places` = (outputs, columns), each (K,); the rows of one output adjacent: its factor
    is formed once a run). The factor of output r is row rows[r] of parts[1] (r < `split`)
    or of parts[0] (the others; float64, exact integers) times row tail_rows[r] of `tails`
    (J, W) uint64, `factors` = (rows, tail_rows)."""
    kernel.compiled_pass("contract", _contract)(
        *parts, split, *factors, tails, products, MAGIC_BITS, *places, total
    )
    return total


def combine(
    total: np.ndarray, tails: np.ndarray, combination: tuple[np.ndarray, np.ndarray], out: np.ndarray
) -> np.ndarray:
    """`out` (W, outputs) int64, modulo 2**64: relation @ `total` (cols, W) uint64 +
    tails[0] * anchor, `combination` = (relation (outputs, cols), anchor (outputs,)) int64."""
    relation, anchor = (np.ascontiguousarray(array).view(np.uint64) for array in combination)
    kernel.compiled_pass("combine", _combine)(total, tails, relation, anchor, out.view(np.uint64))
    return out


def _parts(table: Any, factor_rows: Any, out: Any) -> None:
    """`parts`, in the subset of Python numba compiles (five rows a part, each product
    formed in registers and stored once)."""
    width = table.shape[1]
    for p in range(factor_rows.shape[0]):
        r0, r1, r2 = table[factor_rows[p, 0]], table[factor_rows[p, 1]], table[factor_rows[p, 2]]
        r3, r4, row = table[factor_rows[p, 3]], table[factor_rows[p, 4]], out[p]
        for w in range(width):
            row[w] = r0[w] * r1[w] * r2[w] * r3[w] * r4[w]


def _contract(
    fa: Any, fb: Any, split: Any, rows: Any, tail_rows: Any, tails: Any, products: Any, magic: Any,
    outputs: Any, columns: Any, total: Any,
) -> None:  # fmt: skip
    """`contract`, in the subset of Python numba compiles (which checks no bounds: these do)."""
    width = products.shape[1]
    if (
        fa.shape[1] != width or fb.shape[1] != width or tails.shape[1] != width or total.shape[1] != width
        or outputs.shape[0] != products.shape[0] or columns.shape[0] != products.shape[0]
        or tail_rows.shape[0] != rows.shape[0]
    ):  # fmt: skip
        raise ValueError("contract takes parts, tails, products, places and a total of matching shapes")
    factor = np.empty(width, dtype=np.uint64)
    last = -1
    for k in range(products.shape[0]):
        r, c = outputs[k], columns[k]
        if not (0 <= r < rows.shape[0] and 0 <= c < total.shape[0]):
            raise ValueError("contract takes places in its factors and its total")
        if r != last:
            part = fb if r < split else fa
            if not (0 <= rows[r] < part.shape[0] and 0 <= tail_rows[r] < tails.shape[0]):
                raise ValueError("contract takes rows of its parts and tails")
            row, tail = part[rows[r]], tails[tail_rows[r]]
            for w in range(width):
                factor[w] = np.uint64(row[w]) * tail[w]
            last = r
        product, sums = products[k], total[c]
        for w in range(width):
            sums[w] += factor[w] * (product[w] - magic)


def _combine(total: Any, tails: Any, relation: Any, anchor: Any, out: Any) -> None:
    """`combine`, in the subset of Python numba compiles (which checks no bounds: these do)."""
    (columns, width), outputs = total.shape, anchor.shape[0]
    if (
        tails.shape[0] < 1 or tails.shape[1] != width or relation.shape[0] != outputs
        or relation.shape[1] != columns or out.shape[0] != width or out.shape[1] != outputs
    ):  # fmt: skip
        raise ValueError("combine takes a total, tails, a combination and out of matching shapes")
    value = np.empty(width, dtype=np.uint64)
    for i in range(outputs):
        for w in range(width):
            value[w] = tails[0, w] * anchor[i]
        for c in range(columns):
            weight, sums = relation[i, c], total[c]
            for w in range(width):
                value[w] += weight * sums[w]
        for w in range(width):
            out[w, i] = value[w]


def _tables(
    counts: Any, sizes: Any, ten_ranks: Any, value_rank: Any, table: Any, tails: Any, top: Any
) -> None:
    """`tables`, in the subset of Python numba compiles: each row's entries in a loop over
    the compositions, from each composition's counts, size, pairs and pairs of pairs."""
    one, width = np.uint64(1), counts.shape[0]
    c = np.empty((10, width), dtype=np.uint64)  # cards of each value
    firsts = np.empty((3, width), dtype=np.uint64)  # the pair kinds' first nonzero orders
    size, run = np.empty(width, dtype=np.uint64), np.empty(width, dtype=np.uint64)
    for w in range(width):
        tens, pairs, squares, fours = np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0)
        for i in range(4):
            t = np.uint64(counts[w, ten_ranks[i]])
            pair = t * (t - one)
            tens, pairs, squares = tens + t, pairs + pair, squares + pair * pair
            fours += pair * (t - np.uint64(2)) * (t - np.uint64(3))
        c[0, w] = tens
        for v in range(1, 10):
            c[v, w] = np.uint64(counts[w, value_rank[v - 1]])
        firsts[0, w], firsts[1, w], firsts[2, w] = one, pairs, pairs * pairs - squares + fours
        size[w] = np.uint64(sizes[w]) if len(sizes) else np.uint64(counts[w].sum())
    # Rows (kind, j): every ten-value card, then two pairs of them, then a pair of pairs
    # (zero below orders 2 and 4); rows (v, j): the falling factorials (c_v)_j.
    for block in range(13):
        kind, v = min(block, 3), max(block - 3, 0)
        start = 2 * kind if block < 3 else 0
        for w in range(width):
            run[w] = firsts[block, w] if block < 3 else one
        for j in range(ORDERS):
            row, highest = block * ORDERS + j, np.uint64(0)
            if j < start:
                table[row] = 0
            else:
                for w in range(width):
                    value = run[w]
                    table[row, w] = value
                    highest = max(highest, value)
                    run[w] = value * (c[v, w] - np.uint64(j))  # a zero factor stays zero
            top[row] = highest
    for w in range(width):  # the tails (N-k)_(6-k)
        run[w] = one
    for k in range(ORDERS - 1, -1, -1):
        for w in range(width):
            tails[k, w] = run[w]
            run[w] *= size[w] - np.uint64(k - 1)
