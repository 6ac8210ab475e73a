"""Exact batch evaluation of integer combinations of the coup-class monomials.

Given an integer matrix C (monomials x columns), `MonomialForm.evaluate` computes, for
a batch of compositions, E[w, col] = sum_b C[b, col] * value_b(w) exactly, where
value_b is the monomial's product of falling factorials (see analyzer.enumerate).

Layout. A monomial splits into an a-part (pair kind z, m0..m4), a b-part (m5..m9) of
degree d, and the tail factor T(k) = (N-k)_(6-k) with k = deg(a) + d. For each b-degree d
the coefficients form a dense block R_d with rows (a-part, column) and one column per
b-part of degree d, so

    E[col] = sum_d sum_a FA[a] * T(deg a + d) * (R_d @ FB_d)[a, col]

The products R_d @ FB_d are well-shaped float64 matrix products on small, cache-resident
operands; the rest is integer arithmetic on int64 arrays.

Exactness. Every b-part value FB (a product of at most six counts of values 5-9) is an
exact integer; it is cut into limbs small enough that each float64 product R_d @ limb
sums integers below 2**53, so it is exact. Everything after that is int64 arithmetic
modulo 2**64 (numpy integer arithmetic wraps), which is exact modulo 2**64; the true
results are known a priori to lie within +-2**63 (the caller's `bound`), so the int64
values are the results themselves. Batches outside those limits are refused (None) and
the caller takes its exact integer path.
"""

from __future__ import annotations

import numpy as np

from analyzer.cards import RANK_POINTS, ZERO_RANKS

__all__ = ["MonomialForm"]

_SIX = 6
_RANK_VALUE = np.zeros((13, 10), dtype=np.int64)
_RANK_VALUE[np.arange(13), RANK_POINTS] = 1
_FLOAT_EXACT = 2**53
_INT_LIMIT = 2**63


class _Workspace:
    """Work arrays kept from batch to batch by name: fresh arrays of a megabyte or so
    each batch cost a page fault per page (measured 1.5 times slower overall)."""

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: type = np.uint64) -> np.ndarray:
        """The array `name` of this shape and dtype (contents left from the last batch)."""
        found = self._arrays.get(name)
        if found is None or found.shape != shape or found.dtype != dtype:
            found = self._arrays[name] = np.empty(shape, dtype=dtype)
        return found


class _Block:
    """The monomials whose b-part has degree `degree`: a dense (a-rows, cols, b-parts)
    coefficient block, contracted in float64 over its larger side (`over_a`)."""

    def __init__(self, degree: int, rows: np.ndarray, a_degree: np.ndarray, b_parts: np.ndarray,
                 dense: np.ndarray) -> None:  # fmt: skip
        self.rows, self.tail_degree, self.b_parts = rows, a_degree[rows] + degree, b_parts
        self.columns = dense.shape[1]
        # Contract over the a-rows (two limbs: weights use all 64 bits) or over the b-parts
        # (usually one limb), whichever costs less with its output's integer work.
        macs, a_rows, b_count = len(rows) * len(b_parts), len(rows), len(b_parts)
        self.over_a = 2 * macs + 10 * b_count < macs + 10 * a_rows
        if self.over_a:  # (b-parts * cols, a-rows) @ (a-rows, W)
            layout = dense.transpose(2, 1, 0).reshape(-1, len(rows))
        else:  # (a-rows * cols, b-parts) @ (b-parts, W)
            layout = dense.reshape(-1, len(b_parts))
        bound = int(np.abs(layout).sum(axis=1).max())
        # Limb width: a row of the block times a limb must sum below 2**53.
        self.limb_bits = _FLOAT_EXACT.bit_length() - 1 - bound.bit_length()
        if self.limb_bits < 8:
            raise ValueError("coefficients too large for exact float64 limbs")
        self.matrix = np.ascontiguousarray(layout.astype(np.float64))
        self.b_flat = [(v + 5) * (_SIX + 1) + b_parts[:, v] for v in range(5)]  # rows of flat ff
        self._work = _Workspace()

    def contract(self, fa: np.ndarray, tails: np.ndarray, flat_ff: np.ndarray) -> np.ndarray:
        """(cols, W) uint64: sum over the block of FA' * R * FB, modulo 2**64."""
        width = fa.shape[1]
        work = self._work
        weight = work.get("weight", (len(self.rows), width))  # FA' = FA * T, modulo 2**64
        np.take(fa, self.rows, axis=0, out=weight)
        tail = np.take(tails, self.tail_degree, axis=0, out=work.get("tail", weight.shape))
        np.multiply(weight, tail, out=weight)
        fb = work.get("fb", (len(self.b_parts), width))  # exact: below 2**63 (checked by the caller)
        factor = work.get("factor", fb.shape)
        np.take(flat_ff, self.b_flat[0], axis=0, out=fb)
        for index in self.b_flat[1:]:
            np.multiply(fb, np.take(flat_ff, index, axis=0, out=factor), out=fb)
        if self.over_a:
            h = self._exact_product(weight, 64).reshape(len(self.b_parts), self.columns, width)
            return np.asarray(np.einsum("bw,bcw->cw", fb, h))
        g = self._exact_product(fb, int(fb.max(initial=1)).bit_length())
        return np.asarray(np.einsum("rw,rcw->cw", weight, g.reshape(len(self.rows), self.columns, width)))

    def _exact_product(self, values: np.ndarray, top: int) -> np.ndarray:
        """matrix @ values modulo 2**64 (uint64), exact: `values` (uint64 below 2**top) is cut
        into limbs, each product summing integers below 2**53."""
        width = values.shape[1]
        shape = (self.matrix.shape[0], width)
        work = self._work
        product = work.get("product", shape, np.float64)
        part, total = work.get("part", shape), work.get("total", shape)
        bits_u, limb = work.get("bits", values.shape), work.get("limb", values.shape, np.float64)
        bits = self.limb_bits
        mask = np.uint64((1 << bits) - 1)
        for shift in range(0, max(top, 1), bits):
            np.right_shift(values, np.uint64(shift), out=bits_u)
            np.bitwise_and(bits_u, mask, out=bits_u)
            np.copyto(limb, bits_u, casting="unsafe")
            np.matmul(self.matrix, limb, out=product)
            np.copyto(part.view(np.int64), product, casting="unsafe")  # exact integers below 2**53
            if shift == 0:
                total, part = part, total
            else:
                np.left_shift(part, np.uint64(shift), out=part)
                total += part
        return total


