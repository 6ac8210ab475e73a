"""The valuation kernel's arithmetic: each numerator modulo a few primes below 2**25 in
float64 (fused multiply-adds, four lanes per AVX2 instruction; the parts kept as float32),
joined by Garner's mixed-radix form into its exact two's-complement value
(`analyzer.ranks.kernel.FusedForm` lays out the terms and calls it).

Exactness. Every residue is kept signed, |r| <= p/2 + 1: x is reduced as r = x - q p, q the
nearest integer to x * fl(1/p) (taken by adding and subtracting `_ROUND` = 1.5 * 2**52).
For |x| <= 2**52, x * fl(1/p), rounded or not, is within |x| / p * 2**-52 <= 1/p of x / p,
so |x / p - q| <= 1/2 + 1/p and |r| <= p/2 + 1; q p (|q| < 2**28) and x - q p are
integers below 2**53, exact. Residues are below 2**24, exact in float32 too (the parts,
half the memory). A product of two residues is below 2**48, so a residue times a factor off
a residue by at most 6 (a falling factorial's step), a sum of two products, a Garner step (a
residue less a digit, times an inverse: below 2**51) and a run of `ModularTerms.chunk`
products (in each of a block's two sums, `_paired`) of a coefficient (|c| <= C, the
coefficients' largest residue) and a part (at least 16; 2**52 / (C 2**24): about 2**16 for
the rank-level bets, whose coefficients are below 2**12) all stay within 2**52, and so does
a column's total, a sum of one reduced product (below 2**24) per block of its groups (fewer
than 2**28), reduced before the relation multiplies it: every value the kernel forms is an
integer below 2**53, exact in float64 whether or not the compiler fuses a multiply and an
add (fastmath "contract" only: no reassociation). Garner's digits d_k in [0, p_k) give
x = d_0 + p_0 (d_1 + p_1 (...)) in [0, M), M the product of the primes taken; the caller
takes primes with M >= 4 * bound, so x <= M/4 (the numerator) or x >= 3M/4 (the numerator
plus M), told apart by the float estimate of x / M (relative error below
2**-48). x, less M when it is the latter, is formed modulo 2**(64 * limbs) in uint64 limbs
(32-bit halves times p < 2**25: below 2**58): the numerator's two's complement.
Counts and card totals enter as floats, exact (below 2**53), and are reduced modulo p before
any product.
"""

from __future__ import annotations

from math import prod
from typing import Any

import numpy as np

from analyzer.core.outcome import CARDS_PER_COUP

__all__ = [
    "LANES", "MODULI", "ORDERS", "ZERO_ROWS", "ModularTerms", "entry_columns", "garner_constants", "modular",
    "moduli_for", "wrapped_products",
]  # fmt: skip

#: Compositions computed side by side (one SIMD-friendly inner loop over them).
LANES = 256
_LANES = LANES  # the compiler's constant (a global: fixed inner trip counts)
ORDERS = CARDS_PER_COUP + 1
ZERO_ROWS = 3 * ORDERS  # the flat factor table: pair-kind rows (z, j), then value rows (v, j)
#: The largest primes below 2**25: k of them pin numerators within +-M_k / 4 (2**73 for 3,
#: 2**123 for 5, 2**173 for 7: the largest shoe's numerators are below 2**161).
MODULI = (33554393, 33554383, 33554371, 33554347, 33554341, 33554317, 33554291, 33554273)
_RESIDUE = max(MODULI) // 2 + 1  # the largest |residue|, below 2**24
_ROUND = 1.5 * 2.0**52  # y + _ROUND - _ROUND is y rounded to the nearest integer (|y| < 2**51)
_MASK = np.uint64(2**32 - 1)
_HALF = np.uint64(32)


def moduli_for(bound: int, moduli: tuple[int, ...] = MODULI) -> int | None:
    """How many of `moduli` pin numerators within +-`bound` (their product at least
    4 * bound), or None past all of them."""
    for k in range(1, len(moduli) + 1):
        if prod(moduli[:k]) >= 4 * max(bound, 1):
            return k
    return None


