"""Compiled passes inside the numpy paths (`analyzer.ranks.polyeval.MonomialForm`), taken
when the compiled kernels are loaded (`analyzer.ranks.kernel.ready`): the BLAS products
stay, the per-element numpy passes around them go.

- `parts`: every part of a side, (rows, W), each the product of its factor-table rows, in
  one pass (the numpy paths build them from halves, one broadcast product per grid, and
  a group's again just before its product: about 2 µs a composition of all 19 rank-level
  bets, 0.3 here, on `analyzer.ranks.fast.kernel_pays`'s host);
- `contract`: each output's factor (its other-side part times its tail) times its
  products read as uint64 less the magic constant, summed (modulo 2**64) over the outputs,
  then combined into the caller's outputs (`relation @ E + (N)_6 * anchor`: a bet's
  numerators from the payoff lattice's columns), (W, outputs) (in numpy a gather of the
  factors, an integer einsum, a correction, and an integer product for the outputs).

Exactness is the numpy paths': the same ring operations modulo 2**64 (uint64 wraps), and
float64 products of exact integers below 2**53 (the tables of `_wrapped`), so the results
are the numpy paths' to the bit; ``BACCARAT_KERNEL=numpy`` takes neither (the tests
compare the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.ranks import kernel
from analyzer.ranks.polyproducts import MAGIC_BITS

__all__ = ["contract", "parts", "ready", "warm"]


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
        contract((np.ones((1, 1)),) * 2, 0, one, one, ones[0], ones, (square, one), square)


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
    rows: np.ndarray,
    tail_rows: np.ndarray,
    tails: np.ndarray,
    products: np.ndarray,
    combine: tuple[np.ndarray, np.ndarray],
    out: np.ndarray,
) -> np.ndarray:
    """`out` (W, outputs) int64, modulo 2**64: relation (outputs, cols) @ E + tails[0] *
    anchor (outputs,), `combine` = (relation, anchor) int64, where E (cols, W) = sum over r
    of factor[r] times (products[r] (R, cols, W) uint64 - MAGIC_BITS), factor[r] = row
    rows[r] of parts[1] (r < `split`) or parts[0] (the others; float64, exact integers)
    times tails[tail_rows[r]] ((J, W) uint64)."""
    relation, anchor = (np.ascontiguousarray(array).view(np.uint64) for array in combine)
    kernel.compiled_pass("contract", _contract)(
        *parts, split, rows, tail_rows, tails, products, MAGIC_BITS, relation, anchor, out.view(np.uint64)
    )
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
    relation: Any, anchor: Any, out: Any,
) -> None:  # fmt: skip
    """`contract`, in the subset of Python numba compiles."""
    outputs, columns, width = products.shape
    total = np.zeros((columns, width), dtype=np.uint64)
    factor = np.empty(width, dtype=np.uint64)
    for r in range(outputs):
        part, tail = (fb if r < split else fa)[rows[r]], tails[tail_rows[r]]
        for w in range(width):
            factor[w] = np.uint64(part[w]) * tail[w]
        for c in range(columns):
            product, sums = products[r, c], total[c]
            for w in range(width):
                sums[w] += factor[w] * (product[w] - magic)
    for i in range(relation.shape[0]):
        for w in range(width):
            factor[w] = tails[0, w] * anchor[i]
        for c in range(columns):
            weight, sums = relation[i, c], total[c]
            for w in range(width):
                factor[w] += weight * sums[w]
        for w in range(width):
            out[w, i] = factor[w]