class MonomialForm:
    """The integer combinations `coefficients` (B, cols) of the monomials `basis` (B, 10)
    with pair kinds `zero_kind` (B,), laid out for batch evaluation."""

    def __init__(self, basis: np.ndarray, zero_kind: np.ndarray, coefficients: np.ndarray) -> None:
        coefficients = np.asarray(coefficients, dtype=np.int64)
        self.columns = coefficients.shape[1]
        a_keys = np.column_stack([zero_kind, basis[:, :5]])
        self.a_parts, a_index = np.unique(a_keys, axis=0, return_inverse=True)
        a_index = a_index.ravel()
        a_degree = self.a_parts[:, 1:].sum(axis=1)
        # Rows of the flattened (kind or value, j) factor tables for each a-part.
        self._a_flat = [self.a_parts[:, 0] * (_SIX + 1) + self.a_parts[:, 1]]
        self._a_flat += [v * (_SIX + 1) + self.a_parts[:, v + 1] for v in range(1, 5)]
        self._work = _Workspace()
        b_keys = basis[:, 5:]
        b_degree = b_keys.sum(axis=1)
        self.blocks: list[_Block] = []
        for d in range(_SIX + 1):
            here = np.flatnonzero(b_degree == d)
            b_parts, b_index = np.unique(b_keys[here], axis=0, return_inverse=True)
            rows, row_index = np.unique(a_index[here], return_inverse=True)
            dense = np.zeros((len(rows), self.columns, len(b_parts)), dtype=np.int64)
            for col in range(self.columns):
                np.add.at(dense[:, col, :], (row_index.ravel(), b_index.ravel()), coefficients[here, col])
            keep = np.flatnonzero(np.any(dense != 0, axis=(1, 2)))
            if len(keep):
                self.blocks.append(_Block(d, rows[keep], a_degree, b_parts, dense[keep]))

    def evaluate(self, counts: np.ndarray, bound: int) -> np.ndarray | None:
        """(W, cols) int64 results for (W, 13) rank counts, exact when every true result is
        within +-`bound` < 2**63; None when that or the b-part values' int64 range fails."""
        width = len(counts)
        c = (counts @ _RANK_VALUE).T.astype(np.uint64)  # (10, W) cards of each value
        if bound >= _INT_LIMIT or int(c[5:].max(initial=0)) ** _SIX >= _INT_LIMIT:
            return None
        work = self._work
        ff = work.get("ff", (10, _SIX + 1, width))  # ff[v, j] = (c_v)_j modulo 2**64
        ff[:, 0] = 1
        for j in range(1, _SIX + 1):
            ff[:, j] = ff[:, j - 1] * (c - np.uint64(j - 1))  # a zero factor stays zero
        tens = counts[:, list(ZERO_RANKS)].astype(np.uint64)
        one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
        pairs = tens * (tens - one)
        s2 = pairs.sum(axis=1)
        q = s2 * s2 - (pairs * pairs).sum(axis=1) + (pairs * (tens - two) * (tens - three)).sum(axis=1)
        zero = work.get("zero", (3, _SIX + 1, width))
        zero[1:] = 0
        zero[0] = ff[0]
        for kind, (scale, used) in enumerate(((s2, 2), (q, 4)), start=1):
            run = scale.copy()
            for j in range(used, _SIX + 1):
                zero[kind, j] = run
                run = run * (c[0] - np.uint64(j))
        fa = work.get("fa", (len(self.a_parts), width))
        factor = work.get("factor", fa.shape)
        np.take(zero.reshape(-1, width), self._a_flat[0], axis=0, out=fa)
        flat_ff = ff.reshape(-1, width)
        for index in self._a_flat[1:]:
            np.multiply(fa, np.take(flat_ff, index, axis=0, out=factor), out=fa)
        n = counts.sum(axis=1).astype(np.uint64)
        tails = np.ones((_SIX + 1, width), dtype=np.uint64)  # tails[k] = (N-k)_(6-k)
        for k in range(_SIX - 1, -1, -1):
            tails[k] = tails[k + 1] * (n - np.uint64(k))
        result = np.zeros((self.columns, width), dtype=np.uint64)
        for block in self.blocks:
            result += block.contract(fa, tails, flat_ff)
        return np.ascontiguousarray(result.T).view(np.int64)