def _signed(values: np.ndarray, p: int) -> np.ndarray:
    """Integers' residues modulo `p` in (-p/2, p/2], as float64."""
    r = np.asarray(values, dtype=np.int64) % p
    return np.where(r > p // 2, r - p, r).astype(np.float64)


class ModularTerms:
    """A layout's integer constants (coefficients, relation, anchor) as residues modulo
    each of `MODULI`, with the constants of Garner's join; with `runs` (the layout's
    group_start, run_start, run_col and entry_part: `analyzer.ranks.kernel.FusedForm`), its
    terms in blocks of two columns (`_paired`), as the kernel takes them."""

    def __init__(
        self,
        coef: np.ndarray,
        relation: np.ndarray,
        anchor: np.ndarray,
        runs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> None:
        self.coef = np.ascontiguousarray([_signed(coef, p) for p in MODULI])
        #: Terms summed before a reduction: their sum, and the residue the sum carries from
        #: the run's chunk before, within 2**52.
        self.chunk = (2**52 - _RESIDUE) // (max(int(np.abs(self.coef).max(initial=1)), 1) * _RESIDUE)
        self.relation = np.ascontiguousarray([_signed(relation, p) for p in MODULI])
        self.anchor = np.ascontiguousarray([_signed(anchor, p) for p in MODULI])
        self.moduli, self.inverses, self.garner = garner_constants(MODULI)
        self.blocks: tuple[np.ndarray, ...] = ()  # `_paired`, the coefficients as residues
        if runs is not None:
            *layout, paired = _paired(coef, *runs)
            self.blocks = (*layout, np.ascontiguousarray([_signed(paired, p) for p in MODULI]))

    def arrays(self, limbs: int) -> tuple[np.ndarray, ...]:
        """The kernel's trailing constant arguments for `limbs` output limbs (built with
        `runs`): the blocks of terms with their coefficients' residues, the residues,
        the moduli and their inverses, Garner's inverses, and (moduli + 1, limbs) uint64:
        each product M_k of the first k moduli modulo 2**(64 * limbs)."""
        products = wrapped_products(MODULI, limbs)
        return (*self.blocks, self.relation, self.anchor, self.moduli, self.inverses, self.garner, products)


def garner_constants(moduli: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Garner's constants of `moduli` for the prime kernels: the moduli and their inverses
    as float64, and (k, k) garner[j, i] = p_j**-1 modulo p_i (j < i), signed."""
    k = len(moduli)
    garner = np.zeros((k, k), dtype=np.float64)
    for i in range(k):
        for j in range(i):
            garner[j, i] = _signed(np.array([pow(moduli[j], -1, moduli[i])]), moduli[i])[0]
    floats = np.array(moduli, dtype=np.float64)
    return floats, 1.0 / floats, garner


def wrapped_products(moduli: tuple[int, ...], limbs: int) -> np.ndarray:
    """(len(moduli) + 1, limbs) uint64: each product M_k of the first k `moduli` modulo
    2**(64 * limbs), least significant limb first (the prime kernels subtract it)."""
    wrap = 2 ** (64 * limbs)
    return np.array(
        [
            [(prod(moduli[:k]) % wrap) >> (64 * j) & (2**64 - 1) for j in range(limbs)]
            for k in range(len(moduli) + 1)
        ],
        dtype=np.uint64,
    )


def entry_columns(
    group_start: np.ndarray, run_start: np.ndarray, run_col: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's group and column, of a layout's runs as `analyzer.ranks.kernel.FusedForm`
    lays them out (runs in groups from `group_start`, entries in runs from `run_start`)."""
    run_group = np.repeat(np.arange(len(group_start) - 1), np.diff(group_start))
    entry_run = np.repeat(np.arange(len(run_col)), np.diff(run_start))
    return run_group[entry_run], run_col[entry_run]


def _paired(
    coef: np.ndarray,
    group_start: np.ndarray,
    run_start: np.ndarray,
    run_col: np.ndarray,
    entry_part: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """The terms in blocks: a group's runs on columns 2k and 2k + 1 joined, each of their
    parts once with its two coefficients (0 where that column's run lacks it), so that one
    load of a part feeds two multiply-adds (the kernel's loads, not its arithmetic, bound
    it). Returns (groups + 1,) each group's first block, (blocks,) each block's first
    column, (blocks + 1,) each block's first entry, (entries,) the parts and (entries, 2)
    the coefficients; a block on the last of an odd number of columns has 0 for the next."""
    group, col = entry_columns(group_start, run_start, run_col)
    keys = np.column_stack([group, col // 2, entry_part])
    entries, where = np.unique(keys, axis=0, return_inverse=True)  # by group, block, part
    paired = np.zeros((len(entries), 2), dtype=np.int64)
    paired[where.ravel(), col % 2] = coef
    blocks, block_of = np.unique(entries[:, :2], axis=0, return_inverse=True)
    block_start = np.searchsorted(block_of.ravel(), np.arange(len(blocks) + 1))
    group_block = np.searchsorted(blocks[:, 0], np.arange(len(group_start)))
    return (
        group_block.astype(np.int64),
        np.ascontiguousarray(blocks[:, 1] * 2, dtype=np.int64),
        block_start.astype(np.int64),
        np.ascontiguousarray(entries[:, 2], dtype=np.int64),
        paired,
    )


def modular(
    counts: Any, value_rank: Any, ten_ranks: Any, a_rows: Any, b_rows: Any, group_side: Any,
    group_part: Any, group_tail: Any, group_block: Any, block_col: Any, block_start: Any,
    block_part: Any, coef: Any, relation: Any, anchor: Any, moduli: Any, inverses: Any, garner: Any,
    products: Any, chunk: int, used: int, out: Any,
) -> None:  # fmt: skip
    """The kernel, in the subset of Python numba compiles: `out` (limbs, W, outputs) uint64,
    the two's complement modulo 2**(64 limbs) of each numerator of `counts` (W, 13) int64
    (below 2**52), from its residues modulo the first `used` moduli (see the module's
    docstring), `_LANES` compositions at a time. The steps are `FusedForm`'s: the factor
    table, the tails, the parts, then each group's blocks of two columns (`_paired`) summed
    and times its outer factor."""
    width, columns, outputs, limbs = counts.shape[0], relation.shape[2], relation.shape[1], out.shape[0]
    raw = np.zeros((13, _LANES), dtype=np.float64)
    cards = np.zeros(_LANES, dtype=np.float64)
    table = np.zeros((ZERO_ROWS + 10 * ORDERS, _LANES), dtype=np.float64)
    tails = np.zeros((ORDERS, _LANES), dtype=np.float64)
    sums = np.zeros((3, _LANES), dtype=np.float64)  # s2: the pairs, their squares, the fours
    fa = np.zeros((a_rows.shape[0], _LANES), dtype=np.float32)
    fb = np.zeros((b_rows.shape[0], _LANES), dtype=np.float32)
    total = np.zeros((columns + 1, _LANES), dtype=np.float64)  # a spare row: an odd last block's
    factor = np.zeros(_LANES, dtype=np.float64)
    acc = np.zeros((2, _LANES), dtype=np.float64)
    residues = np.zeros((used, outputs, _LANES), dtype=np.float64)
    digits = np.zeros(used, dtype=np.float64)
    value = np.zeros(limbs, dtype=np.uint64)
    for start in range(0, width, _LANES):
        n = min(_LANES, width - start)
        for lane in range(_LANES):  # a short last batch repeats its last composition
            row = start + min(lane, n - 1)
            for rank in range(13):
                raw[rank, lane] = np.float64(counts[row, rank])
        cards[:] = 0.0
        for rank in range(13):
            for lane in range(_LANES):
                cards[lane] += raw[rank, lane]
        for m in range(used):
            p, inv = moduli[m], inverses[m]
            # The factor table: falling factorials (c_v)_j of each value, then the pair kinds.
            for v in range(10):
                base = ZERO_ROWS + v * ORDERS
                for lane in range(_LANES):
                    table[base, lane] = 1.0
                if v == 0:
                    for lane in range(_LANES):
                        x = raw[ten_ranks[0], lane] + raw[ten_ranks[1], lane]
                        x += raw[ten_ranks[2], lane] + raw[ten_ranks[3], lane]
                        table[base + 1, lane] = x - (x * inv + _ROUND - _ROUND) * p
                else:
                    for lane in range(_LANES):
                        x = raw[value_rank[v - 1], lane]
                        table[base + 1, lane] = x - (x * inv + _ROUND - _ROUND) * p
                for j in range(2, ORDERS):
                    for lane in range(_LANES):
                        x = table[base + j - 1, lane] * (table[base + 1, lane] - (j - 1))
                        table[base + j, lane] = x - (x * inv + _ROUND - _ROUND) * p
            sums[:, :] = 0.0
            for i in range(4):
                for lane in range(_LANES):
                    t = raw[ten_ranks[i], lane]
                    t = t - (t * inv + _ROUND - _ROUND) * p
                    x = t * (t - 1.0)
                    pair = x - (x * inv + _ROUND - _ROUND) * p
                    sums[0, lane] += pair
                    x = pair * pair
                    sums[1, lane] += x - (x * inv + _ROUND - _ROUND) * p
                    x = pair * (t - 2.0)
                    x = x - (x * inv + _ROUND - _ROUND) * p
                    x = x * (t - 3.0)
                    sums[2, lane] += x - (x * inv + _ROUND - _ROUND) * p
            for j in range(ORDERS):
                for lane in range(_LANES):
                    table[j, lane] = table[ZERO_ROWS + j, lane]
                    table[ORDERS + j, lane] = 0.0
                    table[2 * ORDERS + j, lane] = 0.0
            for lane in range(_LANES):
                x = sums[0, lane]
                s = x - (x * inv + _ROUND - _ROUND) * p
                table[ORDERS + 2, lane] = s
                x = s * s
                x = x - (x * inv + _ROUND - _ROUND) * p - sums[1, lane] + sums[2, lane]
                table[2 * ORDERS + 4, lane] = x - (x * inv + _ROUND - _ROUND) * p
            for row, first in ((ORDERS, 2), (2 * ORDERS, 4)):
                for j in range(first + 1, ORDERS):
                    for lane in range(_LANES):
                        x = table[row + j - 1, lane] * (table[ZERO_ROWS + 1, lane] - (j - 1))
                        table[row + j, lane] = x - (x * inv + _ROUND - _ROUND) * p
            for lane in range(_LANES):  # the tails (N-k)_(6-k)
                tails[ORDERS - 1, lane] = 1.0
                x = cards[lane]
                factor[lane] = x - (x * inv + _ROUND - _ROUND) * p  # N, reduced
            for k in range(ORDERS - 2, -1, -1):
                for lane in range(_LANES):
                    x = tails[k + 1, lane] * (factor[lane] - k)
                    tails[k, lane] = x - (x * inv + _ROUND - _ROUND) * p
            for rows, parts in ((a_rows, fa), (b_rows, fb)):  # products of their rows other than 1
                for q in range(rows.shape[0]):
                    first = rows[q, 0]
                    for lane in range(_LANES):
                        parts[q, lane] = table[first, lane]
                    for f in range(1, rows[q, 5]):
                        row = rows[q, f]
                        for lane in range(_LANES):
                            x = parts[q, lane] * table[row, lane]
                            parts[q, lane] = x - (x * inv + _ROUND - _ROUND) * p
            total[:, :] = 0.0
            for g in range(group_side.shape[0]):  # the sums inside, then the outer factor
                inner, outer = (fa, fb) if group_side[g] == 0 else (fb, fa)
                part, tail = group_part[g], group_tail[g]
                for lane in range(_LANES):
                    x = outer[part, lane] * tails[tail, lane]
                    factor[lane] = x - (x * inv + _ROUND - _ROUND) * p
                for b in range(group_block[g], group_block[g + 1]):
                    acc0, acc1 = acc[0], acc[1]
                    acc0[:] = 0.0
                    acc1[:] = 0.0
                    for first in range(block_start[b], block_start[b + 1], chunk):
                        e, end = first, min(first + chunk, block_start[b + 1])
                        while e + 4 <= end:  # four parts a pass, each read once for both columns
                            i0, i1 = inner[block_part[e]], inner[block_part[e + 1]]
                            i2, i3 = inner[block_part[e + 2]], inner[block_part[e + 3]]
                            here = coef[m]
                            c0, c1, c2, c3 = here[e, 0], here[e + 1, 0], here[e + 2, 0], here[e + 3, 0]
                            d0, d1, d2, d3 = here[e, 1], here[e + 1, 1], here[e + 2, 1], here[e + 3, 1]
                            for lane in range(_LANES):
                                x0, x1, x2, x3 = i0[lane], i1[lane], i2[lane], i3[lane]
                                acc0[lane] += c0 * x0 + c1 * x1 + c2 * x2 + c3 * x3
                                acc1[lane] += d0 * x0 + d1 * x1 + d2 * x2 + d3 * x3
                            e += 4
                        for last in range(e, end):
                            c, d, q = coef[m, last, 0], coef[m, last, 1], block_part[last]
                            for lane in range(_LANES):
                                x0 = inner[q, lane]
                                acc0[lane] += c * x0
                                acc1[lane] += d * x0
                        for lane in range(_LANES):
                            x = acc0[lane]
                            acc0[lane] = x - (x * inv + _ROUND - _ROUND) * p
                            x = acc1[lane]
                            acc1[lane] = x - (x * inv + _ROUND - _ROUND) * p
                    col = block_col[b]
                    for lane in range(_LANES):  # each below p/2 + 1: totals of a few hundred, reduced below
                        x = acc0[lane] * factor[lane]
                        total[col, lane] += x - (x * inv + _ROUND - _ROUND) * p
                        x = acc1[lane] * factor[lane]
                        total[col + 1, lane] += x - (x * inv + _ROUND - _ROUND) * p
            for col in range(columns):
                for lane in range(_LANES):
                    x = total[col, lane]
                    total[col, lane] = x - (x * inv + _ROUND - _ROUND) * p
            for i in range(outputs):
                for lane in range(_LANES):
                    x = anchor[m, i] * tails[0, lane]
                    for col in range(columns):
                        x = x - (x * inv + _ROUND - _ROUND) * p + relation[m, i, col] * total[col, lane]
                    residues[m, i, lane] = x - (x * inv + _ROUND - _ROUND) * p
        for lane in range(n):  # Garner's digits, then the value modulo 2**(64 limbs)
            for i in range(outputs):
                estimate = 0.0
                for k in range(used):
                    p, inv = moduli[k], inverses[k]
                    x = residues[k, i, lane]
                    for j in range(k):
                        x = (x - digits[j]) * garner[j, k]
                        x = x - (x * inv + _ROUND - _ROUND) * p
                    digits[k] = x + p if x < 0.0 else x
                    estimate = (estimate + digits[k]) * inv
                value[:] = np.uint64(0)
                for k in range(used - 1, -1, -1):  # value = value * p_k + d_k
                    p_k, carry = np.uint64(moduli[k]), np.uint64(digits[k])
                    for limb in range(limbs):
                        low = (value[limb] & _MASK) * p_k + carry
                        high = (value[limb] >> _HALF) * p_k + (low >> _HALF)
                        value[limb] = (low & _MASK) | (high << _HALF)
                        carry = high >> _HALF
                if estimate > 0.5:  # the numerator plus M: less M, with borrows
                    borrow = np.uint64(0)
                    for limb in range(limbs):
                        a, b = value[limb], products[used, limb]
                        value[limb] = a - b - borrow
                        borrow = (
                            np.uint64(1) if (a < b or (a == b and borrow == np.uint64(1))) else np.uint64(0)
                        )
                for limb in range(limbs):
                    out[limb, start + lane, i] = value[limb]
