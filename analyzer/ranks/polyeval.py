"""Exact batch evaluation of integer combinations of the coup-class monomials.

Given an integer matrix C (monomials x columns), `MonomialForm.evaluate` computes, for
a batch of compositions, E[w, col] = sum_m C[m, col] * value_m(w) exactly, where
value_m is the monomial's product of falling factorials (see analyzer.ranks.enumeration).

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
batch, and only about min(a-parts, b-parts) integer outputs per block and column. Each
side's parts are laid out as grids of left x right half-products (one broadcast product
per grid), each group's inputs computed just before its product. When every group's product
is exact through the magic column (below; 8-deck shoes), the products share one array and
one integer contraction applies every output's factor at once.

Exactness. FA and FB are products of falling factorials of counts of values 0-4 and
5-9, so for counts up to 456 every one (and every partial product) is an integer below
2**53: the tables are exact in float64. A product matrix @ FA sums integers; a bound on
its terms (from the tables' largest values) is checked below 2**50, and then a magic
column (1.5 * 2**52 times a unit part) makes every float64 sum's bits, read as int64, the
sum plus a known constant; where the bound fails the values are cut into limbs small
enough that each product is exact. The rest is int64 arithmetic modulo 2**64 (numpy
integer arithmetic wraps), exact modulo 2**64; when the true results are known a priori
to lie within +-2**63 (the caller's `bound`), the int64 values are the results themselves.

Larger counts (above FLOAT_COUNTS of a value) take one pass, `_wide`, that also gives
float64 estimates of the results with rigorous bounds on their errors (`evaluate_wide`):
bounds on every part and every intermediate value ("ceilings", from the batch's largest
counts) tell which parts are exact floats. Each group then goes through the magic column
when its inputs are exact and its sums small; else its float product P~ (error bounded
per row) and one exact low limb L = matrix @ (v - 2**b * h) give the product as
L + 2**b * rint((P~ - L) / 2**b) when the error is below 2**(b-3); else every limb of the
uint64 residues. The estimates pin results beyond 2**63 by their residues when within
2**61; farther off, `evaluate_modular` gives the results modulo small odd moduli too, exact
in float64 (see analyzer.ranks.fast).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from analyzer.core.ranks import RANK_POINTS, ZERO_RANKS

__all__ = ["MODULI", "MonomialForm"]

_SIX = 6
_J = _SIX + 1  # falling-factorial orders 0..6
_VALUE_RANK = [RANK_POINTS.index(v) for v in range(1, 10)]  # the one rank of each value 1-9
_INT_LIMIT = 2**63
_EXACT = 2.0**53  # float64 integers are exact below this
_PIN_ROOM = 2.0**-3  # a product pinned by one limb of b bits: its estimate within 2**(b-3)
_SAFE_MAGIC = 2.0**50  # a float sum of nonnegative terms computed below this is below 2**51
_MAGIC = 1.5 * 2.0**52
_ROUNDED = 1 + 2.0**-40  # a float bound raised past the rounding of its own computation
_STEPS = 256  # rounding steps of the factor tables and products, with room to spare
_MAGIC_BITS = np.array([_MAGIC]).view(np.uint64)[0]
#: Largest count whose sixth power, a bound on every factor product, is below 2**53.
FLOAT_COUNTS = max(c for c in range(1, 1000) if c**_SIX < 2**53)
_ZERO_ROWS = 3 * _J  # flat factor table: pair-kind rows (z, j), then value rows (v, j)
#: Odd moduli, pairwise coprime, below 128 (`evaluate_modular`): their product is below 2**63.
MODULI = (127, 113, 109, 107, 103, 101, 97, 89, 83)
_MODULI_PER_PASS = 2  # moduli side by side in one pass: work arrays of 2 W columns


class _Workspace:
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


class _Group:
    """Blocks sharing their contracted side: the parts `inputs` (a slice of one side's
    table, all of one degree, followed by a unit part) against the other side's parts
    `outputs`, each with the tail degree `tail_degree`; `dense` is (outputs, cols,
    inputs) int64."""

    def __init__(
        self, inputs: slice, outputs: np.ndarray, tail_degree: np.ndarray, dense: np.ndarray
    ) -> None:
        self.inputs, self.outputs, self.tail_degree = inputs, outputs, tail_degree
        self.degree = 0  # of the contracted parts
        self.columns = dense.shape[1]
        layout = dense.reshape(-1, dense.shape[2])
        self.matrix = np.ascontiguousarray(layout, dtype=np.float64)
        # The magic column times the unit part adds 1.5 * 2**52 to every sum below 2**51 in
        # magnitude: the float64 sum's bits, read as int64, are then _MAGIC_BITS + the sum.
        self.magic_matrix = np.hstack([self.matrix, np.full((len(layout), 1), _MAGIC)])
        self.abs_matrix = np.abs(self.matrix)  # for bounds
        row_sum = int(np.abs(layout).sum(axis=1).max(initial=1))
        # Limb width: a row of the matrix times a limb sums below 2**52.
        self.limb_bits = 52 - row_sum.bit_length()
        if self.limb_bits < 8:
            raise ValueError("coefficients too large for exact float64 limbs")
        self._work = _Workspace()

    def fits(self, largest: np.ndarray) -> bool:
        """Whether one float64 product through the magic column is exact for inputs whose
        rows are at most `largest` (the contracted side's bound on each part)."""
        return float((self.abs_matrix @ largest[self.inputs]).max(initial=0)) < _SAFE_MAGIC

    def contract(self, values: np.ndarray, factor: np.ndarray, magic: bool, top: int) -> np.ndarray:
        """(cols, W) uint64: the group's sum modulo 2**64. `values`: the inputs' rows and a
        unit part, float64 exact or uint64 modulo 2**64, below 2**`top`; `magic`: one
        product through the magic column is exact (see `fits`), else limbs; `factor`:
        (outputs, W) uint64, each output's other-side part times its tail."""
        work = self._work
        rows, width = self.matrix.shape[0], values.shape[1]
        offset = None
        if magic:
            product = work.get("product", (rows, width), np.float64)
            np.matmul(self.magic_matrix, values, out=product)  # + the unit part
            total = product.view(np.uint64)  # _MAGIC_BITS + each sum, modulo 2**64
            offset = factor.sum(axis=0) * _MAGIC_BITS
        else:
            total = self._limbs(values[:-1], top)
        result = np.einsum("rw,rcw->cw", factor, total.reshape(len(self.outputs), self.columns, width))
        if offset is not None:
            result -= offset
        return np.asarray(result)

    def pinned(self, values: np.ndarray, estimate: np.ndarray, error: float, out: np.ndarray) -> None:
        """`out` (uint64) = matrix @ v modulo 2**64 for nonnegative integer inputs v given by
        `values` (their residues in uint64, or exact float64) and by `estimate`, float64
        values within `error` of the true products. With b' = `limb_bits` (floats) or one
        less (residues), one limb gives L = matrix @ r exactly for r = v - 2**b' * h (h
        integers, |L| < 2**51), so the product is L + 2**b' * K for the integer K nearest
        to (estimate - L) / 2**b' when `error` < 2**(b-3), b = `limb_bits` (the rounding of
        the difference adds at most 2**(b'-10)). Else every limb of the residues."""
        if error < _PIN_ROOM * 2.0**self.limb_bits:
            self._low_limb(values, estimate, out)
        else:
            np.copyto(out, self._limbs(values, 64))

    def _low_limb(self, values: np.ndarray, estimate: np.ndarray, out: np.ndarray) -> None:
        """`pinned` with one limb, in fewer passes, for an `error` below 2**(b-3): the limb
        is v mod 2**(b-1) (uint64 residues), or v minus v rounded to a multiple of 2**b
        (exact floats: by adding and subtracting 1.5 * 2**(52+b); at most 2**(b-1) in
        magnitude), so that L stays below 2**51 in magnitude; integers below 2**51 are read
        from float64 bits through the magic constant instead of by conversion."""
        work, bits = self._work, self.limb_bits
        limb = work.get("limb", values.shape, np.float64)
        if values.dtype == np.float64:  # exact integers below 2**53
            round_off = 1.5 * 2.0 ** (52 + bits)
            np.add(values, round_off, out=limb)
            np.subtract(limb, round_off, out=limb)  # v rounded to a multiple of 2**b
            np.subtract(values, limb, out=limb)
        else:
            bits -= 1
            low = work.get("rest", values.shape)
            np.bitwise_and(values, np.uint64((1 << bits) - 1), out=low)
            np.copyto(limb, low.view(np.int64), casting="unsafe")
        product = work.get("product", estimate.shape, np.float64)
        np.matmul(self.matrix, limb, out=product)  # L, exact: below 2**51 in magnitude
        turns = work.get("turns", estimate.shape, np.float64)
        np.subtract(estimate, product, out=turns)
        np.multiply(turns, 2.0**-bits, out=turns)
        np.add(turns, _MAGIC, out=turns)  # rounded to the integer (P - L) / 2**b, + _MAGIC
        np.add(product, _MAGIC, out=product)
        np.left_shift(turns.view(np.uint64), np.uint64(bits), out=out)
        out += product.view(np.uint64)
        out -= (_MAGIC_BITS << np.uint64(bits)) + _MAGIC_BITS

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
        buffers = (
            work.get("rest", values.shape, values.dtype.type),
            work.get("high", values.shape, values.dtype.type),
        )
        rest = values
        mask = np.uint64((1 << bits) - 1)
        for index, shift in enumerate(range(0, max(top, 1), bits)):
            if values.dtype == np.float64:  # exact: powers of two and integers below 2**53
                high = buffers[index % 2]
                np.multiply(rest, 2.0**-bits, out=high)
                np.floor(high, out=high)
                np.multiply(high, -(2.0**bits), out=limb)
                np.add(limb, rest, out=limb)
                rest = high
            else:
                shifted = buffers[0]
                if shift:
                    np.right_shift(values, np.uint64(shift), out=shifted)
                    np.bitwise_and(shifted, mask, out=shifted)
                else:
                    np.bitwise_and(values, mask, out=shifted)
                np.copyto(limb, shifted.view(np.int64), casting="unsafe")  # below 2**63
            np.matmul(self.matrix, limb, out=product)
            np.copyto(part.view(np.int64), product, casting="unsafe")  # exact integers
            if shift == 0:
                total, part = part, total
            else:
                np.left_shift(part, np.uint64(shift), out=part)
                total += part
        return total


class _Side:
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
        self, table: np.ndarray, work: _Workspace, degrees: Collection[int] | None = None
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

    def fill(self, work: _Workspace, degrees: Collection[int] | None = None) -> None:
        """Compute the parts of `degrees` (all: None) from the halves `evaluate` computed:
        just before a product reads them, they are still in cache."""
        for degree, (left, right, block) in zip(self.grid_degree, work.views[self.name][3], strict=True):
            if degrees is None or degree in degrees:
                np.multiply(left, right, out=block)

    def hot(self, work: _Workspace, degree: int) -> np.ndarray:
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


def _value_counts(counts: np.ndarray) -> np.ndarray:
    """(10, W) cards of each point value in (W, 13) rank counts."""
    values = np.empty((10, len(counts)), dtype=np.int64)
    values[0] = counts[:, list(ZERO_RANKS)].sum(axis=1)
    values[1:] = counts[:, _VALUE_RANK].T
    return values


class MonomialForm:
    """The integer combinations `coefficients` (B, cols) of the monomials `basis` (B, 10)
    with pair kinds `zero_kind` (B,), laid out for batch evaluation."""

    def __init__(self, basis: np.ndarray, zero_kind: np.ndarray, coefficients: np.ndarray) -> None:
        coefficients = np.asarray(coefficients, dtype=np.int64)
        self.columns = coefficients.shape[1]
        # Each factor's row of the flat factor table (pair kinds, then values 0-9), and the
        # cards it stands for.
        a_keys = np.column_stack(
            [zero_kind * _J + basis[:, 0]] + [_ZERO_ROWS + v * _J + basis[:, v] for v in range(1, 5)]
        )
        b_keys = np.column_stack([_ZERO_ROWS + v * _J + basis[:, v] for v in range(5, 10)])
        ones = _ZERO_ROWS + np.arange(10) * _J  # rows (v, 0): value 1
        self._fa = _Side("fa", a_keys, basis[:, :5], 2, np.concatenate([[0], ones[1:5]]))
        self._fb = _Side("fb", b_keys, basis[:, 5:], 2, ones[5:])
        a_index, a_degree = self._fa.index, self._fa.degree
        b_index, b_degree = self._fb.index, self._fb.degree
        self._work, self._approx_work, self._modular_work = _Workspace(), _Workspace(), _Workspace()
        self._safe_max: np.ndarray | None = None  # factor-table maxima all groups take whole
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
                span = (self._fa if side_a else self._fb).spans[degree]  # then a unit part
                outputs, out_row = np.unique(out_index[here], return_inverse=True)
                dense = np.zeros((len(outputs), self.columns, span.stop - span.start), dtype=np.int64)
                cells = (out_row.ravel(), part_index[here] - span.start)
                for col in range(self.columns):
                    np.add.at(dense[:, col, :], cells, coefficients[here, col])
                group = _Group(span, outputs, out_degree[outputs] + degree, dense)
                group.degree = degree
                self.groups.append((side_a, group))
        # Every group's outputs in one array, the groups over the a-parts first.
        sizes = [len(group.outputs) for _, group in self.groups]
        stops = np.cumsum(sizes).tolist()
        self._group_rows = list(zip([0, *stops[:-1]], stops, strict=True))
        none = [np.zeros(0, dtype=np.int64)]
        self._outputs = np.concatenate([group.outputs for _, group in self.groups] or none)
        self._output_tails = np.concatenate([group.tail_degree for _, group in self.groups] or none)
        split = sum(size for (side_a, _), size in zip(self.groups, sizes, strict=True) if side_a)
        self._over_a, self._over_b = (0, split), (split, len(self._outputs))
        hot = 1 + max(
            (span.stop - span.start for side in (self._fa, self._fb) for span in side.spans.values()),
            default=0,
        )
        self._fa.hot_rows = self._fb.hot_rows = hot
        # the largest row sum of |coefficients| of any group (`evaluate_modular`)
        self._row_sum = max(
            (float(group.abs_matrix.sum(axis=1).max(initial=0)) for _, group in self.groups), default=0.0
        )
        self._early = (  # the degrees of the parts the factors read: a-parts, b-parts
            set(self._fa.degree[self._outputs[split:]].tolist()),
            set(self._fb.degree[self._outputs[:split]].tolist()),
        )

    def evaluate(self, counts: np.ndarray, bound: int) -> np.ndarray | None:
        """(W, cols) int64 results for (W, 13) rank counts, exact when every true result is
        within +-`bound` < 2**63; None when it is not."""
        if bound >= _INT_LIMIT:
            return None
        if int(_value_counts(counts).max(initial=0)) > FLOAT_COUNTS:  # tables beyond 2**53
            return self._wide(counts)[0]
        return self._wrapped(counts)

    def evaluate_wide(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For results of any size: (W, cols) the results modulo 2**64 (int64, wrapping),
        (W, cols) float64 approximations of them, and (cols,) bounds on the approximations'
        absolute errors. A result is pinned by its residue once its bound is below 2**61
        (room for the rounding of the estimate minus the residue, up to about 2**60 for
        results near 2**63)."""
        return self._wide(counts)

    def _tables(self, counts: np.ndarray, work: _Workspace, dtype: type) -> tuple[np.ndarray, np.ndarray]:
        """The flat factor table (pair kinds (z, j), then values (v, j)) and the tails
        T[k] = (N-k)_(6-k), (rows, W) each: uint64 modulo 2**64, or float64 (exact below
        2**53, else rounded)."""
        width = len(counts)
        c: np.ndarray = _value_counts(counts).astype(dtype)  # (10, W) cards of each value
        table = work.get("table", (_ZERO_ROWS + 10 * _J, width), dtype)
        zero, ff = table[:_ZERO_ROWS].reshape(3, _J, width), table[_ZERO_ROWS:].reshape(10, _J, width)
        ff[:, 0] = 1
        for j in range(1, _J):
            ff[:, j] = ff[:, j - 1] * (c - dtype(j - 1))  # a zero factor stays zero
        tens: np.ndarray = counts[:, list(ZERO_RANKS)].astype(dtype)
        pairs = tens * (tens - dtype(1))
        s2 = pairs.sum(axis=1)
        q = (
            s2 * s2
            - (pairs * pairs).sum(axis=1)
            + (pairs * (tens - dtype(2)) * (tens - dtype(3))).sum(axis=1)
        )
        zero[1:] = 0
        zero[0] = ff[0]
        for kind, (scale, used) in enumerate(((s2, 2), (q, 4)), start=1):
            run = scale.copy()
            for j in range(used, _J):
                zero[kind, j] = run
                run = run * (c[0] - dtype(j))
        return table, self._tails(counts, work, dtype)

    def _wrapped(self, counts: np.ndarray) -> np.ndarray:
        """(W, cols) int64: the results modulo 2**64, for counts up to FLOAT_COUNTS of each
        value (larger ones take `_wide`): every factor product is below 2**53, so the
        tables are exact in float64 and each group takes the magic column or limbs."""
        width = len(counts)
        work = self._work
        table, tails = self._tables(counts, work, np.uint64)
        magic, tops = [False] * len(self.groups), [64] * len(self.groups)
        flat_max = table.max(axis=1).astype(np.float64)  # each row bounded
        if self._safe_max is not None and (flat_max <= self._safe_max).all():
            magic = [True] * len(self.groups)  # the bounds only grow with flat_max
        else:
            largest = [np.prod(flat_max[side.factor_rows], axis=1) for side in (self._fa, self._fb)]
            for i, (side_a, group) in enumerate(self.groups):
                bound = largest[0 if side_a else 1]
                magic[i] = group.fits(bound)
                tops[i] = int(bound[group.inputs].max(initial=1)).bit_length()
            self._safe_max = flat_max if all(magic) else self._safe_max
        exact = work.get("table-float", table.shape, np.float64)
        np.copyto(exact, table, casting="unsafe")
        # The parts the factors need first; each group's own inputs just before its product.
        fa, fb = (
            self._fa.evaluate(exact, work, self._early[0]),
            self._fb.evaluate(exact, work, self._early[1]),
        )
        factors = self._factors(fa, fb, tails, work, np.uint64)
        if all(magic):
            return self._magic_sum(fa, fb, factors, work)
        result = np.zeros((self.columns, width), dtype=np.uint64)
        for i, ((side_a, group), (first, stop)) in enumerate(zip(self.groups, self._group_rows, strict=True)):
            values = self._inputs(side_a, group, fa, fb, work)
            result += group.contract(values, factors[first:stop], magic[i], tops[i])
        return np.ascontiguousarray(result.T).view(np.int64)

    def _inputs(
        self, side_a: bool, group: _Group, fa: np.ndarray, fb: np.ndarray, work: _Workspace
    ) -> np.ndarray:
        """The group's contracted parts then a unit part, (inputs + 1, W)."""
        side, early, parts = (self._fa, self._early[0], fa) if side_a else (self._fb, self._early[1], fb)
        if group.degree in early:
            return parts[group.inputs.start : group.inputs.stop + 1]  # then its unit part
        return side.hot(work, group.degree)

    def _magic_sum(self, fa: np.ndarray, fb: np.ndarray, factors: np.ndarray, work: _Workspace) -> np.ndarray:
        """(W, cols) int64 results modulo 2**64 when every group's product is exact through
        the magic column (see `_Group.fits`): every group's product into one array, then one
        integer contraction with every output's factor (`factors`, from `_factors`) and one
        correction for the magic constants, instead of one of each per group."""
        width = fa.shape[1]
        products = work.get("products", (len(self._outputs) * self.columns, width), np.float64)
        for (side_a, group), (first, stop) in zip(self.groups, self._group_rows, strict=True):
            rows = slice(first * self.columns, stop * self.columns)
            np.matmul(group.magic_matrix, self._inputs(side_a, group, fa, fb, work), out=products[rows])
        # Each product row's bits read as uint64 are _MAGIC_BITS + its exact sum (modulo 2**64).
        total = products.view(np.uint64).reshape(len(self._outputs), self.columns, width)
        result = np.einsum("rw,rcw->wc", factors, total)
        result -= (factors.sum(axis=0) * _MAGIC_BITS)[:, None]
        return np.ascontiguousarray(result).view(np.int64)

    def _factors(self, fa: np.ndarray, fb: np.ndarray, tails: np.ndarray, work: _Workspace,
                 dtype: type) -> np.ndarray:  # fmt: skip
        """(outputs, W) every group's outputs' factors, their parts times their tails (uint64
        modulo 2**64, from exact float64 or uint64 tables; or float64), gathered at once;
        group i's are rows `_group_rows[i]`."""
        width = fa.shape[1]
        factors = work.get("factors", (len(self._outputs), width), dtype)
        for part, (first, stop) in ((fb, self._over_a), (fa, self._over_b)):  # the other side's parts
            rows = self._outputs[first:stop]
            if part.dtype == dtype:
                np.take(part, rows, axis=0, out=factors[first:stop], mode="clip")
            else:  # exact float64 integers
                taken = np.take(
                    part,
                    rows,
                    axis=0,
                    out=work.get(f"taken-{first}", (stop - first, width), part.dtype.type),
                    mode="clip",
                )
                np.copyto(factors[first:stop].view(np.int64), taken, casting="unsafe")
        tail = np.take(
            tails, self._output_tails, axis=0, out=work.get("tail", factors.shape, dtype), mode="clip"
        )
        np.multiply(factors, tail, out=factors)
        return factors

    def _ceilings(self, float_table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(a-parts,) and (b-parts,) float64 bounds, valid for every row of `counts`, on each
        part's true value and on every intermediate value computed on the way to it (table
        entries and partial products): a factor table row (v, j) is at most c_v**j for the
        batch's largest count c_v of value v (at least 1; read from `float_table`), a pair-kind
        row at most 2 * c_0**j (q and its intermediates are at most 2 * c_0**4). A part below
        2**53 is exact in the float64 tables; elsewhere its rounding error is a few units of
        2**-53 of this bound."""
        counts = float_table[_ZERO_ROWS + 1 :: _J]  # rows (v, 1): the counts, exact
        top = np.maximum(counts.max(axis=1), 1.0)
        power = top[:, None] ** np.arange(_J)  # (10, J)
        rows = np.empty(_ZERO_ROWS + 10 * _J)
        rows[:_ZERO_ROWS] = np.concatenate([power[0], power[0], 2 * power[0]])
        rows[_ZERO_ROWS:] = power.ravel()
        return (
            np.prod(rows[self._fa.factor_rows], axis=1) * _ROUNDED,
            np.prod(rows[self._fb.factor_rows], axis=1) * _ROUNDED,
        )

    @staticmethod
    def _tails(counts: np.ndarray, work: _Workspace, dtype: type, name: str = "tails") -> np.ndarray:
        """The tails T[k] = (N-k)_(6-k), (J, W) in `dtype` (uint64: modulo 2**64)."""
        n = counts.sum(axis=1).astype(dtype)
        tails = work.get(name, (_J, len(counts)), dtype)
        tails[_SIX] = 1
        for k in range(_SIX - 1, -1, -1):
            np.multiply(tails[k + 1], n - dtype(k), out=tails[k])
        return tails

    def _wide(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`evaluate_wide` in one pass over the groups. Each group's product is computed in
        float64 from the float64 tables (rounded where beyond 2**53) and, modulo 2**64, in
        the first of three ways its bounds allow (on the ceilings, `_ceilings`):

        - exact through the magic column when |matrix| @ ceilings stays below 2**50: its
          inputs are exact floats and its sums exact, the product is its own residue;
        - the float product P~ and one exact low limb, `_Group.pinned`, when P~'s error,
          at most (256 + inputs) * 2**-52 * (|matrix| @ ceilings) per row (the roundings
          of the parts and of the sum), is below 2**(b-3); the low limb is taken from the
          float inputs where exact, else from their residues (uint64 tables, computed
          only then);
        - else every limb of the residues (top 64), as `_wrapped` does.

        The estimates are the float products contracted with float factors; their error
        bound is that of one float64 pass (every operation rounds with relative error at
        most 2**-53, `_STEPS` + the operations on the longest path of them, each relative
        to the same sums of ceilings)."""
        width = len(counts)
        work, float_work = self._work, self._approx_work
        float_table, float_tails = self._tables(counts, float_work, np.float64)
        ceilings = self._ceilings(float_table)
        float_fa = self._fa.evaluate(float_table, float_work, self._early[0])
        float_fb = self._fb.evaluate(float_table, float_work, self._early[1])
        modulo: dict[str, np.ndarray] = {}  # the uint64 tables and parts, computed when needed
        filled: set[str] = set()  # the sides whose early degrees are filled in `modulo`

        def residues(side: _Side, early: bool) -> np.ndarray:
            """The parts of `side` modulo 2**64, its early degrees filled if `early` (the
            others come from `hot`)."""
            if "table" not in modulo:
                modulo["table"], modulo["tails"] = self._tables(counts, work, np.uint64)
            if side.name not in modulo or (early and side.name not in filled):
                degrees = self._early[0 if side is self._fa else 1] if early else ()
                modulo[side.name] = side.evaluate(modulo["table"], work, degrees)
                filled.update([side.name] if early else [])
            return modulo[side.name]

        exact = [ceiling < _EXACT for ceiling in ceilings]  # each a-part, b-part: an exact float
        fa = float_fa if exact[0][self._outputs[self._over_b[0] :]].all() else residues(self._fa, True)
        fb = float_fb if exact[1][self._outputs[: self._over_b[0]]].all() else residues(self._fb, True)
        if "tails" not in modulo:
            modulo["tails"] = self._tails(counts, work, np.uint64, "tails-only")
        factors = self._factors(fa, fb, modulo["tails"], work, np.uint64)
        float_factors = self._factors(float_fa, float_fb, float_tails, float_work, np.float64)
        tail_max = float_tails.max(axis=1) * _ROUNDED
        rows = len(self._outputs) * self.columns
        products = float_work.get("products", (rows, width), np.float64)  # every group's, stacked
        residue = work.get("residues", (rows, width))  # the same modulo 2**64
        absolute = np.zeros(self.columns)
        steps = _STEPS
        for (side_a, group), (first, last) in zip(self.groups, self._group_rows, strict=True):
            which, side = (0, self._fa) if side_a else (1, self._fb)
            start, stop = group.inputs.start, group.inputs.stop
            values = self._inputs(side_a, group, float_fa, float_fb, float_work)
            in_max, out_max = ceilings[which], ceilings[1 - which]
            inner = group.abs_matrix @ in_max[start:stop]  # (rows,) bounds on |P| and its terms
            product = products[first * self.columns : last * self.columns]
            modular = residue[first * self.columns : last * self.columns]
            if float(inner.max(initial=0)) < _SAFE_MAGIC:  # exact inputs, exact sums
                np.matmul(group.magic_matrix, values, out=product)
                np.subtract(product.view(np.uint64), _MAGIC_BITS, out=modular)  # the exact sums
                product -= _MAGIC
            else:
                np.matmul(group.matrix, values[:-1], out=product)
                if not exact[which][start:stop].all():  # the residues of the inputs
                    parts = residues(side, False)
                    if group.degree in self._early[which] and side.name in filled:
                        values = parts[start : stop + 1]
                    else:
                        values = side.hot(work, group.degree)
                error = float(inner.max(initial=0)) * ((_STEPS + stop - start) * 2.0**-52) * _ROUNDED
                group.pinned(values[:-1], product, error, modular)
            factor_max = out_max[group.outputs] * tail_max[group.tail_degree]
            absolute += (inner.reshape(len(group.outputs), group.columns) * factor_max[:, None]).sum(axis=0)
            steps += (stop - start) + len(group.outputs)
        shape = (len(self._outputs), self.columns, width)
        result = np.einsum("rw,rcw->wc", factors, residue.reshape(shape))
        estimate = np.einsum("rw,rcw->wc", float_factors, products.reshape(shape))
        wrapped = np.ascontiguousarray(result).view(np.int64)
        return wrapped, estimate, absolute * (steps * 2.0**-52)

    def evaluate_modular(self, counts: np.ndarray, moduli: Collection[int]) -> np.ndarray | None:
        """(len(moduli), W, cols) int64: the results modulo each of `moduli` (odd, below
        128), for (W, 13) rank counts of any size; None when the coefficients are too large.

        One float64 pass with every modulus side by side (W columns each): the factor tables
        of the counts modulo m are exact integers below m (a falling factorial, q or a tail
        modulo m only needs the counts modulo m; int64 products of at most 6 of them below
        2**63, then reduced), so every part, a product of at most 5 of them, is below
        127**5 < 2**35, and every group's product below 2**53 while the row sums of
        |coefficients| stay below 2**53 / 126**5 (about 2**18). Products and factors are
        then brought below 2**8 in magnitude (x - m * floor(x / m), the floor off by at
        most one), so the final contraction sums integers below 2**53 too."""
        if self._row_sum * 126.0**5 >= _EXACT or not moduli:
            return None
        chosen = list(moduli)
        step = _MODULI_PER_PASS
        return np.concatenate(
            [self._modular(counts, chosen[i : i + step]) for i in range(0, len(chosen), step)]
        )

    def _modular(self, counts: np.ndarray, moduli: list[int]) -> np.ndarray:
        """`evaluate_modular` for a few moduli side by side (work arrays of W columns each)."""
        work, width, k = self._modular_work, len(counts), len(moduli)
        modulus = np.repeat(np.asarray(list(moduli), dtype=np.int64), width)  # (k * W,)
        table, _ = self._tables(np.tile(counts, (k, 1)) % modulus[:, None], work, np.int64)
        float_table = work.get("float-table", table.shape, np.float64)
        np.copyto(float_table, table % modulus, casting="unsafe")
        size, tail = np.tile(counts.sum(axis=1), k) % modulus, np.ones(k * width, dtype=np.int64)
        float_tails = work.get("float-tails", (_J, k * width), np.float64)
        float_tails[_SIX] = 1
        for j in range(_SIX - 1, -1, -1):  # reduced at every step (the table's tails may not be)
            tail = tail * (size - j) % modulus
            float_tails[j] = tail
        fa, fb = self._fa.evaluate(float_table, work), self._fb.evaluate(float_table, work)
        factors = self._factors(fa, fb, float_tails, work, np.float64)
        products = work.get("products", (len(self._outputs) * self.columns, k * width), np.float64)
        for (side_a, group), (first, last) in zip(self.groups, self._group_rows, strict=True):
            parts = fa if side_a else fb
            rows = slice(first * self.columns, last * self.columns)
            np.matmul(group.matrix, parts[group.inputs], out=products[rows])
        scale, inverse = modulus.astype(np.float64), 1.0 / modulus
        for values in (factors, products):  # x - m * floor(x / m): below 2**8 in magnitude
            quotient = work.get(f"quotient-{values.shape[0]}", values.shape, np.float64)
            np.multiply(values, inverse, out=quotient)
            np.floor(quotient, out=quotient)
            np.multiply(quotient, scale, out=quotient)
            values -= quotient
        shape = (len(self._outputs), self.columns, k * width)
        result = np.einsum("rw,rcw->cw", factors, products.reshape(shape)).astype(np.int64) % modulus
        return np.ascontiguousarray(result.reshape(self.columns, k, width).transpose(1, 2, 0))
