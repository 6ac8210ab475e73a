"""Exact batch evaluation of integer combinations of the coup-class monomials.

Given an integer matrix C (monomials x columns), `MonomialForm.evaluate` computes, for
a batch of compositions, E[w, col] = sum_m C[m, col] * value_m(w) exactly, where
value_m is the monomial's product of falling factorials (see analyzer.enumerate).

Layout. A monomial splits into an a-part (pair kind z, m0..m4) of degree e, a b-part
(m5..m9) of degree d, and the tail factor T(k) = (N-k)_(6-k) with k = e + d:
value = FA[a] * FB[b] * T(e + d). For each pair of degrees (e, d) the coefficients form
a dense block between the a-parts of degree e and the b-parts of degree d; it is
contracted over its larger side with a float64 matrix product, then the smaller side's
factor and the tail are applied in int64:

    over the a-parts:  E[col] += sum_b FB[b] * T(e + d) * (sum_a R[b, col, a] * FA[a])
    over the b-parts:  E[col] += sum_a FA[a] * T(e + d) * (sum_b R[a, col, b] * FB[b])

Blocks sharing their contracted side (all a-parts of one degree e, or all b-parts of
one degree d) are stacked into one product (a *group*): a few well-shaped products per
batch, and only about min(a-parts, b-parts) integer outputs per block and column.

Exactness. FA and FB are products of falling factorials of counts of values 0-4 and
5-9, so for counts up to 456 every one (and every partial product) is an integer below
2**53: the tables are exact in float64. A product matrix @ FA sums integers; before each
batch a bound on its terms (from the tables' largest values) is checked below 2**52, and
where it is not the values are cut into limbs small enough that it is. For larger
counts the tables are computed modulo 2**64 in uint64 and always cut into limbs. The
rest is int64 arithmetic modulo 2**64 (numpy integer arithmetic wraps), exact modulo
2**64; the true results are known a priori to lie within +-2**63 (the caller's `bound`),
so the int64 values are the results themselves. Batches beyond that are refused (None)
and the caller takes its exact integer path.
"""

from __future__ import annotations

import numpy as np

from analyzer.cards import RANK_POINTS, ZERO_RANKS

__all__ = ["MonomialForm"]

_SIX = 6
_J = _SIX + 1  # falling-factorial orders 0..6
_RANK_VALUE = np.zeros((13, 10), dtype=np.int64)
_RANK_VALUE[np.arange(13), RANK_POINTS] = 1
_INT_LIMIT = 2**63
_SAFE_MAGIC = 2.0**50  # a float sum of nonnegative terms computed below this is below 2**51
_MAGIC = 1.5 * 2.0**52
_MAGIC_BITS = np.array([_MAGIC]).view(np.uint64)[0]
#: Largest count whose sixth power, a bound on every factor product, is below 2**53.
FLOAT_COUNTS = max(c for c in range(1, 1000) if c**_SIX < 2**53)
_ZERO_ROWS = 3 * _J  # flat factor table: pair-kind rows (z, j), then value rows (v, j)


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


