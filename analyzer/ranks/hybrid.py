"""Compiled passes inside the numpy paths (`analyzer.ranks.polyeval.MonomialForm`), taken
when the compiled kernels are loaded (`analyzer.ranks.kernel.ready`): the BLAS products
stay, the per-element numpy passes around them go.

- `parts`: every part of a side, (rows, W), each the product of its factor-table rows, in
  one pass (the numpy paths build them from halves, one broadcast product per grid, and
  a group's again just before its product: about 2 µs a composition of all 19 rank-level
  bets, 0.3 here, on `analyzer.ranks.fast.kernel_pays`'s host);
- `contract`: each output's factor times its products read as uint64 less the magic
  constant, summed (modulo 2**64) over the outputs, (W, cols) (an integer einsum and a
  correction in numpy: 1.5 against 0.9 µs).

Exactness is the numpy paths': the same ring operations modulo 2**64 (uint64 wraps), and
float64 products of exact integers below 2**53 (the tables of `_wrapped`), so the results
are the numpy paths' to the bit; ``BACCARAT_KERNEL=numpy`` takes neither (the tests
compare the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.ranks import kernel

__all__ = ["contract", "parts", "ready", "warm"]


def ready() -> bool:
    """Whether the compiled passes are to be taken: the kernels loaded in this process."""
    return kernel.ready()


def warm() -> None:
    """Compile the passes, or load them from numba's cache, now if the kernels are loaded
    (before forking workers, which then have them)."""
    if ready():  # microseconds once compiled
        parts(np.ones((5, 1)), np.zeros((1, 5), dtype=np.int64), np.empty((1, 1)))
        ones = np.ones((1, 1, 1), dtype=np.uint64)
        contract(ones[0], ones, 1, np.empty((1, 1), dtype=np.uint64))


def parts(table: np.ndarray, factor_rows: np.ndarray, out: np.ndarray) -> np.ndarray:
    """`out` (rows, W): row p the product of `table`'s (T, W) rows `factor_rows[p]` (rows,
    5), in `table`'s dtype (float64: exact while every partial product is an integer below
    2**53)."""
    if factor_rows.shape[1] != 5:
        raise ValueError("parts takes five factor-table rows a part")
    kernel.compiled_pass("parts", _parts)(table, factor_rows, out)
    return out


def contract(factors: np.ndarray, products: np.ndarray, magic: int, out: np.ndarray) -> np.ndarray:
    """`out` (W, cols) uint64: sum over r of factors[r] (R, W) uint64 times
    (products[r] (R, cols, W) uint64 - `magic`), modulo 2**64."""
    kernel.compiled_pass("contract", _contract)(factors, products, np.uint64(magic), out)
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


def _contract(factors: Any, products: Any, magic: Any, out: Any) -> None:
    """`contract`, in the subset of Python numba compiles."""
    outputs, columns, width = products.shape
    total = np.zeros((columns, width), dtype=np.uint64)
    for r in range(outputs):
        for c in range(columns):
            for w in range(width):
                total[c, w] += factors[r, w] * (products[r, c, w] - magic)
    for c in range(columns):
        for w in range(width):
            out[w, c] = total[c, w]
