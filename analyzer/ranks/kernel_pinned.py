"""The valuation kernel on shoes of at most `CARDS` cards: each numerator as a float64
estimate (multiply-adds, four lanes per AVX2 instruction) and a residue modulo 2**b
(b = 16: uint16, sixteen lanes per multiply; b = 32 for layouts whose bound needs it),
pinned into the exact integer (`analyzer.ranks.kernel.FusedForm` lays out the terms; its
uint64 kernel takes the compositions this one cannot pin).

Exactness. On a shoe of N <= `CARDS` cards every factor-table row, tail, part and outer
factor is an integer of absolute value below 2**53, so exact in float64: for N >= 6 a
nonnegative one at most (N)_6 < 2**53 (a product of falling factorials of disjoint counts; a
pair-kind row is at most the tens' row of its order); for N < 6 a tail (N-k)_(6-k) may be
small and negative, and every monomial is 0 (a part holding a zero factor). The layout's
coefficients, relation and anchor are exact too: `PinnedTerms` pins nothing (`limit` -1)
when one of them is 2**53 or more. The residue is exact: the table's and the tails' residues
are read off those exact values, and every later step is a ring operation modulo 2**b. The
estimate: only the sums round, and a coefficient times an inner part unless the two are
fused, in the order written (fastmath "contract" only: no reassociation): E[col] = sum over
the column's runs, in turn, of factor_g * (sum over the run's entries, in turn, of C_e *
inner_e), and the numerator anchor * (N)_6 + sum_col relation[col] * E[col]. Entry e, the
i-th of a run of n that is the p-th of the R runs of its column, passes at most K_e = (n - i
+ 2) + (R - p + 2) + (cols + 1) roundings, whichever multiply-adds the compiler fuses (its
product and the n - i + 1 additions of its run from its own on; the run's product with its
factor and the R - p + 1 additions of its column from its own on; the relation's product and
at most cols additions of the columns), the anchor's term cols + 1, each a factor (1 + d),
|d| <= u = 2**-53. So (Higham, Accuracy and Stability of Numerical Algorithms, 2002, lemma
3.1: gamma_k = k u / (1 - k u)) |estimate - numerator| <= sum_e gamma_(K_e) |relation| |C_e|
monomial_e + gamma_(cols+1) |anchor| (N)_6 <= u / (1 - K u) * S, K the largest K_e, S =
(cols + 1) |anchor| (N)_6 + sum_e K_e |relation| |C_e| monomial_e. A monomial of ten degree
k and other degree j is at most t**k m**j N**(6-k-j) (t the tens, m the largest other
value's count; (c)_i <= c**i), so S <= sum_(k,j) W[k, j] t**k m**j N**(6-k-j), W the
layout's weights (each the largest over the outputs). The kernel evaluates that bound per
composition (28 terms at most: its own rounding, below 2**-47 of it, is covered by the
factor 1 + 2**-40 on W and on u / (1 - K u)) and pins only within 2**(b-2). Then the
numerator x is the integer congruent to the residue r within 2**(b-2) of the estimate:
|estimate| < 2**63 + 2**30, so fl(estimate - r) is within 2**10 of estimate - r, so within
2**(b-2) + 2**10 < 2**(b-1) of the multiple x - r of 2**b, which its rounding recovers. x is
written modulo 2**64: the caller keeps every numerator within +-2**63.

Sizes. On a full 8-deck shoe the bound is 2**5.4 for Dragon 7 alone, 2**13.5 for the 8 bets
of the benchmark's batch (b = 16), 2**14.6 for all 19 rank-level bets (b = 32); smaller on a
depleted one (the bound grows with t, m and N).
"""

from __future__ import annotations

from math import perm
from typing import Any

import numpy as np

from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.ranks.kernel_modular import ORDERS, ZERO_ROWS

__all__ = ["CARDS", "LANES", "PinnedTerms", "part_trie", "pinned", "trie_nodes"]

#: The largest shoe whose (N)_6 is below 2**53: every product of the kernel exact in float64.
CARDS = max(n for n in range(6, 1000) if perm(n, CARDS_PER_COUP) < 2**53)
_LANES = 128  # compositions side by side (64: as fast for Dragon 7, 5-15% slower for 8 bets)
LANES = _LANES  # (a short batch pays for them all: `analyzer.ranks.fast.kernel_pays`)
_UP = 1.0 + 2.0**-40  # covers the rounding of the bound's own evaluation
_U = 2.0**-53
_DEGREES = [(k, j) for k in range(ORDERS) for j in range(ORDERS - k)]
_FULL = (128.0, 32.0, 416.0)  # t, m and N of a full 8-deck shoe: the residues' width for it


