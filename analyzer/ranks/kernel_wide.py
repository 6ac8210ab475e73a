"""The valuation kernel beyond int64 with primes below 2**41: each numerator modulo a few
primes p, 2**40 < p < 2**41, in float64 with exact products by fused multiply-adds, joined
by Garner's mixed-radix form into its exact two's-complement value (`analyzer.ranks.kernel.
FusedForm` lays out the terms; `analyzer.ranks.kernel_modular`, primes below 2**25, takes
what this one declines). Three primes pin numerators within 2**121 (10**4 decks of the 8
main bets: 2**120), four within 2**162 (10**6 decks: 2**160), against five and seven of the
small primes: the inner multiply-adds, the kernel's cost, are one pass per prime either way
(10**4 decks, 8 bets, 2,500 shoes, the kernel and the join: 9.9 µs a composition with three
primes against 18.0 with five small ones; the kernel alone 8.1-8.4, against 9.4-9.8 with
each part read once per two columns). The parts are built on a trie
(`analyzer.ranks.kernel_pinned.part_trie`): one product each; each inner part of a group is
read once for all its columns (`_sets`: up to four, no multiply-add by a zero coefficient).

Exactness. Every value the kernel forms is an integer of absolute value below 2**53 (exact in
float64), and every multiply-add whose product could exceed 2**53 is `fma`, LLVM's fused
multiply-add (one rounding of the exact a * b + c); the kernel is compiled without fastmath,
so nothing else is fused or reordered. Let R = p/2 + 2**35 (below 2**40.05 = `_RESIDUE`).

- Reduction of an integer |x| < 2**53 (`x - q p`, q = round(x * fl(1/p)), the rounding by
  adding and subtracting `_ROUND` = 1.5 * 2**52, exact for |y| < 2**51): x * fl(1/p), rounded,
  is within |x| / p * 2**-51 < 2**-38 of x / p, so |x - q p| <= p/2 + p 2**-38 < p/2 + 8
  (<= R); `fma(-q, p, x)` gives it exactly (an integer below 2**41).
- Product of integers a, b with |a b| <= 2**84 (written out at each use): h = fl(a b),
  l = fma(a, b, -h) = a b - h exactly (|l| <= 2**31), q = round(h * fl(1/p)) (|h / p| < 2**44,
  within 2**-7 of it), then fma(-q, p, h) = h - q p exactly (|h - q p| <= p/2 + p 2**-7 <
  p/2 + 2**34), plus l: r = a b - q p, |r| <= R, congruent to a b. Operands: two residues
  (|.| <= R, a product below 2**80.1; a part: a trie node's parent, or 1, times a table
  row), a residue and a residue less at most 6 or a count (nonnegative and below `CARDS` =
  2**29, which the caller checks, each count and the sum: counts enter as floats exactly and are their own
  residues), or in Garner's steps a residue less a digit (below 2**41.6) times an inverse
  (below 2**40): all within 2**84.
- Sums: the pair kinds' sums of four reduced products (4 R), s**2 less and plus them (9 R);
  a group's sum in a column (`WideTerms`: one a column, whichever of its blocks adds to it):
  between two reductions of it (before a chunk flagged for it, and at the group's end, where
  it is reduced before the product by the outer factor), what the last one left (at most R,
  or 0) plus products of coefficients and parts (|c| R each) with sum |c| at most `_SPAN`
  (`_chunks` flags a chunk where it would pass), so it and every partial sum (each a
  multiply-add's exact result, in any order) is below (1 + _SPAN) R <= 2**53; a column's
  total, one product (R) per group with terms in it, fewer than `_SPAN` groups; an output,
  cols + 1 products (R each). The layout is declined (`WideTerms.usable` False: the caller
  takes the small primes) if one coefficient exceeds `_SPAN`, or a column has terms in as
  many groups, or there are as many columns.
- Garner: each residue reduced (|r| <= R) then the digits d_k = ((r_k - d_0) g_0k -
  d_1) g_1k ... (products as above, |.| <= R < p), plus p when negative: in [0, p). x = d_0
  + p_0 (d_1 + p_1 (...)) in [0, M), M the product of the primes taken; the caller takes
  primes with M >= 4 * bound, so x <= M/4 (the numerator) or x >= 3M/4 (the numerator plus
  M), told apart by the float estimate of x / M (relative error below 2**-48). x, less M
  when it is the latter, is formed modulo 2**(64 * limbs) in uint64 limbs, 16 bits at a time
  (a 16-bit piece times p plus a carry below 2**42: below 2**58).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.ranks.kernel_modular import (
    ORDERS,
    ZERO_ROWS,
    _signed,
    entry_columns,
    garner_constants,
    wrapped_products,
)
from analyzer.ranks.kernel_modular import moduli_for as small_moduli_for
from analyzer.ranks.kernel_pinned import trie_nodes

__all__ = ["CARDS", "LANES", "MODULI", "WideTerms", "install", "moduli_for", "wide"]

#: Compositions side by side (CPU µs a composition, 10**4 decks, 8 bets, the kernel, 2,500
#: shoes, the bench's batch, interleaved: 8.1; 1.035 times that at 256, 1.10 at 384 and 1.07
#: at 448). A short last batch pays for them all.
LANES = 320
_LANES = LANES  # the compiler's constant (a global: fixed inner trip counts)
#: The largest primes below 2**41: k of them pin numerators within +-M_k / 4 (2**80 for 2,
#: 2**121 for 3, 2**162 for 4: the largest shoe's numerators are below 2**161).
MODULI = (
    2199023255531, 2199023255521, 2199023255497, 2199023255489,
    2199023255479, 2199023255477, 2199023255461, 2199023255441,
)  # fmt: skip
_RESIDUE = max(MODULI) // 2 + 2**35  # R: the largest |residue| a product leaves
#: Shoes of fewer cards than this (every count its own residue, a count times a residue
#: within 2**84; `analyzer.core.shoe.MAX_DECKS` has fewer than 2**26) are the kernel's; the
#: caller takes the small primes for the others.
CARDS = 2**29
#: The largest sum of |coefficients| in a column's sum between reductions, of groups in a
#: column, of columns in an output: (1 + _SPAN) R <= 2**53.
_SPAN = 2**53 // _RESIDUE - 1
_ROUND = 1.5 * 2.0**52  # y + _ROUND - _ROUND is y rounded to the nearest integer (|y| < 2**51)
_PIECE = np.uint64(2**16 - 1)
#: The most columns an entry's part feeds (one load, a multiply-add each; `wide` has a loop for each width).
_WIDTH = 4
_INSTALLED: set[str] = set()  # "fma" once `install` has put the intrinsic in place
_SIXTEEN = np.uint64(16)


def moduli_for(bound: int) -> int | None:
    """How many of `MODULI` pin numerators within +-`bound` (their product at least
    4 * bound), or None past all of them."""
    return small_moduli_for(bound, MODULI)


def fma(a: float, b: float, c: float) -> float:
    """a * b + c rounded once: a placeholder, `install` puts LLVM's fused multiply-add in
    its place before the kernel compiles (the kernel is exact only with it)."""
    raise RuntimeError("kernel_wide.fma runs only compiled (kernel_wide.install)")


def install() -> None:
    """Put LLVM's llvm.fma.f64 (numba intrinsic: one rounding, whatever the host) in
    place of `fma`, for the kernel's compilation (imports numba)."""
    if _INSTALLED:
        return
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def fused(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.fma(*args)

        return types.float64(types.float64, types.float64, types.float64), codegen

    globals()["fma"] = fused
    _INSTALLED.add("fma")


class WideTerms:
    """A layout's constants for `wide`: its terms in blocks of one to four columns
    (`_sets`) cut into chunks with the reductions the proof needs (`_chunks`), the relation
    and anchor as residues modulo each of `MODULI`, and Garner's constants; `usable` False
    when the module's bounds do not hold for it."""

    def __init__(
        self,
        coef: np.ndarray,
        relation: np.ndarray,
        anchor: np.ndarray,
        runs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        parts: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    ) -> None:
        """`coef` (entries,), `relation` (outputs, cols) and `anchor` (outputs,) int64;
        `runs` (group_start, run_start, run_col, entry_part) and `parts` (a_rows, b_rows,
        group_side, group_part, group_tail) as `analyzer.ranks.kernel.FusedForm` lays them out."""
        columns = relation.shape[1]
        group_block, block_start, block_cols, entry_part, coefs = _sets(coef, *runs)
        a_rows, b_rows, group_side, group_part, group_tail = parts
        tries, entry_node, group_node, _ = trie_nodes(  # each part one product (`part_trie`)
            (a_rows, b_rows), (group_block, group_side, group_part), block_start, entry_part
        )
        #: The kernel's arguments before the chunks: the tries, each group's side, outer node and tail.
        self.parts = (*tries, group_side, group_node, group_tail)
        group_chunk, chunk_start, chunk_cols, chunk_reduce, group_cols = _chunks(
            coefs, group_block, block_start, block_cols, columns
        )
        #: Whether the module's bounds hold: coefficients, groups a column, columns.
        self.usable = bool(
            int(np.abs(coefs).max(initial=0)) <= _SPAN
            and int(group_cols.sum(axis=0).max(initial=0)) < _SPAN
            and columns < _SPAN
        )
        self.layout = (
            group_chunk, group_cols, chunk_start, chunk_cols, chunk_reduce, entry_node,
            np.ascontiguousarray(coefs, dtype=np.float64),
        )  # fmt: skip
        self.relation = np.ascontiguousarray([_signed(relation, p) for p in MODULI])
        self.anchor = np.ascontiguousarray([_signed(anchor, p) for p in MODULI])
        self.moduli, self.inverses, self.garner = garner_constants(MODULI)

    def arrays(self, limbs: int) -> tuple[np.ndarray, ...]:
        """The kernel's arguments after the counts' for `limbs` output limbs: the parts'
        tries and the groups (`parts`), the chunks (`layout`), the residues, the moduli and
        their inverses, Garner's inverses, and (moduli + 1, limbs) uint64: each product M_k
        modulo 2**(64 * limbs)."""
        products = wrapped_products(MODULI, limbs)
        residues = (self.relation, self.anchor, self.moduli, self.inverses, self.garner)
        return (*self.parts, *self.layout, *residues, products)


def _sets(
    coef: np.ndarray,
    group_start: np.ndarray,
    run_start: np.ndarray,
    run_col: np.ndarray,
    entry_part: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """The terms in blocks of up to `_WIDTH` columns: each inner part of a group once with
    its coefficients in all the columns where it has one (more than `_WIDTH` of them: in
    order, split as evenly as may be), so that one load of a part feeds them all and no
    multiply-add multiplies a zero. Returns (groups + 1,) each group's first block,
    (blocks + 1,) each block's first entry, (blocks, _WIDTH) its columns (-1 past its
    width), (entries,) the parts and (entries, _WIDTH) the coefficients (0 past the width);
    a group's blocks are in order of their columns, each block's entries of their parts."""
    group, col = entry_columns(group_start, run_start, run_col)
    order = np.lexsort((col, entry_part, group))  # by group, part, column
    group, part, col, values = group[order], entry_part[order], col[order], np.asarray(coef)[order]
    index = np.arange(len(order))
    fresh = np.ones(len(order), dtype=bool)  # the first of each group's part
    fresh[1:] = (group[1:] != group[:-1]) | (part[1:] != part[:-1])
    first = np.maximum.accumulate(np.where(fresh, index, 0))
    size = np.diff(np.append(np.flatnonzero(fresh), len(order)))[np.cumsum(fresh) - 1]
    pieces = -(-size // _WIDTH)
    piece = (index - first) * pieces // size  # the rank's piece: widths differing by at most one
    keys = np.column_stack([group, part, piece])
    lead = np.ones(len(order), dtype=bool)  # the first of each piece: an entry of the layout
    lead[1:] = (keys[1:] != keys[:-1]).any(axis=1)
    starts = np.flatnonzero(lead)
    item = np.cumsum(lead) - 1
    slot = index - starts[item]
    cols = np.full((len(starts), _WIDTH), -1, dtype=np.int64)
    coefs = np.zeros((len(starts), _WIDTH), dtype=np.int64)
    cols[item, slot], coefs[item, slot] = col, values
    items = np.column_stack([group[starts], cols, part[starts]])
    order = np.lexsort(items.T[::-1])  # by group, columns, part
    items, coefs = items[order], coefs[order]
    blocks, block_of = np.unique(items[:, : _WIDTH + 1], axis=0, return_inverse=True)
    block_start = np.searchsorted(block_of.ravel(), np.arange(len(blocks) + 1))
    group_block = np.searchsorted(blocks[:, 0], np.arange(len(group_start)))
    return (
        group_block.astype(np.int64),
        block_start.astype(np.int64),
        np.ascontiguousarray(blocks[:, 1:], dtype=np.int64),
        np.ascontiguousarray(items[:, -1], dtype=np.int64),
        np.ascontiguousarray(coefs, dtype=np.int64),
    )


def _chunks(
    coefs: np.ndarray, group_block: np.ndarray, block_start: np.ndarray, block_cols: np.ndarray, columns: int
) -> tuple[np.ndarray, ...]:
    """The blocks of `_sets` cut into chunks where a column's sum would pass the proof's:
    a group's sums run one a column across its blocks, and a chunk's columns are reduced
    before it (its flag) when one of them would otherwise pass `_SPAN` in sum |coefficient|
    since its last reduction. Returns (groups + 1,) each group's first chunk, (chunks + 1,)
    each chunk's first entry, (chunks, _WIDTH) its columns, (chunks,) its flag and (groups,
    columns) whether the group has terms in each column (reduced at its end)."""
    size = np.abs(coefs).tolist()
    group_chunk, chunk_start, chunk_cols, chunk_reduce = [0], [], [], []
    group_cols = np.zeros((len(group_block) - 1, columns), dtype=np.bool_)
    for g in range(len(group_block) - 1):
        since = [0] * (columns + 1)  # sum |coefficient| since the last reduction, a column (and -1's)
        for b in range(int(group_block[g]), int(group_block[g + 1])):
            cols = [int(c) for c in block_cols[b]]
            group_cols[g, [c for c in cols if c >= 0]] = True
            for e in range(int(block_start[b]), int(block_start[b + 1])):
                cut = any(since[c] + s > _SPAN for c, s in zip(cols, size[e], strict=True))
                if e == block_start[b] or cut:
                    chunk_start.append(e)
                    chunk_cols.append(cols)
                    chunk_reduce.append(cut)
                for c, s in zip(cols, size[e], strict=True):
                    since[c] = s if cut else since[c] + s
        group_chunk.append(len(chunk_start))
    chunk_start.append(int(block_start[-1]))
    return (
        np.array(group_chunk, dtype=np.int64),
        np.array(chunk_start, dtype=np.int64),
        np.array(chunk_cols, dtype=np.int64).reshape(-1, _WIDTH),
        np.array(chunk_reduce, dtype=np.bool_),
        group_cols,
    )


def wide(
    counts: Any, value_rank: Any, ten_ranks: Any, a_parent: Any, a_row: Any, b_parent: Any,
    b_row: Any, group_side: Any, group_node: Any, group_tail: Any, group_chunk: Any, group_cols: Any,
    chunk_start: Any, chunk_cols: Any, chunk_reduce: Any, entry_node: Any, coef: Any, relation: Any,
    anchor: Any, moduli: Any, inverses: Any, garner: Any, products: Any, used: int, out: Any,
) -> None:  # fmt: skip
    """The kernel, in the subset of Python numba compiles: `out` (limbs, W, outputs) uint64,
    the two's complement modulo 2**(64 limbs) of each numerator of `counts` (W, 13) int64,
    from its residues modulo the first `used` moduli (see the module's docstring), `_LANES`
    compositions at a time. The steps are `FusedForm`'s: the factor table, the tails, the
    parts, then each group's chunks (one to four columns, each part read once for them)
    summed into its sums a column, reduced where the chunks say, then each sum reduced and
    times the group's outer factor. Each product of residues is the module's: h,
    l = fma(a, b, -h), q, fma(-q, p, h) + l."""
    width, columns, outputs, limbs = counts.shape[0], relation.shape[2], relation.shape[1], out.shape[0]
    raw = np.zeros((13, _LANES), dtype=np.float64)
    cards = np.zeros(_LANES, dtype=np.float64)
    table = np.zeros((ZERO_ROWS + 10 * ORDERS, _LANES), dtype=np.float64)
    tails = np.zeros((ORDERS, _LANES), dtype=np.float64)
    sums = np.zeros((3, _LANES), dtype=np.float64)  # s2: the pairs, their squares, the fours
    fa = np.ones((a_parent.shape[0] + 1, _LANES), dtype=np.float64)  # the nodes, then ones
    fb = np.ones((b_parent.shape[0] + 1, _LANES), dtype=np.float64)
    total = np.zeros((columns, _LANES), dtype=np.float64)
    factor = np.zeros(_LANES, dtype=np.float64)
    acc = np.zeros((columns, _LANES), dtype=np.float64)  # a group's sums, one a column
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
                        table[base + 1, lane] = x + raw[ten_ranks[2], lane] + raw[ten_ranks[3], lane]
                else:
                    for lane in range(_LANES):
                        table[base + 1, lane] = raw[value_rank[v - 1], lane]
                for j in range(2, ORDERS):
                    for lane in range(_LANES):
                        a, b = table[base + j - 1, lane], table[base + 1, lane] - (j - 1)
                        h = a * b
                        q = h * inv + _ROUND - _ROUND
                        table[base + j, lane] = fma(-q, p, h) + fma(a, b, -h)
            sums[:, :] = 0.0
            for i in range(4):
                for lane in range(_LANES):
                    t = raw[ten_ranks[i], lane]
                    h = t * (t - 1.0)
                    q = h * inv + _ROUND - _ROUND
                    pair = fma(-q, p, h) + fma(t, t - 1.0, -h)
                    sums[0, lane] += pair
                    h = pair * pair
                    q = h * inv + _ROUND - _ROUND
                    sums[1, lane] += fma(-q, p, h) + fma(pair, pair, -h)
                    h = pair * (t - 2.0)
                    q = h * inv + _ROUND - _ROUND
                    x = fma(-q, p, h) + fma(pair, t - 2.0, -h)
                    h = x * (t - 3.0)
                    q = h * inv + _ROUND - _ROUND
                    sums[2, lane] += fma(-q, p, h) + fma(x, t - 3.0, -h)
            for j in range(ORDERS):
                for lane in range(_LANES):
                    table[j, lane] = table[ZERO_ROWS + j, lane]
                    table[ORDERS + j, lane] = 0.0
                    table[2 * ORDERS + j, lane] = 0.0
            for lane in range(_LANES):
                x = sums[0, lane]
                s = fma(-(x * inv + _ROUND - _ROUND), p, x)
                table[ORDERS + 2, lane] = s
                h = s * s
                q = h * inv + _ROUND - _ROUND
                x = fma(-q, p, h) + fma(s, s, -h) - sums[1, lane] + sums[2, lane]
                table[2 * ORDERS + 4, lane] = fma(-(x * inv + _ROUND - _ROUND), p, x)
            for row, first in ((ORDERS, 2), (2 * ORDERS, 4)):
                for j in range(first + 1, ORDERS):
                    for lane in range(_LANES):
                        a, b = table[row + j - 1, lane], table[ZERO_ROWS + 1, lane] - (j - 1)
                        h = a * b
                        q = h * inv + _ROUND - _ROUND
                        table[row + j, lane] = fma(-q, p, h) + fma(a, b, -h)
            for lane in range(_LANES):  # the tails (N-k)_(6-k)
                tails[ORDERS - 1, lane] = 1.0
            for k in range(ORDERS - 2, -1, -1):
                for lane in range(_LANES):
                    a, b = tails[k + 1, lane], cards[lane] - k
                    h = a * b
                    q = h * inv + _ROUND - _ROUND
                    tails[k, lane] = fma(-q, p, h) + fma(a, b, -h)
            for parent, prow, parts in ((a_parent, a_row, fa), (b_parent, b_row, fb)):
                for r in range(parent.shape[0]):  # the parts: each node a table row times its parent
                    source, row = parts[parent[r]], table[prow[r]]
                    if parent[r] == parent.shape[0]:  # a single row
                        for lane in range(_LANES):
                            parts[r, lane] = row[lane]
                        continue
                    for lane in range(_LANES):
                        a, b = source[lane], row[lane]
                        h = a * b
                        q = h * inv + _ROUND - _ROUND
                        parts[r, lane] = fma(-q, p, h) + fma(a, b, -h)
            total[:, :] = 0.0
            for g in range(group_side.shape[0]):  # the sums inside, then the outer factor
                inner, outer = (fa, fb) if group_side[g] == 0 else (fb, fa)
                for chunk in range(group_chunk[g], group_chunk[g + 1]):
                    e, end = chunk_start[chunk], chunk_start[chunk + 1]
                    a0, a1 = chunk_cols[chunk, 0], chunk_cols[chunk, 1]
                    a2, a3 = chunk_cols[chunk, 2], chunk_cols[chunk, 3]
                    k = 1 if a1 < 0 else 2 if a2 < 0 else 3 if a3 < 0 else 4
                    if chunk_reduce[chunk]:  # its columns' sums first reduced (a residue, at most R)
                        for j in range(k):
                            col = chunk_cols[chunk, j]
                            for lane in range(_LANES):
                                x = acc[col, lane]
                                acc[col, lane] = fma(-(x * inv + _ROUND - _ROUND), p, x)
                    if k == 1:  # one column: four parts a pass
                        while e + 4 <= end:
                            n0, n1 = entry_node[e], entry_node[e + 1]
                            n2, n3 = entry_node[e + 2], entry_node[e + 3]
                            c0, c1, c2, c3 = coef[e, 0], coef[e + 1, 0], coef[e + 2, 0], coef[e + 3, 0]
                            for lane in range(_LANES):
                                y = fma(c1, inner[n1, lane], fma(c0, inner[n0, lane], acc[a0, lane]))
                                acc[a0, lane] = fma(c3, inner[n3, lane], fma(c2, inner[n2, lane], y))
                            e += 4
                    elif k == 2:  # two columns: four parts a pass, each read once for both
                        while e + 4 <= end:
                            n0, n1 = entry_node[e], entry_node[e + 1]
                            n2, n3 = entry_node[e + 2], entry_node[e + 3]
                            c0, c1, c2, c3 = coef[e, 0], coef[e + 1, 0], coef[e + 2, 0], coef[e + 3, 0]
                            d0, d1, d2, d3 = coef[e, 1], coef[e + 1, 1], coef[e + 2, 1], coef[e + 3, 1]
                            for lane in range(_LANES):
                                x0, x1 = inner[n0, lane], inner[n1, lane]
                                x2, x3 = inner[n2, lane], inner[n3, lane]
                                y = fma(c1, x1, fma(c0, x0, acc[a0, lane]))
                                acc[a0, lane] = fma(c3, x3, fma(c2, x2, y))
                                y = fma(d1, x1, fma(d0, x0, acc[a1, lane]))
                                acc[a1, lane] = fma(d3, x3, fma(d2, x2, y))
                            e += 4
                    elif k == 3:  # three columns: two parts a pass
                        while e + 2 <= end:
                            n0, n1 = entry_node[e], entry_node[e + 1]
                            c0, d0, f0 = coef[e, 0], coef[e, 1], coef[e, 2]
                            c1, d1, f1 = coef[e + 1, 0], coef[e + 1, 1], coef[e + 1, 2]
                            for lane in range(_LANES):
                                x0, x1 = inner[n0, lane], inner[n1, lane]
                                acc[a0, lane] = fma(c1, x1, fma(c0, x0, acc[a0, lane]))
                                acc[a1, lane] = fma(d1, x1, fma(d0, x0, acc[a1, lane]))
                                acc[a2, lane] = fma(f1, x1, fma(f0, x0, acc[a2, lane]))
                            e += 2
                    else:  # four columns: two parts a pass
                        while e + 2 <= end:
                            n0, n1 = entry_node[e], entry_node[e + 1]
                            c0, d0, f0, h0 = coef[e, 0], coef[e, 1], coef[e, 2], coef[e, 3]
                            c1, d1, f1, h1 = coef[e + 1, 0], coef[e + 1, 1], coef[e + 1, 2], coef[e + 1, 3]
                            for lane in range(_LANES):
                                x0, x1 = inner[n0, lane], inner[n1, lane]
                                acc[a0, lane] = fma(c1, x1, fma(c0, x0, acc[a0, lane]))
                                acc[a1, lane] = fma(d1, x1, fma(d0, x0, acc[a1, lane]))
                                acc[a2, lane] = fma(f1, x1, fma(f0, x0, acc[a2, lane]))
                                acc[a3, lane] = fma(h1, x1, fma(h0, x0, acc[a3, lane]))
                            e += 2
                    for last in range(e, end):  # the rest one part at a time, a column at a time
                        n0 = entry_node[last]
                        for j in range(k):
                            c, col = coef[last, j], chunk_cols[chunk, j]
                            for lane in range(_LANES):
                                acc[col, lane] = fma(c, inner[n0, lane], acc[col, lane])
                part, tail = group_node[g], group_tail[g]
                for lane in range(_LANES):
                    a, b = outer[part, lane], tails[tail, lane]
                    h = a * b
                    q = h * inv + _ROUND - _ROUND
                    factor[lane] = fma(-q, p, h) + fma(a, b, -h)
                for col in range(columns):  # each of its columns' sums reduced, times the factor
                    if not group_cols[g, col]:
                        continue
                    for lane in range(_LANES):
                        x = acc[col, lane]
                        a, b = fma(-(x * inv + _ROUND - _ROUND), p, x), factor[lane]
                        h = a * b
                        q = h * inv + _ROUND - _ROUND
                        total[col, lane] += fma(-q, p, h) + fma(a, b, -h)
                        acc[col, lane] = 0.0
            for col in range(columns):
                for lane in range(_LANES):
                    x = total[col, lane]
                    total[col, lane] = fma(-(x * inv + _ROUND - _ROUND), p, x)
            for i in range(outputs):
                for lane in range(_LANES):
                    a, b = anchor[m, i], tails[0, lane]
                    h = a * b
                    q = h * inv + _ROUND - _ROUND
                    x = fma(-q, p, h) + fma(a, b, -h)
                    for col in range(columns):
                        a, b = relation[m, i, col], total[col, lane]
                        h = a * b
                        q = h * inv + _ROUND - _ROUND
                        x += fma(-q, p, h) + fma(a, b, -h)
                    residues[m, i, lane] = fma(-(x * inv + _ROUND - _ROUND), p, x)
        for lane in range(n):  # Garner's digits, then the value modulo 2**(64 limbs)
            for i in range(outputs):
                estimate = 0.0
                for k in range(used):
                    p, inv = moduli[k], inverses[k]
                    x = residues[k, i, lane]
                    for j in range(k):
                        a, b = x - digits[j], garner[j, k]
                        h = a * b
                        q = h * inv + _ROUND - _ROUND
                        x = fma(-q, p, h) + fma(a, b, -h)
                    digits[k] = x + p if x < 0.0 else x
                    estimate = (estimate + digits[k]) * inv
                value[:] = np.uint64(0)
                for k in range(used - 1, -1, -1):  # value = value * p_k + d_k, 16 bits at a time
                    p_k, carry = np.uint64(moduli[k]), np.uint64(digits[k])
                    for limb in range(limbs):
                        word = value[limb]
                        built = np.uint64(0)
                        for piece in range(4):
                            shift = np.uint64(16 * piece)
                            t = ((word >> shift) & _PIECE) * p_k + carry
                            built |= (t & _PIECE) << shift
                            carry = t >> _SIXTEEN
                        value[limb] = built
                if estimate > 0.5:  # the numerator plus M: less M, with borrows
                    borrow = np.uint64(0)
                    for limb in range(limbs):
                        a_limb, b_limb = value[limb], products[used, limb]
                        value[limb] = a_limb - b_limb - borrow
                        borrow = (
                            np.uint64(1)
                            if (a_limb < b_limb or (a_limb == b_limb and borrow == np.uint64(1)))
                            else np.uint64(0)
                        )
                for limb in range(limbs):
                    out[limb, start + lane, i] = value[limb]