class _Group:
    """Blocks sharing their contracted side: the parts `inputs` (a slice of one side's
    table, all of one degree, followed by a unit part) against the other side's parts
    `outputs`, each with the tail degree `tail_degree`; `dense` is (outputs, cols,
    inputs) int64."""

    def __init__(
        self, inputs: slice, outputs: np.ndarray, tail_degree: np.ndarray, dense: np.ndarray
    ) -> None:
        self.inputs, self.outputs, self.tail_degree = inputs, outputs, tail_degree
        self.columns = dense.shape[1]
        layout = dense.reshape(-1, dense.shape[2])
        self.matrix = np.ascontiguousarray(layout, dtype=np.float64)
        # The magic column times the unit part adds 1.5 * 2**52 to every sum below 2**51 in
        # magnitude: the float64 sum's bits, read as int64, are then _MAGIC_BITS + the sum.
        self.magic_matrix = np.hstack([self.matrix, np.full((len(layout), 1), _MAGIC)])
        self.magnitude = np.abs(self.matrix)
        row_sum = int(np.abs(layout).sum(axis=1).max(initial=1))
        # Limb width: a row of the matrix times a limb sums below 2**52.
        self.limb_bits = 52 - row_sum.bit_length()
        if self.limb_bits < 8:
            raise ValueError("coefficients too large for exact float64 limbs")
        self._work = _Workspace()

    def contract(self, values: np.ndarray, largest: np.ndarray | None, other: np.ndarray,
                 tails: np.ndarray) -> np.ndarray:  # fmt: skip
        """(cols, W) uint64: the group's sum modulo 2**64. `values`: the contracted side's
        table, float64 exact (with `largest`, a bound on each row) or uint64 modulo 2**64
        (`largest` None); `other`: the other side's table, float64 exact or uint64."""
        work = self._work
        rows, width = self.matrix.shape[0], values.shape[1]
        start, stop = self.inputs.start, self.inputs.stop
        factor = work.get("factor", (len(self.outputs), width))
        if other.dtype == np.float64:  # exact integers
            taken = work.get("taken", factor.shape, np.float64)
            np.take(other, self.outputs, axis=0, out=taken, mode="clip")
            np.copyto(factor.view(np.int64), taken, casting="unsafe")
        else:
            np.take(other, self.outputs, axis=0, out=factor, mode="clip")
        tail = np.take(tails, self.tail_degree, axis=0, out=work.get("tail", factor.shape), mode="clip")
        np.multiply(factor, tail, out=factor)
        offset = None
        if largest is not None and float((self.magnitude @ largest[start:stop]).max(initial=0)) < _SAFE_MAGIC:
            product = work.get("product", (rows, width), np.float64)
            np.matmul(self.magic_matrix, values[start : stop + 1], out=product)  # + the unit part
            total = product.view(np.uint64)  # _MAGIC_BITS + each sum, modulo 2**64
            offset = factor.sum(axis=0) * _MAGIC_BITS
        else:
            top = 64 if largest is None else int(largest[start:stop].max(initial=1)).bit_length()
            total = self._limbs(values[start:stop], top)
        result = np.einsum("rw,rcw->cw", factor, total.reshape(len(self.outputs), self.columns, width))
        if offset is not None:
            result -= offset
        return np.asarray(result)

    def _limbs(self, values: np.ndarray, top: int) -> np.ndarray:
        """matrix @ values modulo 2**64 (uint64), exact: `values` (exact float64 or uint64,
        below 2**top) is cut into limbs of `limb_bits` bits, each product summing integers
        below 2**52."""
        work = self._work
        bits, width = self.limb_bits, values.shape[1]
        shape = (self.matrix.shape[0], width)
        product = work.get("product", shape, np.float64)
        part, total = work.get("part", shape), work.get("total", shape)
        limb = work.get("limb", values.shape, np.float64)
        if values.dtype == np.float64:
            rest, high = (
                work.get("rest", values.shape, np.float64),
                work.get("high", values.shape, np.float64),
            )
            np.copyto(rest, values)
        else:
            shifted = work.get("shifted", values.shape)
        for shift in range(0, max(top, 1), bits):
            if values.dtype == np.float64:  # exact: powers of two and integers below 2**53
                np.multiply(rest, 2.0**-bits, out=high)
                np.floor(high, out=high)
                np.multiply(high, -(2.0**bits), out=limb)
                np.add(limb, rest, out=limb)
                rest, high = high, rest
            else:
                np.right_shift(values, np.uint64(shift), out=shifted)
                np.bitwise_and(shifted, np.uint64((1 << bits) - 1), out=shifted)
                np.copyto(limb, shifted, casting="unsafe")
            np.matmul(self.matrix, limb, out=product)
            np.copyto(part.view(np.int64), product, casting="unsafe")  # exact integers
            if shift == 0:
                total, part = part, total
            else:
                np.left_shift(part, np.uint64(shift), out=part)
                total += part
        return total