def part_trie(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A product trie of `rows` (parts, 6: factor-table rows, the count not 1 last; see
    `analyzer.ranks.kernel._unit_rows_last`): (parent, row, node) with node q equal to
    table[row[q]] times node parent[q] (parent[q] < q; the row of ones past the last node
    when q is a single row) and part i node[i]. Each part takes one multiply instead of one
    per row: the shorter products it is built from are nodes too, shared."""
    node_of: dict[tuple[int, ...], int] = {}
    parent: list[tuple[int, ...] | None] = []
    row: list[int] = []

    def build(key: tuple[int, ...]) -> int:
        if key not in node_of:
            drops = [key[:i] + key[i + 1 :] for i in range(len(key))]
            found = [i for i, drop in enumerate(drops) if drop in node_of]
            i = found[0] if found else len(key) - 1
            if len(key) > 1:
                build(drops[i])
            node_of[key] = len(row)
            parent.append(drops[i] if len(key) > 1 else None)
            row.append(key[i])
        return node_of[key]

    keys = [tuple(sorted(int(r) for r in part[: part[5]])) for part in rows]
    for key in sorted(set(keys), key=len):
        build(key)
    ones = len(row)
    parents = [ones if key is None else node_of[key] for key in parent]
    node = [node_of[key] for key in keys]
    return tuple(np.array(x, dtype=np.int64) for x in (parents, row, node))  # type: ignore[return-value]


def trie_nodes(
    parts: tuple[np.ndarray, np.ndarray],
    groups: tuple[np.ndarray, np.ndarray, np.ndarray],
    run_start: np.ndarray,
    item_part: np.ndarray,
) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray, np.ndarray]:
    """The a- and b-parts' tries (`part_trie`: a_parent, a_row, b_parent, b_row), each item's
    inner node and each group's outer node, and each item's run: items (entries or blocks of
    them) in runs from `run_start`, runs in groups = (group_start, group_side, group_part) as
    `analyzer.ranks.kernel.FusedForm` lays them out (side 0: the inner part is an a-part)."""
    group_start, group_side, group_part = groups
    (a_parent, a_row, a_node), (b_parent, b_row, b_node) = part_trie(parts[0]), part_trie(parts[1])
    run_group = np.repeat(np.arange(len(group_side)), np.diff(group_start))
    item_run = np.repeat(np.arange(len(run_start) - 1), np.diff(run_start))
    inner_a, outer_a = group_side[run_group[item_run]] == 0, group_side == 1
    item_node, group_node = np.empty_like(item_part), np.empty_like(group_part)
    item_node[inner_a], item_node[~inner_a] = a_node[item_part[inner_a]], b_node[item_part[~inner_a]]
    group_node[outer_a], group_node[~outer_a] = a_node[group_part[outer_a]], b_node[group_part[~outer_a]]
    return (a_parent, a_row, b_parent, b_row), item_node, group_node, item_run


class PinnedTerms:
    """A layout's constants for `pinned`: the coefficients, relation and anchor as float64
    and residues, the parts' tries, the error weights W, u / (1 - K u) and the residues'
    width."""

    def __init__(
        self,
        coef: np.ndarray,
        degrees: np.ndarray,
        entry_col: np.ndarray,
        runs: tuple[np.ndarray, np.ndarray, np.ndarray],
        groups: tuple[np.ndarray, np.ndarray, np.ndarray],
        relation: np.ndarray,
        anchor: np.ndarray,
        parts: tuple[np.ndarray, np.ndarray],
    ) -> None:
        """`coef` (entries,) int64 with `degrees` (entries, 2) (ten degree, other degree),
        `entry_col` (entries,); `runs` (run_start, run_col, entry_part) and `groups`
        (group_start, group_side, group_part) as `FusedForm` lays them out; `relation`
        (outputs, cols), `anchor` (outputs,) int64; `parts`: the a- and b-parts' rows."""
        (run_start, run_col, entry_part), (group_start, group_side, group_part) = runs, groups
        #: Each entry's inner node and each group's outer node (parts renumbered as nodes).
        self.tries, self.entry_node, self.group_node, entry_run = trie_nodes(
            parts, (group_start, group_side, group_part), run_start, entry_part
        )
        self.entry_node = self.entry_node.astype(np.uint64)  # no wraparound of negative indexes
        columns = relation.shape[1]
        #: K_e, the roundings entry e passes: its run's from its place on, its column's from
        #: its run's place on, and the output's (see the module's docstring).
        run_place = np.zeros(len(run_col), dtype=np.int64)
        for col in range(columns):
            run_place[run_col == col] = np.arange(np.count_nonzero(run_col == col))
        runs_of = np.bincount(run_col, minlength=columns)
        self.passes = (
            run_start[entry_run + 1] - np.arange(len(coef))
            + 1
            + runs_of[run_col[entry_run]] - run_place[entry_run]
            + columns + 2
        )  # fmt: skip
        #: The most roundings a term passes (K).
        self.roundings = int(max(self.passes.max(initial=0), columns + 1))
        #: u / (1 - K u), rounded up: gamma_k <= k times it for every k <= K.
        self.gamma: float = _U / (1 - self.roundings * _U) * _UP
        weights = np.zeros((len(anchor), ORDERS, ORDERS), dtype=object)
        weights[:, 0, 0] = np.abs(anchor).astype(object) * (columns + 1)
        size = (np.abs(coef) * self.passes).astype(object)[None, :] * np.abs(relation).astype(object)[
            :, entry_col
        ]
        for k, j in _DEGREES:
            here = (degrees[:, 0] == k) & (degrees[:, 1] == j)
            weights[:, k, j] += size[:, here].sum(axis=1)
        largest = weights.max(axis=0)
        kept = [(k, j) for k, j in _DEGREES if largest[k, j]]
        #: W[k, j] (float64, rounded up) with their exponents k, j of t and m.
        self.weights = np.array([float(largest[k, j]) * _UP for k, j in kept], dtype=np.float64)
        self.exponents = np.array(kept, dtype=np.int64).reshape(-1, 2)
        residue: type = np.uint16 if self.error(*_FULL) <= 2.0**14 else np.uint32
        #: The widest error a composition is pinned with: 2**(b-2) for residues modulo 2**b.
        self.limit = 2.0 ** (8 * np.dtype(residue).itemsize - 2)
        if max(int(np.abs(x).max(initial=0)) for x in (coef, relation, anchor)) >= 2**53:
            self.limit = -1.0  # constants not exact in float64: nothing pinned
        self.coef: tuple[np.ndarray, np.ndarray] = coef.astype(np.float64), coef.astype(residue)  # wrapped
        self.relation: tuple[np.ndarray, np.ndarray] = relation.astype(np.float64), relation.astype(residue)
        self.anchor: tuple[np.ndarray, np.ndarray] = anchor.astype(np.float64), anchor.astype(residue)

    def error(self, tens: float, most: float, cards: float) -> float:
        """The bound u / (1 - K u) * S on an estimate's error for a shoe of `cards` cards, `tens`
        of them tens and at most `most` of any other value (as the kernel computes it)."""
        powers = [tens**k * most**j * cards ** (ORDERS - 1 - k - j) for k, j in self.exponents.tolist()]
        return self.gamma * float(np.dot(self.weights, np.array(powers)))

    def arrays(self) -> tuple[Any, ...]:
        """The kernel's constant arguments after the layout's."""
        return (
            self.group_node, self.entry_node, *self.tries, *self.coef, *self.relation, *self.anchor,
            self.weights, self.exponents, self.gamma,
        )  # fmt: skip


def pinned(
    counts: Any, value_rank: Any, ten_ranks: Any, group_start: Any, group_side: Any, group_tail: Any,
    run_start: Any, run_col: Any, group_node: Any, entry_node: Any, a_parent: Any, a_row: Any,
    b_parent: Any, b_row: Any, coef_f: Any, coef_u: Any, relation_f: Any, relation_u: Any, anchor_f: Any,
    anchor_u: Any, weights: Any, exponents: Any, gamma: float, out: Any, estimates: Any, error: Any,
) -> None:  # fmt: skip
    """The kernel, in the subset of Python numba compiles, `_LANES` compositions at a time
    (see the module's docstring): for (W, 13) int64 `counts`, `estimates` (W, outputs) the
    numerators' float64 estimates, `error` (W,) a bound on their errors (inf past `CARDS`
    cards) and, where it is at most 2**(b-2) (`PinnedTerms.limit`), `out` (W, outputs)
    uint64 the numerators modulo 2**64. The steps are `FusedForm`'s in float64, then from
    the table on also in the residues' unsigned type (`coef_u`'s: uint16 or uint32)."""
    width, columns, outputs = counts.shape[0], relation_f.shape[1], relation_f.shape[0]
    residue_type, bits = coef_u.dtype, coef_u.itemsize * 8
    limit, mask, scale, modulus = 2.0 ** (bits - 2), np.uint64((1 << bits) - 1), 2.0**-bits, 2.0**bits
    raw = np.zeros((13, _LANES), dtype=np.float64)
    rows = np.zeros((ZERO_ROWS + 11 * ORDERS, _LANES), dtype=np.float64)  # the table, the tails
    rows_u = np.zeros((ZERO_ROWS + 11 * ORDERS, _LANES), dtype=residue_type)
    table_f, tails_f = rows[: ZERO_ROWS + 10 * ORDERS], rows[ZERO_ROWS + 10 * ORDERS :]
    table_u, tails_u = rows_u[: ZERO_ROWS + 10 * ORDERS], rows_u[ZERO_ROWS + 10 * ORDERS :]
    spill = np.zeros(_LANES, dtype=np.float64)
    spilled = spill.view(np.uint64)
    sums = np.zeros((4, _LANES), dtype=np.float64)  # the cards, s2, the pairs' squares, the fours
    fa_f = np.ones((a_parent.shape[0] + 1, _LANES), dtype=np.float64)  # the nodes, then ones
    fa_u = np.ones((a_parent.shape[0] + 1, _LANES), dtype=residue_type)
    fb_f = np.ones((b_parent.shape[0] + 1, _LANES), dtype=np.float64)
    fb_u = np.ones((b_parent.shape[0] + 1, _LANES), dtype=residue_type)
    total_f = np.zeros((columns, _LANES), dtype=np.float64)
    total_u = np.zeros((columns, _LANES), dtype=residue_type)
    factor_f = np.zeros(_LANES, dtype=np.float64)
    factor_u = np.zeros(_LANES, dtype=residue_type)
    acc_f = np.zeros(_LANES, dtype=np.float64)
    acc_u = np.zeros(_LANES, dtype=residue_type)
    bounds = np.zeros(_LANES, dtype=np.float64)  # S's bound (see the module's docstring)
    powers = np.zeros((3, ORDERS, _LANES), dtype=np.float64)  # t**k, m**k, N**k
    for start in range(0, width, _LANES):
        n = min(_LANES, width - start)
        for lane in range(_LANES):  # a short last batch repeats its last composition
            row = start + min(lane, n - 1)
            for rank in range(13):
                raw[rank, lane] = np.float64(counts[row, rank])
        sums[:, :] = 0.0
        for rank in range(13):
            for lane in range(_LANES):
                sums[0, lane] += raw[rank, lane]
        # The factor table: falling factorials (c_v)_j of each value, then the pair kinds.
        for v in range(10):
            base = ZERO_ROWS + v * ORDERS
            for lane in range(_LANES):
                table_f[base, lane] = 1.0
            if v == 0:
                for lane in range(_LANES):
                    tens = raw[ten_ranks[0], lane] + raw[ten_ranks[1], lane]
                    table_f[base + 1, lane] = tens + raw[ten_ranks[2], lane] + raw[ten_ranks[3], lane]
            else:
                for lane in range(_LANES):
                    table_f[base + 1, lane] = raw[value_rank[v - 1], lane]
            for j in range(2, ORDERS):  # a zero factor stays zero
                for lane in range(_LANES):
                    table_f[base + j, lane] = table_f[base + j - 1, lane] * (
                        table_f[base + 1, lane] - (j - 1)
                    )
        for i in range(4):
            for lane in range(_LANES):
                t = raw[ten_ranks[i], lane]
                pair = t * (t - 1.0)
                sums[1, lane] += pair
                sums[2, lane] += pair * pair
                sums[3, lane] += pair * (t - 2.0) * (t - 3.0)
        for j in range(ORDERS):
            for lane in range(_LANES):
                table_f[j, lane] = table_f[ZERO_ROWS + j, lane]
                table_f[ORDERS + j, lane] = 0.0
                table_f[2 * ORDERS + j, lane] = 0.0
        for lane in range(_LANES):
            table_f[ORDERS + 2, lane] = sums[1, lane]
            table_f[2 * ORDERS + 4, lane] = sums[1, lane] * sums[1, lane] - sums[2, lane] + sums[3, lane]
        for row, used in ((ORDERS, 2), (2 * ORDERS, 4)):
            for j in range(used + 1, ORDERS):
                for lane in range(_LANES):
                    tens = table_f[ZERO_ROWS + 1, lane]
                    table_f[row + j, lane] = table_f[row + j - 1, lane] * (tens - (j - 1))
        for lane in range(_LANES):  # the tails (N-k)_(6-k)
            tails_f[ORDERS - 1, lane] = 1.0
        for k in range(ORDERS - 2, -1, -1):
            for lane in range(_LANES):
                tails_f[k, lane] = tails_f[k + 1, lane] * (sums[0, lane] - k)
        # Their residues: an integer x below 2**53 less its multiples of 2**b, plus 2**52, is
        # exact, and its low b bits are those of x (-0.0 gives 0).
        for r in range(rows.shape[0]):
            for lane in range(_LANES):
                x = rows[r, lane]
                spill[lane] = x - np.floor(x * scale) * modulus + 2.0**52
            for lane in range(_LANES):
                rows_u[r, lane] = spilled[lane] & mask
        # The error bound: sum W[k, j] t**k m**j N**(6-k-j), m the largest other value's count.
        for lane in range(_LANES):
            m = 0.0
            for v in range(1, 10):
                m = max(m, table_f[ZERO_ROWS + v * ORDERS + 1, lane])
            powers[0, 0, lane], powers[1, 0, lane], powers[2, 0, lane] = 1.0, 1.0, 1.0
            powers[0, 1, lane], powers[1, 1, lane], powers[2, 1, lane] = (
                table_f[ZERO_ROWS + 1, lane],
                m,
                sums[0, lane],
            )
            bounds[lane] = 0.0
        for x in range(3):
            for k in range(2, ORDERS):
                for lane in range(_LANES):
                    powers[x, k, lane] = powers[x, k - 1, lane] * powers[x, 1, lane]
        for w in range(weights.shape[0]):
            k, j, size = exponents[w, 0], exponents[w, 1], weights[w]
            for lane in range(_LANES):
                bounds[lane] += (
                    size * powers[0, k, lane] * powers[1, j, lane] * powers[2, ORDERS - 1 - k - j, lane]
                )
        for parent, prow, parts_f, parts_u in ((a_parent, a_row, fa_f, fa_u), (b_parent, b_row, fb_f, fb_u)):
            for q in range(parent.shape[0]):  # the parts: each node a table row times its parent
                source_f, row_f = parts_f[parent[q]], table_f[prow[q]]
                for lane in range(_LANES):
                    parts_f[q, lane] = source_f[lane] * row_f[lane]
                source_u, row_u = parts_u[parent[q]], table_u[prow[q]]
                for lane in range(_LANES):
                    parts_u[q, lane] = source_u[lane] * row_u[lane]
        total_f[:, :] = 0.0
        total_u[:, :] = 0
        for g in range(group_start.shape[0] - 1):  # the sums inside, then the outer factor
            if group_start[g] == group_start[g + 1]:
                continue  # a group with no runs (its coefficients all zero)
            side, tail = group_side[g], group_tail[g]
            inner_f, outer_f = (fa_f, fb_f) if side == 0 else (fb_f, fa_f)
            inner_u, outer_u = (fa_u, fb_u) if side == 0 else (fb_u, fa_u)
            part = group_node[g]  # 2-D arrays indexed from here on, not row views
            for lane in range(_LANES):
                factor_f[lane] = outer_f[part, lane] * tails_f[tail, lane]
            for lane in range(_LANES):
                factor_u[lane] = outer_u[part, lane] * tails_u[tail, lane]
            for r in range(group_start[g], group_start[g + 1]):
                col = run_col[r]
                acc_f[:] = 0.0
                acc_u[:] = 0
                e, end = run_start[r], run_start[r + 1]
                while e + 8 <= end:  # eight entries a pass: the sums read and written once
                    c0, c1, c2, c3 = coef_f[e], coef_f[e + 1], coef_f[e + 2], coef_f[e + 3]
                    c4, c5, c6, c7 = coef_f[e + 4], coef_f[e + 5], coef_f[e + 6], coef_f[e + 7]
                    n0, n1, n2, n3 = entry_node[e], entry_node[e + 1], entry_node[e + 2], entry_node[e + 3]
                    n4, n5 = entry_node[e + 4], entry_node[e + 5]
                    n6, n7 = entry_node[e + 6], entry_node[e + 7]
                    for lane in range(_LANES):
                        x = acc_f[lane] + c0 * inner_f[n0, lane]
                        x = x + c1 * inner_f[n1, lane]
                        x = x + c2 * inner_f[n2, lane]
                        x = x + c3 * inner_f[n3, lane]
                        x = x + c4 * inner_f[n4, lane]
                        x = x + c5 * inner_f[n5, lane]
                        x = x + c6 * inner_f[n6, lane]
                        acc_f[lane] = x + c7 * inner_f[n7, lane]
                    d0, d1, d2, d3 = coef_u[e], coef_u[e + 1], coef_u[e + 2], coef_u[e + 3]
                    d4, d5, d6, d7 = coef_u[e + 4], coef_u[e + 5], coef_u[e + 6], coef_u[e + 7]
                    for lane in range(_LANES):
                        acc_u[lane] += (
                            d0 * inner_u[n0, lane]
                            + d1 * inner_u[n1, lane]
                            + d2 * inner_u[n2, lane]
                            + d3 * inner_u[n3, lane]
                            + d4 * inner_u[n4, lane]
                            + d5 * inner_u[n5, lane]
                            + d6 * inner_u[n6, lane]
                            + d7 * inner_u[n7, lane]
                        )
                    e += 8
                if e + 4 <= end:  # four more: the same roundings, the sums read and written once
                    c0, c1, c2, c3 = coef_f[e], coef_f[e + 1], coef_f[e + 2], coef_f[e + 3]
                    n0, n1, n2, n3 = entry_node[e], entry_node[e + 1], entry_node[e + 2], entry_node[e + 3]
                    for lane in range(_LANES):
                        x = acc_f[lane] + c0 * inner_f[n0, lane]
                        x = x + c1 * inner_f[n1, lane]
                        x = x + c2 * inner_f[n2, lane]
                        acc_f[lane] = x + c3 * inner_f[n3, lane]
                    d0, d1, d2, d3 = coef_u[e], coef_u[e + 1], coef_u[e + 2], coef_u[e + 3]
                    for lane in range(_LANES):
                        acc_u[lane] += (
                            d0 * inner_u[n0, lane]
                            + d1 * inner_u[n1, lane]
                            + d2 * inner_u[n2, lane]
                            + d3 * inner_u[n3, lane]
                        )
                    e += 4
                for last in range(e, end):
                    c, d, n0 = coef_f[last], coef_u[last], entry_node[last]
                    for lane in range(_LANES):
                        acc_f[lane] += c * inner_f[n0, lane]
                    for lane in range(_LANES):
                        acc_u[lane] += d * inner_u[n0, lane]
                for lane in range(_LANES):
                    total_f[col, lane] += acc_f[lane] * factor_f[lane]
                for lane in range(_LANES):
                    total_u[col, lane] += acc_u[lane] * factor_u[lane]
        for lane in range(n):  # the estimate, its error bound and the numerator pinned
            bound = gamma * bounds[lane] if sums[0, lane] <= CARDS else np.inf
            error[start + lane] = bound
            for i in range(outputs):
                estimate = anchor_f[i] * tails_f[0, lane]
                residue = np.uint64(anchor_u[i]) * np.uint64(tails_u[0, lane])
                for col in range(columns):
                    estimate += relation_f[i, col] * total_f[col, lane]
                    residue += np.uint64(relation_u[i, col]) * np.uint64(total_u[col, lane])
                estimates[start + lane, i] = estimate
                low = residue & mask
                turns = np.int64(np.rint((estimate - np.float64(low)) * scale)) if bound <= limit else 0
                out[start + lane, i] = low + (np.uint64(turns) << np.uint64(bits))