class _Products:
    """Products of factor-table rows for many parts (`flat`: one array of table rows per
    factor) as a two-level tree: each part is a left partial product (its first factors)
    times a right one (the rest), each computed once for all the parts sharing it; the
    split is the one with the fewest operations."""

    def __init__(self, name: str, flat: list[np.ndarray]) -> None:
        self.name = name
        keys = np.column_stack(flat)
        best: tuple[int, list[np.ndarray]] | None = None
        for split in range(1, keys.shape[1]):
            left, left_index = np.unique(keys[:, :split], axis=0, return_inverse=True)
            right, right_index = np.unique(keys[:, split:], axis=0, return_inverse=True)
            cost = len(left) * (2 * split - 1) + len(right) * (2 * (keys.shape[1] - split) - 1)
            if best is None or cost < best[0]:
                best = (cost, [left, left_index.ravel(), right, right_index.ravel()])
        assert best is not None
        self.left, self.left_index, self.right, self.right_index = best[1]

    def evaluate(self, table: np.ndarray, work: _Workspace) -> np.ndarray:
        """(parts, W) products of `table`'s rows, in its dtype (uint64 modulo 2**64, or
        float64, exact when every partial product is an integer below 2**53)."""
        width, dtype = table.shape[1], table.dtype.type
        halves = []
        for side, rows in (("left", self.left), ("right", self.right)):
            half = work.get(f"{self.name}-{side}", (len(rows), width), dtype)
            factor = work.get(f"{self.name}-{side}-factor", half.shape, dtype)
            np.take(table, rows[:, 0], axis=0, out=half, mode="clip")
            for column in range(1, rows.shape[1]):
                np.multiply(half, np.take(table, rows[:, column], axis=0, out=factor, mode="clip"), out=half)
            halves.append(half)
        product = work.get(self.name, (len(self.left_index), width), dtype)
        factor = work.get(f"{self.name}-factor", product.shape, dtype)
        np.take(halves[0], self.left_index, axis=0, out=product, mode="clip")
        np.multiply(
            product, np.take(halves[1], self.right_index, axis=0, out=factor, mode="clip"), out=product
        )
        return product


def _parts(keys: np.ndarray, degree: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of `keys` ordered by degree (`degree` of each key row), the index of
    each key row's part, and each part's degree. Each degree's parts are followed by a
    *unit* part (all-zero key, value 1, degree -1) that the magic column multiplies."""
    parts, index = np.unique(keys, axis=0, return_inverse=True)
    part_degree = np.zeros(len(parts), dtype=np.int64)
    part_degree[index.ravel()] = degree
    order = np.argsort(part_degree, kind="stable")
    stops = np.flatnonzero(np.diff(part_degree[order], append=_SIX + 1)) + 1  # ends of degrees
    order = np.insert(order, stops, -1)  # -1: a unit part
    rank = np.empty(len(parts), dtype=np.int64)
    rank[order[order >= 0]] = np.flatnonzero(order >= 0)
    laid = np.where((order >= 0)[:, None], parts[order], 0)
    return laid, rank[index.ravel()], np.where(order >= 0, part_degree[order], -1)


class MonomialForm:
    """The integer combinations `coefficients` (B, cols) of the monomials `basis` (B, 10)
    with pair kinds `zero_kind` (B,), laid out for batch evaluation."""

    def __init__(self, basis: np.ndarray, zero_kind: np.ndarray, coefficients: np.ndarray) -> None:
        coefficients = np.asarray(coefficients, dtype=np.int64)
        self.columns = coefficients.shape[1]
        a_parts, a_index, a_degree = _parts(
            np.column_stack([zero_kind, basis[:, :5]]), basis[:, :5].sum(axis=1)
        )
        b_parts, b_index, b_degree = _parts(basis[:, 5:], basis[:, 5:].sum(axis=1))
        self.a_parts, self.b_parts = a_parts, b_parts
        # Rows of the flat factor table (pair kinds, then values 0-9) of each part's factors.
        self._a_flat = [a_parts[:, 0] * _J + a_parts[:, 1]]
        self._a_flat += [_ZERO_ROWS + v * _J + a_parts[:, v + 1] for v in range(1, 5)]
        self._b_flat = [_ZERO_ROWS + v * _J + b_parts[:, v - 5] for v in range(5, 10)]
        self._fa, self._fb = _Products("fa", self._a_flat), _Products("fb", self._b_flat)
        self._work = _Workspace()
        # Each (e, d) block goes to the group of its larger side.
        e, d = a_degree[a_index], b_degree[b_index]
        over_a = np.zeros(len(basis), dtype=bool)
        for pair in set(zip(e.tolist(), d.tolist(), strict=True)):
            here = (e == pair[0]) & (d == pair[1])
            over_a[here] = len(np.unique(b_index[here])) <= len(np.unique(a_index[here]))
        self.groups: list[tuple[bool, _Group]] = []
        for side_a, part_index, part_degree, out_index, out_degree in (
            (True, a_index, a_degree, b_index, b_degree),
            (False, b_index, b_degree, a_index, a_degree),
        ):
            chosen = over_a if side_a else ~over_a
            for degree in np.unique(part_degree[part_index[chosen]]).tolist():
                here = np.flatnonzero(chosen & (part_degree[part_index] == degree))
                inputs = np.flatnonzero(part_degree == degree)  # then a unit part
                span = slice(int(inputs[0]), int(inputs[-1]) + 1)
                outputs, out_row = np.unique(out_index[here], return_inverse=True)
                dense = np.zeros((len(outputs), self.columns, span.stop - span.start), dtype=np.int64)
                cells = (out_row.ravel(), part_index[here] - span.start)
                for col in range(self.columns):
                    np.add.at(dense[:, col, :], cells, coefficients[here, col])
                group = _Group(span, outputs, out_degree[outputs] + degree, dense)
                self.groups.append((side_a, group))

    def evaluate(self, counts: np.ndarray, bound: int) -> np.ndarray | None:
        """(W, cols) int64 results for (W, 13) rank counts, exact when every true result is
        within +-`bound` < 2**63; None when it is not."""
        if bound >= _INT_LIMIT:
            return None
        width = len(counts)
        c = (counts @ _RANK_VALUE).T.astype(np.uint64)  # (10, W) cards of each value
        exact_float = int(c.max(initial=0)) <= FLOAT_COUNTS
        work = self._work
        table = work.get("table", (_ZERO_ROWS + 10 * _J, width))  # flat factor table, uint64
        zero, ff = table[:_ZERO_ROWS].reshape(3, _J, width), table[_ZERO_ROWS:].reshape(10, _J, width)
        ff[:, 0] = 1
        for j in range(1, _J):
            ff[:, j] = ff[:, j - 1] * (c - np.uint64(j - 1))  # a zero factor stays zero
        tens = counts[:, list(ZERO_RANKS)].astype(np.uint64)
        one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
        pairs = tens * (tens - one)
        s2 = pairs.sum(axis=1)
        q = s2 * s2 - (pairs * pairs).sum(axis=1) + (pairs * (tens - two) * (tens - three)).sum(axis=1)
        zero[1:] = 0
        zero[0] = ff[0]
        for kind, (scale, used) in enumerate(((s2, 2), (q, 4)), start=1):
            run = scale.copy()
            for j in range(used, _J):
                zero[kind, j] = run
                run = run * (c[0] - np.uint64(j))
        n = counts.sum(axis=1).astype(np.uint64)
        tails = np.ones((_J, width), dtype=np.uint64)  # tails[k] = (N-k)_(6-k)
        for k in range(_SIX - 1, -1, -1):
            tails[k] = tails[k + 1] * (n - np.uint64(k))
        largest: tuple[np.ndarray, np.ndarray] | tuple[None, None] = (None, None)
        if exact_float:  # every factor product below 2**53: exact float64 tables
            flat_max = table.max(axis=1).astype(np.float64)
            largest = tuple(
                np.prod([flat_max[rows] for rows in flat], axis=0) for flat in (self._a_flat, self._b_flat)
            )
            exact = work.get("table-float", table.shape, np.float64)
            np.copyto(exact, table, casting="unsafe")
            table = exact
        fa, fb = self._fa.evaluate(table, work), self._fb.evaluate(table, work)
        result = np.zeros((self.columns, width), dtype=np.uint64)
        for side_a, group in self.groups:
            values, other = (fa, fb) if side_a else (fb, fa)
            result += group.contract(values, largest[0 if side_a else 1], other, tails)
        return np.ascontiguousarray(result.T).view(np.int64)
